/**
 * `cassette(t, name)`: a tape per test, replayed by default, recorded when asked.
 *
 * @module
 */

import { fileTime, mkdirp } from "../host/_fs.ts";
import type { ClaudeSpawn } from "../adapters/claude_spawn.ts";
import { loadTape } from "./load_tape.ts";
import type { Scenario } from "../scenario/scenario.ts";
import {
  recordingApi,
  type RecordingApiOptions,
  recordingSpawn,
  type RecordingSpawner,
  sandboxedSpawn,
} from "./recording_spawn.ts";
import type { ScrubOptions } from "./scrub_options.ts";
import { scrubTape } from "./scrub_tape.ts";
import {
  type ReplayStubOptions,
  SnapshotPlayer,
  type SnapshotPlayerOptions,
} from "./snapshot_player.ts";
import type { Tape, TapeHeader } from "./tape.ts";
import { checkExpectedExit } from "./_failed_recording.ts";
import { TapeKeeper } from "./_tape_keeper.ts";
import {
  insideNodeModules,
  recordCommandOf,
  runnerOf,
  tapeNameOf,
  testFileOf,
  testNameOf,
  type TestOutcome,
} from "./_test_context.ts";

/**
 * What a cassette does:
 * - `replay` (default): replays `<dir>/<name>.jsonl`; a missing tape fails, naming the
 *   command that records it;
 * - `record`: runs the real CLI and records it (scrubbed), replacing the tape when the run
 *   succeeds (a failed run is kept as `<name>.failed.jsonl`; with `api`, against a scenario
 *   instead of the real API: no key needed);
 * - `auto`: replays when the tape exists, else records it;
 * - `passthrough`: runs the real CLI, records nothing.
 */
export type CassetteMode = "replay" | "record" | "auto" | "passthrough";

/**
 * The test a cassette belongs to, as each runner gives it: a `Deno.TestContext`, a node:test
 * context, vitest's test context (`test("x", (context) => ...)`), or jest's and vitest's
 * `expect.getState()`; or just its file and name.
 */
export interface CassetteTest {
  /** The test's name. */
  name?: string;
  /** The test module's URL (`Deno.TestContext.origin`). */
  origin?: string;
  /** The test file's path (node:test's `t.filePath`, Node 22.6 and later). */
  filePath?: string;
  /** The test's name with its suites' (node:test's `t.fullName`). */
  fullName?: string;
  /** vitest's task (`context.task`): its `file.filepath`, `name` and suites. */
  task?: {
    name?: string;
    file?: { filepath?: string };
    suite?: NonNullable<CassetteTest["task"]> & { filepath?: string };
  };
  /** The test file's path (`expect.getState().testPath` under jest and vitest). */
  testPath?: string;
  /** The test's name with its suites' (`expect.getState().currentTestName`). */
  currentTestName?: string;
}

/** Options for {@linkcode cassette}. */
export interface CassetteOptions {
  /**
   * The mode. Default `replay`, or `record` when the test run was asked to record:
   * `-- --update` (as Deno's `assertSnapshot`) or `CLAUDE_MOCK_RECORD=1`.
   */
  mode?: CassetteMode;
  /**
   * The folder of the tapes (default `__cassettes__` beside the test file). A folder inside
   * `node_modules` is refused: a tape there is lost on the next install.
   */
  dir?: string;
  /** The replay's options (`mode: "inert" | "stub" | "verify"`, `waitMs`, …). */
  replay?: SnapshotPlayerOptions;
  /** The scrubbing of a new recording (`false`: none; default on, with these options). */
  scrub?: ScrubOptions | false;
  /** Header fields for a new recording (`cli_version`, `scenario`, …). */
  header?: Partial<TapeHeader>;
  /**
   * The exit code of a recording that succeeded (default 0; e.g. 1 to record an API error). A
   * recording that ends otherwise (another code, a signal, no exit: the CLI crashed, was
   * killed, or the test ended the query by throwing) fails `close()`: the tape already there
   * is left as it was, and the failed recording is kept beside it as `<name>.failed.jsonl`.
   */
  expectedExit?: number;
  /** The CLI version in use: a tape recorded by another warns that it is stale. */
  cliVersion?: string;
  /** Where warnings go (default `console.warn`): a stale tape, a failed recording. */
  warn?: (message: string) => void;
  /** The environment to read `CI` and `CLAUDE_MOCK_RECORD` from (default the process's). */
  env?: Record<string, string | undefined>;
  /** The test run's arguments to look for `--update` in (default `Deno.args`). */
  args?: readonly string[];
  /** Another spawner to record or pass through instead of the real CLI (for tests). */
  spawn?: ClaudeSpawn;
  /**
   * Record (or pass through) without an API key: the real CLI's model calls go to a
   * scenario-driven Messages API in a sandbox (a temp cwd with `files`, a temp config
   * folder), so the tape holds what the real CLI does with the scenario's model side.
   */
  api?: Scenario | RecordingApiOptions;
}

/** One test's cassette: pass `spawn` to the SDK, then `close()` (or `await using`). */
export interface Cassette {
  /** What it does in this run. */
  readonly mode: "replay" | "record" | "passthrough";
  /** The tape's path. */
  readonly path: string;
  /** The SDK's `spawnClaudeCodeProcess` (pass it as is, or the cassette to `mockClaude`). */
  readonly spawn: ClaudeSpawn;
  /** The player, when replaying. */
  readonly player?: SnapshotPlayer;
  /** The SDK options a `stub` replay needs (empty when recording). */
  options(): ReplayStubOptions;
  /**
   * Replay: throws a mismatch or unreached frames. Record: writes the scrubbed tape when the run
   * succeeded; else keeps it as `<name>.failed.jsonl` and throws, naming both files. Under
   * node:test and vitest a run that succeeded replaces the tape once the runner says the test
   * passed (a test that failed after the CLI exited cleanly keeps it as `<name>.failed.jsonl`
   * and warns).
   */
  close(): Promise<void>;
  /**
   * Runs the test's body, then `close()`: a body that throws (an assertion after the query,
   * the CLI having exited cleanly) never replaces the tape when recording; the recording is
   * kept as `<name>.failed.jsonl`, a warning names both files, and the body's own error is
   * thrown. For runners whose context does not say how the test ended (Deno's, jest's).
   */
  run<T>(body: () => T | Promise<T>): Promise<T>;
  /** `close()`, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * A tape for one test, with the vocabulary of Polly, nock.back and VCR: replayed by default
 * from `__cassettes__/<name>.jsonl` beside the test file; recorded from the real CLI only
 * when asked (`deno test -A -- --update`, `CLAUDE_MOCK_RECORD=1`, or `mode: "record"` /
 * `"auto"`), and never when `CI` is set: then a missing tape fails with the command that
 * records it (for the runner in use). A new recording is scrubbed before it is written. A
 * tape recorded by another CLI version than `cliVersion` warns.
 *
 * `test` is the runner's test: Deno's and node:test's `t`, vitest's test context, or
 * `expect.getState()` under jest (which passes its tests no context). Without `name` the tape
 * is named after the test ("says hello" is `says-hello.jsonl`). Pass the cassette to
 * `mockClaude()` to replay it to an app that takes no options. A tape is never written into
 * `node_modules`.
 *
 * @example Replaying a committed tape through the Agent SDK
 * ```ts ignore
 * import { query } from "@anthropic-ai/claude-agent-sdk";
 * import { cassette } from "@x/claude-mock/cassette";
 *
 * Deno.test("says hello", async (t) => {
 *   await using tape = await cassette(t, "hello");
 *   const messages = [];
 *   for await (const m of query({ prompt: "hello", options: { spawnClaudeCodeProcess: tape.spawn } })) {
 *     messages.push(m);
 *   }
 *   // leaving the block checks the replay reached the end of the tape
 * });
 * ```
 *
 * @example A missing tape in CI names the command that records it
 * ```ts
 * import { cassette } from "@x/claude-mock/cassette";
 * const dir = await Deno.makeTempDir();
 * const error = await cassette({ name: "t" }, "nothing-here", { dir, env: { CI: "true" } })
 *   .catch((e) => e);
 * console.log(error.message.split("\n")[0]);
 * // Cannot replay cassette 'nothing-here': .../nothing-here.jsonl does not exist
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function cassette(
  test: CassetteTest,
  name?: string,
  options: CassetteOptions = {},
): Promise<Cassette> {
  name = cassetteName(test, name);
  const env = options.env ?? processEnv();
  const args = options.args ?? processArgs();
  const dir = options.dir ?? defaultDir(test, name);
  if (insideNodeModules(dir)) {
    throw new TypeError(
      `Cannot use cassette '${name}': its folder ${dir} is inside node_modules, where an install ` +
        "would lose it; give dir, or pass the test's context so the tape goes beside the test file",
    );
  }
  const path = `${dir}/${name}.jsonl`;
  const requested = requestedMode(name, { env, args, mode: options.mode });
  const exists = (await fileTime(path)) !== undefined;
  const mode = requested === "auto" ? (exists ? "replay" : "record") : requested;
  const ci = env.CI !== undefined && env.CI !== "" && env.CI !== "false" && env.CI !== "0";
  if (mode === "record" && ci) {
    throw new Error(
      `Cannot record cassette '${name}' in CI (CI is set): record it on a machine with the ` +
        `real CLI (${recordCommand(test)}) and commit ${path}`,
    );
  }
  if (mode === "replay") return await replayCassette(test, { name, path, exists, options });
  const api = options.api === undefined ? undefined : recordingApi(options.api);
  if (mode === "passthrough") {
    const base = options.spawn ?? (await realSpawn());
    const spawn = api
      ? sandboxedSpawn(api, base as Parameters<typeof sandboxedSpawn>[1]) as unknown as ClaudeSpawn
      : base;
    return finished({ mode, path, spawn, close: () => Promise.resolve() });
  }
  return await recordCassette(test, { name, path, api, options });
}

/** The tape's name: the one given, else the test's; a `TypeError` for one that is no file name. */
function cassetteName(test: CassetteTest, name: string | undefined): string {
  if (name === undefined) {
    name = tapeNameOf(testNameOf(test ?? {}));
    if (name === "") {
      throw new TypeError(
        'Cannot name the cassette after the test: the test context has no name; give the name (cassette(t, "hello"))',
      );
    }
  }
  if (typeof name !== "string" || !/^[\w.@+-][\w.@+\/-]*$/.test(name) || name.includes("..")) {
    throw new TypeError(
      `Cannot use cassette ${JSON.stringify(name)}: the name must be a relative file name ` +
        "(letters, digits, . _ - + @ and /)",
    );
  }
  return name;
}

/** The mode asked for: the option, else record when `--update` or CLAUDE_MOCK_RECORD says so. */
function requestedMode(
  name: string,
  { env, args, mode }: {
    env: Record<string, string | undefined>;
    args: readonly string[];
    mode: CassetteMode | undefined;
  },
): CassetteMode {
  const record = env.CLAUDE_MOCK_RECORD ?? "";
  if (!/^(|1|0|true|false)$/i.test(record)) {
    throw new RangeError(
      `Cannot use cassette '${name}': CLAUDE_MOCK_RECORD must be 1 or 0 (true or false), got ${
        JSON.stringify(record)
      }`,
    );
  }
  const asked = args.includes("--update") || record === "1" || record.toLowerCase() === "true";
  const requested: CassetteMode = mode ?? (asked ? "record" : "replay");
  if (!["replay", "record", "auto", "passthrough"].includes(requested)) {
    throw new TypeError(
      `Cannot use cassette '${name}': mode must be replay, record, auto or passthrough, got ${
        JSON.stringify(requested)
      }`,
    );
  }
  return requested;
}

/** A cassette that replays the tape at `path` (which must exist), warning of another CLI. */
async function replayCassette(
  test: CassetteTest,
  { name, path, exists, options }: {
    name: string;
    path: string;
    exists: boolean;
    options: CassetteOptions;
  },
): Promise<Cassette> {
  if (!exists) {
    throw new Error(
      `Cannot replay cassette '${name}': ${path} does not exist\n` +
        `Record it with: ${recordCommand(test)} (or give cassette() the option mode: "record")`,
    );
  }
  const tape = await loadTape(path);
  const recordedBy = tape.header.cli_version;
  if (options.cliVersion && recordedBy && recordedBy !== options.cliVersion) {
    (options.warn ?? console.warn)(
      `Cassette '${name}' was recorded with CLI ${recordedBy}; this run uses ` +
        `${options.cliVersion}. Re-record it: ${recordCommand(test)}`,
    );
  }
  return replaying(tape, path, options.replay);
}

/** A cassette that records the real CLI to `path` (scrubbed) when it is closed. */
async function recordCassette(
  test: CassetteTest,
  { name, path, api, options }: {
    name: string;
    path: string;
    api: ReturnType<typeof recordingApi> | undefined;
    options: CassetteOptions;
  },
): Promise<Cassette> {
  await mkdirp(path.slice(0, path.lastIndexOf("/")));
  const expectedExit = checkExpectedExit(options.expectedExit, `Cannot use cassette '${name}'`);
  const testName = testNameOf(test ?? {});
  // a temporary file of this recording's own: the tape goes into place only if the run succeeded
  const recording = `${path}.${randomSuffix()}.recording`;
  const recorder: RecordingSpawner = recordingSpawn({
    out: recording,
    header: { ...(testName ? { test: testName } : {}), scenario: name, ...options.header },
    ...(options.spawn ? { spawn: options.spawn } : {}),
    ...(api ? { api } : {}),
    expectedExit,
  });
  let used = false;
  let command = "";
  let failedToStart: unknown;
  const keeper = new TapeKeeper(test, {
    name,
    path,
    recording,
    warn: options.warn ?? console.warn,
  });
  const spawn: ClaudeSpawn = (spawnOptions) => {
    used = true;
    command = spawnOptions.command;
    const child = recorder(spawnOptions);
    // a CLI that cannot start (ENOENT, EACCES) never exits: its error says why
    child.on("error", (error) => (failedToStart ??= error));
    return child;
  };
  return finished({
    mode: "record",
    path,
    spawn,
    ended: (outcome) => keeper.ended(outcome),
    close: async () => {
      if (!used) {
        throw new Error(`Cassette '${name}' recorded nothing: the SDK never spawned the CLI`);
      }
      const tape = await recorder.finished;
      const kept = options.scrub === false ? tape : scrubTape(tape, options.scrub ?? {});
      const failure = recorder.failure;
      // a failed run never becomes the test's tape: kept beside it, the tape there left as it was
      if (failure === undefined) await keeper.succeeded(kept);
      else await keeper.failed(tape, kept, { failure, failedToStart, command, expectedExit });
    },
  });
}

function randomSuffix(): string {
  return Array.from(
    crypto.getRandomValues(new Uint8Array(4)),
    (b) => b.toString(16).padStart(2, "0"),
  )
    .join("");
}

function replaying(tape: Tape, path: string, options: SnapshotPlayerOptions = {}): Cassette {
  const player = new SnapshotPlayer(tape, options);
  return finished({
    mode: "replay",
    path,
    spawn: player.spawn,
    player,
    options: () => player.options(),
    close: async () => {
      // the replay ends by itself (its waits are bounded by waitMs); never started: assertFinished says so
      await player.exited.catch(() => {});
      player.assertFinished();
    },
  });
}

function finished(parts: {
  mode: Cassette["mode"];
  path: string;
  spawn: ClaudeSpawn;
  player?: SnapshotPlayer;
  options?: () => ReplayStubOptions;
  /** Told how the test's body ended (run()), before close(). */
  ended?: (outcome: TestOutcome) => void;
  close: () => Promise<void>;
}): Cassette {
  let closing: Promise<void> | undefined;
  let ran = false;
  const close = () => (closing ??= parts.close());
  const run = async <T>(body: () => T | Promise<T>): Promise<T> => {
    const name = `Cassette ${parts.path}`;
    if (typeof body !== "function") {
      throw new TypeError(
        `${name}: run(body) takes the test's body, a function, got ${
          body === null ? "null" : typeof body
        }`,
      );
    }
    if (ran || closing) {
      // a second body would meet a player that already replayed, or add to a closed recording
      throw new TypeError(
        `${name}: run() was called after ${
          ran ? "an earlier run()" : "close()"
        }: a cassette is for one test's body; make a new one for the next`,
      );
    }
    ran = true;
    let value: T;
    try {
      value = await body();
    } catch (error) {
      parts.ended?.({ failed: true, error });
      // the cassette's own complaint was warned: the test's error is the one to see
      await close().catch(() => {});
      throw error;
    }
    parts.ended?.({ failed: false });
    await close();
    return value;
  };
  return {
    mode: parts.mode,
    path: parts.path,
    spawn: parts.spawn,
    ...(parts.player ? { player: parts.player } : {}),
    options: parts.options ?? (() => ({})),
    close,
    run,
    [Symbol.asyncDispose]: close,
  };
}

async function realSpawn(): Promise<ClaudeSpawn> {
  const { spawn } = await import("node:child_process");
  return (o) =>
    spawn(o.command, o.args, {
      cwd: o.cwd,
      env: o.env as Record<string, string>,
      signal: o.signal,
      stdio: ["pipe", "pipe", "pipe"],
    });
}

function defaultDir(test: CassetteTest, name: string): string {
  const file = testFileOf(test ?? {});
  if (!file) {
    throw new TypeError(
      `Cannot place cassette '${name}': the test context names no test file; pass the runner's ` +
        "test context (Deno's and node:test's t, vitest's test context, jest's expect.getState()) or give dir",
    );
  }
  return `${file.slice(0, Math.max(file.lastIndexOf("/"), file.lastIndexOf("\\")))}/__cassettes__`;
}

function recordCommand(test: CassetteTest): string {
  return recordCommandOf(runnerOf(test ?? {}), testFileOf(test ?? {}));
}

function processEnv(): Record<string, string | undefined> {
  const deno = (globalThis as { Deno?: { env: { toObject(): Record<string, string> } } }).Deno;
  if (deno) return deno.env.toObject();
  const proc = (globalThis as { process?: { env: Record<string, string | undefined> } }).process;
  return proc?.env ?? {};
}

function processArgs(): readonly string[] {
  const deno = (globalThis as { Deno?: { args: string[] } }).Deno;
  if (deno) return deno.args;
  const proc = (globalThis as { process?: { argv: string[] } }).process;
  return proc?.argv ?? [];
}
