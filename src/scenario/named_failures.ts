/**
 * Named failures: the ways a real Claude Code CLI 2.1.328 turn fails (or fails and recovers)
 * when the Messages API misbehaves, each as recorded in `tests/fixtures/real/failures/`:
 * which `api_retry` frames come first, the synthetic assistant message, the error text,
 * what the result says and what was billed.
 *
 * @module
 */

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
  /** Whether `IS_SANDBOX=1`: the CLI then words a repeated 529 as a single one. */
  sandbox: boolean;
  /**
   * How the CLI words a broken stream whose non-streaming fallback is no message either
   * (`CliVersionFacts.unusableFallback`).
   */
  unusableFallback: "parse_error" | "malformed_response";
  /** The failed streaming request's id (the `request-id` its response carried). */
  requestId: string;
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
  /** What each failed attempt billed (partial streams), in tokens. */
  billed?: { inputTokens: number; outputTokens: number };
  /** Time each attempt takes before it fails: `apiTimeout`, `streamIdle`. */
  waits?: "apiTimeout" | "streamIdle";
  /** The turn goes on after the failure: the exchange's next message answers. */
  recovers?: true;
  /** What the CLI writes to stderr as it meets the failure (failures/malformed_stream). */
  stderr?: string;
}

/** A 529 after retries, outside a sandbox (print records; v3xx failures/*_nosandbox). */
const REPEATED_529 = (c: FailureTextContext) =>
  `API Error: Repeated 529 Overloaded errors. The API is at capacity — this is usually temporary. Try again in a moment. If it persists, check your inference gateway (${c.gateway}).`;
/**
 * CLI 2.1.332's words for a broken stream whose non-streaming fallback (the recordings': 200,
 * application/json, chunked, no request-id) was not a message either (failures/v332_*).
 */
const MALFORMED_RESPONSE = (c: FailureTextContext, failure: string, events: number) =>
  `API Error: API returned an empty or malformed response (HTTP 200) — check for a proxy or ` +
  `gateway intercepting the request. Response: content-type json, body is not valid JSON, ` +
  `size unknown, request-id absent, intermediary headers transfer-encoding. This was the ` +
  `non-streaming retry of streaming request ${c.requestId}, which failed with: ${failure}; ` +
  `${events} stream events received, first after ${c.firstEventMs} ms, none in the final 0 ms.`;
const SERVER_SIDE = (status: number, c: FailureTextContext) =>
  `API Error: ${status} ${c.message}. This is a server-side issue, usually temporary — try again in a moment. If it persists, check your inference gateway (${c.gateway}).`;
const RESET =
  "API Error: Connection dropped (ECONNRESET). Check the gateway set in ANTHROPIC_BASE_URL, then try again.";
const TIMED_OUT = (c: FailureTextContext) =>
  `Request timed out. If the API is slow to answer, or a proxy or gateway holds responses, set API_TIMEOUT_MS above ${c.apiTimeoutMs}.`;
const CUT_STREAM = { inputTokens: 120, outputTokens: 11 };
const RESET_STREAM = { inputTokens: 120, outputTokens: 5 };
const BAD_LINE_STREAM = { inputTokens: 120, outputTokens: 1 };

/** A reset connection, every retry (failures/connection_reset). */
const CONNECTION_RESET: FailureSpec = {
  status: null,
  defaultMessage: "",
  text: () => RESET,
  error: "server_error",
  connection: true,
  retries: "all",
  retryError: "unknown",
};
/** A stream cut before message_stop (failures/stream_cut). */
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
  billed: CUT_STREAM,
};
/** A non-JSON `data:` line (failures/malformed_stream). */
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
  billed: BAD_LINE_STREAM,
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
    text: (c) => c.retried > 0 && !c.sandbox ? REPEATED_529(c) : SERVER_SIDE(529, c),
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
  connection_reset_recovered: { ...CONNECTION_RESET, billed: RESET_STREAM, recovers: true },
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
