/**
 * The engine: runs a {@linkcode Scenario} against a duplex of Web Streams the way the
 * real `claude` process runs a conversation over stream-json.
 *
 * @module
 */

import {
  apiErrorMessage,
  assistantMessage,
  type AssistantMessageError,
} from "../builders/assistant.ts";
import { type BuildContext, createBuildContext, DEFAULT_MODEL } from "../builders/build_context.ts";
import {
  canUseToolRequest,
  controlError,
  controlRequest,
  controlSuccess,
  hookCallbackRequest,
  hookInput,
  initializeResponse,
  mcpToolCallRequest,
} from "../builders/control.ts";
import type {
  PermissionDecision,
  PermissionDecisionName,
  ToolResultContent,
} from "../builders/user.ts";
import { defaultTools, resolveModel } from "../builders/inventory.ts";
import { type PermissionDenial, resultFrame } from "../builders/result.ts";
import type { ApiCallUsage } from "../builders/usage.ts";
import { apiCallCost, modelUsage } from "../builders/usage.ts";
import { abortedStreamEnd, streamEvents, thinkingTokenFrames } from "../builders/stream_events.ts";
import {
  apiRetry,
  PERMISSION_MODES,
  type PermissionMode,
  sessionStateChanged,
  systemInit,
  systemStatus,
} from "../builders/system.ts";
import { toolResult, userText } from "../builders/user.ts";
import { IdGenerator } from "../builders/ids.ts";
import { Pcg32 } from "../random/pcg32.ts";
import { frameText, type Matcher } from "../scenario/matcher.ts";
import type { Exchange, Scenario } from "../scenario/scenario.ts";
import {
  decidePermission,
  INTERACTIVE_TOOLS,
  rulesFromSettings,
  type RuleSource,
} from "../scenario/permission_rules.ts";
import {
  type ApiErrorStep,
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
  type AssistantFrame,
  type ControlRequestFrame,
  type Frame,
  isObject,
  type RawLine,
  type ToolUseBlock,
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
  answer?: { success: true; response?: Record<string, unknown> } | {
    success: false;
    error: string;
  };
}

/** Answers one subtype of control request from the client. */
export type ControlHandler = (
  request: Record<string, unknown>,
  session: Session,
) => Record<string, unknown> | undefined | Promise<Record<string, unknown> | undefined>;

/**
 * Thrown by a {@linkcode ControlHandler} to answer with an error response carrying extra
 * fields (`error_code`, ...), as the real CLI does.
 *
 * @example An error answer with a code
 * ```ts
 * import { ControlError } from "@x/claude-mock";
 * const error = new ControlError("Model 'x' not found", { error_code: "not_found" });
 * console.log(error.fields.error_code); // not_found
 * ```
 */
export class ControlError extends Error {
  /** Extra fields of the error response. */
  readonly fields: Record<string, unknown>;
  /** Creates the error. */
  constructor(message: string, fields: Record<string, unknown> = {}) {
    super(message);
    this.name = "ControlError";
    this.fields = fields;
  }
}

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
  promptId: string;
  streaming?: StreamProgress;
  continuation?: StepSource;
  /** A PreToolUse hook answered `continue: false`: the turn ends after this message's tools. */
  hookStop?: boolean;
  /** The can_use_tool request the turn waits on (an interrupt cancels it). */
  pendingPermission?: { requestId: string; block: ToolUseBlock };
  /** The tool use an interrupt rejected while its permission was pending. */
  rejectedTool?: ToolUseBlock;
}

/** How far an assistant message got, so an interrupt can close it like the real CLI. */
interface StreamProgress {
  frames: AssistantFrame[];
  partial: boolean;
  /** Index of the content block whose stream is open (-1: none). */
  blockIndex: number;
  /** Text streamed so far in the open block. */
  text: string;
}

/** What the checks before a tool use decided. */
type ToolDecision =
  | {
    kind: "allow";
    input: Record<string, unknown>;
    meta: PermissionDecisionName | PermissionDecision;
  }
  | {
    kind: "deny";
    message: string;
    meta: PermissionDecisionName | PermissionDecision;
    nonExecutionKind?: string;
  };

/** The reason a turn is aborted by the client's `interrupt`. */
class Interrupted extends Error {
  constructor() {
    super("Request interrupted by user");
    this.name = "Interrupted";
  }
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
const REJECTED_TOOL_USE =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
const API_ERROR_NAMES: Record<number, string> = {
  400: "invalid_request",
  401: "authentication_failed",
  429: "rate_limit",
  500: "server_error",
  529: "overloaded",
};
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
  #context: string[] = [];
  #jsonRpcId = 2;
  #maxThinkingTokens: number | null = null;

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
        ...initializeResponse(this.ctx, { hooksApplied: isObject(request.hooks) }),
        ...(scenario.initialize ?? {}),
      };
    });

    this.#installHandlers();
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
    request: { subtype: string; [key: string]: unknown } | ControlRequestFrame,
    options: { timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<Record<string, unknown>> {
    const frame: ControlRequestFrame =
      request.type === "control_request" && isObject(request.request)
        ? request as ControlRequestFrame
        : controlRequest(this.ctx, request as { subtype: string });
    request = frame.request;
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

  /** Additional context hooks returned (PostToolUse, UserPromptSubmit, ...), in order. */
  hookContext(): string[] {
    return [...this.#context];
  }

  #installHandlers(): void {
    const h = this.#handlers;
    h.set("interrupt", async () => {
      const turn = this.#turn;
      if (turn && !turn.resultSent && !turn.abort.signal.aborted) {
        const pending = turn.pendingPermission;
        if (pending) {
          // the real CLI withdraws the open permission question first
          await this.#send({
            frame: { type: "control_cancel_request", request_id: pending.requestId },
            delay: 0,
          });
        }
        turn.abort.abort(new Interrupted());
      }
      return { still_queued: [] };
    });
    h.set("set_permission_mode", (request) => {
      const mode = request.mode;
      if (typeof mode !== "string" || !PERMISSION_MODES.includes(mode as never)) {
        throw new RangeError(
          `Invalid permission mode ${JSON.stringify(mode)}: expected one of ${
            PERMISSION_MODES.join(", ")
          }`,
        );
      }
      this.ctx.permissionMode = mode;
      queueMicrotask(() => {
        if (!this.closed) {
          this.#send({
            frame: systemStatus(this.ctx, null, { permissionMode: mode as PermissionMode }),
            delay: 0,
          })
            .catch(() => {});
        }
      });
      return { mode };
    });
    h.set("set_model", async (request) => {
      const wanted = request.model;
      if (wanted === undefined || wanted === null) {
        this.ctx.model = DEFAULT_MODEL;
        return { model: DEFAULT_MODEL };
      }
      const model = wanted === "default"
        ? DEFAULT_MODEL
        : typeof wanted === "string" && wanted !== ""
        ? resolveModel(wanted) ?? (this.scenario.models?.includes(wanted) ? wanted : undefined)
        : undefined;
      if (model === undefined) {
        throw new ControlError(
          wanted === ""
            ? 'Model "(unrecognized model name)" is not a recognized model id. Run /model to see available models.'
            : `Model '${String(wanted)}' not found`,
          { error_code: wanted === "" ? "catalog_unknown" : "not_found", model: this.ctx.model },
        );
      }
      this.ctx.model = model;
      const shown = typeof wanted === "string" && wanted !== model && wanted !== "default"
        ? `${wanted} (${model})`
        : model;
      await this.#send({
        frame: userText(
          this.ctx,
          `<local-command-stdout>Set model to \`${shown}\`</local-command-stdout>`,
          {
            isReplay: true,
          },
        ),
        delay: 0,
      });
      return { model };
    });
    h.set("set_max_thinking_tokens", (request) => {
      const tokens = request.max_thinking_tokens;
      if (
        tokens !== null && (typeof tokens !== "number" || !Number.isInteger(tokens) || tokens < 0)
      ) {
        throw new RangeError(
          "Invalid 'max_thinking_tokens': expected a non-negative integer or null",
        );
      }
      this.#maxThinkingTokens = tokens as number | null;
      return undefined;
    });
    h.set("mcp_status", () => ({
      mcpServers: this.#sdkMcpServers().map((name) => ({
        name,
        status: "connected",
        serverInfo: { name, version: "1.0.0" },
        scope: "sdk",
        tools: this.#mcpToolsOf(name),
      })),
    }));
    h.set("get_context_usage", () => this.#contextUsage());
    h.set("get_settings", () => ({
      permissions: rulesFromSettings(this.flags.settings),
      model: this.ctx.model,
      permissionMode: this.ctx.permissionMode,
    }));
    h.set("get_session_cost", () => ({
      total_cost_usd: this.#calls.reduce((sum, call) => sum + apiCallCost(this.ctx.model, call), 0),
      num_api_calls: this.#calls.length,
    }));
    h.set(
      "rewind_files",
      () => ({ canRewind: false, error: "No file checkpoints in a claude-mock session" }),
    );
  }

  /** What the real CLI appends to an error of a deferred (not always loaded) SDK MCP tool. */
  #deferredSchemaHint(server: string, tool: string): string {
    const manifests = this.initializeRequest?.sdkMcpServerManifests;
    const tools = isObject(manifests) && isObject(manifests[server])
      ? (manifests[server] as { toolsListResult?: { tools?: unknown } }).toolsListResult?.tools
      : undefined;
    const name = tool.split("__").slice(2).join("__");
    const found = Array.isArray(tools)
      ? tools.find((t) => isObject(t) && t.name === name)
      : undefined;
    if (!isObject(found)) return "";
    const meta = isObject(found._meta) ? found._meta : {};
    if (meta["anthropic/alwaysLoad"] === true || !isObject(found.inputSchema)) return "";
    const { $schema, ...schema } = found.inputSchema;
    const shown = JSON.stringify($schema === undefined ? schema : { ...schema, $schema });
    return `\n\nThis tool's input schema was not in your prompt when you called it. The input schema is: ${shown}\nIf your input does not match this schema, correct it and call the tool again. If it matches, the error above has another cause. If the corrected call fails the same way, call ToolSearch with query "select:${tool}" to load the tool, then call it again.`;
  }

  #mcpToolsOf(server: string): Array<{ name: string; description?: string }> {
    const manifests = this.initializeRequest?.sdkMcpServerManifests;
    const tools = isObject(manifests) && isObject(manifests[server])
      ? (manifests[server] as { toolsListResult?: { tools?: unknown } }).toolsListResult?.tools
      : undefined;
    if (!Array.isArray(tools)) return [];
    return tools.filter(isObject).map((t) => ({
      name: String(t.name),
      ...(typeof t.description === "string" ? { description: t.description } : {}),
    }));
  }

  #contextUsage(): Record<string, unknown> {
    const window = 1_000_000;
    const messages = this.#calls.reduce(
      (sum, c) => sum + (c.inputTokens ?? 0) + (c.outputTokens ?? 0),
      0,
    );
    const system = 3000;
    const tools = 12000;
    const total = system + tools + messages;
    const pct = (n: number) => Math.round((n / window) * 10000) / 100;
    return {
      categories: [
        { name: "System prompt", tokens: system, color: "promptBorder" },
        { name: "System tools", tokens: tools, color: "inactive" },
        { name: "Messages", tokens: messages, color: "purple_FOR_SUBAGENTS_ONLY" },
        { name: "Free space", tokens: window - total, color: "promptBorder" },
      ],
      totalTokens: total,
      maxTokens: window,
      rawMaxTokens: window,
      percentage: pct(total),
      model: this.ctx.model,
      memoryFiles: [],
      mcpTools: this.#sdkMcpServers().flatMap((server) =>
        this.#mcpToolsOf(server).map((t) => ({
          name: `mcp__${server}__${t.name}`,
          serverName: server,
          tokens: 100,
        }))
      ),
      agents: [],
      isAutoCompactEnabled: true,
      maxThinkingTokens: this.#maxThinkingTokens,
    };
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
        answer = { ...controlError(requestId, error) };
        (answer.response as Record<string, unknown>).error_code = "unsupported_request";
      } else {
        try {
          const response = await handler(request, this);
          record.answer = response === undefined ? { success: true } : { success: true, response };
          answer = controlSuccess(requestId, response);
        } catch (error) {
          const text = error instanceof Error ? error.message : String(error);
          record.answer = { success: false, error: text };
          answer = controlError(requestId, text);
          if (error instanceof ControlError) {
            Object.assign(answer.response as Record<string, unknown>, error.fields);
          }
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
      promptId: this.ctx.ids.uuid(),
    };
    this.#turn = turn;
    try {
      await this.#send({ frame: sessionStateChanged(this.ctx, "running"), delay: 0 });
      for (const callbackId of this.#hookCallbacks("UserPromptSubmit")) {
        const output = await this.#callHook(callbackId, {
          hook_event_name: "UserPromptSubmit",
          prompt: text,
        }, turn);
        const specific = isObject(output.hookSpecificOutput) ? output.hookSpecificOutput : {};
        if (typeof specific.additionalContext === "string") {
          this.#context.push(specific.additionalContext);
        }
        if (output.continue === false || output.decision === "block") {
          await this.#send({ frame: this.#initFrame() });
          const reason = String(output.stopReason ?? output.reason ?? "");
          await this.#stopByHook(turn, reason);
          await this.#send({ frame: sessionStateChanged(this.ctx, "idle"), delay: 0 });
          return;
        }
      }
      await this.#send({ frame: this.#initFrame() });
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
        let steps: StepSource | undefined = source;
        while (steps) {
          const current = steps;
          steps = undefined;
          for await (const step of iterate(current, info)) {
            n++;
            if (turn.abort.signal.aborted) throw turn.abort.signal.reason;
            await this.#runStep(step, turn, n);
            if (turn.stopped) break;
            if (turn.continuation) {
              // a denied tool use carried its own continuation: it replaces the rest
              steps = turn.continuation;
              turn.continuation = undefined;
              break;
            }
          }
        }
      }
      if (turn.abort.signal.aborted) throw turn.abort.signal.reason;
      if (!turn.resultSent) {
        await this.#stopHooks(turn);
        if (!turn.resultSent) await this.#sendResult(turn, {});
      }
      await this.#send({ frame: sessionStateChanged(this.ctx, "idle"), delay: 0 });
    } catch (error) {
      if (error instanceof SessionEnded || this.closed) return;
      const reason = turn.abort.signal.aborted ? turn.abort.signal.reason : error;
      try {
        if (reason instanceof Interrupted) {
          await this.#interruptTail(turn);
        } else if (!turn.resultSent) {
          const message = reason instanceof TurnFailure
            ? reason.message
            : `claude-mock: a step of ${this.#exchangeName(turn)} failed: ${
              reason instanceof Error ? reason.message : String(reason)
            }`;
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

  /** The frames the real CLI writes after an `interrupt`, then the aborted result. */
  async #interruptTail(turn: TurnState): Promise<void> {
    const progress = turn.streaming;
    turn.streaming = undefined;
    const rejected = turn.rejectedTool;
    if (rejected) {
      await this.#send({
        frame: toolResult(this.ctx, rejected.id, {
          content: REJECTED_TOOL_USE,
          isError: true,
          toolUseResult: "User rejected tool use",
          permissionDecision: null,
          extra: { tool_result_meta: [{ id: rejected.id, non_execution_kind: "user-rejected" }] },
        }),
        delay: 0,
      });
      await this.#send({
        frame: userText(this.ctx, "[Request interrupted by user for tool use]"),
        delay: 0,
      });
      await this.#sendResult(turn, {
        subtype: "error_during_execution",
        errors: ["[ede_diagnostic] result_type=user last_content_type=n/a stop_reason=tool_use"],
        terminalReason: "aborted_tools",
        stopReason: "tool_use",
      }, { numTurns: turn.calls.length + 2 });
      return;
    }
    if (progress && progress.partial && progress.blockIndex >= 0) {
      const message = progress.frames[0];
      const partialText = progress.text;
      if (partialText !== "") {
        const [frame] = assistantMessage(this.ctx, partialText, {
          messageId: message.message.id,
          requestId: typeof message.request_id === "string" ? message.request_id : undefined,
          aborted: true,
        });
        await this.#send({ frame, delay: 0 });
      }
      await this.#send({ frame: userText(this.ctx, "[Request interrupted by user]"), delay: 0 });
      for (
        const frame of abortedStreamEnd(this.ctx, message, {
          openBlockIndex: progress.blockIndex,
          abandonedFromIndex: progress.blockIndex + 1,
        })
      ) {
        await this.#send({ frame, delay: 0 });
      }
    } else {
      await this.#send({ frame: userText(this.ctx, "[Request interrupted by user]"), delay: 0 });
    }
    await this.#sendResult(turn, {
      subtype: "error_during_execution",
      errors: ["[ede_diagnostic] result_type=user last_content_type=n/a stop_reason=null"],
      terminalReason: "aborted_streaming",
      stopReason: null,
    }, { numTurns: turn.calls.length + 1, apiCalls: [] });
  }

  async #stopHooks(turn: TurnState): Promise<void> {
    for (const callbackId of this.#hookCallbacks("Stop")) {
      const output = await this.#callHook(callbackId, {
        hook_event_name: "Stop",
        stop_hook_active: false,
        last_assistant_message: turn.lastText,
        background_tasks: [],
        session_crons: [],
      }, turn);
      if (output.continue === false) {
        await this.#stopByHook(turn, String(output.stopReason ?? ""));
        return;
      }
    }
  }

  #initFrame(): Frame {
    const servers = this.#sdkMcpServers();
    const manifests = this.initializeRequest?.sdkMcpServerManifests;
    const mcpTools: string[] = [];
    for (const server of servers) {
      const tools = isObject(manifests) && isObject(manifests[server])
        ? (manifests[server] as { toolsListResult?: { tools?: unknown } }).toolsListResult?.tools
        : undefined;
      if (Array.isArray(tools)) {
        for (const tool of tools) {
          if (isObject(tool) && typeof tool.name === "string") {
            mcpTools.push(`mcp__${server}__${tool.name}`);
          }
        }
      }
    }
    return systemInit(this.ctx, {
      tools: this.scenario.tools ??
        defaultTools({ canUseTool: this.flags.permissionPromptTool === "stdio", mcpTools }),
      ...(servers.length > 0
        ? { mcpServers: servers.map((name) => ({ name, status: "connected", source: "sdk" })) }
        : {}),
    });
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
      case "apiError":
        return this.#runApiError(step, turn);
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
      // The real CLI counts the turn it refuses to start and reports the last stop reason.
      await this.#sendResult(turn, {
        subtype: "error_max_turns",
        errors: [`Reached maximum number of turns (${maxTurns})`],
        stopReason: "tool_use",
      }, { numTurns: turn.calls.length + 1 });
      turn.stopped = true;
      return;
    }
    const blocks: AssistantContentBlock[] = [];
    const calls = new Map<string, ScriptedToolCall>();
    for (const part of step.parts) {
      const value = typeof part === "function" ? part(this.ctx) : part;
      if (isToolCall(value)) {
        calls.set(value.block.id, value);
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
    const partial = this.#partial();
    const sequence: Iterable<Frame> = partial
      ? streamEvents(this.ctx, frames, { outputTokens })
      : withThinkingTokens(this.ctx, frames);
    const progress: StreamProgress = { frames, partial, blockIndex: -1, text: "" };
    turn.streaming = progress;
    if (partial) {
      await this.#send({ frame: systemStatus(this.ctx, "requesting"), delay: 0 });
    }
    const authorized: Array<{ call: ScriptedToolCall; decision: ToolDecision }> = [];
    for (const frame of sequence) {
      if (turn.abort.signal.aborted) throw turn.abort.signal.reason;
      await this.#send({ frame, delay: delayOnce(frame) });
      trackProgress(progress, frame);
      if (frame.type !== "assistant") continue;
      const block = (frame as AssistantFrame).message.content[0];
      if (block?.type !== "tool_use") continue;
      const scripted = calls.get(block.id);
      if (!scripted) continue;
      // As the real CLI: each tool use is checked right after its own assistant frame.
      const decision = await this.#authorize(scripted, turn);
      authorized.push({ call: scripted, decision });
    }
    turn.streaming = undefined;
    const said = blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
    if (said !== "") turn.lastText = said;
    for (const { call: scripted, decision } of authorized) {
      if (turn.abort.signal.aborted) throw turn.abort.signal.reason;
      if (decision.kind === "deny") {
        turn.denials.push({
          tool_name: scripted.block.name,
          tool_use_id: scripted.block.id,
          tool_input: scripted.block.input,
        });
        await this.#send({
          frame: toolResult(this.ctx, scripted.block.id, {
            content: decision.message,
            isError: true,
            permissionDecision: decision.meta,
            ...(decision.nonExecutionKind ? { nonExecutionKind: decision.nonExecutionKind } : {}),
          }),
          delay: this.#delayFor({ type: "user" }, turn),
        });
        if (scripted.ifDenied && !turn.continuation) turn.continuation = scripted.ifDenied;
        continue;
      }
      const started = this.clock.now();
      const result = await this.#execute(scripted, decision.input, turn);
      await this.#postToolHooks(
        scripted,
        decision.input,
        result,
        Math.round(this.clock.now() - started),
        turn,
      );
      await this.#send({
        frame: toolResult(this.ctx, scripted.block.id, {
          ...result,
          permissionDecision: result.permissionDecision !== undefined
            ? result.permissionDecision
            : decision.meta,
        }),
        delay: this.#delayFor({ type: "user" }, turn),
      });
    }
    if (turn.hookStop && !turn.resultSent) {
      turn.stopped = true;
      await this.#sendResult(turn, {
        result: "",
        stopReason: "tool_use",
        terminalReason: "hook_stopped",
      }, { numTurns: turn.calls.length + 1 });
    }
  }

  async #runApiError(step: ApiErrorStep, turn: TurnState): Promise<void> {
    const retries = step.retries ?? 0;
    const errorName = API_ERROR_NAMES[step.status] ?? "unknown";
    for (let attempt = 1; attempt <= retries; attempt++) {
      const retryDelayMs = step.retryDelayMs ?? 500;
      await this.#send({
        frame: apiRetry(this.ctx, {
          attempt,
          maxRetries: 10,
          retryDelayMs,
          errorStatus: step.status,
          error: errorName as AssistantMessageError,
        }),
        delay: 0,
      });
      await this.clock.sleep(retryDelayMs * this.#speed, { signal: turn.abort.signal });
    }
    if (step.recovers) return;
    await this.#send({
      frame: apiErrorMessage(
        this.ctx,
        step.status,
        step.message !== undefined ? { message: step.message } : {},
      ),
      delay: this.#delayFor({ type: "assistant" }, turn),
    });
    await this.#sendResult(turn, { apiErrorStatus: step.status }, {
      numTurns: turn.calls.length + 1,
      apiCalls: [],
    });
    turn.stopped = true;
  }

  /** PreToolUse hooks, then the permission rules, then (when asked for) `can_use_tool`. */
  async #authorize(call: ScriptedToolCall, turn: TurnState): Promise<ToolDecision> {
    const block = call.block;
    let input = block.input;
    let hookDecision: "allow" | "ask" | undefined;
    for (const callbackId of this.#hookCallbacks("PreToolUse", block.name)) {
      const output = await this.#callHook(
        callbackId,
        {
          hook_event_name: "PreToolUse",
          tool_name: block.name,
          tool_input: input,
          tool_use_id: block.id,
        },
        turn,
        block.id,
      );
      // As the real CLI: `continue: false` lets this tool use go on (asked and run as usual)
      // and ends the turn after the message's tools, with no further API call.
      if (output.continue === false) turn.hookStop = true;
      const specific = isObject(output.hookSpecificOutput) ? output.hookSpecificOutput : {};
      const decision = specific.permissionDecision ??
        (output.decision === "block" ? "deny" : undefined);
      if (isObject(specific.updatedInput)) input = specific.updatedInput;
      if (typeof specific.additionalContext === "string") {
        this.#context.push(specific.additionalContext);
      }
      if (decision === "deny") {
        const reason = String(
          specific.permissionDecisionReason ?? output.reason ?? "blocked by hook",
        );
        return {
          kind: "deny",
          message: `PreToolUse:${block.name} hook error: ${reason}`,
          meta: { decision: "reject", source: "hook", reason_type: "hook" },
          nonExecutionKind: "permission-rule",
        };
      }
      if (decision === "allow" || decision === "ask") hookDecision = decision;
    }
    if (hookDecision === "allow" && call.permission !== "deny") {
      return { kind: "allow", input, meta: "hookAllowed" };
    }
    const verdict = call.permission
      ? { behavior: call.permission, reason: "rule" as const }
      : hookDecision === "ask"
      ? { behavior: "ask" as const, reason: "rule" as const }
      : decidePermission(block.name, input, {
        mode: this.ctx.permissionMode,
        sources: this.#ruleSources(),
      });
    if (verdict.behavior === "deny") {
      return {
        kind: "deny",
        message: `Permission to use ${block.name} has been denied.`,
        meta: { decision: "reject", source: "config" },
      };
    }
    if (verdict.behavior === "allow") {
      return {
        kind: "allow",
        input,
        meta: verdict.reason === "readOnly"
          ? "readOnlyAllowed"
          : verdict.reason === "mode"
          ? "modeAllowed"
          : "configAllowed",
      };
    }
    if (this.flags.permissionPromptTool !== "stdio") {
      // No canUseTool in the SDK: the real CLI cannot ask anyone and refuses.
      return {
        kind: "deny",
        message:
          `Claude requested permissions to use ${block.name}, but you haven't granted it yet.`,
        meta: "userDenied",
      };
    }
    const rule = "rule" in verdict ? verdict.rule : undefined;
    const source = "source" in verdict ? verdict.source : undefined;
    const blockedPath = block.name === "Bash" && rule === undefined
      ? blockedPathOf(input.command, this.ctx.cwd)
      : undefined;
    const request = canUseToolRequest(this.ctx, { ...block, input }, {
      ...(rule !== undefined ? { decisionReasonType: "rule" as const } : {}),
      ...(source !== undefined ? { decisionReasonRuleSource: source } : {}),
      ...(rule !== undefined && !block.name.startsWith("mcp__")
        ? { serverPolicyAskOnly: false }
        : {}),
      ...(INTERACTIVE_TOOLS.has(block.name) ? { requiresUserInteraction: true } : {}),
      ...(blockedPath !== undefined
        ? {
          blockedPath,
          permissionSuggestions: [
            {
              type: "addRules" as const,
              rules: [{ toolName: "Bash", ruleContent: String(input.command) }],
              behavior: "allow" as const,
              destination: "localSettings" as const,
            },
            {
              type: "addDirectories" as const,
              directories: [this.ctx.cwd],
              destination: "session" as const,
            },
            {
              type: "setMode" as const,
              mode: "acceptEdits" as const,
              destination: "session" as const,
            },
          ],
        }
        : {}),
    });
    await this.#send({ frame: sessionStateChanged(this.ctx, "requires_action"), delay: 0 });
    turn.pendingPermission = { requestId: request.request_id, block };
    let answer: Record<string, unknown>;
    try {
      answer = await this.request(request, { signal: turn.abort.signal });
    } catch (error) {
      if (turn.abort.signal.reason instanceof Interrupted) {
        turn.rejectedTool = block;
        turn.denials.push({ tool_name: block.name, tool_use_id: block.id, tool_input: input });
        await this.#send({ frame: sessionStateChanged(this.ctx, "running"), delay: 0 });
      }
      throw error;
    } finally {
      turn.pendingPermission = undefined;
    }
    await this.#send({ frame: sessionStateChanged(this.ctx, "running"), delay: 0 });
    const where = `the client's answer to can_use_tool for ${block.name} (tool_use_id ${block.id})`;
    if (answer.behavior === "allow") {
      if (answer.updatedInput !== undefined && !isObject(answer.updatedInput)) {
        throw new TurnFailure(
          `claude-mock: ${where} is malformed: 'response.updatedInput' must be an object`,
        );
      }
      return {
        kind: "allow",
        input: (answer.updatedInput as Record<string, unknown>) ?? input,
        meta: "userAllowed",
      };
    }
    if (answer.behavior === "deny") {
      if (typeof answer.message !== "string") {
        throw new TurnFailure(
          `claude-mock: ${where} is malformed: 'response.message' must be a string`,
        );
      }
      if (answer.interrupt === true) turn.abort.abort(new Interrupted());
      return { kind: "deny", message: answer.message, meta: "userDenied" };
    }
    throw new TurnFailure(
      `claude-mock: ${where} is malformed: 'response.behavior' must be "allow" or "deny", got ${
        JSON.stringify(answer.behavior)
      }`,
    );
  }

  /** Runs a tool: an in-process MCP tool through `mcp_message`, else its scripted result. */
  async #execute(
    call: ScriptedToolCall,
    input: Record<string, unknown>,
    turn: TurnState,
  ): Promise<ScriptedToolCall["result"]> {
    const block = call.block;
    const changed = input !== block.input && JSON.stringify(input) !== JSON.stringify(block.input);
    const server = mcpServerOf(block.name);
    if (server && this.#sdkMcpServers().includes(server)) {
      const request = mcpToolCallRequest(this.ctx, { ...block, input }, {
        jsonRpcId: this.#jsonRpcId++,
      });
      const answer = await this.request(request, { signal: turn.abort.signal });
      const where = `the client's answer to mcp_message tools/call for ${block.name}`;
      const message = answer.mcp_response;
      if (!isObject(message)) {
        throw new TurnFailure(
          `claude-mock: ${where} is malformed: 'response.mcp_response' must be an object`,
        );
      }
      if (isObject(message.error)) {
        const text = `MCP error ${message.error.code ?? ""}: ${
          message.error.message ?? "unknown error"
        }`.trim();
        return { content: text, isError: true, toolUseResult: `Error: ${text}` };
      }
      const result = message.result;
      if (!isObject(result) || !Array.isArray(result.content)) {
        throw new TurnFailure(
          `claude-mock: ${where} is malformed: 'response.mcp_response.result.content' must be an array`,
        );
      }
      if (result.isError === true) {
        const said = (result.content as Array<{ type?: string; text?: string }>)
          .map((b) => (b.type === "text" ? b.text ?? "" : "")).join("\n");
        return {
          content: `Error: ${said}${this.#deferredSchemaHint(server, block.name)}`,
          isError: true,
          toolUseResult: `Error: Error: ${said}`,
        };
      }
      return {
        content: result.content as ToolResultContent,
        isError: false,
        toolUseResult: result.content,
      };
    }
    if (call.frames) {
      for (const frame of call.frames(this.ctx)) {
        if (turn.abort.signal.aborted) throw turn.abort.signal.reason;
        await this.#send({ frame, delay: this.#delayFor(frame, turn) });
      }
    }
    return changed && call.rerun ? call.rerun(input, this.ctx) : call.result;
  }

  async #postToolHooks(
    call: ScriptedToolCall,
    input: Record<string, unknown>,
    result: ScriptedToolCall["result"],
    durationMs: number,
    turn: TurnState,
  ): Promise<void> {
    const block = call.block;
    const event = result.isError ? "PostToolUseFailure" : "PostToolUse";
    for (const callbackId of this.#hookCallbacks(event, block.name)) {
      const output = await this.#callHook(
        callbackId,
        {
          hook_event_name: event,
          tool_name: block.name,
          tool_input: input,
          ...(result.isError
            ? {
              error: typeof result.content === "string"
                ? result.content
                : JSON.stringify(result.content),
            }
            : { tool_response: result.toolUseResult ?? result.content }),
          tool_use_id: block.id,
          duration_ms: durationMs,
        },
        turn,
        block.id,
      );
      const specific = isObject(output.hookSpecificOutput) ? output.hookSpecificOutput : {};
      if (typeof specific.additionalContext === "string") {
        this.#context.push(specific.additionalContext);
      }
    }
  }

  /** The hook callback ids the client registered for `event` whose matcher covers `tool`. */
  #hookCallbacks(event: string, tool?: string): string[] {
    const hooks = this.initializeRequest?.hooks;
    if (!isObject(hooks)) return [];
    const matchers = hooks[event];
    if (!Array.isArray(matchers)) return [];
    const ids: string[] = [];
    for (const m of matchers) {
      if (!isObject(m) || !Array.isArray(m.hookCallbackIds)) continue;
      if (
        tool !== undefined && typeof m.matcher === "string" && m.matcher !== "" && m.matcher !== "*"
      ) {
        let re: RegExp;
        try {
          re = new RegExp(`^(?:${m.matcher})$`);
        } catch {
          continue;
        }
        if (!re.test(tool)) continue;
      }
      for (const id of m.hookCallbackIds) if (typeof id === "string") ids.push(id);
    }
    return ids;
  }

  async #callHook(
    callbackId: string,
    event: { hook_event_name: string; [key: string]: unknown },
    turn: TurnState,
    toolUseId?: string,
  ): Promise<Record<string, unknown>> {
    const input = hookInput(this.ctx, event, { promptId: turn.promptId });
    // the real CLI reports the effort level to tool and stop hooks, not to prompt hooks
    if (event.hook_event_name === "UserPromptSubmit") delete input.effort;
    const request = hookCallbackRequest(this.ctx, callbackId, {
      input,
      // hooks that are not about a tool carry a fresh uuid there, as the real CLI's do
      toolUseId: toolUseId ?? this.ctx.ids.uuid(),
    });
    return await this.request(request, { signal: turn.abort.signal });
  }

  async #stopByHook(turn: TurnState, reason: string): Promise<void> {
    turn.stopped = true;
    await this.#sendResult(turn, {
      subtype: "success",
      result: reason,
      terminalReason: "hook_stopped",
      stopReason: null,
    });
  }

  #ruleSources(): RuleSource[] {
    const sources: RuleSource[] = [];
    if (this.scenario.permissions) {
      sources.push({ rules: this.scenario.permissions, source: "scenario" });
    }
    const settings = rulesFromSettings(this.flags.settings);
    if (settings.allow || settings.ask || settings.deny) {
      sources.push({ rules: settings, source: "flagSettings" });
    }
    if (this.flags.allowedTools.length > 0 || this.flags.disallowedTools.length > 0) {
      sources.push({
        rules: { allow: this.flags.allowedTools, deny: this.flags.disallowedTools },
        source: "cliArg",
      });
    }
    return sources;
  }

  #sdkMcpServers(): string[] {
    const servers = this.initializeRequest?.sdkMcpServers;
    return Array.isArray(servers) ? servers.filter((s): s is string => typeof s === "string") : [];
  }

  async #sendResult(
    turn: TurnState,
    options: ResultOptions,
    override: { numTurns?: number; apiCalls?: ApiCallUsage[] } = {},
  ): Promise<void> {
    const subtype = options.subtype ?? "success";
    const isError = subtype !== "success" || (options.errors?.length ?? 0) > 0 ||
      options.apiErrorStatus !== undefined;
    const elapsed = Math.round(this.clock.now() - turn.startedAt);
    const frame = resultFrame(this.ctx, {
      subtype,
      isError,
      result: options.result ?? (subtype === "success" ? turn.lastText : undefined),
      errors: options.errors,
      maxTurns: this.flags.maxTurns,
      numTurns: override.numTurns ?? turn.calls.length,
      durationMs: elapsed,
      durationApiMs: elapsed,
      apiCalls: override.apiCalls ?? turn.calls,
      modelUsage: modelUsage(this.#calls, { model: this.ctx.model }),
      modelUsageSinceLastResult: modelUsage(turn.calls, { model: this.ctx.model }),
      permissionDenials: turn.denials,
      stopReason: options.stopReason,
      terminalReason: options.terminalReason,
      totalCostUsd: options.totalCostUsd,
      resultIndex: this.#resultCount++,
      ...(options.apiErrorStatus !== undefined ? { apiErrorStatus: options.apiErrorStatus } : {}),
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

/** Without partial messages the CLI still reports thinking estimates before a thinking block. */
function* withThinkingTokens(ctx: BuildContext, frames: AssistantFrame[]): Generator<Frame> {
  for (const frame of frames) {
    const block = frame.message.content[0];
    if (block?.type === "thinking") yield* thinkingTokenFrames(ctx, block.thinking);
    yield frame;
  }
}

function trackProgress(progress: StreamProgress, frame: Frame): void {
  if (frame.type !== "stream_event") return;
  const event = frame.event as {
    type: string;
    index?: number;
    delta?: { type: string; text?: string };
  };
  if (event.type === "content_block_start") {
    progress.blockIndex = event.index ?? progress.blockIndex + 1;
    progress.text = "";
  } else if (event.type === "content_block_delta" && event.delta?.type === "text_delta") {
    progress.text += event.delta.text ?? "";
  } else if (event.type === "content_block_stop") {
    progress.blockIndex = -1;
    progress.text = "";
  }
}

const PATH_COMMANDS = new Set([
  "rm",
  "rmdir",
  "touch",
  "mkdir",
  "mv",
  "cp",
  "chmod",
  "chown",
  "ln",
  "truncate",
]);

/** The path a file-changing shell command works on, as the real CLI reports `blocked_path`. */
function blockedPathOf(command: unknown, cwd: string): string | undefined {
  if (typeof command !== "string" || /[;&|><`]|\$\(/.test(command)) return undefined;
  const words = command.trim().split(/\s+/);
  if (!PATH_COMMANDS.has(words[0])) return undefined;
  const target = words.slice(1).filter((w) => !w.startsWith("-")).at(-1);
  if (target === undefined) return undefined;
  if (target.startsWith("/")) return target;
  return `${cwd.replace(/\/$/, "")}/${target.replace(/^\.\//, "").replace(/\/$/, "")}`;
}

function mcpServerOf(tool: string): string | undefined {
  if (!tool.startsWith("mcp__")) return undefined;
  const parts = tool.split("__");
  return parts.length >= 3 ? parts[1] : undefined;
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
