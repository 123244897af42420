/**
 * The journal of a scenario-driven Messages API: every request it got, and what it answered.
 *
 * @module
 */

/** What kind of request an entry is. */
export type JournalKind =
  /** A turn of the main conversation (`POST /v1/messages`). */
  | "conversation"
  /** A subagent's call (`cc_is_subagent=true` in the system prompt). */
  | "subagent"
  /** The CLI's summarisation call for `/compact`. */
  | "compaction"
  /** The CLI's session title call (not sent with `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1`). */
  | "title"
  /** `POST /v1/messages/count_tokens`. */
  | "count_tokens"
  /** `GET /v1/models`. */
  | "models"
  /** The CLI's connectivity probe (`HEAD /api/hello`), sent unless non-essential traffic is off. */
  | "probe"
  /** Anything else: answered 404 in the API's error shape. */
  | "unknown";

/** How the server answered a request. */
export interface JournalAnswer {
  /** The HTTP status (0 when no status was sent: a reset or a hang). */
  status: number;
  /**
   * What was sent: `reply` (a message, streamed or whole), `error` (the API's error
   * envelope), `reset` (the connection reset), `hang` (no answer), `stall` (headers, then
   * nothing), `cut` / `reset-stream` / `malformed` (a broken stream), `body` (an unusable
   * JSON body), `refused` (the server stopped listening: `connection_refused`), `ok` (another
   * endpoint's answer).
   */
  kind:
    | "reply"
    | "error"
    | "reset"
    | "refused"
    | "hang"
    | "stall"
    | "cut"
    | "reset-stream"
    | "malformed"
    | "body"
    | "ok";
  /** Whether it was streamed as SSE. */
  stream?: boolean;
  /** Replies: the content block kinds (`text`, `thinking`, `tool_use:Read`). */
  blocks?: string[];
  /** Replies: the stop reason. */
  stopReason?: string;
  /** Replies: the API message id. */
  messageId?: string;
  /** Errors: the envelope's type and message. */
  error?: { type: string; message: string };
  /** The named failure or `apiError` status that decided a failing answer. */
  failure?: string;
}

/** Where in the scenario a conversation request stood. */
export interface JournalPlace {
  /** The exchange's index in the scenario (0-based), or -1 (subagents, compaction). */
  exchange: number;
  /** The exchange as messages name it (`exchange 2 (contains "x")`). */
  description: string;
  /** The turn within the session (0 for the first). */
  turn: number;
  /** The API call within the turn (0 for the first). */
  call: number;
  /** How many requests this call got before (0 for the first attempt). */
  attempt: number;
  /** The answering step (`steps[1]`). */
  step?: string;
}

/** One request to the server. */
export interface JournalEntry {
  /** Its index (0 for the first). */
  index: number;
  /** Milliseconds since the server started. */
  at: number;
  /** The method. */
  method: string;
  /** The path with its query (`/v1/messages?beta=true`). */
  path: string;
  /** The headers, names in lower case (`x-api-key` and `authorization` redacted). */
  headers: Record<string, string>;
  /** The body: parsed JSON, the text when it is not JSON, or `null` when empty. */
  body: unknown;
  /** What kind of request. */
  kind: JournalKind;
  /** Conversation requests: where in the scenario it stood. */
  place?: JournalPlace;
  /** The answer (set once decided). */
  answer?: JournalAnswer;
  /** Whether the client closed the connection before the answer was complete. */
  clientClosed?: boolean;
}
