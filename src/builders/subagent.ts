/**
 * The identity a subagent's frames carry: the real CLI stamps every frame a subagent
 * (the `Agent` tool, `Task` in `system/init`) produces with `parent_tool_use_id` = the
 * Agent tool use id, plus `agent_id`, `subagent_type` and `task_description`.
 *
 * @module
 */

/**
 * Who produced a frame inside a subagent run. Pass it as the `subagent` option of
 * {@linkcode assistantMessage}, {@linkcode toolResult} and {@linkcode userText}.
 */
export interface SubagentInfo {
  /** The Agent tool use id that started the subagent (becomes `parent_tool_use_id`). */
  parentToolUseId: string;
  /** The subagent's id (the `task_id` of its task events), e.g. `a8b0a0e708be712e2`. */
  agentId: string;
  /** The subagent type, e.g. `general-purpose`. */
  subagentType: string;
  /** The task description given to the Agent tool. */
  taskDescription: string;
}
