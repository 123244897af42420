/**
 * The engine's public face: runs a {@linkcode Scenario} against a duplex of Web Streams
 * the way the real `claude` process runs a conversation over stream-json.
 *
 * The engine is in parts, each in its own file: the control channel (requests both ways,
 * their timeouts), the turn runner, the message step, the tool flow (hooks, permission,
 * execution), the hook runner, the SDK's requests, the interrupt tail, usage accounting,
 * the exchange picker and the output. `Session` wires them and coordinates.
 *
 * @module
 */

import type { ModelUsageEntry } from "../builders/usage.ts";
import type { BuildContext } from "../builders/build_context.ts";
import type { Scenario } from "../scenario/scenario.ts";
import type { Clock } from "../timing/clock.ts";
import { type ControlRequestFrame, type Frame, isObject } from "../wire/frame.ts";
import { bypassRefusal, type CliFlags, parseCliFlags } from "./cli_args.ts";
import type { ClientRequest, ControlHandler } from "./control_channel.ts";
import { Engine, type ExitStatus } from "./engine.ts";
import type { ApiCallUsage } from "../builders/usage.ts";
import { installSdkRequests, interruptTurn } from "./sdk_requests.ts";
import { runConnect, runTurn } from "./turn_runner.ts";
import { sessionEndHooks } from "./command_hook_run.ts";
import { bareErrorResult } from "./turn_result.ts";
import { TurnFailure } from "./turn_state.ts";
import { checkScenarioOnce } from "./check_scenario.ts";
import { registerEngine } from "./scenario_progress.ts";
import { WriteLog } from "./write_log.ts";
import type { SessionSettings } from "./session_settings.ts";
import { DEFAULT_CWD } from "../builders/build_context.ts";
import {
  copyTranscript,
  hasMessage,
  lastContext,
  lastModelUsage,
  recordFrame,
  type SessionStore,
} from "./session_store.ts";
import {
  openSession,
  type SessionRefusal,
  sessionRequestOf,
  type SessionStart,
} from "./_session_opening.ts";

export {
  AnswerThen,
  type ClientRequest,
  ControlError,
  type ControlHandler,
} from "./control_channel.ts";
export type { ExitStatus, ToolRunner } from "./engine.ts";

/** Options for {@linkcode Session}. */
export interface SessionOptions extends SessionSettings {
  /** The command line arguments the client spawned `claude` with. */
  args?: readonly string[];
  /**
   * The environment the client spawned `claude` with (the SDK passes its `env` option).
   * `CLAUDE_CODE_MAX_RETRIES` bounds the retries of named failures, as for the real CLI.
   */
  env?: Record<string, string | undefined>;
  /**
   * What a resumed or continued session had used so far, by model (its transcript's last
   * `modelUsage`): its results' `modelUsage` and `total_cost_usd` go on from there, as the
   * real CLI's do.
   */
  resumedUsage?: Readonly<Record<string, ModelUsageEntry>>;
  /**
   * With `resumedUsage`: the context (tokens) the resumed session's last API call ended with,
   * which a `/compact` of it reports as `pre_tokens`.
   */
  resumedContext?: number;
}

/**
 * One mock `claude` process: write stream-json to {@linkcode Session.writable} (its
 * stdin), read stream-json from {@linkcode Session.readable} (its stdout). It answers
 * `initialize`, starts a turn per `user` frame (`session_state_changed`, `system/init`,
 * the matched exchange's steps, `result`, `idle`), and exits like the real CLI once stdin
 * closes and the last turn ended. Most tests use it through `MockTransport`.
 *
 * @example Driving a session by hand
 * ```ts
 * import { ScenarioBuilder } from "@x/claude-mock";
 * import { Session } from "@x/claude-mock/session";
 * const session = new Session(new ScenarioBuilder().on("hi").respond("Hello!").build());
 * const writer = session.writable.getWriter();
 * await writer.write('{"type":"user","session_id":"","message":{"role":"user","content":"hi"},"parent_tool_use_id":null}\n');
 * await writer.close();
 * const text = await new Response(session.readable).text();
 * console.log(text.trim().split("\n").map((l) => JSON.parse(l).type));
 * // ["system", "system", "assistant", "result", "system"]
 * console.log(await session.exited); // { code: 0, signal: null }
 * ```
 */
export class Session {
  /** Resolves when the process has exited. */
  readonly exited: Promise<ExitStatus>;
  /** Everything the client wrote. */
  readonly writes: WriteLog = new WriteLog();
  /** The session clock. */
  readonly clock: Clock;
  /** Ids, session id, model and time for frames. */
  readonly ctx: BuildContext;
  /** The flags the client passed. */
  readonly flags: CliFlags;
  /** The scenario. */
  readonly scenario: Scenario;
  // the engine while the process runs; once it has exited, what its readers still read
  // (`#remains`): a finished session a test holds keeps a few arrays, not the machinery
  #engine: Engine | undefined;
  #remains?: Remains;
  #writable?: WritableStream<Uint8Array | string>;

  /** Starts the process. */
  constructor(scenario: Scenario, options: SessionOptions = {}) {
    checkOptions(options);
    checkScenarioOnce(scenario);
    const flags = parseCliFlags(options.args ?? []);
    const store = options.sessionStore;
    const cwd = scenario.cwd ?? DEFAULT_CWD;
    const opening = store
      ? openStored(store, { flags, cwd, seed: options.seed ?? scenario.seed })
      : {};
    const refused = "refusal" in opening ? opening : undefined;
    const start = refused ? {} : opening as SessionStart;
    const engine = new Engine({
      scenario: start.sessionId !== undefined && scenario.sessionId === undefined
        ? { ...scenario, sessionId: start.sessionId }
        : scenario,
      flags,
      env: options.env ?? {},
      cliVersion: options.cliVersion,
      stderr: options.stderr,
      installedSdk: options.installedSdk,
      writes: this.writes,
      clock: options.clock,
      seed: options.seed,
      timing: options.timing,
      speedFactor: options.speedFactor,
      controlTimeoutMs: options.controlTimeoutMs,
      recordSent: options.recordSent,
      invocation: options.invocation,
      runTool: options.runTool,
      mcpCommandCheck: options.mcpCommandCheck,
      projectMcpConfig: options.projectMcpConfig,
      runHookCommand: options.runHookCommand,
      commandHooks: options.commandHooks,
      output: options.output,
      mockCommands: options.mockCommands,
    });
    goOn(engine, { options, start, cwd, store: refused ? undefined : store });
    this.#engine = engine;
    // the ledger, not a closure: one made here would share this scope, which holds the engine
    LAST_CALLS.set(this, engine.ledger);
    this.scenario = scenario;
    this.flags = flags;
    this.clock = engine.clock;
    this.ctx = engine.ctx;
    this.exited = engine.exited;
    engine.runTurn = runTurn;
    // once, whichever way the session ends (stdin closed, SIGTERM, an exit)
    engine.beforeExit = onlyOnce(sessionEndHooks);
    engine.exited.then((status) => {
      this.#remains = remainsOf(engine, status);
      LAST_CALLS.set(this, { lastCall: engine.ledger.lastCall });
      this.#engine = undefined;
      // the end-of-test checks read its progress: that, not the engine, stays with the session
      registerEngine(this, { picker: engine.picker, crashes: engine.crashes });
    });
    installSdkRequests(engine);
    const refusal = bypassRefusal(flags, options.env ?? {}, options.root ?? runsAsRoot);
    if (refusal !== undefined) {
      // as the real CLI (2.1.328 to 2.1.332): before it reads anything
      engine.stderr(`${refusal}\n`);
      warnBypassAsRoot();
      engine.startInput(this, Promise.resolve());
      void engine.shutdown({ code: 1, signal: null }, true);
      return;
    }
    if (refused) {
      // as the real CLI: the reason on stderr, in stream-json an error result, before anything
      engine.stderr(`${refused.refusal}\n`);
      engine.startInput(this, Promise.resolve());
      if (refused.result) engine.send({ frame: refused.result as Frame, delay: 0 }).catch(() => {});
      void engine.shutdown({ code: 1, signal: null }, true);
      return;
    }
    engine.startInput(this, runConnect(engine));
  }

  /**
   * The session's stdout: stream-json lines (a `TypeError` when the session was given an
   * `output` function instead).
   */
  get readable(): ReadableStream<Uint8Array> {
    return this.#engine ? this.#engine.outbox.readable : this.#remains!.readable();
  }

  /** The session's stdin: stream-json lines, as bytes or strings. */
  get writable(): WritableStream<Uint8Array | string> {
    this.#writable ??= new WritableStream<Uint8Array | string>({
      write: (chunk) => this.write(chunk),
      close: () => this.endInput(),
      abort: () => this.endInput(),
    });
    return this.#writable;
  }

  /**
   * Writes stream-json to the session's stdin without a stream: what a write to
   * {@linkcode Session.writable} does. Lines may be split across writes.
   *
   * @throws {TypeError} When the process has exited.
   */
  write(chunk: Uint8Array | string): void {
    const engine = this.#engine;
    if (!engine || engine.closed) {
      throw new TypeError(
        `Cannot write to the claude-mock process${this.#label()}: it has exited (${
          describeExit(engine ? engine.exit : this.#remains!.exit)
        })`,
      );
    }
    engine.input(chunk);
  }

  /** Closes the session's stdin: what closing {@linkcode Session.writable} does. */
  endInput(): void {
    this.#engine?.endInput();
  }

  /** What the client sent in `initialize` (hooks, MCP servers, ...), once it did. */
  get initializeRequest(): Record<string, unknown> | undefined {
    return (this.#engine ?? this.#remains!).initializeRequest;
  }

  /** For each turn so far, the index of the exchange that answered it (-1: none did). */
  exchangesMatched(): number[] {
    return [...(this.#engine ?? this.#remains!).matched];
  }

  /** The frames the session wrote (only with `recordSent: true`). */
  sent(): Frame[] {
    const sent = this.#engine ? this.#engine.outbox.sent : this.#remains!.sent;
    if (!sent) throw new TypeError("Session.sent() needs the option 'recordSent: true'");
    return [...sent];
  }

  /** The control requests the session wrote to the client (bodies by request id). */
  sentRequests(): ReadonlyMap<string, Record<string, unknown>> {
    return this.#engine ? this.#engine.outbox.sentRequests : this.#remains!.sentRequests;
  }

  /** The control requests the client sent, with the answers given. */
  clientRequests(): ClientRequest[] {
    return [
      ...(this.#engine ? this.#engine.control.clientRequests : this.#remains!.clientRequests),
    ];
  }

  /** Answers client control requests of `subtype` with `handler` (replacing the built-in). */
  handle(subtype: string, handler: ControlHandler<Session>): void {
    // once the process has exited no request comes: nothing to answer
    this.#engine?.control.handle(subtype, handler);
  }

  /** Whether the process has exited (or is exiting). */
  get closed(): boolean {
    return this.#engine ? this.#engine.closed : true;
  }

  /** Writes `frame` now, between whatever else is being written. */
  inject(frame: Frame): void {
    if (this.closed) {
      throw new TypeError(
        `Cannot inject a '${frame?.type}' frame into the claude-mock process${this.#label()}: it has exited`,
      );
    }
    if (!isObject(frame) || typeof frame.type !== "string") {
      throw new TypeError("Cannot inject: a frame must be an object with a string 'type'");
    }
    this.#engine!.send({ frame, delay: 0 }).catch(() => {});
  }

  /**
   * Fails the running turn with `message`: its remaining steps are dropped and it ends
   * with an `error_during_execution` result carrying the message. With no turn running,
   * the error result is written on its own.
   */
  injectError(message: string): void {
    const engine = this.#engine;
    if (!engine || this.closed) {
      throw new TypeError(
        `Cannot inject an error into the claude-mock process${this.#label()}: it has exited`,
      );
    }
    const turn = engine.turn;
    if (turn && !turn.resultSent) {
      turn.abort.abort(new TurnFailure(message));
      return;
    }
    engine.send({ frame: bareErrorResult(engine, message), delay: 0 }).catch(() => {});
  }

  /**
   * Sends a control request to the client and resolves with its answer's `response`;
   * rejects when the client answers with an error, or does not answer within the real-time
   * limit (`controlTimeoutMs`).
   */
  request(
    request: { subtype: string; [key: string]: unknown } | ControlRequestFrame,
    options: { timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<Record<string, unknown>> {
    const engine = this.#engine;
    if (!engine) {
      return Promise.reject(
        new TypeError(
          `Cannot send control request '${
            String(isObject(request.request) ? request.request.subtype : request.subtype)
          }' to the claude-mock process${this.#label()}: it has exited (${
            describeExit(this.#remains!.exit)
          })`,
        ),
      );
    }
    return engine.control.request(request, options);
  }

  /**
   * Interrupts the running turn as the client's `interrupt` control request does (what the
   * real CLI also does on SIGINT): the turn ends with the interruption's frames and an
   * `error_during_execution` result. Resolves once that turn has ended, with whether there
   * was a turn to interrupt (`false` when none runs, or its result is already written).
   *
   * @example Interrupting a long answer
   * ```ts
   * import { ScenarioBuilder } from "@x/claude-mock";
   * import { Session } from "@x/claude-mock/session";
   * const session = new Session(
   *   new ScenarioBuilder().on("essay").respondDelayed(60_000, "A very long essay.").build(),
   *   { clock: "system" }, // real time: the minute-long wait is a real timer
   * );
   * const reading = new Response(session.readable).text();
   * session.write('{"type":"user","message":{"role":"user","content":"essay"}}\n');
   * await new Promise((resolve) => setTimeout(resolve, 0));
   * console.log(await session.interrupt()); // true
   * session.endInput();
   * const result = JSON.parse((await reading).trim().split("\n").at(-2)!);
   * console.log(result.terminal_reason); // aborted_streaming
   * ```
   */
  async interrupt(): Promise<boolean> {
    const engine = this.#engine;
    if (!engine) return false;
    const interrupted = await interruptTurn(engine);
    if (interrupted) await engine.turnEnded();
    return interrupted;
  }

  /**
   * Ends the process now, like a signal: stdout closes, pending output is dropped. SIGTERM
   * lets the settings' SessionEnd command hooks run first, as the real CLI 2.1.332 does.
   */
  kill(signal = "SIGTERM"): void {
    void this.#engine?.shutdown({ code: null, signal }, false, { endHooks: signal === "SIGTERM" });
  }

  /**
   * Ends the process now with an exit code, delivering what was already written (the
   * settings' SessionEnd command hooks run first).
   */
  async exit(code: number): Promise<ExitStatus> {
    if (!Number.isInteger(code) || code < 0 || code > 255) {
      throw new RangeError(`Session.exit: 'code' must be an integer from 0 to 255, got ${code}`);
    }
    // the settings' SessionEnd command hooks run first, as the real CLI's
    await this.#engine?.shutdown({ code, signal: null }, true, { endHooks: true });
    return this.exited;
  }

  /** Additional context hooks returned (PostToolUse, UserPromptSubmit, ...), in order. */
  hookContext(): string[] {
    return [...(this.#engine ?? this.#remains!).hookContext];
  }

  #label(): string {
    return this.#engine ? this.#engine.label() : this.#remains!.label;
  }
}

/** What a session keeps once its process has exited: what its readers still read. */
interface Remains {
  readable: () => ReadableStream<Uint8Array>;
  label: string;
  exit: ExitStatus;
  initializeRequest: Record<string, unknown> | undefined;
  matched: readonly number[];
  sent: Frame[] | undefined;
  sentRequests: ReadonlyMap<string, Record<string, unknown>>;
  clientRequests: readonly ClientRequest[];
  hookContext: readonly string[];
}

/**
 * What `engine` leaves behind for its session's readers once it has exited (its own arrays,
 * not copies; nothing adds to them any more), and its progress for the end-of-test checks.
 */
function remainsOf(engine: Engine, exit: ExitStatus): Remains {
  return {
    readable: readableOf(engine),
    label: engine.label(),
    exit,
    initializeRequest: engine.initializeRequest,
    matched: engine.matched,
    sent: engine.outbox.sent,
    sentRequests: engine.outbox.sentRequests,
    clientRequests: engine.control.clientRequests,
    hookContext: engine.hookContext,
  };
}

/** Refuses options that are not an object. */
function checkOptions(options: unknown): void {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new TypeError(
      `Cannot start a session: the options must be an object, got ${
        options === null ? "null" : Array.isArray(options) ? "an array" : typeof options
      }`,
    );
  }
}

/** `run` the first time it is called; nothing after. */
function onlyOnce(
  run: (engine: Engine) => Promise<void> | undefined,
): (engine: Engine) => Promise<void> | undefined {
  let ran = false;
  return (engine) => {
    if (ran) return undefined;
    ran = true;
    return run(engine);
  };
}

function describeExit(exit: ExitStatus | undefined): string {
  if (!exit) return "exiting";
  return exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
}

let warnedBypassAsRoot = false;

/**
 * Tells the developer once why a session refused to start: an SDK that spawns through a
 * function never reads the process's stderr, and its error says only that the process exited
 * with code 1.
 */
function warnBypassAsRoot(): void {
  if (warnedBypassAsRoot) return;
  warnedBypassAsRoot = true;
  const text =
    "claude-mock: a session that may skip permissions (bypassPermissions) refused to start " +
    "because this process runs as root without IS_SANDBOX=1, as the real claude refuses; set " +
    "IS_SANDBOX=1 in the query's env (the real CLI needs it there too), or pin the mock's " +
    "`root` option";
  const process = (globalThis as {
    process?: { emitWarning?: (text: string, options: { code: string }) => void };
  }).process;
  if (process?.emitWarning) process.emitWarning(text, { code: "CLAUDE_MOCK_BYPASS_AS_ROOT" });
  else console.warn(text);
}

/** Whether this process runs as root (uid 0); `false` where there are no uids. */
function runsAsRoot(): boolean {
  const process = (globalThis as { process?: { getuid?: () => number } }).process;
  return process?.getuid?.() === 0;
}

/**
 * Restores what the resumed session had used (the `resumedUsage` option, else the store's), and
 * keeps the session's transcript in `store` (unless `--no-session-persistence`).
 */
function goOn(
  engine: Engine,
  { options, start, cwd, store }: {
    options: SessionOptions;
    start: SessionStart;
    cwd: string;
    store: SessionStore | undefined;
  },
): void {
  const resumedUsage = options.resumedUsage ?? start.resumedUsage;
  if (resumedUsage) {
    const context = options.resumedUsage ? options.resumedContext : start.resumedContext;
    engine.ledger.restore(resumedUsage, context !== undefined ? { lastContext: context } : {});
  }
  if (store && !engine.flags.noSessionPersistence) {
    engine.transcribe = transcriber(store, {
      engine,
      cwd,
      forked: engine.flags.forkSession ? start.resumed : undefined,
    });
  }
}

/** The session the flags ask for, or why it cannot start, against the transcripts of `store`. */
function openStored(
  store: SessionStore,
  { flags, cwd, seed }: { flags: CliFlags; cwd: string; seed: bigint | number | undefined },
): SessionStart | SessionRefusal {
  return openSession(sessionRequestOf(flags), {
    has: (id) => store.has(id),
    latest: () => store.latest(cwd),
    hasMessage: (id, uuid) => hasMessage(store, id, uuid),
    lastModelUsage: (id) => lastModelUsage(store, id),
    lastContext: (id) => lastContext(store, id),
  }, { seed: seed ?? 0 });
}

/**
 * What keeps a session's transcript in `store`: its prompts and frames under its id, as they
 * come; a forked session's begins with a copy of the transcript it forked (as the real CLI's).
 */
function transcriber(
  store: SessionStore,
  { engine, cwd, forked }: { engine: Engine; cwd: string; forked: string | undefined },
): (frame: Frame, bytes?: Uint8Array) => void {
  let copied = forked === undefined;
  return (frame, bytes) => {
    const at = { sessionId: engine.ctx.sessionId, cwd, lastContext: engine.ledger.lastContext };
    if (!copied) {
      copied = true;
      copyTranscript(store, at, forked!);
    }
    recordFrame(store, at, frame, bytes);
  };
}

/**
 * The session's stdout once it has exited, or, when its lines went to an `output` function,
 * the same error each time (a new one, made out of the engine's reach: the first's stack
 * would hold on to the engine).
 */
function readableOf(engine: Engine): () => ReadableStream<Uint8Array> {
  let message: string;
  try {
    return keep(engine.outbox.readable);
  } catch (error) {
    message = (error as Error).message;
  }
  return () => {
    throw new TypeError(message);
  };
}

function keep<T>(value: T): () => T {
  return () => value;
}

/** Each session's last API call's usage: its engine's ledger, then what the ledger said at exit. */
const LAST_CALLS = new WeakMap<Session, { readonly lastCall?: ApiCallUsage }>();

/**
 * The usage of a session's last API call (its final output tokens), or `undefined` before
 * one: what the fake binary keeps in its transcript. Internal.
 */
export function lastCallOf(session: Session): ApiCallUsage | undefined {
  return LAST_CALLS.get(session)?.lastCall;
}
