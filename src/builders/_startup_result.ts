/**
 * The result the real CLI writes when a session cannot start (a `--resume` of a session with no
 * transcript): `error_during_execution`, nothing spent, the reason in `errors`. Its keys come in
 * their own order (`type` first), as the real CLI 2.1.328 to 2.1.332 writes them in stream-json.
 * Internal.
 *
 * @internal
 * @module
 */

import { resultUsage } from "./usage.ts";

/**
 * The `error_during_execution` result of a session that could not start, or that crashed before
 * its first turn (`crashed`: a UserPromptSubmit hook's output about another event, with
 * `result_index` its place and `model_usage_since_last_result`, as 2.1.332 writes it).
 */
export function startupErrorResult(
  sessionId: string,
  { uuid, errors, crashed }: {
    uuid: string;
    errors: string[];
    crashed?: { resultIndex: number };
  },
): Record<string, unknown> {
  return {
    type: "result",
    subtype: "error_during_execution",
    duration_ms: 0,
    duration_api_ms: 0,
    is_error: true,
    num_turns: 0,
    stop_reason: null,
    session_id: sessionId,
    total_cost_usd: 0,
    usage: resultUsage([]),
    modelUsage: {},
    permission_denials: [],
    uuid,
    errors,
    result_index: crashed?.resultIndex ?? 0,
    ...(crashed ? { model_usage_since_last_result: {} } : {}),
  };
}
