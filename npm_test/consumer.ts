// Type-checked by scripts/npm_check.ts with tsc (moduleResolution nodenext and bundler) in a
// project that installed the packed package: the declarations resolve through `exports`,
// and what the mock gives fits the real SDK's types.
import { type Options, query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import * as sdk from "@anthropic-ai/claude-agent-sdk";
import {
  type ClaudeMock,
  configureInterception,
  HookRecorder,
  loadScenario,
  MOCK_EXECUTABLE_PATH,
  mockClaude,
  type MockSdkOptions,
  MockTransport,
  PermissionRecorder,
  type Scenario,
  ScenarioBuilder,
  wrapClaudeSdk,
} from "@x/claude-mock";
import { type CliIO, type FakeClaude, installFakeClaude, runCli } from "@x/claude-mock/cli";
import {
  type Cassette,
  cassette,
  loadTape,
  recordingSpawn,
  SnapshotPlayer,
  type Tape,
} from "@x/claude-mock/cassette";
import { register } from "@x/claude-mock/register";
import type { ClaudeSpawn } from "@x/claude-mock/session";
import { assistantMessage, createBuildContext, resultFrame } from "@x/claude-mock/builders";
import { type Frame, NdjsonDecodeStream, NdjsonEncodeStream } from "@x/claude-mock/wire";

const scenario: Scenario = new ScenarioBuilder({ name: "types" })
  .on("deploy")
  .usesBash("make deploy", { ifDenied: "Not allowed." })
  .respond("Deployed.")
  .build();
const mock = new MockTransport(scenario);
const mockOptions: MockSdkOptions = mock.options();
const path: string = MOCK_EXECUTABLE_PATH;
const permissions = PermissionRecorder.allowTools(["Read"]).deny("Bash", "No shell in tests.");
const hooks = new HookRecorder().on("PostToolUse", { matcher: "Read" });

// what the mock and the recorders give is what the SDK's Options take
const options: Options = {
  ...mockOptions,
  canUseTool: permissions.canUseTool,
  hooks: hooks.hooks,
  pathToClaudeCodeExecutable: path,
};
const spawnOnly: Options = { spawnClaudeCodeProcess: mock.spawn };

export async function run(): Promise<SDKMessage[]> {
  const messages: SDKMessage[] = [];
  for await (const message of query({ prompt: "deploy", options })) messages.push(message);
  const fromFile: Scenario = await loadScenario("scenario.json");
  const tape: Tape = await loadTape("hello.jsonl");
  const player = new SnapshotPlayer(tape);
  for await (
    const message of query({
      prompt: "hello",
      options: { ...spawnOnly, spawnClaudeCodeProcess: player.spawn },
    })
  ) messages.push(message);
  await using claude: FakeClaude = await installFakeClaude({ scenario: fromFile });
  const io: Partial<CliIO> = { argv: ["-p", "hi"], env: claude.env };
  const code: number = await runCli({ ...(io as CliIO) });
  return code === 0 ? messages : [];
}

// every spawn-like export is the SDK's spawnClaudeCodeProcess, with no cast
type SdkSpawn = NonNullable<Options["spawnClaudeCodeProcess"]>;
export async function spawns(): Promise<SdkSpawn[]> {
  const tape: Cassette = await cassette({ testPath: "/app/test/x.test.js" }, "hello");
  const fromCassette: SdkSpawn = tape.spawn;
  const recorder: SdkSpawn = recordingSpawn({ out: "t.jsonl", spawn: mock.spawn });
  const player: SdkSpawn = new SnapshotPlayer(await loadTape("hello.jsonl")).spawn;
  const typed: ClaudeSpawn = tape.spawn;
  const asSdk: SdkSpawn = typed;
  const options: Options = { spawnClaudeCodeProcess: tape.spawn, maxTurns: 1 };
  return [fromCassette, recorder, player, asSdk, options.spawnClaudeCodeProcess!];
}

// the interception: the wrapped SDK keeps the SDK's types; a mock's recorders are typed
export async function intercepted(): Promise<string | undefined> {
  register({ onUnhandledQuery: "error" });
  configureInterception({ onUnhandledQuery: (q) => void q.prompt });
  const wrapped: typeof sdk = wrapClaudeSdk(sdk);
  const claude: ClaudeMock = mockClaude(scenario, { seed: 1 }).use((s) => s.on("x").respond("y"));
  const fromTape: ClaudeMock = mockClaude(await cassette({ name: "t", filePath: "/a.test.js" }));
  let answer: string | undefined;
  for await (const m of wrapped.query({ prompt: "deploy" })) {
    if (m.type === "result" && m.subtype === "success") answer = m.result;
  }
  claude.assertWrote(/deploy/);
  const decisions: string[] = claude.permissionDecisions().map((d) => d.toolName);
  // the cleanups a runner's hook takes as they are (vitest's onTestFinished: Awaitable<void>)
  const onTestFinished = (fn: () => void | PromiseLike<void>): void => void fn;
  onTestFinished(() => claude.close());
  onTestFinished(() => fromTape.close());
  await claude.close();
  await fromTape.close();
  return decisions.length > 0 ? answer : undefined;
}

// the builders' frames are wire frames; the wire streams resolve too
const ctx = createBuildContext({ seed: 1 });
export const frames: Frame[] = [...assistantMessage(ctx, "hi"), resultFrame(ctx)];
export const decoder: NdjsonDecodeStream = new NdjsonDecodeStream();
export const encoder: NdjsonEncodeStream = new NdjsonEncodeStream();

// @ts-expect-error: a number is not a scenario (the types are real, not `any`)
new MockTransport(42);
// @ts-expect-error: options() takes no argument and gives no `model`
mock.options().model;
// @ts-expect-error: a spawn is a function of the SDK's spawn options, not a string
const _badSpawn: ClaudeSpawn = "claude";
