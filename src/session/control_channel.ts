/**
 * The control channel: control requests both ways over stream-json. It correlates the
 * engine's requests to the client with their answers and owns their timeouts, and answers
 * the client's requests with the registered handlers, keeping a log of both.
 *
 * @module
 */

import type { BuildContext } from "../builders/build_context.ts";
import { controlError, controlRequest, controlSuccess } from "../builders/control.ts";
import { realTimeout } from "../timing/real_time.ts";
import { frameJson } from "../wire/_frame_json.ts";
import { type ControlRequestFrame, type Frame, isObject } from "../wire/frame.ts";
import { LINE_TEMPLATES } from "./line_templates.ts";
import { encodeLine } from "./_line_slab.ts";
import type { Outgoing } from "./outbox.ts";
import { sessionEnded, StreamClosed, TurnFailure } from "./turn_state.ts";

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

/**
 * Answers one subtype of control request from the client. `session` is the `Session`
 * the request came to.
 */
export type ControlHandler<S = unknown> = (
  request: Record<string, unknown>,
  session: S,
) =>
  | Record<string, unknown>
  | AnswerThen
  | undefined
  | Promise<Record<string, unknown> | AnswerThen | undefined>;

/**
 * Thrown by a {@linkcode ControlHandler} to answer with an error response carrying extra
 * fields (`error_code`, ...), as the real CLI does.
 *
 * @example An error answer with a code
 * ```ts
 * import { ControlError } from "@x/claude-mock/session";
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

/**
 * The `initialize` answer: the body, beside it the requests still pending (none at start:
 * `pending_permission_requests: []`, `pending_user_dialog_requests: []`, as the real CLI
 * writes them), and, when the body is the same in many sessions, a `key` under which its line
 * is encoded once (each answer only adds its request id).
 */
export class EncodedAnswer {
  /** The body, as the client request log shows it (shared: do not change it). */
  readonly body: Record<string, unknown>;
  /** What makes two bodies the same (`undefined`: encoded for this answer alone). */
  readonly key: string | undefined;
  /** Keeps the body and its key. */
  constructor(body: Record<string, unknown>, key?: string) {
    this.body = body;
    this.key = key;
  }
}

/**
 * An answer followed by frames the CLI writes right after it (the `system/status` after a
 * `set_permission_mode` answer): they are built once the answer is on its way.
 */
export class AnswerThen {
  /** The answer's body. */
  readonly body: Record<string, unknown>;
  /** Builds the frames written after the answer. */
  readonly after: () => Frame[];
  /** Keeps the body and what follows it. */
  constructor(body: Record<string, unknown>, after: () => Frame[]) {
    this.body = body;
    this.after = after;
  }
}

/** Options of one request to the client. */
export interface RequestOptions {
  /** Real milliseconds to wait for the answer (default: the channel's). */
  timeoutMs?: number;
  /** Aborting stops waiting, rejecting with the signal's reason. */
  signal?: AbortSignal;
}

interface Pending {
  resolve: (response: Record<string, unknown>) => void;
  reject: (error: Error) => void;
  subtype: string;
  /** The request, for the error once stdin has closed. */
  frame: ControlRequestFrame;
}

/** What a {@linkcode ControlChannel} needs from the session. */
export interface ControlChannelOptions {
  /** Builds request frames (ids). */
  ctx: BuildContext;
  /** Writes a frame to the client. */
  send: (item: Outgoing) => Promise<void>;
  /** Default real-time limit for an answer, in ms. */
  timeoutMs: number;
  /** The session clock's now, for the log. */
  now: () => number;
  /** Whether the process has ended (answers are no longer written). */
  closed: () => boolean;
}

/** Requests both ways between the engine and the client. */
export class ControlChannel {
  /** The default real-time limit for the client's answers, in ms. */
  readonly timeoutMs: number;
  #options: ControlChannelOptions;
  #pending = new Map<string, Pending>();
  #inputClosed = false;
  #log: ClientRequest[] = [];
  #handlers = new Map<string, ControlHandler<never>>();
  #intercept?: (
    request: Record<string, unknown>,
  ) => { response?: Record<string, unknown>; error?: string } | undefined;

  /** Creates the channel. */
  constructor(options: ControlChannelOptions) {
    this.#options = options;
    this.timeoutMs = options.timeoutMs;
  }

  /** The client's requests so far, with the answers given. */
  get clientRequests(): readonly ClientRequest[] {
    return this.#log;
  }

  /** Answers client requests of `subtype` with `handler` (replacing any before). */
  handle<S>(subtype: string, handler: ControlHandler<S>): void {
    this.#handlers.set(subtype, handler as ControlHandler<never>);
  }
  /**
   * Answers before the handlers: `intercept` gives a recorded answer for a request, or
   * `undefined` to let its handler answer.
   */
  interceptWith(
    intercept: (
      request: Record<string, unknown>,
    ) => { response?: Record<string, unknown>; error?: string } | undefined,
  ): void {
    this.#intercept = intercept;
  }

  /**
   * Sends a control request and resolves with the answer's `response` body. Waiting for
   * the client is real time, whatever the session clock: the client may do real work (a
   * file read, a fetch) for any time up to the limit, and a live answer always wins; no
   * answer within the limit rejects with an error naming the request.
   */
  async request(
    request: { subtype: string; [key: string]: unknown } | ControlRequestFrame,
    options: RequestOptions = {},
  ): Promise<Record<string, unknown>> {
    const frame: ControlRequestFrame =
      request.type === "control_request" && isObject(request.request)
        ? request as ControlRequestFrame
        : controlRequest(this.#options.ctx, request as { subtype: string });
    const subtype = String(frame.request.subtype);
    const id = frame.request_id;
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const signal = options.signal;
    if (signal?.aborted) throw signal.reason;
    // no one can answer once stdin has closed: fail at once, writing nothing (as the CLI)
    if (this.#inputClosed) throw streamClosed(frame);
    let cancelTimer = () => {};
    let onAbort = () => {};
    const answer = new Promise<Record<string, unknown>>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, subtype, frame });
      onAbort = () => reject(signal!.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
    // The answer can fail (an interrupt, the process ending) while the request is still being
    // written; if the write then fails too, nothing awaits the answer: it is observed here so
    // its rejection is never reported as unhandled. The caller still gets the first failure.
    answer.catch(() => {});
    try {
      await this.#options.send({ frame, delay: 0 });
      cancelTimer = realTimeout(() => {
        const pending = this.#pending.get(id);
        this.#pending.delete(id);
        pending?.reject(
          new TurnFailure(
            `claude-mock: the client did not answer control request '${subtype}' (request_id ${id}) within ${timeoutMs} ms of real time (the session's controlTimeoutMs; a test can shorten it)`,
          ),
        );
      }, timeoutMs);
      return await answer;
    } finally {
      cancelTimer();
      signal?.removeEventListener("abort", onAbort);
      this.#pending.delete(id);
    }
  }

  /** Takes the client's `control_response` to one of the engine's requests. */
  onResponse(frame: Frame): void {
    const response = frame.response;
    if (!isObject(response) || typeof response.request_id !== "string") return;
    const id = response.request_id;
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    const what = `the client's answer to '${pending.subtype}' (request_id ${id})`;
    if (response.subtype === "success") {
      const body = response.response;
      if (body !== undefined && !isObject(body)) {
        pending.reject(
          new ClientAnswerError(
            `claude-mock: ${what} is malformed: 'response.response' must be an object`,
          ),
        );
      } else pending.resolve(body ?? {});
    } else if (response.subtype === "error") {
      pending.reject(
        new ClientAnswerError(
          `claude-mock: the client answered control request '${pending.subtype}' with an error: ${
            String(response.error)
          }`,
        ),
      );
    } else {
      pending.reject(
        new ClientAnswerError(
          `claude-mock: ${what} is malformed: 'response.subtype' must be "success" or "error", got ${
            JSON.stringify(response.subtype)
          }`,
        ),
      );
    }
  }

  /** Answers the client's `control_request` with its handler (or the CLI's errors). */
  async onRequest(frame: Frame, session: unknown): Promise<void> {
    const requestId = frame.request_id;
    const request = frame.request;
    if (typeof requestId !== "string") return; // cannot answer without an id; logged as written
    const record: ClientRequest = {
      requestId,
      subtype: isObject(request) && typeof request.subtype === "string" ? request.subtype : "",
      request: isObject(request) ? request : {},
      at: this.#options.now(),
    };
    this.#log.push(record);
    // one await at most (the handler's), as the answer's place among the frames depends on it
    let reply: Reply;
    const found = !isObject(request) || typeof request.subtype !== "string"
      ? failure(record, "Invalid control request: 'request.subtype' must be a string")
      : this.#recordedOrHandler(record);
    if (typeof found !== "function") reply = found;
    else {
      try {
        reply = success(record, await found(record.request, session as never));
      } catch (error) {
        reply = thrown(record, error);
      }
    }
    reply = encoded(reply, record);
    if (!this.#options.closed()) {
      this.#options.send({ frame: reply.answer, delay: 0, bytes: reply.bytes }).catch(() => {});
      for (const frame of reply.after?.() ?? []) {
        this.#options.send({ frame, delay: 0 }).catch(() => {});
      }
    }
  }

  /**
   * The answer to a well-formed request when it is known at once (the recorded one, or the
   * error for a subtype without a handler), else the handler that answers it.
   */
  #recordedOrHandler(record: ClientRequest): Reply | ControlHandler<never> {
    const recorded = this.#intercept?.(record.request);
    if (recorded !== undefined) {
      if (recorded.error !== undefined) return failure(record, recorded.error);
      record.answer = { success: true, response: recorded.response };
      return { answer: controlSuccess(record.requestId, recorded.response) };
    }
    const handler = this.#handlers.get(record.subtype);
    if (handler) return handler;
    const reply = failure(record, `Unsupported control request subtype: ${record.subtype}`);
    (reply.answer.response as Record<string, unknown>).error_code = "unsupported_request";
    return reply;
  }

  /**
   * stdin closed: every request still waiting, and every later one, fails with
   * {@linkcode StreamClosed} (the client can no longer answer).
   */
  inputClosed(): void {
    this.#inputClosed = true;
    for (const pending of this.#pending.values()) {
      pending.reject(streamClosed(pending.frame, { written: true }));
    }
    this.#pending.clear();
  }

  /** Fails every request still waiting (the process ended). */
  rejectAll(): void {
    for (const pending of this.#pending.values()) pending.reject(sessionEnded());
    this.#pending.clear();
  }
}

/** An answer to the client's request: its frame, its bytes once encoded, frames after it. */
interface Reply {
  /** The `control_response` frame. */
  answer: Frame;
  /** Its line, encoded. */
  bytes?: Uint8Array;
  /** Frames written right after it. */
  after?: () => Frame[];
}

/** An error answer saying `error`, noted on the request's record. */
function failure(record: ClientRequest, error: string): Reply {
  record.answer = { success: false, error };
  return { answer: controlError(record.requestId, error) };
}

/** The error answer for a handler that threw `error` (a `ControlError`'s fields with it). */
function thrown(record: ClientRequest, error: unknown): Reply {
  const reply = failure(record, error instanceof Error ? error.message : String(error));
  if (error instanceof ControlError) {
    Object.assign(reply.answer.response as Record<string, unknown>, error.fields);
  }
  return reply;
}

/** A handler's successful answer (a body, an `AnswerThen`, an `EncodedAnswer`, nothing). */
function success(record: ClientRequest, response: unknown): Reply {
  const requestId = record.requestId;
  if (response instanceof AnswerThen) {
    record.answer = { success: true, response: response.body };
    return { answer: controlSuccess(requestId, response.body), after: response.after };
  }
  if (response instanceof EncodedAnswer) {
    record.answer = { success: true, response: response.body };
    const pending = { pending: true };
    const answer = controlSuccess(requestId, response.body, pending);
    if (response.key === undefined) return { answer };
    const bytes = LINE_TEMPLATES.line(
      `control_success|${response.key}`,
      requestId,
      (slot) => controlSuccess(slot, response.body, pending),
    );
    return { answer, bytes };
  }
  const body = response as Record<string, unknown> | undefined;
  record.answer = body === undefined ? { success: true } : { success: true, response: body };
  return { answer: controlSuccess(requestId, body) };
}

/**
 * `reply` with its bytes, encoded here, once (the output takes the bytes): an answer that cannot
 * be written (a handler's answer that is not JSON data) becomes an error answer saying why,
 * never silence.
 */
function encoded(reply: Reply, record: ClientRequest): Reply {
  if (reply.bytes) return reply;
  try {
    return { ...reply, bytes: encodeLine(frameJson(reply.answer), true) };
  } catch (error) {
    const text = `claude-mock: cannot write the answer to control request '${record.subtype}': ${
      error instanceof Error ? error.message : String(error)
    }`;
    return failure(record, text);
  }
}

/**
 * Why a request fails once stdin has closed: a `can_use_tool` or a `hook_callback` with
 * {@linkcode StreamClosed} (as the real CLI 2.1.328 to 2.1.332: the tool is denied; a
 * PreToolUse hook's tool use is cancelled, any other hook passed over), any other (an MCP
 * message) fails the turn naming it.
 */
function streamClosed(frame: ControlRequestFrame, options: { written?: boolean } = {}): Error {
  const request = frame.request as Record<string, unknown>;
  if (request.subtype === "can_use_tool" && options.written) {
    // a question already asked (2.1.328, 2.1.332)
    return new StreamClosed("Tool permission stream closed before response received");
  }
  if (request.subtype === "can_use_tool" || request.subtype === "hook_callback") {
    return new StreamClosed();
  }
  return new TurnFailure(
    `claude-mock: cannot call control request '${
      String(request.subtype)
    }': stdin has closed, so no answer can come`,
  );
}

/**
 * The client answered a request of the engine, but with an error (an SDK callback that threw)
 * or with a body that is no object: the request's caller decides what that does (a hook
 * callback's is passed over, as the real CLI passes it over; elsewhere it fails the turn).
 */
export class ClientAnswerError extends TurnFailure {
  /** Creates the failure; `message` says which request and what was wrong. */
  constructor(message: string) {
    super(message);
    this.name = "ClientAnswerError";
  }
}
