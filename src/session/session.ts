/**
 * The engine: runs a {@linkcode Scenario} against a duplex of Web Streams the way the
 * real `claude` process runs a conversation over stream-json.
 *
 * @module
 */

import { assistantMessage } from "../builders/assistant.ts";
import { type BuildContext, createBuildContext, DEFAULT_MODEL } from "../builders/build_context.ts";
import {
  controlError,
  controlRequest,
  controlSuccess,
  initializeResponse,
} from "../builders/control.ts";
import { type PermissionDenial, resultFrame } from "../builders/result.ts";
import type { ApiCallUsage } from "../builders/usage.ts";
import { modelUsage } from "../builders/usage.ts";
import { streamEvents } from "../builders/stream_events.ts";
import { sessionStateChanged, systemInit, systemStatus } from "../builders/system.ts";
import { toolResult } from "../builders/user.ts";
import { IdGenerator } from "../builders/ids.ts";
import { Pcg32 } from "../random/pcg32.ts";
import { frameText, type Matcher } from "../scenario/matcher.ts";
import type { Exchange, Scenario } from "../scenario/scenario.ts";
import {
  isToolCall,
  type MessageStep,
  type ResultOptions,
  type ScriptedToolCall,
  type Step,
  type StepSource,
  type TurnInfo,
} from "../scenario/step.ts";
import type { Clock } from "../timing/clock.ts";
import { getDefaults } from "../timing/defaults.ts";
import { PaceStream } from "../timing/pace_stream.ts";
import { SystemClock } from "../timing/system_clock.ts";
import {
  type Delay,
  type Timing,
  type TimingProfile,
  timingProfile,
} from "../timing/timing_profile.ts";
import { VirtualClock } from "../timing/virtual_clock.ts";
import {
  type AssistantContentBlock,
  type Frame,
  isObject,
  type RawLine,
  type UserFrame,
} from "../wire/frame.ts";
import { NdjsonDecodeStream } from "../wire/ndjson_decode_stream.ts";
import { encodeFrame } from "../wire/ndjson_encode_stream.ts";
import { type CliFlags, parseCliFlags } from "./cli_args.ts";
import { WriteLog } from "./write_log.ts";

/** How a session's process ended. */
export interface ExitStatus {
  /** The exit code, or `null` when a signal ended it. */
  code: number | null;
  /** The signal that ended it (`SIGTERM`, ...), or `null`. */
  signal: string | null;
}

/** Options for {@linkcode Session}. */
export interface SessionOptions {
  /** The command line arguments the client spawned `claude` with. */
  args?: readonly string[];
  /** The clock: a {@linkcode Clock}, `virtual` (default) or `system`. */
  clock?: Clock | "virtual" | "system";
  /** Seed for ids and jitter (default: the scenario's, else the global default). */
  seed?: bigint | number;
  /** Timing profile (default: the scenario's, else the global default). */
  timing?: Timing;
  /** Speed factor (default: the scenario's, else the global default). */
  speedFactor?: number;
  /** How long to wait for the client to answer a control request (default 60 000 ms). */
  controlTimeoutMs?: number;
  /** Keep every frame the session writes, for {@linkcode Session.sent} (default false). */
  recordSent?: boolean;
}

/** A control request the client sent the session, as recorded. */
export interface ClientRequest {
  /** The request id. */
  requestId: string;
  /** The request subtype. */
  subtype: string;
  /** The whole request body. */
  request: Record<string, unknown>;
  /** When it arrived, on the session clock. */
  at: number;
  /** What the session answered: the response body, or the error text. */
  answer?: { success: true; response: Record<string, unknown> } | { success: false; error: string };
}

/** Answers one subtype of control request from the client. */
export type ControlHandler = (
  request: Record<string, unknown>,
  session: Session,
) => Record<string, unknown> | Promise<Record<string, unknown>>;

interface Outgoing {
  frame: Frame | RawLine;
  delay?: number | Delay;
}

interface TurnState {
  index: number;
  input: UserFrame;
  text: string;
  startedAt: number;
  calls: ApiCallUsage[];
  lastText: string;
  denials: PermissionDenial[];
  resultSent: boolean;
  stopped: boolean;
  contentStarted: boolean;
  exchange?: Exchange;
  profile?: TimingProfile;
  abort: AbortController;
}

/** Thrown inside the engine to unwind a turn when the process ends. */
class SessionEnded extends Error {
  constructor() {
    super("The claude-mock session ended");
    this.name = "SessionEnded";
  }
}

/** A failure a turn reports as an error result (and keeps the session alive). */
class TurnFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TurnFailure";
  }
}

const ENCODER = new TextEncoder();
const INPUT_TOKENS_PER_CALL = 120;

/**
 * One mock `claude` process: write stream-json to {@linkcode Session.writable} (its
 * stdin), read stream-json from {@linkcode Session.readable} (its stdout). It answers
 * `initialize`, starts a turn per `user` frame (`session_state_changed`, `system/init`,
 * the matched exchange's steps, `result`, `idle`), and exits like the real CLI once stdin
 * closes and the last turn ended. Most tests use it through `MockTransport`.
 *
 * @example Driving a session by hand
 * ```ts
 * import { ScenarioBuilder, Session } from "@x/claude-mock";
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
  /** The session's stdout: stream-json lines. */
  readonly readable: ReadableStream<Uint8Array>;
  /** The session's stdin: stream-json lines, as bytes or strings. */
  readonly writable: WritableStream<Uint8Array | string>;
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
  /** What the client sent in `initialize` (hooks, MCP servers, ...), once it did. */
  initializeRequest?: Record<string, unknown>;

  #profile: TimingProfile;
  #speed: number;
  #controlTimeoutMs: number;
  #writer: WritableStreamDefaultWriter<Outgoing>;
  #pace: PaceStream<Outgoing, Uint8Array>;
  #abort = new AbortController();
  #resolveExit!: (status: ExitStatus) => void;
  #exit?: ExitStatus;
  #exiting = false;
  #inputClosed = false;
  #inputReader?: ReadableStreamDefaultReader<unknown>;
  #queue: UserFrame[] = [];
  #running = false;
  #ready: Promise<void> = Promise.resolve();
  #turnCount = 0;
  #turn?: TurnState;
  #used = new Set<number>();
  #sentCount = 0;
  #sent?: Frame[];
  #lastResultError = false;
  #pending = new Map<
    string,
    { resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void; subtype: string }
  >();
  #clientRequests: ClientRequest[] = [];
  #handlers = new Map<string, ControlHandler>();
  #waitCursor = 0;
  #calls: ApiCallUsage[] = [];
  #resultCount = 0;

  /** Starts the process. */
  constructor(scenario: Scenario, options: SessionOptions = {}) {
    checkScenario(scenario);
    const defaults = getDefaults();
    this.scenario = scenario;
    this.flags = parseCliFlags(options.args ?? []);
    this.clock = options.clock === "system"
      ? new SystemClock()
      : options.clock === "virtual" || options.clock === undefined
      ? new VirtualClock()
      : options.clock;
    const seed = options.seed ?? scenario.seed ?? defaults.seed;
    this.#profile = timingProfile(options.timing ?? scenario.timing ?? defaults.timing);
    this.#speed = options.speedFactor ?? scenario.speedFactor ?? defaults.speedFactor;
    this.#controlTimeoutMs = options.controlTimeoutMs ?? 60_000;
    if (options.recordSent) this.#sent = [];
    const pcg = new Pcg32(seed);
    const jitter = new Pcg32(typeof seed === "bigint" ? seed ^ 0x9e3779b9n : seed + 0x9e3779b9);
    this.ctx = createBuildContext({
      ids: new IdGenerator({ prng: () => pcg.nextFloat() }),
      sessionId: scenario.sessionId ?? this.flags.sessionId,
      model: scenario.model ?? this.flags.model ?? DEFAULT_MODEL,
      permissionMode: this.flags.permissionMode ?? "default",
      cwd: scenario.cwd,
      clock: this.clock,
    });
    this.exited = new Promise((resolve) => (this.#resolveExit = resolve));

    const pace = new PaceStream<Outgoing, Uint8Array>({
      clock: this.clock,
      timing: this.#profile,
      speedFactor: this.#speed,
      prng: () => jitter.nextFloat(),
      delayOf: (o) => o.delay,
      typeOf: (
        o,
      ) => ("type" in o.frame && typeof o.frame.type === "string" ? o.frame.type : undefined),
      map: (o, now) => ENCODER.encode(encodeFrame(stamp(o.frame, now))),
      signal: this.#abort.signal,
    });
    this.#pace = pace;
    this.readable = pace.readable;
    this.#writer = pace.writable.getWriter();
    this.#writer.closed.catch(() => {});

    const decoder = new NdjsonDecodeStream();
    const input = decoder.writable.getWriter();
    input.closed.catch(() => {});
    this.writable = new WritableStream<Uint8Array | string>({
      write: (chunk) => {
        if (this.#exit || this.#exiting) {
          throw new TypeError(
            `Cannot write to the claude-mock process${this.#label()}: it has exited (${
              describeExit(this.#exit)
            })`,
          );
        }
        return input.write(chunk);
      },
      close: () => input.close().catch(() => {}),
      abort: (reason) => input.abort(reason).catch(() => {}),
    });

    this.#handlers.set("initialize", (request) => {
      this.initializeRequest = request;
      return {
        ...initializeResponse(this.ctx),
        ...(scenario.initialize ?? {}),
      };
    });

    this.#ready = this.#runConnect();
    this.#readInput(decoder.readable);
  }

  /** The frames the session wrote (only with `recordSent: true`). */
  sent(): Frame[] {
    if (!this.#sent) {
      throw new TypeError("Session.sent() needs the option 'recordSent: true'");
    }
    return [...this.#sent];
  }

  /** The control requests the client sent, with the answers given. */
  clientRequests(): ClientRequest[] {
    return [...this.#clientRequests];
  }

  /** Answers client control requests of `subtype` with `handler` (replacing the built-in). */
  handle(subtype: string, handler: ControlHandler): void {
    this.#handlers.set(subtype, handler);
  }

  /** Whether the process has exited (or is exiting). */
  get closed(): boolean {
    return this.#exiting || this.#exit !== undefined;
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
    this.#send({ frame, delay: 0 }).catch(() => {});
  }

  /**
   * Fails the running turn with `message`: its remaining steps are dropped and it ends
   * with an `error_during_execution` result carrying the message. With no turn running,
   * the error result is written on its own.
   */
  injectError(message: string): void {
    if (this.closed) {
      throw new TypeError(
        `Cannot inject an error into the claude-mock process${this.#label()}: it has exited`,
      );
    }
    const turn = this.#turn;
    if (turn && !turn.resultSent) {
      turn.abort.abort(new TurnFailure(message));
      return;
    }
    const result = resultFrame(this.ctx, {
      subtype: "error_during_execution",
      isError: true,
      errors: [message],
      numTurns: 0,
      durationMs: 0,
      durationApiMs: 0,
      resultIndex: this.#resultCount++,
    });
    this.#lastResultError = true;
    this.#send({ frame: result, delay: 0 }).catch(() => {});
  }

  /**
   * Sends a control request to the client and resolves with its answer's `response`;
   * rejects when the client answers with an error, or does not answer in time.
   */
  async request(
    request: { subtype: string; [key: string]: unknown },
    options: { timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<Record<string, unknown>> {
    const frame = controlRequest(this.ctx, request);
    const id = frame.request_id;
    const timeoutMs = options.timeoutMs ?? this.#controlTimeoutMs;
    const answer = new Promise<Record<string, unknown>>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, subtype: request.subtype });
    });
    answer.catch(() => {});
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    this.#abort.signal.addEventListener("abort", onAbort, { once: true });
    try {
      await this.#send({ frame, delay: 0 });
      const timedOut = this.clock.timeout(timeoutMs, { signal: stop.signal }).then(
        () => {
          throw new TurnFailure(
            `claude-mock: the client did not answer control request '${request.subtype}' (request_id ${id}) within ${timeoutMs} ms`,
          );
        },
        () => new Promise<never>(() => {}),
      );
      const aborted = new Promise<never>((_, reject) => {
        const fail = () => reject(options.signal?.reason ?? new SessionEnded());
        if (stop.signal.aborted) fail();
        else stop.signal.addEventListener("abort", fail, { once: true });
      });
      aborted.catch(() => {});
      return await Promise.race([answer, timedOut, aborted]);
    } finally {
      stop.abort();
      options.signal?.removeEventListener("abort", onAbort);
      this.#abort.signal.removeEventListener("abort", onAbort);
      this.#pending.delete(id);
    }
  }

  /** Ends the process now, like a signal: stdout closes, pending output is dropped. */
  kill(signal = "SIGTERM"): void {
    this.#shutdown({ code: null, signal }, false);
  }

  /** Ends the process now with an exit code, delivering what was already written. */
  async exit(code: number): Promise<ExitStatus> {
    await this.#shutdown({ code, signal: null }, true);
    return this.exited;
  }

  // ---- input ----------------------------------------------------------------------

  async #readInput(readable: ReadableStream<unknown>): Promise<void> {
    const reader = readable.getReader() as ReadableStreamDefaultReader<
      { ok: true; frame: Frame; raw: string } | {
        ok: false;
        error: import("../wire/wire_error.ts").WireError;
        raw: string;
      }
    >;
    this.#inputReader = reader as ReadableStreamDefaultReader<unknown>;
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        this.clock.touch();
        if (value.ok) {
          this.writes.add({ raw: value.raw, frame: value.frame }, this.clock.now());
          this.#dispatch(value.frame);
        } else {
          this.writes.add({ raw: value.raw, error: value.error }, this.clock.now());
        }
      }
    } catch {
      // stdin errored or was cancelled: treat as closed
    }
    this.#inputClosed = true;
    this.#pump();
  }

  #dispatch(frame: Frame): void {
    switch (frame.type) {
      case "user":
        this.#queue.push(frame as UserFrame);
        this.#pump();
        break;
      case "control_request":
        this.#onClientRequest(frame);
        break;
      case "control_response":
        this.#onClientResponse(frame);
        break;
      default:
        // keep_alive, update_environment_variables, ...: recorded in the write log only.
        break;
    }
  }

  async #onClientRequest(frame: Frame): Promise<void> {
    const requestId = frame.request_id;
    const request = frame.request;
    if (typeof requestId !== "string") return; // cannot answer without an id; logged as written
    const record: ClientRequest = {
      requestId,
      subtype: isObject(request) && typeof request.subtype === "string" ? request.subtype : "",
      request: isObject(request) ? request : {},
      at: this.clock.now(),
    };
    this.#clientRequests.push(record);
    let answer: Frame;
    if (!isObject(request) || typeof request.subtype !== "string") {
      const error = "Invalid control request: 'request.subtype' must be a string";
      record.answer = { success: false, error };
      answer = controlError(requestId, error);
    } else {
      const handler = this.#handlers.get(request.subtype);
      if (!handler) {
        const error = `Unsupported control request subtype: ${request.subtype}`;
        record.answer = { success: false, error };
        answer = controlError(requestId, error);
      } else {
        try {
          const response = await handler(request, this);
          record.answer = { success: true, response };
          answer = controlSuccess(requestId, response);
        } catch (error) {
          const text = error instanceof Error ? error.message : String(error);
          record.answer = { success: false, error: text };
          answer = controlError(requestId, text);
        }
      }
    }
    if (!this.closed) this.#send({ frame: answer, delay: 0 }).catch(() => {});
  }

  #onClientResponse(frame: Frame): void {
    const response = frame.response;
    if (!isObject(response) || typeof response.request_id !== "string") return;
    const pending = this.#pending.get(response.request_id);
    if (!pending) return;
    this.#pending.delete(response.request_id);
    if (response.subtype === "success") {
      const body = response.response;
      if (body !== undefined && !isObject(body)) {
        pending.reject(
          new TurnFailure(
            `claude-mock: the client's answer to '${pending.subtype}' (request_id ${response.request_id}) is malformed: 'response.response' must be an object`,
          ),
        );
      } else pending.resolve(body ?? {});
    } else if (response.subtype === "error") {
      pending.reject(
        new TurnFailure(
          `claude-mock: the client answered control request '${pending.subtype}' with an error: ${
            String(response.error)
          }`,
        ),
      );
    } else {
      pending.reject(
        new TurnFailure(
          `claude-mock: the client's answer to '${pending.subtype}' (request_id ${response.request_id}) is malformed: 'response.subtype' must be "success" or "error", got ${
            JSON.stringify(response.subtype)
          }`,
        ),
      );
    }
  }

  // ---- turns ----------------------------------------------------------------------

  async #runConnect(): Promise<void> {
    const steps = this.scenario.onConnect;
    if (!steps || (Array.isArray(steps) && steps.length === 0)) return;
    try {
      for await (const step of iterate(steps, undefined)) {
        if (this.closed) return;
        if (step.kind === "emit") await this.#runEmit(step.frame, step.delay, undefined);
        else if (step.kind === "raw") await this.#send({ frame: { raw: step.line } });
        else if (step.kind === "delay") {
          await this.clock.sleep(step.ms * this.#speed, { signal: this.#abort.signal });
        } else {throw new TypeError(
            `onConnect supports emit, raw and delay steps, got '${step.kind}'`,
          );}
      }
    } catch (error) {
      if (!(error instanceof SessionEnded) && !this.#abort.signal.aborted) {
        this.#shutdown({ code: 1, signal: null }, true);
      }
    }
  }

  async #pump(): Promise<void> {
    if (this.#running || this.#exit) return;
    this.#running = true;
    try {
      await this.#ready;
      while (this.#queue.length > 0 && !this.closed) {
        await this.#runTurn(this.#queue.shift()!);
      }
    } finally {
      this.#running = false;
    }
    if (this.#queue.length > 0 && !this.closed) return void this.#pump();
    if (this.#inputClosed && !this.closed) {
      const code = this.scenario.exitCode ?? (this.#lastResultError ? 1 : 0);
      await this.#shutdown({ code, signal: null }, true);
    }
  }

  async #runTurn(input: UserFrame): Promise<void> {
    const text = frameText(input);
    const turn: TurnState = {
      index: this.#turnCount++,
      input,
      text,
      startedAt: this.clock.now(),
      calls: [],
      lastText: "",
      denials: [],
      resultSent: false,
      stopped: false,
      contentStarted: false,
      abort: new AbortController(),
    };
    this.#turn = turn;
    try {
      await this.#send({ frame: sessionStateChanged(this.ctx, "running"), delay: 0 });
      await this.#send({
        frame: systemInit(this.ctx, this.scenario.tools ? { tools: this.scenario.tools } : {}),
      });
      const found = this.#match(turn);
      let source: StepSource | undefined;
      let match: RegExpExecArray | undefined;
      if (found) {
        turn.exchange = found.exchange;
        if (found.exchange.timing) turn.profile = timingProfile(found.exchange.timing);
        source = found.exchange.steps;
        match = found.match;
      } else if (this.scenario.unmatched && this.scenario.unmatched !== "error") {
        source = this.scenario.unmatched;
      }
      if (!source) {
        await this.#sendResult(turn, {
          subtype: "error_during_execution",
          errors: [this.#unmatchedMessage(turn)],
        });
      } else {
        const info: TurnInfo = { input, text, turn: turn.index, ctx: this.ctx, match };
        let n = 0;
        for await (const step of iterate(source, info)) {
          n++;
          if (turn.abort.signal.aborted) throw turn.abort.signal.reason;
          await this.#runStep(step, turn, n);
          if (turn.stopped) break;
        }
      }
      if (turn.abort.signal.aborted) throw turn.abort.signal.reason;
      if (!turn.resultSent) await this.#sendResult(turn, {});
      await this.#send({ frame: sessionStateChanged(this.ctx, "idle"), delay: 0 });
    } catch (error) {
      if (error instanceof SessionEnded || this.closed) return;
      const reason = turn.abort.signal.aborted ? turn.abort.signal.reason : error;
      const message = reason instanceof TurnFailure
        ? reason.message
        : `claude-mock: a step of ${this.#exchangeName(turn)} failed: ${
          reason instanceof Error ? reason.message : String(reason)
        }`;
      try {
        if (!turn.resultSent) {
          await this.#sendResult(turn, { subtype: "error_during_execution", errors: [message] });
        }
        await this.#send({ frame: sessionStateChanged(this.ctx, "idle"), delay: 0 });
      } catch {
        // the process ended meanwhile
      }
    } finally {
      if (this.#turn === turn) this.#turn = undefined;
    }
  }

  #match(turn: TurnState): { exchange: Exchange; match?: RegExpExecArray } | undefined {
    const exchanges = this.scenario.exchanges;
    for (let i = 0; i < exchanges.length; i++) {
      const exchange = exchanges[i];
      if (this.#used.has(i) && !exchange.repeat) continue;
      if (!exchange.trigger.test(turn.text, turn.input)) continue;
      this.#used.add(i);
      return { exchange, match: exchange.trigger.exec?.(turn.text) ?? undefined };
    }
    return undefined;
  }

  #unmatchedMessage(turn: TurnState): string {
    const open = this.scenario.exchanges
      .filter((e, i) => e.repeat || !this.#used.has(i))
      .map((e) => e.trigger.description);
    const expected = open.length > 0
      ? `expected a message that ${open.join(", or ")}`
      : this.scenario.exchanges.length > 0
      ? "every exchange of the scenario was already used"
      : "the scenario has no exchanges";
    return `claude-mock: no exchange of scenario${this.#label()} matched user message ${
      JSON.stringify(truncate(turn.text, 200))
    } (turn ${turn.index + 1}): ${expected}`;
  }

  async #runStep(step: Step, turn: TurnState, n: number): Promise<void> {
    switch (step.kind) {
      case "emit":
        return this.#runEmit(step.frame, step.delay, turn);
      case "message":
        return this.#runMessage(step, turn);
      case "delay":
        return this.clock.sleep(step.ms * this.#speed, { signal: turn.abort.signal });
      case "raw":
        return this.#send({ frame: { raw: step.line } });
      case "result":
        return this.#sendResult(turn, step.options);
      case "waitForWrite":
        return this.#waitForWrite(step.matcher, step.timeoutMs, turn, n);
      case "request": {
        const response = await this.request(step.request, {
          timeoutMs: step.timeoutMs,
          signal: turn.abort.signal,
        });
        await step.onResponse?.(response);
        return;
      }
      case "exit":
        await this.#shutdown({ code: step.code, signal: null }, true);
        throw new SessionEnded();
      default:
        throw new TypeError(
          `unknown step kind ${JSON.stringify((step as { kind?: unknown }).kind)} (step ${n})`,
        );
    }
  }

  async #runEmit(
    frame: Frame | ((ctx: BuildContext) => Frame | Frame[]),
    delay: number | Delay | undefined,
    turn: TurnState | undefined,
  ): Promise<void> {
    const built = typeof frame === "function" ? frame(this.ctx) : frame;
    for (const f of Array.isArray(built) ? built : [built]) {
      if (!isObject(f) || typeof f.type !== "string") {
        throw new TypeError("an emitted frame must be an object with a string 'type'");
      }
      await this.#send({ frame: f, delay: delay ?? this.#delayFor(f, turn) });
    }
  }

  async #runMessage(step: MessageStep, turn: TurnState): Promise<void> {
    const maxTurns = this.flags.maxTurns;
    if (maxTurns !== undefined && turn.calls.length >= maxTurns) {
      await this.#sendResult(turn, {
        subtype: "error_max_turns",
        errors: [`Reached maximum number of turns (${maxTurns})`],
      });
      turn.stopped = true;
      return;
    }
    const blocks: AssistantContentBlock[] = [];
    const calls: ScriptedToolCall[] = [];
    for (const part of step.parts) {
      const value = typeof part === "function" ? part(this.ctx) : part;
      if (isToolCall(value)) {
        calls.push(value);
        blocks.push(value.block);
      } else blocks.push(value);
    }
    if (blocks.length === 0) throw new TypeError("a message step needs at least one part");
    const frames = assistantMessage(this.ctx, blocks, { messageId: step.messageId });
    const outputTokens = step.outputTokens ?? estimateTokens(blocks);
    const call: ApiCallUsage = {
      model: this.ctx.model,
      inputTokens: INPUT_TOKENS_PER_CALL,
      outputTokens,
    };
    turn.calls.push(call);
    this.#calls.push(call);
    let first = true;
    const delayOnce = (frame: Frame): number | Delay | undefined => {
      if (!first) return this.#delayFor(frame, turn);
      first = false;
      return step.delay ?? this.#delayFor(frame, turn);
    };
    const sequence: Iterable<Frame> = this.#partial()
      ? streamEvents(this.ctx, frames, { outputTokens })
      : frames;
    if (this.#partial()) {
      await this.#send({ frame: systemStatus(this.ctx, "requesting"), delay: 0 });
    }
    for (const frame of sequence) {
      if (turn.abort.signal.aborted) throw turn.abort.signal.reason;
      await this.#send({ frame, delay: delayOnce(frame) });
    }
    const said = blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
    if (said !== "") turn.lastText = said;
    for (const call of calls) {
      if (call.frames) {
        for (const frame of call.frames(this.ctx)) {
          if (turn.abort.signal.aborted) throw turn.abort.signal.reason;
          await this.#send({ frame, delay: this.#delayFor(frame, turn) });
        }
      }
      await this.#send({
        frame: toolResult(this.ctx, call.block.id, call.result),
        delay: this.#delayFor({ type: "user" }, turn),
      });
    }
  }

  async #sendResult(turn: TurnState, options: ResultOptions): Promise<void> {
    const subtype = options.subtype ?? "success";
    const isError = subtype !== "success" || (options.errors?.length ?? 0) > 0;
    const elapsed = Math.round(this.clock.now() - turn.startedAt);
    const frame = resultFrame(this.ctx, {
      subtype,
      isError,
      result: options.result ?? (subtype === "success" ? turn.lastText : undefined),
      errors: options.errors,
      maxTurns: this.flags.maxTurns,
      numTurns: turn.calls.length,
      durationMs: elapsed,
      durationApiMs: elapsed,
      apiCalls: turn.calls,
      modelUsage: modelUsage(this.#calls, { model: this.ctx.model }),
      modelUsageSinceLastResult: modelUsage(turn.calls, { model: this.ctx.model }),
      permissionDenials: turn.denials,
      stopReason: options.stopReason,
      terminalReason: options.terminalReason,
      totalCostUsd: options.totalCostUsd,
      resultIndex: this.#resultCount++,
      extra: options.extra,
    });
    turn.resultSent = true;
    this.#lastResultError = isError;
    await this.#send({ frame, delay: this.#delayFor(frame, turn) });
  }

  async #waitForWrite(
    matcher: Matcher,
    timeoutMs: number | undefined,
    turn: TurnState,
    n: number,
  ): Promise<void> {
    const ms = timeoutMs ?? this.#controlTimeoutMs;
    const check = (frame: Frame | undefined) =>
      frame !== undefined && matcher.test(frameText(frame), frame);
    const entries = this.writes.entries();
    for (let i = this.#waitCursor; i < entries.length; i++) {
      if (check(entries[i].frame)) {
        this.#waitCursor = i + 1;
        return;
      }
    }
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    turn.abort.signal.addEventListener("abort", onAbort, { once: true });
    this.#abort.signal.addEventListener("abort", onAbort, { once: true });
    let unsubscribe = () => {};
    try {
      await new Promise<void>((resolve, reject) => {
        unsubscribe = this.writes.subscribe((entry) => {
          if (check(entry.frame)) {
            this.#waitCursor = entry.index + 1;
            resolve();
          }
        });
        this.clock.timeout(ms, { signal: stop.signal }).then(
          () =>
            reject(
              new TurnFailure(
                `claude-mock: ${
                  this.#exchangeName(turn)
                } step ${n} waited ${ms} ms for the client to write a frame that ${matcher.description}, but it did not. ${
                  this.writes.describe(5)
                }`,
              ),
            ),
          () => reject(turn.abort.signal.aborted ? turn.abort.signal.reason : new SessionEnded()),
        );
      });
    } finally {
      unsubscribe();
      stop.abort();
      turn.abort.signal.removeEventListener("abort", onAbort);
      this.#abort.signal.removeEventListener("abort", onAbort);
    }
  }

  // ---- output ---------------------------------------------------------------------

  #partial(): boolean {
    return this.scenario.partialMessages ?? this.flags.includePartialMessages;
  }

  #delayFor(frame: Frame, turn: TurnState | undefined): number | Delay | undefined {
    const profile = turn?.profile;
    let delay: Delay | undefined = profile ? (profile.byType?.[frame.type] ?? profile) : undefined;
    if (
      turn && !turn.contentStarted && (frame.type === "assistant" || frame.type === "stream_event")
    ) {
      turn.contentStarted = true;
      const base = delay ?? this.#profile.byType?.[frame.type] ?? this.#profile;
      const first = (profile ?? this.#profile).firstFrameMs;
      if (first > 0) delay = { baseMs: base.baseMs + first, jitterMs: base.jitterMs };
    }
    return delay;
  }

  async #send(item: Outgoing): Promise<void> {
    if (this.#exiting || this.#exit) throw new SessionEnded();
    this.#sentCount++;
    if (this.#sent && typeof (item.frame as Frame).type === "string") {
      this.#sent.push(item.frame as Frame);
    }
    const crash = this.scenario.crashAfter;
    const write = this.#writer.write(item);
    if (crash && this.#sentCount >= crash.frames) {
      write.catch(() => {});
      await this.#shutdown({ code: crash.code, signal: null }, true);
      throw new SessionEnded();
    }
    try {
      await write;
    } catch {
      throw new SessionEnded();
    }
  }

  async #shutdown(status: ExitStatus, flush: boolean): Promise<void> {
    if (this.#exiting || this.#exit) return this.exited.then(() => {});
    this.#exiting = true;
    this.#turn?.abort.abort(new SessionEnded());
    for (const pending of this.#pending.values()) pending.reject(new SessionEnded());
    this.#pending.clear();
    this.#inputReader?.cancel().catch(() => {});
    if (flush) {
      try {
        await this.#writer.close();
      } catch {
        // the reader went away; nothing left to deliver
      }
    } else {
      this.#pace.terminate();
    }
    this.#abort.abort(new SessionEnded());
    this.#exit = status;
    this.#resolveExit(status);
  }

  #label(): string {
    return this.scenario.name ? ` '${this.scenario.name}'` : "";
  }

  #exchangeName(turn: TurnState): string {
    const i = turn.exchange ? this.scenario.exchanges.indexOf(turn.exchange) : -1;
    return i >= 0
      ? `exchange ${i + 1} (${turn.exchange!.trigger.description})`
      : "the unmatched answer";
  }
}

function iterate(
  source: StepSource,
  info: TurnInfo | undefined,
): Iterable<Step> | AsyncIterable<Step> {
  if (typeof source === "function") {
    if (!info) throw new TypeError("onConnect steps cannot be a function");
    const produced = source(info);
    if (
      !produced || (typeof (produced as Iterable<Step>)[Symbol.iterator] !== "function" &&
        typeof (produced as AsyncIterable<Step>)[Symbol.asyncIterator] !== "function")
    ) {
      throw new TypeError("a step source function must return an iterable of steps");
    }
    return produced;
  }
  return source;
}

function stamp(frame: Frame | RawLine, now: number): Frame | RawLine {
  if ("timestamp" in frame && typeof frame.timestamp === "string") {
    return { ...frame, timestamp: new Date(now).toISOString() };
  }
  return frame;
}

function estimateTokens(blocks: AssistantContentBlock[]): number {
  let chars = 0;
  for (const b of blocks) {
    if (b.type === "text") chars += b.text.length;
    else if (b.type === "thinking") chars += b.thinking.length;
    else if (b.type === "tool_use") chars += JSON.stringify(b.input).length;
  }
  return Math.max(1, Math.ceil(chars / 4));
}

function truncate(s: string, n: number): string {
  return s.length > n ? s.slice(0, n) + "…" : s;
}

function describeExit(exit: ExitStatus | undefined): string {
  if (!exit) return "exiting";
  return exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
}

function checkScenario(scenario: Scenario): void {
  if (!isObject(scenario)) {
    throw new TypeError("Cannot start a session: the scenario must be an object");
  }
  if (!Array.isArray(scenario.exchanges)) {
    throw new TypeError(
      `Cannot start a session${
        scenario.name ? ` for '${scenario.name}'` : ""
      }: 'exchanges' must be an array`,
    );
  }
  scenario.exchanges.forEach((e, i) => {
    if (!isObject(e) || !e.trigger || typeof (e.trigger as Matcher).test !== "function") {
      throw new TypeError(`Cannot start a session: 'exchanges[${i}].trigger' must be a Matcher`);
    }
    if (!Array.isArray(e.steps) && typeof e.steps !== "function") {
      throw new TypeError(
        `Cannot start a session: 'exchanges[${i}].steps' must be an array or a function`,
      );
    }
  });
}
