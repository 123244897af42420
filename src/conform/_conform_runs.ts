/**
 * One run of a conformance case, recorded into a tape: through the Agent SDK (`query()`) with
 * the in-process mock or with the real CLI against the scenario's Messages API, or in print
 * mode with the mock binary or the real binary. Each in a fresh working directory and config
 * folder; every wait bounded, every child killed. Internal.
 *
 * @internal
 * @module
 */

import { spawn as nodeSpawn } from "node:child_process";
import process from "node:process";
import { MockTransport } from "../adapters/mock_transport.ts";
import { SessionStore } from "../session/session_store.ts";
import {
  type ProcessSpawnOptions,
  type RecordedProcess,
  recordingSpawn,
  type SpawnedProcessLike,
} from "../cassette/recording_spawn.ts";
import { scenarioSandbox } from "../cassette/scenario_sandbox.ts";
import type { Tape } from "../cassette/tape.ts";
import { DUMMY_API_KEY } from "../messages_api/serve_messages_api.ts";
import type { FakeClaude } from "../fake_claude/install_fake_claude.ts";
import { mkdirp, writeText } from "../host/_fs.ts";
import { realTimeout } from "../timing/real_time.ts";
import { BEFORE_FACTS, type ConformCase, type PrintFormat } from "./conform_case.ts";
import type { RunPlaces } from "./_normalize.ts";
import { appSide } from "./_sdk_side.ts";
import type { AgentSdk } from "./load_agent_sdk.ts";

/** A recorded run. */
export interface RecordedRun {
  /** The tape (both directions, stderr, the exit). */
  tape: Tape;
  /** The run's own paths, for normalizing. */
  places: RunPlaces;
  /** What the app's `query()` threw, if anything (duplex runs). */
  error?: string;
  /** Milliseconds the run took. */
  ms: number;
  /** The scenario API's journal (real runs). */
  journal?: unknown[];
}

/** The environment every run shares: the machine's basics and the case's own. */
function sharedEnv(c: ConformCase): Record<string, string> {
  const keep = ["PATH", "HOME", "USER", "LANG", "TMPDIR", "DENO_DIR", "SystemRoot"];
  const env: Record<string, string> = {};
  for (const key of keep) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return {
    ...env,
    DISABLE_TELEMETRY: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    CLAUDE_CODE_MAX_RETRIES: "1",
    ...c.env,
  };
}

/** The config folder the mock names when it reports one of its own (its stand-in home's). */
const MOCK_CONFIG = "/home/user/.claude";

/** The stand-in base URL of mock runs (nothing listens: the mock only names it in error texts). */
const MOCK_BASE_URL = "http://127.0.0.1:9";

/** The SDK's own way to spawn a process. */
function defaultSpawn(o: ProcessSpawnOptions): SpawnedProcessLike {
  return nodeSpawn(o.command, o.args, {
    cwd: o.cwd,
    env: o.env,
    signal: o.signal,
    stdio: ["pipe", "pipe", "pipe"],
    windowsHide: true,
  }) as unknown as SpawnedProcessLike;
}

/** A folder with the case's files. */
async function projectDir(dir: string, c: ConformCase): Promise<string> {
  await mkdirp(dir);
  const base = c.scenario.cwd ?? "/home/user/project";
  for (const [path, content] of Object.entries(c.files ?? {})) {
    const relative = path.startsWith(`${base}/`) ? path.slice(base.length + 1) : path;
    const full = `${dir}/${relative}`;
    await mkdirp(full.slice(0, full.lastIndexOf("/")));
    await writeText(full, content);
  }
  return dir;
}

/** How and where one run of a case goes. */
export interface RunPlan {
  /** The mock, or the real CLI. */
  side: "mock" | "real";
  /** The SDK (and real binary) to drive. */
  sdk: AgentSdk;
  /** The run's folder. */
  work: string;
  /** Milliseconds the run may take. */
  timeoutMs: number;
  /** Stops the run from outside. */
  stop?: AbortSignal;
}

/** A print run's plan: the run's, the prompt and flags, and the mock binary installed. */
export interface PrintRunPlan extends RunPlan {
  /** The prompt (or the prompts sent on stdin as stream-json lines), the flags, the format. */
  print: { prompt: string; args: string[]; format: PrintFormat; stdin?: string[] };
  /** The mock binary (mock runs). */
  fake: FakeClaude;
}

type Spawn = (o: ProcessSpawnOptions) => SpawnedProcessLike;

/** Where a run happens: its working directory, its paths, its scenario API's journal. */
interface RunSite {
  cwd: string;
  places: RunPlaces;
  close: () => Promise<void>;
  journal?: unknown[];
}

/**
 * A real run's site: the scenario's sandbox (its Messages API, config folder and project), and
 * the environment the real CLI runs with there.
 */
async function realSite(
  c: ConformCase,
  { env, work, binary }: { env: Record<string, string>; work: string; binary: string },
): Promise<RunSite & { env: Record<string, string> }> {
  const sandbox = await scenarioSandbox(c.scenario, {
    ...(c.files ? { files: c.files } : {}),
    env,
    dir: work,
  });
  return {
    cwd: sandbox.cwd,
    env: sandbox.env,
    journal: sandbox.journal as unknown[],
    close: () => sandbox.close(),
    places: {
      cwd: [sandbox.cwd],
      config: [sandbox.configDir],
      other: [sandboxRoot(sandbox.cwd), work],
      binary,
    },
  };
}

/** Runs the case through the SDK's `query()`: the mock in process, or the real CLI. */
export async function duplexRun(c: ConformCase, run: RunPlan): Promise<RecordedRun> {
  const started = Date.now();
  await mkdirp(run.work);
  const env = sharedEnv(c);
  const site = await duplexSite(c, { run, env });
  site.places.home = env.HOME;
  const spawner = recordingSpawn({ out: `${run.work}/tape.jsonl`, spawn: site.spawn });
  try {
    const before = c.before ? await beforeQuery(c, { run, site, env }) : undefined;
    const app = appSide(
      before === undefined ? c : { ...c, options: withBefore(c.options, before) },
      run.sdk.module,
      run.sdk.zod,
    );
    const { tape, error } = await queryThrough(app, { run, site, env, spawner });
    return {
      tape,
      places: site.places,
      ...(error ? { error } : {}),
      ms: Date.now() - started,
      ...(site.journal ? { journal: [...site.journal] } : {}),
    };
  } finally {
    await site.close();
  }
}

/** A duplex run's site: the mock transport in a project folder, or the real CLI's sandbox. */
async function duplexSite(
  c: ConformCase,
  { run, env }: { run: RunPlan; env: Record<string, string> },
): Promise<RunSite & { spawn: Spawn; beforeSpawn?: Spawn }> {
  const { work, sdk } = run;
  if (run.side === "mock") {
    const cwd = await projectDir(`${work}/project`, c);
    // the case's runs share their transcripts, as the real CLI's runs share its config folder
    const sessionStore = new SessionStore();
    const mock = new MockTransport(c.scenario, { sessionStore });
    env.ANTHROPIC_BASE_URL = MOCK_BASE_URL;
    env.ANTHROPIC_API_KEY = DUMMY_API_KEY;
    // the CLI's own temp folder in the run's folder, as the sandbox gives the real CLI one
    env.CLAUDE_CODE_TMPDIR = `${work}/tmp`;
    return {
      cwd,
      spawn: mock.spawn as unknown as Spawn,
      beforeSpawn: new MockTransport(c.scenario, { sessionStore }).spawn as unknown as Spawn,
      close: () => Promise.resolve(),
      places: {
        cwd: [cwd, c.scenario.cwd ?? "/home/user/project"],
        config: [MOCK_CONFIG],
        other: [work],
        binary: sdk.claude,
      },
    };
  }
  const site = await realSite(c, { env, work, binary: sdk.claude });
  return {
    ...site,
    spawn: (o) => defaultSpawn({ ...o, cwd: site.cwd, env: { ...o.env, ...site.env } }),
  };
}

/** What a case's earlier run leaves for the case to name: its session id, its last message's uuid. */
type BeforeFacts = { session_id: string; assistant_uuid?: string };

/**
 * The case's earlier run through the SDK, in the same site (the mock: a transport of its own,
 * as a second process would be, on the site's store of transcripts), not recorded; its session
 * id and last assistant message's uuid.
 */
async function beforeQuery(
  c: ConformCase,
  { run, site, env }: {
    run: RunPlan;
    site: RunSite & { spawn: Spawn; beforeSpawn?: Spawn };
    env: Record<string, string>;
  },
): Promise<BeforeFacts> {
  const before = c.before!;
  const spawn = site.beforeSpawn ?? site.spawn;
  const abort = new AbortController();
  const cancel = realTimeout(() => abort.abort(), run.timeoutMs);
  const messages: Array<{ type?: string; session_id?: string; uuid?: string }> = [];
  try {
    const query = run.sdk.module.query({
      prompt: before.prompt,
      options: {
        ...before.options,
        cwd: site.cwd,
        env,
        abortController: abort,
        pathToClaudeCodeExecutable: run.sdk.claude,
        stderr: () => {},
        spawnClaudeCodeProcess: spawn,
      },
    });
    for await (const message of query) messages.push(message as (typeof messages)[number]);
  } finally {
    cancel();
  }
  return beforeFacts(c, messages, run.side);
}

/** The facts of an earlier run's messages (an `Error` when it ended without a result). */
function beforeFacts(
  c: ConformCase,
  messages: ReadonlyArray<{ type?: string; session_id?: string; uuid?: string }>,
  side: string,
): BeforeFacts {
  const result = messages.findLast((m) => m.type === "result");
  if (typeof result?.session_id !== "string") {
    throw new Error(`${c.name}: the 'before' run (${side}) ended without a result`);
  }
  const assistant = messages.findLast((m) => m.type === "assistant")?.uuid;
  return { session_id: result.session_id, ...(assistant ? { assistant_uuid: assistant } : {}) };
}

/** `value` with every `$before.<fact>` in its strings replaced by that fact of the earlier run. */
function withBefore<T>(value: T, facts: BeforeFacts): T {
  if (typeof value === "string") {
    return value.replace(/\$before\.(\w+)/g, (whole, key: string) => {
      const fact = (facts as Record<string, string | undefined>)[key];
      if (fact === undefined) {
        throw new TypeError(
          `Cannot run the case: '${whole}' names no fact of the earlier run (${
            BEFORE_FACTS.join(", ")
          })`,
        );
      }
      return fact;
    }) as T;
  }
  if (Array.isArray(value)) return value.map((v) => withBefore(v, facts)) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, withBefore(v, facts)]),
    ) as T;
  }
  return value;
}

/**
 * The app's `query()` over the recording spawn, to its end, the run's time limit or a stop;
 * the tape and what the query threw.
 */
async function queryThrough(
  app: ReturnType<typeof appSide>,
  how: {
    run: RunPlan;
    site: RunSite;
    env: Record<string, string>;
    spawner: ReturnType<typeof recordingSpawn>;
  },
): Promise<{ tape: Tape; error?: string }> {
  const { run: { sdk, stop, timeoutMs }, spawner } = how;
  let processOf: RecordedProcess | undefined;
  // Over time (or stopped): the CLI is killed first, so the SDK sees it exit and ends the query;
  // aborting the SDK with a CLI still alive leaves its own kill timers running after the run.
  let timedOut = false;
  const end = () => {
    if (processOf && processOf.exitCode === null && processOf.signalCode === null) {
      processOf.kill("SIGKILL");
    } else abort.abort();
  };
  const abort = new AbortController();
  const onStop = () => end();
  stop?.addEventListener("abort", onStop, { once: true });
  const cancel = realTimeout(() => {
    timedOut = true;
    end();
  }, timeoutMs);
  let error: string | undefined;
  try {
    const query = sdk.module.query({
      prompt: app.prompt(),
      options: {
        ...app.options,
        cwd: how.site.cwd,
        env: how.env,
        abortController: abort,
        pathToClaudeCodeExecutable: sdk.claude,
        stderr: () => {},
        spawnClaudeCodeProcess: (o: ProcessSpawnOptions) => (processOf = spawner(o)),
      },
    });
    try {
      for await (const message of query) {
        await app.onMessage(message as Record<string, unknown>, query);
      }
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    } finally {
      app.finish();
    }
    // what the SDK says of a killed CLI or an abort ("Operation aborted") says nothing more
    if (stop?.aborted) error = "stopped";
    else if (timedOut) error = `timed out after ${timeoutMs} ms`;
    return { tape: await settle(spawner.finished, processOf), error };
  } finally {
    cancel();
    stop?.removeEventListener("abort", onStop);
  }
}

/** Runs the case in print mode (`-p`): the mock binary, or the real one. */
export async function printRun(
  c: ConformCase,
  run: PrintRunPlan,
): Promise<RecordedRun & { stdout: string }> {
  const started = Date.now();
  await mkdirp(run.work);
  const env = sharedEnv(c);
  const site = await printSite(c, { run, env });
  site.places.home = process.env.HOME;
  const before = c.before
    ? await beforePrint(c, { site, env, timeoutMs: run.timeoutMs }).catch(async (error) => {
      await site.close();
      throw error;
    })
    : undefined;
  const print = before === undefined
    ? run.print
    : { ...run.print, args: withBefore(run.print.args, before) };
  const args = [
    "-p",
    ...(print.stdin ? [] : [print.prompt]),
    "--output-format",
    print.format,
    ...(print.format === "stream-json" ? ["--verbose"] : []),
    ...(print.stdin ? ["--input-format", "stream-json"] : []),
    ...print.args,
  ];
  const abort = linkedAbort(run.stop);
  const spawner = recordingSpawn({ out: `${run.work}/tape.jsonl`, spawn: defaultSpawn });
  try {
    const child = spawner({
      command: site.command,
      args,
      cwd: site.cwd,
      env,
      signal: abort.signal,
    });
    const { tape, stdout } = await childRun(child, {
      spawner,
      abort,
      timeoutMs: run.timeoutMs,
      stdin: (print.stdin ?? []).map((text) => `${JSON.stringify(userLine(text))}\n`).join(""),
    });
    return {
      tape,
      places: site.places,
      stdout,
      ms: Date.now() - started,
      ...(run.stop?.aborted
        ? { error: "stopped" }
        : abort.signal.aborted
        ? { error: `timed out after ${run.timeoutMs} ms` }
        : {}),
      ...(site.journal ? { journal: [...site.journal] } : {}),
    };
  } finally {
    await site.close();
  }
}

/** A print run's site: the mock binary in a project folder, or the real one in its sandbox. */
async function printSite(
  c: ConformCase,
  { run, env }: { run: PrintRunPlan; env: Record<string, string> },
): Promise<RunSite & { command: string }> {
  const { work, sdk, fake } = run;
  if (run.side === "mock") {
    const cwd = await projectDir(`${work}/project`, c);
    Object.assign(env, fake.env, {
      // the mock binary impersonates the CLI the SDK under test ships
      ...(sdk.cliVersion ? { CLAUDE_MOCK_VERSION: sdk.cliVersion } : {}),
      ANTHROPIC_BASE_URL: MOCK_BASE_URL,
      ANTHROPIC_API_KEY: DUMMY_API_KEY,
      CLAUDE_CONFIG_DIR: `${work}/config`,
      CLAUDE_CODE_TMPDIR: `${work}/tmp`,
      CLAUDE_MOCK_STATE_DIR: `${work}/state`,
    }, c.env);
    env.PATH = `${fake.dir}:${env.PATH ?? ""}`;
    return {
      cwd,
      command: fake.path,
      close: () => Promise.resolve(),
      places: {
        cwd: [cwd, c.scenario.cwd ?? "/home/user/project"],
        config: [`${work}/config`, MOCK_CONFIG],
        other: [fake.dir, work],
        binary: fake.path,
      },
    };
  }
  const site = await realSite(c, { env, work, binary: sdk.claude });
  Object.assign(env, site.env);
  return { ...site, command: sdk.claude };
}

/**
 * The case's earlier run in print mode (`-p <prompt> --output-format stream-json --verbose` and
 * its flags), in the same site, not recorded; its session id and last assistant message's uuid.
 */
async function beforePrint(
  c: ConformCase,
  { site, env, timeoutMs }: {
    site: RunSite & { command: string };
    env: Record<string, string>;
    timeoutMs: number;
  },
): Promise<BeforeFacts> {
  const before = c.before!;
  const abort = new AbortController();
  const child = nodeSpawn(
    site.command,
    [
      "-p",
      before.prompt,
      "--output-format",
      "stream-json",
      "--verbose",
      ...(before.args ?? []),
    ],
    { cwd: site.cwd, env, signal: abort.signal, stdio: ["pipe", "pipe", "ignore"] },
  );
  child.on("error", () => {});
  child.stdin.on("error", () => {});
  child.stdin.end();
  let stdout = "";
  child.stdout.on("data", (chunk: Uint8Array | string) => (stdout += String(chunk)));
  const cancel = realTimeout(() => abort.abort(), timeoutMs);
  try {
    await new Promise<void>((resolve) => child.on("close", () => resolve()));
  } finally {
    cancel();
  }
  const messages = stdout.split("\n").flatMap((line) => {
    try {
      return [JSON.parse(line)];
    } catch {
      return [];
    }
  });
  return beforeFacts(c, messages, "print");
}

/** A prompt as a stream-json user line, as the Agent SDK writes one. */
function userLine(text: string): Record<string, unknown> {
  return {
    type: "user",
    message: { role: "user", content: text },
    parent_tool_use_id: null,
    session_id: "",
  };
}

/**
 * A print run's child, given `stdin` (all of it at once, then closed), to its end or the time
 * limit: its tape and what it printed.
 */
async function childRun(
  child: RecordedProcess,
  { spawner, abort, timeoutMs, stdin }: {
    spawner: ReturnType<typeof recordingSpawn>;
    abort: AbortController;
    timeoutMs: number;
    stdin: string;
  },
): Promise<{ tape: Tape; stdout: string }> {
  child.stdin.on("error", () => {});
  child.stdin.end(stdin === "" ? undefined : stdin);
  let stdout = "";
  child.stdout.on("data", (chunk: Uint8Array | string) => (stdout += String(chunk)));
  child.on("error", () => {});
  const cancel = realTimeout(() => abort.abort(), timeoutMs);
  try {
    await Promise.race([
      spawner.finished.catch(() => {}),
      new Promise((resolve) => abort.signal.addEventListener("abort", resolve, { once: true })),
    ]);
    const tape = await settle(spawner.finished, child);
    return { tape, stdout };
  } finally {
    cancel();
  }
}

/** The sandbox's own folder (its `tmp` is the real CLI's temp folder, as `<work>/tmp` is the mock's). */
function sandboxRoot(cwd: string): string {
  return cwd.slice(0, cwd.lastIndexOf("/"));
}

/** An abort controller that also aborts when `stop` does (the run was stopped from outside). */
function linkedAbort(stop: AbortSignal | undefined): AbortController {
  const abort = new AbortController();
  if (stop?.aborted) abort.abort(stop.reason);
  else stop?.addEventListener("abort", () => abort.abort(stop.reason), { once: true });
  return abort;
}

/** The finished tape; a process that does not end within 15 s of being asked is killed. */
async function settle(finished: Promise<Tape>, child: RecordedProcess | undefined): Promise<Tape> {
  let timer = () => {};
  const late = new Promise<"late">((
    resolve,
  ) => (timer = realTimeout(() => resolve("late"), 15_000)));
  try {
    const first = await Promise.race([finished, late]);
    if (first !== "late") return first;
    child?.kill("SIGKILL");
    return await finished;
  } finally {
    timer();
  }
}
