/**
 * Recording the real `claude` under the Agent SDK: a `spawnClaudeCodeProcess` function that
 * starts the process as the SDK's own default does and records its stdin, stdout, stderr
 * and exit into a tape file.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { spawn as nodeSpawn } from "node:child_process";
import { EventEmitter } from "node:events";
import { Readable, Writable } from "node:stream";
import type { JournalEntry } from "../messages_api/api_journal.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { realTimeout } from "../timing/real_time.ts";
import { deferredProcess } from "./_deferred_process.ts";
import {
  type ScenarioSandbox,
  scenarioSandbox,
  type ScenarioSandboxOptions,
} from "./scenario_sandbox.ts";
import { SnapshotRecorder } from "./snapshot_recorder.ts";
import { TapeWriter } from "./tape_writer.ts";
import { checkExpectedExit } from "./_failed_recording.ts";
import type {
  ProcessExitListener,
  ProcessSpawnOptions,
  SpawnedProcessLike,
} from "./spawned_process.ts";
import type { Tape, TapeHeader } from "./tape.ts";

// the types of its signatures, for its callers
export type { ProcessExitListener, ProcessSpawnOptions, SpawnedProcessLike };

/** Options for {@linkcode recordingSpawn}. */
export interface RecordingSpawnOptions {
  /**
   * The tape file to write (`<out>.partial` while recording). A failed run (an exit code other
   * than `expectedExit`, a signal, no exit) never replaces a tape already at `out`: it is kept
   * as `<name>.failed.jsonl` beside it, and `finished` rejects saying so.
   */
  out: string;
  /** The exit code of a run that succeeded (default 0; e.g. 1 to re-record an API error). */
  expectedExit?: number;
  /**
   * Header fields. `args`, `recorded_at` and `sdk_version` (from the
   * `CLAUDE_AGENT_SDK_VERSION` the SDK puts in the environment) are filled in;
   * `cli_version` only when given here.
   */
  header?: Partial<TapeHeader>;
  /** Another spawner to record (e.g. a `MockTransport`'s `spawn`); default: the real process. */
  spawn?: (options: ProcessSpawnOptions) => SpawnedProcessLike;
  /**
   * Receives the process's stderr as it comes, decoded and as the bytes read (with
   * `spawnClaudeCodeProcess`, the SDK's own `stderr` option is not called).
   */
  stderr?: (text: string, chunk: Uint8Array | string) => void;
  /** Milliseconds, for the entries' times. Default: a monotonic real clock. */
  clock?: () => number;
  /**
   * Record the real CLI without an API key: its model calls go to a scenario-driven Messages
   * API (`serveMessagesApi`), in a {@linkcode scenarioSandbox} (a temp cwd with `files`, a
   * temp `CLAUDE_CONFIG_DIR`, a dummy key). The tape then holds what the real CLI did
   * (permissions asked, hooks called, tools run for real in the temp cwd, results, exit) with
   * the model's side taken from the scenario. The CLI runs in the sandbox's cwd, whatever the
   * SDK's `cwd` option says; the sandbox is removed once the process has exited.
   */
  api?: Scenario | RecordingApiOptions;
}

/** The {@linkcode RecordingSpawnOptions.api} option with the sandbox's options. */
export interface RecordingApiOptions extends ScenarioSandboxOptions {
  /** The scenario whose model side the API serves. */
  scenario: Scenario;
}

/** The recorded process the SDK gets: the child's, with stdin and stdout teed into the tape. */
export interface RecordedProcess {
  /** stdin (recorded, then passed on). */
  readonly stdin: Writable;
  /** stdout (recorded as it is read from the process, then passed on). */
  readonly stdout: Readable;
  /** Whether the process was killed. */
  readonly killed: boolean;
  /** Its exit code once exited, else `null`. */
  readonly exitCode: number | null;
  /** The signal that ended it, else `null`. */
  readonly signalCode: NodeJS.Signals | null;
  /** Its process id (when it is a real process that started). */
  readonly pid: number | undefined;
  /** Sends a signal to the process. */
  kill(signal?: NodeJS.Signals): boolean;
  /** `exit` fires once stdout and stderr are recorded and the tape file is finished. */
  on(event: "exit", listener: ProcessExitListener): this;
  /** Adds an `error` listener (a failed spawn). */
  on(event: "error", listener: (error: Error) => void): this;
  /** Adds a one-time `exit` listener. */
  once(event: "exit", listener: ProcessExitListener): this;
  /** Adds a one-time `error` listener. */
  once(event: "error", listener: (error: Error) => void): this;
  /** Removes a listener. */
  off(event: "exit" | "error", listener: (...args: never[]) => void): this;
}

/**
 * The function to pass as `spawnClaudeCodeProcess`; `finished` resolves with the tape once
 * the process has ended and the file is written (it rejects when the file could not be).
 */
export type RecordingSpawner = ((options: ProcessSpawnOptions) => RecordedProcess) & {
  /** The finished tape (after the process ended and the file was renamed into place). */
  readonly finished: Promise<Tape>;
  /** With `api`: every request the scenario's Messages API got (empty without it). */
  readonly journal: readonly JournalEntry[];
  /**
   * Once `finished` settled: why the run failed (see {@linkcode RecordingSpawnOptions.out}),
   * or `undefined` when it succeeded.
   */
  readonly failure: string | undefined;
};

/** How long after the exit stdout and stderr may take to end before the tape is closed. */
const DRAIN_GRACE_MS = 500;

/** The SDK's default spawn: `node:child_process` with three pipes, the SDK's abort signal. */
function defaultSpawn(options: ProcessSpawnOptions): SpawnedProcessLike {
  return nodeSpawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env,
    signal: options.signal,
    stdio: ["pipe", "pipe", "pipe"],
    windowsHide: true,
  }) as unknown as SpawnedProcessLike;
}

/**
 * Records one `claude` process into a tape: the returned function spawns it as the Agent
 * SDK's default does (`spawn(command, args, {cwd, env, signal, stdio: pipes})`, stderr read
 * as it comes) and tees stdin and stdout line by line into `out`, with stderr and the exit
 * (code, signal). Its `exit` event reaches the SDK once stdout and stderr have ended (as
 * the SDK's own spawn waits for stderr) and the tape file is finished, so the tape is in
 * place when the query ends. One spawner records one process: make one per query.
 *
 * @param options `out` (the tape file), `header`, `spawn`, `stderr`, `clock`, `api` (a
 *   scenario the real CLI's model calls go to, in a sandbox: no API key needed).
 * @returns The spawner, with `finished`.
 * @throws {TypeError} Without an `out` path; when the spawner is called a second time.
 *
 * @example Recording a query
 * ```ts ignore
 * import { query } from "@anthropic-ai/claude-agent-sdk";
 * import { recordingSpawn } from "@x/claude-mock/cassette";
 *
 * const spawn = recordingSpawn({ out: "tapes/hello.jsonl", header: { scenario: "hello" } });
 * for await (const m of query({ prompt: "hello", options: { spawnClaudeCodeProcess: spawn } })) {
 *   console.log(m.type);
 * }
 * const tape = await spawn.finished;
 * console.log(tape.entries.length, tape.ending?.code);
 * ```
 *
 * @example Recording the real CLI against a scenario, without an API key
 * ```ts ignore
 * import { query } from "@anthropic-ai/claude-agent-sdk";
 * import { builtinScenario } from "@x/claude-mock";
 * import { recordingSpawn } from "@x/claude-mock/cassette";
 *
 * const spawn = recordingSpawn({
 *   out: "tapes/permission.jsonl",
 *   api: { scenario: builtinScenario("tool_with_permission") },
 * });
 * const options = {
 *   spawnClaudeCodeProcess: spawn,
 *   canUseTool: async (_tool: string, input: Record<string, unknown>) =>
 *     ({ behavior: "allow" as const, updatedInput: input }),
 * };
 * for await (const m of query({ prompt: "Create out.txt with touch.", options })) console.log(m.type);
 * console.log((await spawn.finished).ending?.code, spawn.journal.length); // 0 2
 * ```
 *
 * @example Recording an in-process mock through the SDK's spawn seam
 * ```ts
 * import { MockTransport, ScenarioBuilder } from "@x/claude-mock";
 * import { recordingSpawn } from "@x/claude-mock/cassette";
 * const dir = await Deno.makeTempDir();
 * const mock = new MockTransport(new ScenarioBuilder().on("hi").respond("Hello").build());
 * const spawn = recordingSpawn({ out: `${dir}/hi.jsonl`, spawn: mock.spawn });
 * const child = spawn({ command: "claude", args: [], env: {}, signal: new AbortController().signal });
 * child.stdout.resume();
 * child.stdin.end('{"type":"user","session_id":"","message":{"role":"user","content":"hi"},"parent_tool_use_id":null}\n');
 * const tape = await spawn.finished;
 * console.log(tape.entries[0].dir, tape.ending?.code); // sdk->cli 0
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function recordingSpawn(options: RecordingSpawnOptions): RecordingSpawner {
  if (typeof options?.out !== "string" || options.out === "") {
    throw new TypeError("Cannot record a process: recordingSpawn needs an out path for the tape");
  }
  checkExpectedExit(options.expectedExit, `Cannot record ${options.out}`);
  let resolveFinished!: (tape: Tape) => void;
  let rejectFinished!: (error: unknown) => void;
  const finished = new Promise<Tape>((resolve, reject) => {
    resolveFinished = resolve;
    rejectFinished = reject;
  });
  finished.catch(() => {}); // reported to whoever awaits it, never as an unhandled rejection
  let spawned = false;
  let failure: string | undefined;
  const journal: JournalEntry[] = [];
  const spawner = (spawnOptions: ProcessSpawnOptions): RecordedProcess => {
    if (spawned) {
      throw new TypeError(
        `Cannot spawn a second process with this recordingSpawn (tape ${options.out}): make one per query`,
      );
    }
    spawned = true;
    const sdkVersion = spawnOptions.env?.CLAUDE_AGENT_SDK_VERSION;
    const api = options.api === undefined ? undefined : recordingApi(options.api);
    const writer = new TapeWriter(options.out, {
      header: {
        recorded_at: new Date().toISOString(),
        ...(sdkVersion ? { sdk_version: sdkVersion } : {}),
        args: [...spawnOptions.args],
        ...(api ? { messages_api: "scenario", scenario: api.scenario.name ?? "scenario" } : {}),
        ...options.header,
      },
      ...(options.expectedExit !== undefined ? { expectedExit: options.expectedExit } : {}),
    });
    const recorder = new SnapshotRecorder({
      out: writer,
      ...(options.clock ? { clock: options.clock } : {}),
    });
    const spawn = options.spawn ?? defaultSpawn;
    const child = api ? sandboxedSpawn(api, spawn, journal)(spawnOptions) : spawn(spawnOptions);
    return new Recorded(child, recorder, {
      stderr: options.stderr,
      finish: (promise) =>
        promise.then((tape) => {
          failure = writer.failure;
          if (writer.keptFailed === undefined) return resolveFinished(tape);
          rejectFinished(
            new Error(
              `Cannot record ${options.out}: ${failure}; ${options.out} is left as it was, and this failed recording is kept in ${writer.failedPath}`,
            ),
          );
        }, rejectFinished),
    });
  };
  Object.defineProperty(spawner, "finished", { value: finished, enumerable: true });
  Object.defineProperty(spawner, "journal", { value: journal, enumerable: true });
  Object.defineProperty(spawner, "failure", { get: () => failure, enumerable: true });
  return spawner as RecordingSpawner;
}

/** The `api` option's scenario and sandbox options. Internal. @internal */
export function recordingApi(api: Scenario | RecordingApiOptions): RecordingApiOptions {
  if (api === null || typeof api !== "object") {
    throw new TypeError(
      "Cannot record against a scenario: api must be a Scenario or { scenario, ... }",
    );
  }
  return "scenario" in api && !("exchanges" in api) ? api : { scenario: api as Scenario };
}

/**
 * A spawn that runs each process in a fresh scenario sandbox: spawned (by `spawn`, default the
 * SDK's own way) once the API listens, with the sandbox's cwd and environment on top of the
 * SDK's; the sandbox closes, its journal appended to `journal`, before the process's `exit`
 * reaches the caller. Internal: `recordingSpawn`'s and `cassette`'s `api` option.
 *
 * @internal
 */
export function sandboxedSpawn(
  api: RecordingApiOptions,
  spawn: (options: ProcessSpawnOptions) => SpawnedProcessLike = defaultSpawn,
  journal: JournalEntry[] = [],
): (spawnOptions: ProcessSpawnOptions) => SpawnedProcessLike {
  return (spawnOptions) => sandboxed(api, spawnOptions, spawn, journal);
}

function sandboxed(
  api: RecordingApiOptions,
  spawnOptions: ProcessSpawnOptions,
  spawn: (options: ProcessSpawnOptions) => SpawnedProcessLike,
  journal: JournalEntry[],
): SpawnedProcessLike {
  const { scenario, ...sandboxOptions } = api;
  let sandbox: ScenarioSandbox | undefined;
  const start = scenarioSandbox(scenario, sandboxOptions).then((made) => {
    sandbox = made;
    if (spawnOptions.signal.aborted) {
      throw new Error("The SDK aborted the query before the CLI started");
    }
    return spawn({
      ...spawnOptions,
      cwd: made.cwd,
      env: { ...spawnOptions.env, ...made.env },
    });
  });
  return deferredProcess(start, async () => {
    if (!sandbox) return;
    journal.push(...sandbox.journal);
    await sandbox.close();
  });
}

/** The child's stdin as the app writes it: each chunk recorded, then passed on. */
function recordedStdin(childIn: Writable, recorder: SnapshotRecorder): Writable {
  return new Writable({
    decodeStrings: false,
    write(chunk: Uint8Array | string, encoding, done) {
      recorder.record(
        "sdk->cli",
        typeof chunk === "string" && !/^utf-?8$/i.test(encoding)
          ? new Uint8Array(Buffer.from(chunk, encoding))
          : chunk,
      );
      childIn.write(chunk, encoding, (error) => done(error ?? undefined));
    },
    final(done) {
      recorder.endInput();
      childIn.end(() => done());
    },
    destroy(error, done) {
      recorder.endInput();
      if (!childIn.destroyed) childIn.destroy(error ?? undefined);
      done(error);
    },
  });
}

/**
 * The child's stdout as the app reads it, each chunk recorded, and when it ended (or failed);
 * the app closing it breaks the child's pipe, as it would without recording.
 */
function relayedStdout(
  childOut: Readable,
  recorder: SnapshotRecorder,
): { stdout: Readable; ended: Promise<void> } {
  let clientGone = false;
  let outEnded = false;
  const stdout = new Readable({
    read() {},
    destroy(error, done) {
      // the client closed its end: the process's pipe breaks, as it would without recording
      clientGone = true;
      if (!childOut.destroyed) childOut.destroy();
      done(error);
    },
  });
  const ended = new Promise<void>((resolve) => {
    childOut.on("data", (chunk: Uint8Array | string) => {
      recorder.record("cli->sdk", chunk);
      if (!clientGone) stdout.push(chunk);
    });
    const endOut = () => {
      recorder.flush("cli->sdk");
      if (!clientGone && !outEnded) stdout.push(null);
      outEnded = true;
      resolve();
    };
    childOut.once("end", endOut);
    childOut.once("error", (error) => {
      if (!clientGone) stdout.destroy(error);
      resolve();
    });
    // closed without an end (a failed spawn, a destroyed pipe): the client's stdout ends too
    childOut.once("close", endOut);
  });
  return { stdout, ended };
}

/** Records the child's stderr as text (and hands each chunk on); resolves when it ends. */
function relayedStderr(
  childErr: Readable,
  { recorder, stderr }: {
    recorder: SnapshotRecorder;
    stderr?: (text: string, chunk: Uint8Array | string) => void;
  },
): Promise<void> {
  return new Promise<void>((resolve) => {
    const decoder = new TextDecoder();
    childErr.on("data", (chunk: Uint8Array | string) => {
      const text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
      if (text !== "") recorder.stderr(text);
      stderr?.(text, chunk);
    });
    childErr.once("end", () => {
      const rest = decoder.decode();
      if (rest !== "") recorder.stderr(rest);
      resolve();
    });
    childErr.once("error", () => resolve());
    childErr.once("close", () => resolve());
  });
}

/** The SDK-facing process over a child, recording it. */
class Recorded implements RecordedProcess {
  readonly stdin: Writable;
  readonly stdout: Readable;
  #child: SpawnedProcessLike;
  #events = new EventEmitter();
  #finishing = false;

  constructor(
    child: SpawnedProcessLike,
    recorder: SnapshotRecorder,
    how: {
      stderr?: (text: string, chunk: Uint8Array | string) => void;
      finish: (tape: Promise<Tape>) => void;
    },
  ) {
    this.#child = child;
    this.stdin = recordedStdin(child.stdin, recorder);
    child.stdin.on("error", (error) => this.stdin.destroy(error));
    const out = relayedStdout(child.stdout, recorder);
    this.stdout = out.stdout;
    const stdoutEnded = out.ended;
    const stderrEnded = child.stderr
      ? relayedStderr(child.stderr, { recorder, stderr: how.stderr })
      : Promise.resolve();

    const finish = (exit?: { code: number | null; signal: NodeJS.Signals | null }) => {
      if (this.#finishing) return;
      this.#finishing = true;
      if (exit) recorder.end(exit);
      let cancel = () => {};
      const grace = new Promise<void>((resolve) => (cancel = realTimeout(resolve, DRAIN_GRACE_MS)));
      const closed = Promise.race([Promise.all([stdoutEnded, stderrEnded]), grace])
        .then(() => {
          cancel();
          return recorder.close();
        });
      how.finish(closed);
      const emitExit = () => {
        if (exit) this.#events.emit("exit", exit.code, exit.signal);
      };
      closed.then(emitExit, emitExit);
    };
    child.once("exit", (code, signal) => finish({ code, signal }));
    child.on("error", (error) => {
      // a failed spawn never exits: the tape ends without an ending
      const syscall = (error as { syscall?: unknown })?.syscall;
      if (typeof syscall === "string" && syscall.startsWith("spawn")) finish();
      if (this.#events.listenerCount("error") > 0) this.#events.emit("error", error);
    });
  }

  get killed(): boolean {
    return this.#child.killed;
  }

  get exitCode(): number | null {
    return this.#child.exitCode;
  }

  get signalCode(): NodeJS.Signals | null {
    return this.#child.signalCode ?? null;
  }

  get pid(): number | undefined {
    return (this.#child as { pid?: number }).pid;
  }

  kill(signal?: NodeJS.Signals): boolean {
    return this.#child.kill(signal);
  }

  on(event: "exit", listener: ProcessExitListener): this;
  on(event: "error", listener: (error: Error) => void): this;
  on(event: "exit" | "error", listener: (...args: never[]) => void): this {
    this.#events.on(event, listener as (...args: unknown[]) => void);
    return this;
  }

  once(event: "exit", listener: ProcessExitListener): this;
  once(event: "error", listener: (error: Error) => void): this;
  once(event: "exit" | "error", listener: (...args: never[]) => void): this {
    this.#events.once(event, listener as (...args: unknown[]) => void);
    return this;
  }

  off(event: "exit" | "error", listener: (...args: never[]) => void): this {
    this.#events.off(event, listener as (...args: unknown[]) => void);
    return this;
  }
}
