/**
 * The predefined scenario `api_error_retry`: a failed API call, retried, then answered.
 *
 * @module
 */

import { any } from "../matcher.ts";
import type { Scenario } from "../scenario.ts";
import { ScenarioBuilder, type ScenarioOptions } from "../scenario_builder.ts";
import { GREETING, GREETING_TOKENS, GREETING_TRIGGER, REPLY } from "./_replies.ts";

/**
 * `api_error_retry`: every prompt goes through the named failure
 * `connection_reset_recovered`, as the real CLI meets it: the
 * Messages API drops the connection mid-stream on each attempt, so the CLI writes one
 * `api_retry` frame per retry (`error_status: null`, `error: "unknown"`; as many as the
 * client's `CLAUDE_CODE_MAX_RETRIES`, default 10, with the CLI's backoff, instant on the
 * virtual clock), then the answer comes from the non-streaming fallback (no stream
 * events, even with partial messages) and the turn succeeds; the billed partial streams
 * raise the cost. The answers are `simple_conversation`'s: a greeting gets `Hello! How can
 * I help you today?`, anything else `I can help with that.`. `options` override the
 * scenario's own.
 *
 * @example A failure before each answer
 * ```ts
 * import { apiErrorRetry } from "./api_error_retry.ts";
 * console.log(apiErrorRetry().exchanges[0].steps);
 * // [ { kind: "failure", name: "connection_reset_recovered" }, { kind: "message", ... } ]
 * ```
 */
export function apiErrorRetry(options: ScenarioOptions = {}): Scenario {
  return new ScenarioBuilder({ name: "api_error_retry", ...options })
    .on(GREETING_TRIGGER).repeat()
    .failure("connection_reset_recovered")
    .respond(GREETING, { outputTokens: GREETING_TOKENS })
    .on(any()).repeat()
    .failure("connection_reset_recovered")
    .respond(REPLY)
    .build();
}
