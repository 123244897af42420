/**
 * The result of a tool use that does not run because it was denied or cancelled, as the real
 * CLI writes it (main thread and subagents alike).
 *
 * @module
 */

import type { ToolResultOptions } from "../builders/user.ts";
import type { ToolDecision } from "./turn_state.ts";

/**
 * The result options of a denied (or cancelled) tool use: its message as an error, the
 * decision in `tool_result_meta`, or (a cancelled use) only its `non_execution_kind` there.
 *
 * @example A cancelled use
 * ```ts
 * import { deniedResult } from "./denied_result.ts";
 * const options = deniedResult("toolu_1", {
 *   kind: "deny",
 *   message: "Cancelled.",
 *   meta: null,
 *   nonExecutionKind: "cancelled",
 * });
 * console.log(options.extra?.tool_result_meta); // [ { id: "toolu_1", non_execution_kind: "cancelled" } ]
 * ```
 */
export function deniedResult(
  toolUseId: string,
  decision: Extract<ToolDecision, { kind: "deny" }>,
): ToolResultOptions {
  const kind = decision.nonExecutionKind;
  return {
    content: decision.message,
    isError: true,
    permissionDecision: decision.meta,
    ...(decision.toolUseResult !== undefined ? { toolUseResult: decision.toolUseResult } : {}),
    ...(kind ? { nonExecutionKind: kind } : {}),
    // no decision: a meta with only its kind (a cancelled use)
    ...(decision.meta === null && kind
      ? { extra: { tool_result_meta: [{ id: toolUseId, non_execution_kind: kind }] } }
      : {}),
  };
}
