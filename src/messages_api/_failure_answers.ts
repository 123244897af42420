/**
 * How a scripted failure looks at the HTTP level, per request: the named failures as the real
 * CLI meets them from the API (an error status
 * with the API's envelope, a reset connection, a stream cut before `message_stop`, a non-JSON
 * `data:` line, no answer at all), and `apiError` steps as error statuses. Internal.
 *
 * @internal
 * @module
 */

import { httpFailure, NAMED_FAILURES } from "../scenario/named_failures.ts";
import type { PlannedFailure } from "./_turn_plan.ts";
import { errorTypeOf } from "./_reply_body.ts";

/** What the server does with one request a failure governs. */
export type FailureAnswer =
  /** The scripted reply (a recovered failure's fallback, or the call after the retries). */
  | { kind: "reply" }
  /** An error status with the API's envelope. */
  | { kind: "error"; status: number; type: string; message: string }
  /** The connection reset before any byte of the answer. */
  | { kind: "reset" }
  /** The server stops listening: this call and every later one is refused. */
  | { kind: "refuse" }
  /** No answer at all: the request hangs until the client gives up or the server closes. */
  | { kind: "hang" }
  /** `200` headers, then nothing. */
  | { kind: "stall" }
  /** The reply's stream, broken: cut (ends early), reset mid-stream, or with a bad line. */
  | { kind: "stream"; broken: "cut" | "reset" | "malformed" }
  /** A `200` JSON answer whose body is not a whole message. */
  | { kind: "body"; body: string };

/** The body of a non-streaming answer that is cut in the middle of a string. */
function halfMessageBody(id: string): string {
  return `{"id":"${id}","type":"message","role":"assistant","content":[{"type":"text","text":"Hel`;
}

/** The body of a non-streaming answer that is not JSON (Bun: `Unexpected identifier "this"`). */
const NOT_JSON = "this is not json";

/** The governing failure of a call: the first that is not `max_budget` (a CLI-side limit). */
export function governing(failures: readonly PlannedFailure[]): PlannedFailure | undefined {
  return failures.find((f) => !(f.kind === "failure" && f.name === "max_budget"));
}

/**
 * What a request gets under `failure`: `stream` is whether it asked for a stream, `attempt`
 * how many requests this call got before it (0 for the first).
 */
export function failureAnswer(
  failure: PlannedFailure,
  request: { stream: boolean; attempt: number; messageId: string },
): FailureAnswer {
  if (failure.kind === "apiError") {
    const failing = !failure.recovers || request.attempt < (failure.retries ?? 0);
    if (!failing) return { kind: "reply" };
    return {
      kind: "error",
      status: failure.status,
      type: errorTypeOf(failure.status),
      message: failure.message ?? defaultMessageOf(failure.status),
    };
  }
  const spec = NAMED_FAILURES[failure.name];
  const { stream } = request;
  switch (failure.name) {
    case "auth_error":
    case "forbidden":
    case "rate_limit":
    case "overloaded":
    case "server_error":
    case "bad_request":
    case "out_of_credits":
      return {
        kind: "error",
        status: spec.status as number,
        type: spec.errorType as string,
        message: failure.message ?? spec.defaultMessage,
      };
    case "connection_reset":
      return { kind: "reset" };
    case "request_timeout":
      return { kind: "hang" };
    case "stream_stall":
      return { kind: "stall" };
    case "connection_reset_recovered":
    case "stream_cut":
    case "stream_cut_recovered":
    case "malformed_stream":
    case "malformed_stream_recovered": {
      // the stream breaks as the mock bills it; the non-streaming fallback answers, or is
      // no message either
      if (stream) return { kind: "stream", broken: spec.brokenStream! };
      if (spec.recovers) return { kind: "reply" };
      return {
        kind: "body",
        body: spec.brokenStream === "malformed" ? NOT_JSON : halfMessageBody(request.messageId),
      };
    }
    case "max_budget":
      return { kind: "reply" };
    case "connection_refused":
      return { kind: "refuse" };
  }
}

/** The API's message for an `apiError` step that gives none (the mock's text quotes the same). */
function defaultMessageOf(status: number): string {
  return httpFailure(status).defaultMessage;
}
