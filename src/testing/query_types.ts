/**
 * The types of the query runner (`runQuery`, `startQuery`), declared structurally so the
 * mock does not depend on the Agent SDK: the SDK's `query` function and its messages fit
 * them, and when the caller passes the SDK's own `query`, messages and options take the
 * SDK's types.
 *
 * @module
 */

import type { ExitStatus } from "../session/session.ts";
import type { WriteEntry } from "../session/write_log.ts";

/** A message the SDK yields (structurally; the SDK's `SDKMessage` fits). */
export type QueryMessage = {
  /** `system`, `assistant`, `user`, `result`, `stream_event`, ... */
  type: string;
  /** Other fields. */
  [key: string]: unknown;
};

/** A result message (structurally; the SDK's `SDKResultMessage` fits). */
export type QueryResultMessage = {
  /** Always `result`. */
  type: "result";
  /** `success`, `error_during_execution`, `error_max_turns`, ... */
  subtype: string;
  /** Whether the turn failed. */
  is_error: boolean;
  /** The final text (success results). */
  result?: string;
  /** Other fields. */
  [key: string]: unknown;
};

/** A user message of a streaming prompt (structurally; the SDK's `SDKUserMessage` fits). */
export type QueryUserMessage = {
  /** Always `user`. */
  type: "user";
  /** The Messages API user message: `{ role: "user", content }`. */
  message: unknown;
  /** `null` for the app's own messages. */
  parent_tool_use_id: string | null;
  /** Other fields. */
  [key: string]: unknown;
};

/** What the SDK's `query()` returns (structurally; its `Query` fits). */
export interface QueryHandle<M = QueryMessage> extends AsyncIterable<M> {
  /** Interrupts the running turn. */
  interrupt(): Promise<unknown>;
  /** Ends the query and its process. */
  close?(): void;
}

/** The SDK's `query` function (structurally), with options as a plain record. */
export type QueryFunction = (params: {
  prompt: string | AsyncIterable<QueryUserMessage>;
  options?: Record<string, unknown>;
}) => QueryHandle<QueryMessage>;

/** Any `query` function: the SDK's own, or a {@linkcode QueryFunction}. */
export type AnyQueryFunction = (params: never) => QueryHandle<unknown>;

/** The messages a `query` function yields. */
export type MessageOf<Q extends AnyQueryFunction> = ReturnType<Q> extends AsyncIterable<infer M> ? M
  : QueryMessage;

/** The result messages among `M` (a {@linkcode QueryResultMessage} when `M` names none). */
export type ResultOf<M> = [Extract<M, { type: "result" }>] extends [never] ? QueryResultMessage
  : Extract<M, { type: "result" }>;

/** The options a `query` function takes. */
export type QueryOptionsOf<Q extends AnyQueryFunction> = Parameters<Q>[0] extends
  { options?: infer O } ? NonNullable<O> : Record<string, unknown>;

/**
 * The options of `runQuery` and `startQuery`: the SDK's `query()` options (all but
 * `spawnClaudeCodeProcess`, which is the mock's), and `query`, the SDK's `query` function
 * (default: loaded with `import("@anthropic-ai/claude-agent-sdk")`, the app's own
 * dependency).
 */
export type RunQueryOptions<Q extends AnyQueryFunction = QueryFunction> =
  & Omit<QueryOptionsOf<Q>, "spawnClaudeCodeProcess" | "query">
  & {
    /** The SDK's `query` (default: imported from `@anthropic-ai/claude-agent-sdk`). */
    query?: Q;
  };

/**
 * A prompt for `runQuery`: one text (the SDK's single-message mode); several, each sent
 * after the previous turn's result (streaming input); or the app's own stream of user
 * messages.
 */
export type QueryPrompt =
  | string
  | readonly (string | QueryUserMessage)[]
  | AsyncIterable<QueryUserMessage>;

/** What a query did: the app's view (messages, error) and the process's (exit, writes). */
export interface QueryRun<M = QueryMessage> {
  /** Every message the SDK yielded, in order. */
  messages: M[];
  /** The result messages, in order (one per turn). */
  results: ResultOf<M>[];
  /** The last result message, if any. */
  result: ResultOf<M> | undefined;
  /**
   * What the SDK threw (the run itself never throws it), or what the prompt stream threw (the
   * SDK's own error in its message, the stream's as `cause`); `undefined` if nothing.
   */
  error: Error | undefined;
  /**
   * How the mock process ended; `undefined` when the SDK never started it (or, rarely, it
   * had not exited seconds after the SDK's loop ended, even ended like SIGTERM).
   */
  exit: ExitStatus | undefined;
  /** Every line the SDK wrote to the process, parsed and raw. */
  writes: WriteEntry[];
}
