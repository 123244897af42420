/**
 * `serveMessagesApi(scenario)`: a local Anthropic Messages API that answers the real `claude`
 * binary's model calls from a scenario, so the same scenario runs through the mock and
 * through the real CLI.
 *
 * @module
 */

import type { Buffer } from "node:buffer";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { createBuildContext } from "../builders/build_context.ts";
import { Pcg32 } from "../random/pcg32.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { realNow, realTimeout } from "../timing/real_time.ts";
import { type Timing, timingProfile } from "../timing/timing_profile.ts";
import type { JournalAnswer, JournalEntry, JournalKind } from "./api_journal.ts";
import { breakIndex } from "../builders/_api_stream.ts";
import { errorBody, replyEvents, replyMessage, sseEvent } from "./_reply_body.ts";
import { headersOf, parseJson, readBody, resetSocket } from "./_http_io.ts";
import {
  type Answered,
  type Decision,
  ScenarioResponder,
  servableProblem,
} from "./_scenario_responder.ts";

/** Options for {@linkcode serveMessagesApi}. */
export interface MessagesApiOptions {
  /** The port (default 0: a free one). */
  port?: number;
  /** The address to listen on (default `127.0.0.1`). */
  hostname?: string;
  /**
   * The working directory the CLI runs in: the scenario's `cwd` (default
   * `/home/user/project`) is replaced by it in everything the model says (tool inputs, text),
   * so the real CLI's tools work on the real folder.
   */
  cwd?: string;
  /** The `retry-after` header of error answers, in seconds (default 0: the CLI retries at once). */
  retryAfterSeconds?: number;
  /**
   * Whether replies stream at the pace of the scenario's timing (the exchange's or the
   * scenario's profile, in real time: an app can interrupt a long reply). Default true;
   * without a timing in the scenario, replies stream at once.
   */
  pace?: boolean;
  /** Called with each journal entry once its answer is decided. */
  onRequest?: (entry: JournalEntry) => void;
}

/** A running scenario-driven Messages API. */
export interface MessagesApi {
  /** The base URL for `ANTHROPIC_BASE_URL` (`http://127.0.0.1:<port>`). */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /** Every request so far, in order, with its answer. */
  readonly journal: readonly JournalEntry[];
  /**
   * The environment that points a `claude` at this server: `ANTHROPIC_BASE_URL` and a dummy
   * `ANTHROPIC_API_KEY`.
   */
  env(): { ANTHROPIC_BASE_URL: string; ANTHROPIC_API_KEY: string };
  /** Stops listening, ends every open answer (hangs included) and resolves once closed. */
  close(): Promise<void>;
  /** `close()`, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * The API key the CLI is given: any non-empty key works against this server.
 *
 * @example The environment a server hands out
 * ```ts
 * import { ScenarioBuilder } from "@x/claude-mock";
 * import { DUMMY_API_KEY, serveMessagesApi } from "@x/claude-mock/messages-api";
 * await using api = await serveMessagesApi(new ScenarioBuilder().build());
 * console.log(api.env().ANTHROPIC_API_KEY === DUMMY_API_KEY); // true
 * ```
 */
export const DUMMY_API_KEY = "sk-ant-claude-mock-0000";

/** The largest request body read (64 MB): a bigger one gets a 413. */
/** A request being answered: its journal entry and its response. */
interface HttpCall {
  entry: JournalEntry;
  res: ServerResponse;
}

/** A decision to reply, and the failure that breaks it, if any. */
type ReplyDecision = Extract<Decision, { kind: "reply" }>;
type ReplyFailure = NonNullable<ReplyDecision["failure"]>;

/** A reply's pacing in real time: before it, and between its deltas. */
interface Pace {
  first: number;
  event: number;
  next: () => number;
}

/** How long a reset mid-stream waits after its last event (as recorded: 50 ms). */
const RESET_AFTER_MS = 50;

/**
 * Serves the Anthropic Messages API from a scenario, on Deno and Node (`node:http`), on
 * 127.0.0.1 and a free port by default. `POST /v1/messages` (with the CLI's `?beta=true`)
 * answers streaming (SSE) and non-streaming calls as the real API does, turn by turn from the
 * scenario's model side: each `message` step is one reply (text, thinking with its
 * signature, tool uses with their ids and inputs, the stop reason, usage as the mock counts
 * it). The CLI's side (permissions, hooks, tools, results) is the real CLI's: a request is
 * placed by what it carries, a new prompt (matched against the exchanges' triggers as the mock
 * matches them) or the continuation after tool results, a subagent's call
 * (`cc_is_subagent=true`, answered from the Agent tool use's scripted frames and report), or
 * the CLI's `/compact` summarisation call (answered from the scenario's `compact`), or its session
 * title call (answered with the prompt's first words). A tool use
 * the CLI answered with an error the scenario did not script counts as refused: the exchange's
 * `ifDenied` steps follow, as in the mock. `failure` and `apiError` steps fail the next call at
 * the HTTP level as the real API fails (401, 403, 400, credit balance, 429 and 529 with
 * `retry-after`, 500, a stream cut before `message_stop`, a non-JSON `data:` line, a reset
 * connection, no answer at all, and for `connection_refused` the port closing for good); the
 * `*_recovered` ones break the stream and answer the CLI's non-streaming fallback. `POST /v1/messages/count_tokens`, `GET /v1/models` and the CLI's
 * `HEAD /api/hello` probe are answered too. A request the scenario does not expect (a prompt
 * no exchange matches, a call after the exchange's last reply, an unknown path) gets an error
 * in the API's shape (`{"type":"error","error":{"type","message"}}`) that says what was
 * expected. Every request is kept in `journal`.
 *
 * @param scenario The scenario (the same one the mock plays).
 * @param options `port`, `hostname`, `cwd`, `retryAfterSeconds`, `pace`, `onRequest`.
 * @returns The running server; `close()` it (or `await using`).
 * @throws {TypeError} A scenario the API cannot serve (a crash or exit step, a verbatim
 *   scenario, an emitted assistant frame), naming the step.
 * @throws {Error} When the address cannot be listened on (a port in use), naming it.
 *
 * @example A reply, as the real CLI would get it
 * ```ts
 * import { ScenarioBuilder } from "@x/claude-mock";
 * import { serveMessagesApi } from "@x/claude-mock/messages-api";
 * await using api = await serveMessagesApi(
 *   new ScenarioBuilder().on("hello").respond("Hello! How can I help?").build(),
 * );
 * const response = await fetch(`${api.url}/v1/messages?beta=true`, {
 *   method: "POST",
 *   headers: { "content-type": "application/json", ...{ "x-api-key": api.env().ANTHROPIC_API_KEY } },
 *   body: JSON.stringify({
 *     model: "claude-opus-5-5",
 *     max_tokens: 1024,
 *     messages: [{ role: "user", content: "hello" }],
 *   }),
 * });
 * const message = await response.json();
 * console.log(message.content[0].text, message.stop_reason); // Hello! How can I help? end_turn
 * console.log(api.journal[0].place?.description); // exchange 1 (contains "hello")
 * ```
 *
 * @example A prompt the scenario does not expect
 * ```ts
 * import { ScenarioBuilder } from "@x/claude-mock";
 * import { serveMessagesApi } from "@x/claude-mock/messages-api";
 * await using api = await serveMessagesApi(new ScenarioBuilder().on("hello").respond("Hi").build());
 * const response = await fetch(`${api.url}/v1/messages`, {
 *   method: "POST",
 *   body: JSON.stringify({ model: "m", max_tokens: 9, messages: [{ role: "user", content: "bye" }] }),
 * });
 * const body = await response.json();
 * console.log(response.status, body.error.type); // 400 invalid_request_error
 * console.log(body.error.message);
 * // claude-mock: no exchange of the scenario matches the prompt "bye" (turn 1); expected a prompt
 * // for exchange 1 (contains "hello")
 * ```
 */
export async function serveMessagesApi(
  scenario: Scenario,
  options: MessagesApiOptions = {},
): Promise<MessagesApi> {
  if (
    scenario === null || typeof scenario !== "object" || !Array.isArray(scenario.exchanges)
  ) {
    throw new TypeError(
      "Cannot serve the Messages API: the scenario must be a Scenario (an object with exchanges)",
    );
  }
  const problem = servableProblem(scenario);
  if (problem) throw new TypeError(problem);
  const hostname = options.hostname ?? "127.0.0.1";
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new RangeError(
      `Cannot serve the Messages API: the port must be an integer from 0 to 65535, got ${port}`,
    );
  }
  const retryAfter = options.retryAfterSeconds ?? 0;
  if (!Number.isFinite(retryAfter) || retryAfter < 0) {
    throw new RangeError(
      `Cannot serve the Messages API: retryAfterSeconds must be a number >= 0, got ${retryAfter}`,
    );
  }
  const server = new ApiServer(scenario, options, retryAfter);
  return await server.listen(hostname, port);
}

class ApiServer {
  readonly #responder: ScenarioResponder;
  readonly #journal: JournalEntry[] = [];
  readonly #sockets = new Set<Socket>();
  readonly #timers = new Set<() => void>();
  readonly #server = createServer((req, res) => void this.#handle(req, res));
  readonly #started = realNow();
  readonly #options: MessagesApiOptions;
  readonly #retryAfter: number;
  readonly #ids = createBuildContext({ seed: 0x5e4 }).ids;
  readonly #speed: number;
  readonly #prng: Pcg32;
  #closing?: Promise<void>;
  #url = "";

  constructor(scenario: Scenario, options: MessagesApiOptions, retryAfter: number) {
    this.#responder = new ScenarioResponder(scenario, options.cwd ? { cwd: options.cwd } : {});
    this.#options = options;
    this.#retryAfter = retryAfter;
    this.#speed = scenario.speedFactor ?? 1;
    this.#prng = new Pcg32(BigInt(scenario.seed ?? 0));
    this.#server.on("connection", (socket: Socket) => {
      this.#sockets.add(socket);
      socket.on("close", () => this.#sockets.delete(socket));
    });
  }

  listen(hostname: string, port: number): Promise<MessagesApi> {
    return new Promise((resolve, reject) => {
      const failed = (error: Error & { code?: string }) => {
        const why = error.code === "EADDRINUSE"
          ? `${hostname}:${port} is in use (EADDRINUSE); pass port 0 for a free one`
          : `${hostname}:${port}: ${error.code ?? error.message}`;
        reject(new Error(`Cannot serve the Messages API: ${why}`, { cause: error }));
      };
      this.#server.once("error", failed);
      this.#server.listen(port, hostname, () => {
        this.#server.off("error", failed);
        const address = this.#server.address();
        const bound = typeof address === "object" && address ? address.port : port;
        const host = hostname.includes(":") ? `[${hostname}]` : hostname;
        this.#url = `http://${host}:${bound}`;
        const close = () => this.#close();
        resolve({
          url: this.#url,
          port: bound,
          journal: this.#journal,
          env: () => ({ ANTHROPIC_BASE_URL: this.#url, ANTHROPIC_API_KEY: DUMMY_API_KEY }),
          close,
          [Symbol.asyncDispose]: close,
        });
      });
    });
  }

  #close(): Promise<void> {
    return this.#closing ??= new Promise<void>((resolve) => {
      for (const cancel of this.#timers) cancel();
      this.#timers.clear();
      this.#server.close(() => resolve());
      for (const socket of this.#sockets) socket.destroy();
      this.#server.closeAllConnections?.();
    });
  }

  /** Waits real time (cancelled, resolving, when the server closes). */
  #sleep(ms: number): Promise<void> {
    if (ms <= 0 || this.#closing) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.#timers.delete(cancelAll);
        resolve();
      };
      const cancel = realTimeout(done, ms);
      const cancelAll = () => {
        cancel();
        resolve();
      };
      this.#timers.add(cancelAll);
    });
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const entry: JournalEntry = {
      index: this.#journal.length,
      at: Math.round(realNow() - this.#started),
      method: req.method ?? "GET",
      path: req.url ?? "/",
      headers: headersOf(req),
      body: null,
      kind: "unknown",
    };
    this.#journal.push(entry);
    res.on("close", () => {
      if (!res.writableFinished) entry.clientClosed = true;
    });
    let raw: Buffer;
    try {
      raw = await readBody(req);
    } catch (error) {
      entry.body = null;
      if ((error as { code?: string }).code === "TOO_BIG") {
        return this.#sendError(
          res,
          entry,
          413,
          "request_too_large",
          "claude-mock: the request body is over 64 MB",
        );
      }
      return; // the client went away while sending
    }
    const text = raw.toString("utf8");
    entry.body = text === "" ? null : parseJson(text);
    const path = new URL(entry.path, "http://x").pathname.replace(/\/+$/, "");
    try {
      if (entry.method === "POST" && path === "/v1/messages") {
        await this.#messages(entry, res);
      } else if (entry.method === "POST" && path === "/v1/messages/count_tokens") {
        entry.kind = "count_tokens";
        this.#sendJson(res, entry, 200, { input_tokens: Math.max(1, Math.ceil(text.length / 4)) });
      } else if (
        entry.method === "GET" && (path === "/v1/models" || path.startsWith("/v1/models/"))
      ) {
        entry.kind = "models";
        this.#models(res, entry, path);
      } else if ((entry.method === "HEAD" || entry.method === "GET") && path === "/api/hello") {
        entry.kind = "probe";
        entry.answer = { status: 200, kind: "ok" };
        res.writeHead(200, { "content-type": "text/plain" });
        res.end(entry.method === "HEAD" ? undefined : "OK");
        this.#options.onRequest?.(entry);
      } else {
        this.#sendError(
          res,
          entry,
          404,
          "not_found_error",
          `claude-mock: no route for ${entry.method} ${
            path || "/"
          }: this server answers POST /v1/messages, POST /v1/messages/count_tokens and GET /v1/models`,
        );
      }
    } catch (error) {
      if (!res.headersSent) {
        this.#sendError(
          res,
          entry,
          500,
          "api_error",
          `claude-mock: ${error instanceof Error ? error.message : String(error)}`,
        );
      } else res.destroy();
    }
  }

  async #messages(entry: JournalEntry, res: ServerResponse): Promise<void> {
    const answered: Answered = await this.#responder.answer(
      entry.body,
      entry.headers["x-claude-code-session-id"] ?? "",
    );
    entry.kind = answered.kind as JournalKind;
    if (answered.place) entry.place = answered.place;
    const decision = answered.decision;
    if (decision.kind === "error") {
      return this.#sendError(
        res,
        entry,
        decision.status,
        decision.type,
        decision.message,
        decision.failure,
      );
    }
    await this.#reply({ entry, res }, decision);
  }

  async #reply(call: HttpCall, decision: ReplyDecision): Promise<void> {
    const { entry, res } = call;
    const { reply, stream, failure } = decision;
    if (failure && this.#answersNothing(call, failure)) return;
    const pace = this.#pacing(decision.timing);
    await this.#sleep((decision.delayMs + pace.first) * this.#speed);
    if (res.destroyed || this.#closing) return;
    const requestId = this.#ids.requestId();
    if (failure && this.#breaksAtHead(call, { failure, stream, requestId })) return;
    const answer: JournalAnswer = {
      status: 200,
      kind: "reply",
      stream,
      blocks: reply.blocks.map((b) => (b.type === "tool_use" ? `tool_use:${b.name}` : b.type)),
      stopReason: reply.stopReason,
      messageId: reply.messageId,
      ...(failure ? { failure: failure.name } : {}),
    };
    if (!stream) {
      this.#decided(entry, answer);
      res.writeHead(200, { "content-type": "application/json", "request-id": requestId });
      res.end(JSON.stringify(replyMessage(reply)));
      return;
    }
    const events = replyEvents(reply);
    const broken = failure?.answer.kind === "stream" ? failure.answer.broken : undefined;
    this.#decided(
      entry,
      broken ? { ...answer, kind: broken === "reset" ? "reset-stream" : broken } : answer,
    );
    await this.#stream(call, { events, requestId, broken, pace });
  }

  /** A failure that answers nothing: the connection reset, the API gone, or no answer ever. */
  #answersNothing({ entry, res }: HttpCall, failure: ReplyFailure): boolean {
    const { name, answer } = failure;
    if (answer.kind === "reset") {
      this.#decided(entry, { status: 0, kind: "reset", failure: name });
      resetSocket(res);
      return true;
    }
    if (answer.kind === "refuse") {
      // the API goes away: no more connections, this one and every open one closed
      this.#decided(entry, { status: 0, kind: "refused", failure: name });
      resetSocket(res);
      this.#server.close();
      for (const socket of this.#sockets) socket.destroy();
      return true;
    }
    if (answer.kind === "hang") {
      this.#decided(entry, { status: 0, kind: "hang", failure: name });
      return true;
    }
    return false;
  }

  /** A failure in the answer's head: headers and then nothing, or a body that is not JSON. */
  #breaksAtHead(
    { entry, res }: HttpCall,
    { failure, stream, requestId }: { failure: ReplyFailure; stream: boolean; requestId: string },
  ): boolean {
    const { name, answer } = failure;
    if (answer.kind === "stall") {
      this.#decided(entry, { status: 200, kind: "stall", stream, failure: name });
      res.writeHead(200, {
        "content-type": stream ? "text/event-stream; charset=utf-8" : "application/json",
        "request-id": requestId,
      });
      res.flushHeaders();
      return true;
    }
    if (answer.kind === "body") {
      this.#decided(entry, { status: 200, kind: "body", stream: false, failure: name });
      res.writeHead(200, { "content-type": "application/json", "request-id": requestId });
      res.end(answer.body);
      return true;
    }
    return false;
  }

  /** Streams a reply's events, paced, broken at its first delta when the failure says so. */
  async #stream(
    { res }: HttpCall,
    { events, requestId, broken, pace }: {
      events: ReturnType<typeof replyEvents>;
      requestId: string;
      broken: string | undefined;
      pace: Pace;
    },
  ): Promise<void> {
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "request-id": requestId,
    });
    res.flushHeaders();
    // a broken stream breaks at its first delta (the mock bills what it sent, breakIndex)
    const breakAt = breakIndex(events);
    for (let i = 0; i < events.length; i++) {
      if (res.destroyed || this.#closing) return;
      const event = events[i];
      if (broken === "malformed" && i === breakAt) {
        res.write("event: content_block_delta\ndata: {this is not json\n\n");
        continue;
      }
      res.write(sseEvent(event));
      if ((broken === "cut" || broken === "reset") && i === breakAt) {
        if (broken === "cut") res.end();
        else {
          await this.#sleep(RESET_AFTER_MS);
          resetSocket(res);
        }
        return;
      }
      if (event.type === "content_block_delta" && pace.event > 0) {
        await this.#sleep(pace.next() * this.#speed);
      }
    }
    res.end();
  }

  /** The scenario's pacing in real time: before the reply, between its deltas. */
  #pacing(timing: Timing | undefined): Pace {
    if (this.#options.pace === false || timing === undefined) {
      return {
        first: 0,
        event: 0,
        next: () => 0,
      };
    }
    const profile = timingProfile(timing);
    const delay = profile.byType?.stream_event ?? profile;
    const next = () => delay.baseMs + delay.jitterMs * this.#prng.nextFloat();
    return { first: profile.firstFrameMs, event: delay.baseMs + delay.jitterMs, next };
  }

  #models(res: ServerResponse, entry: JournalEntry, path: string): void {
    const model = (id: string) => ({
      type: "model",
      id,
      display_name: id,
      created_at: "2026-01-01T00:00:00Z",
    });
    if (path.startsWith("/v1/models/")) {
      this.#sendJson(res, entry, 200, model(decodeURIComponent(path.slice("/v1/models/".length))));
      return;
    }
    const ids = ["claude-opus-5-5", "claude-sonnet-5-5", "claude-haiku-5-5"];
    this.#sendJson(res, entry, 200, {
      data: ids.map(model),
      has_more: false,
      first_id: ids[0],
      last_id: ids.at(-1),
    });
  }

  #sendJson(res: ServerResponse, entry: JournalEntry, status: number, body: unknown): void {
    this.#decided(entry, { status, kind: "ok" });
    res.writeHead(status, {
      "content-type": "application/json",
      "request-id": this.#ids.requestId(),
    });
    res.end(JSON.stringify(body));
  }

  #sendError(
    res: ServerResponse,
    entry: JournalEntry,
    status: number,
    type: string,
    message: string,
    failure?: string,
  ): void {
    this.#decided(entry, {
      status,
      kind: "error",
      error: { type, message },
      ...(failure ? { failure } : {}),
    });
    if (res.destroyed) return;
    const requestId = this.#ids.requestId();
    res.writeHead(status, {
      "content-type": "application/json",
      "request-id": requestId,
      ...(status === 429 || status >= 500 || status === 401
        ? { "retry-after": String(this.#retryAfter) }
        : {}),
    });
    res.end(errorBody(type, message, requestId));
  }

  #decided(entry: JournalEntry, answer: JournalAnswer): void {
    entry.answer = answer;
    this.#options.onRequest?.(entry);
  }
}
