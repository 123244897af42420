/**
 * A subagent's `maxTurns` (its agent's), as the real CLI (2.1.328, 2.1.332) applies it: each
 * API round trip is a turn; a subagent still calling tools when it has made `maxTurns` of them
 * runs the tools of its last one, then stops without a report. Conformance case
 * `agents_max_turns`.
 *
 * @module
 */

import { type AgentRun, turnLimitNote } from "../builders/_agent_run.ts";
import { estimateOutputTokens } from "../builders/_api_stream.ts";
import { DEFAULT_INPUT_TOKENS } from "../builders/usage.ts";

/**
 * The run a subagent makes under `maxTurns`: the run as scripted when it ends (its report)
 * within the limit; else its first `maxTurns` tool calls, the CLI's note in place of its
 * report (the task's summary too) and the tokens of its last call (`stopped` is then the
 * limit).
 *
 * @example A reader limited to one turn
 * ```ts
 * import { limitTurns } from "./subagent_turn_limit.ts";
 * import { taskTool, readTool } from "../builders/tools.ts";
 * import { AGENT_RUN, type AgentRun } from "../builders/_agent_run.ts";
 * import { createBuildContext } from "../builders/build_context.ts";
 * const ctx = createBuildContext();
 * const call = taskTool(ctx, "Read both", {
 *   prompt: "Read a and b.",
 *   result: "Both read.",
 *   tools: [readTool(ctx, "/p/a.txt", { content: "A\n" }), readTool(ctx, "/p/b.txt", { content: "B\n" })],
 * });
 * const run = (call as unknown as { [AGENT_RUN]: AgentRun })[AGENT_RUN];
 * const limited = limitTurns(run, 1);
 * console.log(limited.stopped, limited.run.tools.length); // 1 1
 * ```
 */
export function limitTurns(
  run: AgentRun,
  maxTurns: number | undefined,
): { run: AgentRun; stopped?: number } {
  // n tool calls and the report are n + 1 calls
  if (maxTurns === undefined || run.options.subagentFrames || run.tools.length < maxTurns) {
    return { run };
  }
  const tools = run.tools.slice(0, maxTurns);
  const last = tools.at(-1)!.block;
  return {
    run: {
      ...run,
      tools,
      options: { ...run.options, result: turnLimitNote(maxTurns) },
      totalTokens: DEFAULT_INPUT_TOKENS + estimateOutputTokens([last]),
    },
    stopped: maxTurns,
  };
}
