/**
 * Named failures: the ways a real Claude Code CLI 2.1.328 turn fails (or fails and recovers)
 * when the Messages API misbehaves, each as the real CLI was seen to meet it:
 * which `api_retry` frames come first, the synthetic assistant message, the error text,
 * what the result says and what was billed.
 *
 * @module
 */

import type { StreamBreak } from "../builders/_api_stream.ts";
import type { AssistantMessageError } from "../builders/api_error_message.ts";

/** Every named failure, in the order the docs list them. */
export const FAILURE_NAMES = [
  "auth_error",
  "forbidden",
  "rate_limit",
  "overloaded",
  "server_error",
  "bad_request",
  "out_of_credits",
  "connection_refused",
  "connection_reset",
  "connection_reset_recovered",
  "request_timeout",
  "stream_stall",
  "stream_cut",
  "stream_cut_recovered",
  "malformed_stream",
  "malformed_stream_recovered",
  "max_budget",
] as const;

/** The name of a failure the real CLI can run into (see {@linkcode FAILURE_NAMES}). */
export type FailureName = (typeof FAILURE_NAMES)[number];

/** What the text of a failure is made from. */
export interface FailureTextContext {
  /** The API's error message (HTTP failures). */
  message: string;
  /** `host:port` of `ANTHROPIC_BASE_URL` (default `api.anthropic.com`). */
  gateway: string;
  /** `API_TIMEOUT_MS` (default 600000). */
  apiTimeoutMs: number;
  /** How many times the CLI retried before it gave up. */
  retried: number;
  /** Whether the CLI gave up on repeated failures of this kind (see `FailureSpec.repeated`). */
  repeated: boolean;
  /**
   * How the CLI words a broken stream whose non-streaming fallback is no message either
   * (`CliVersionFacts.unusableFallback`).
   */
  unusableFallback: "parse_error" | "malformed_response";
  /** The failed streaming request's id (the `request-id` its response carried). */
  requestId: string;
  /**
   * The `request-id` of the non-streaming fallback's answer (the real API, and the scenario
   * API, send one with every answer).
   */
  fallbackRequestId: string;
  /** Milliseconds from the request to the stream's first event (the session's timing). */
  firstEventMs: number;
}

/** How one named failure goes, as recorded. */
export interface FailureSpec {
  /** The HTTP status, or `null` for a failure without one. */
  status: number | null;
  /** `api_error_type` (HTTP failures). */
  errorType?: string;
  /** The API's message when the scenario gives none. */
  defaultMessage: string;
  /** The error text (the synthetic message's and the result's). */
  text: (context: FailureTextContext) => string;
  /** The synthetic message's `error`. */
  error: AssistantMessageError;
  /** `api_error: "connection_failed"` (refused and reset connections). */
  connection?: true;
  /**
   * `api_retry` frames: `"all"` for one per retry up to `CLAUDE_CODE_MAX_RETRIES`, a
   * number for a fixed count (a cut stream is retried once), none when absent.
   */
  retries?: "all" | number;
  /** `error` of the `api_retry` frames. */
  retryError?: AssistantMessageError;
  /** Whether a `retry-after: 1` answer sets the retry delay's floor (HTTP failures). */
  retryAfter?: true;
  /**
   * How each streaming attempt breaks (the reply's stream cut, reset or with a bad line
   * after its first event): what the CLI got of it is billed (`brokenStreamUsage`).
   */
  brokenStream?: StreamBreak;
  /** Time each attempt takes before it fails: `apiTimeout`, `streamIdle`. */
  waits?: "apiTimeout" | "streamIdle";
  /** The turn goes on after the failure: the exchange's next message answers. */
  recovers?: true;
  /** What the CLI writes to stderr as it meets the failure. */
  stderr?: string;
  /**
   * The CLI gives up after this many of these failures in a row, whatever its retries, with
   * its "Repeated" words: for an Opus-class model (`opus`, `fable`, `mythos` in its name),
   * outside a sandbox (`IS_SANDBOX` set to anything) and without `CLAUDE_CODE_RETRY_WATCHDOG`
   * (the binary's `MAX_529_RETRIES`, 3; recorded, CLI 2.1.328 to 2.1.332).
   */
  repeated?: number;
}

/**
 * Whether the CLI gives up on `spec`'s failure as repeated: its retries reach
 * `spec.repeated` attempts, the model is Opus-class, and it runs outside a sandbox without
 * the retry watchdog.
 */
export function givesUpRepeated(
  spec: FailureSpec,
  context: {
    maxRetries: number;
    model: string;
    env: Readonly<Record<string, string | undefined>>;
  },
): boolean {
  return spec.repeated !== undefined && context.maxRetries + 1 >= spec.repeated &&
    /opus|fable|mythos/i.test(context.model) && !context.env.IS_SANDBOX &&
    !context.env.CLAUDE_CODE_RETRY_WATCHDOG;
}

/** Three 529s in a row, outside a sandbox (as CLI 2.1.33x prints them). */
const REPEATED_529 = (c: FailureTextContext) =>
  `API Error: Repeated 529 Overloaded errors. The API is at capacity — this is usually temporary. Try again in a moment. If it persists, check your inference gateway (${c.gateway}).`;
/**
 * CLI 2.1.332's words for a broken stream whose non-streaming fallback (200, application/json,
 * chunked, with the API's request-id) was not a message either (an API that sends no
 * request-id makes it "request-id absent").
 */
const MALFORMED_RESPONSE = (c: FailureTextContext, failure: string, events: number) =>
  `API Error: API returned an empty or malformed response (HTTP 200) — check for a proxy or ` +
  `gateway intercepting the request. Response: content-type json, body is not valid JSON, ` +
  `size unknown, request-id ${c.fallbackRequestId}, intermediary headers transfer-encoding. This was the ` +
  `non-streaming retry of streaming request ${c.requestId}, which failed with: ${failure}; ` +
  `${events} stream events received, first after ${c.firstEventMs} ms, none in the final 0 ms.`;
const SERVER_SIDE = (status: number, c: FailureTextContext) =>
  `API Error: ${status} ${c.message}. This is a server-side issue, usually temporary — try again in a moment. If it persists, check your inference gateway (${c.gateway}).`;
const RESET =
  "API Error: Connection dropped (ECONNRESET). Check the gateway set in ANTHROPIC_BASE_URL, then try again.";
const TIMED_OUT = (c: FailureTextContext) =>
  `Request timed out. If the API is slow to answer, or a proxy or gateway holds responses, set API_TIMEOUT_MS above ${c.apiTimeoutMs}.`;
/**
 * What a broken stream with no reply scripted after it starts to say (the Messages API
 * streams it, the mock bills it).
 */
export const BROKEN_STREAM_REPLY = "Hello! How can I help you today?";

/** A reset connection, every retry. */
const CONNECTION_RESET: FailureSpec = {
  status: null,
  defaultMessage: "",
  text: () => RESET,
  error: "server_error",
  connection: true,
  retries: "all",
  retryError: "unknown",
};
/** A stream cut before message_stop. */
const STREAM_CUT: FailureSpec = {
  status: null,
  defaultMessage: "",
  text: (c) =>
    c.unusableFallback === "malformed_response"
      ? MALFORMED_RESPONSE(c, "stream_truncated, StreamTruncatedError, StreamTruncated", 3)
      : "API Error: JSON Parse error: Unterminated string",
  error: "unknown",
  retries: 1,
  retryError: "unknown",
  brokenStream: "cut",
};
/** A non-JSON `data:` line. */
const MALFORMED_STREAM: FailureSpec = {
  status: null,
  stderr:
    'Could not parse message into JSON: {this is not json\nFrom chunk: [ "event: content_block_delta", "data: {this is not json" ]\n',
  defaultMessage: "",
  text: (c) =>
    c.unusableFallback === "malformed_response"
      ? MALFORMED_RESPONSE(c, "other, SyntaxError", 2)
      : 'API Error: JSON Parse error: Unexpected identifier "this"',
  error: "unknown",
  brokenStream: "malformed",
};

/** The recorded behaviour of each named failure. */
export const NAMED_FAILURES: Readonly<Record<FailureName, FailureSpec>> = {
  auth_error: {
    status: 401,
    errorType: "authentication_error",
    defaultMessage: "invalid x-api-key",
    text: () => "Invalid API key · Fix external API key",
    error: "authentication_failed",
    retries: "all",
    retryError: "authentication_failed",
    retryAfter: true,
  },
  forbidden: {
    status: 403,
    errorType: "permission_error",
    defaultMessage: "Your API key does not have permission to use the specified resource.",
    text: (c) => `Failed to authenticate. API Error: 403 ${c.message}`,
    error: "authentication_failed",
  },
  rate_limit: {
    status: 429,
    errorType: "rate_limit_error",
    defaultMessage: "Number of request tokens has exceeded your per-minute rate limit",
    text: (c) => `API Error: Request rejected (429) · ${c.message}`,
    error: "rate_limit",
    retries: "all",
    retryError: "rate_limit",
    retryAfter: true,
  },
  overloaded: {
    status: 529,
    errorType: "overloaded_error",
    defaultMessage: "Overloaded",
    text: (c) => c.repeated ? REPEATED_529(c) : SERVER_SIDE(529, c),
    repeated: 3,
    error: "server_error",
    retries: "all",
    retryError: "overloaded",
    retryAfter: true,
  },
  server_error: {
    status: 500,
    errorType: "api_error",
    defaultMessage: "Internal server error",
    text: (c) => SERVER_SIDE(500, c),
    error: "server_error",
    retries: "all",
    retryError: "server_error",
    retryAfter: true,
  },
  bad_request: {
    status: 400,
    errorType: "invalid_request_error",
    defaultMessage: "messages: at least one message is required",
    text: (c) => `API Error: 400 ${c.message}`,
    error: "unknown",
  },
  out_of_credits: {
    status: 400,
    errorType: "invalid_request_error",
    defaultMessage: "Your credit balance is too low to access the Anthropic API.",
    text: () => "Credit balance is too low",
    error: "billing_error",
  },
  connection_refused: {
    status: null,
    defaultMessage: "",
    text: () =>
      "API Error: Connection refused — a firewall or proxy may be blocking it (ECONNREFUSED)",
    error: "server_error",
    connection: true,
    retries: "all",
    retryError: "unknown",
  },
  connection_reset: CONNECTION_RESET,
  // a reset mid-stream on every streaming try; the non-streaming fallback answers
  connection_reset_recovered: { ...CONNECTION_RESET, brokenStream: "reset", recovers: true },
  request_timeout: {
    status: null,
    defaultMessage: "",
    text: TIMED_OUT,
    error: "server_error",
    retries: "all",
    retryError: "unknown",
    waits: "apiTimeout",
  },
  stream_stall: {
    status: null,
    defaultMessage: "",
    text: TIMED_OUT,
    error: "server_error",
    waits: "streamIdle",
  },
  stream_cut: STREAM_CUT,
  stream_cut_recovered: { ...STREAM_CUT, recovers: true },
  malformed_stream: MALFORMED_STREAM,
  malformed_stream_recovered: { ...MALFORMED_STREAM, recovers: true },
  max_budget: {
    status: null,
    defaultMessage: "",
    text: () => "",
    error: "unknown",
    recovers: true,
  },
};

/** Whether `name` is a named failure. */
export function isFailureName(name: unknown): name is FailureName {
  return typeof name === "string" && Object.hasOwn(NAMED_FAILURES, name);
}

/**
 * The API's error type for an HTTP status (`{"type":"error","error":{"type"}}`), as the
 * Messages API answers it.
 *
 * @example A 529
 * ```ts
 * import { apiErrorType } from "./named_failures.ts";
 * console.log(apiErrorType(529)); // overloaded_error
 * ```
 */
export function apiErrorType(status: number): string {
  switch (status) {
    case 400:
      return "invalid_request_error";
    case 401:
      return "authentication_error";
    case 402:
      return "billing_error";
    case 403:
      return "permission_error";
    case 404:
      return "not_found_error";
    case 413:
      return "request_too_large";
    case 429:
      return "rate_limit_error";
    case 529:
      return "overloaded_error";
    case 504:
      return "timeout_error";
    default:
      return "api_error";
  }
}

/**
 * How the real CLI goes through an HTTP error of `status` (an `apiError` step): as the named
 * failure of that status (401, 403, 429, 529, 400 and a credit balance too low), a 5xx as
 * `server_error` with its own status, any other status as a 400 is.
 *
 * @example A 503
 * ```ts
 * import { httpFailure } from "./named_failures.ts";
 * console.log(httpFailure(503).retries, httpFailure(503).defaultMessage); // all Internal server error
 * ```
 */
export function httpFailure(status: number, message?: string): FailureSpec {
  const errorType = apiErrorType(status);
  switch (status) {
    case 401:
      return NAMED_FAILURES.auth_error;
    case 403:
      return NAMED_FAILURES.forbidden;
    case 429:
      return NAMED_FAILURES.rate_limit;
    case 529:
      return NAMED_FAILURES.overloaded;
  }
  if (status >= 500) {
    return {
      ...NAMED_FAILURES.server_error,
      status,
      errorType,
      defaultMessage: "Internal server error",
      text: (c) => SERVER_SIDE(status, c),
    };
  }
  if (status === 400 && /credit balance is too low/i.test(message ?? "")) {
    return NAMED_FAILURES.out_of_credits;
  }
  return {
    ...NAMED_FAILURES.bad_request,
    status,
    errorType,
    defaultMessage: status === 400 ? "Invalid request" : `Error ${status}`,
    text: (c) => `API Error: ${status} ${c.message}`,
  };
}
