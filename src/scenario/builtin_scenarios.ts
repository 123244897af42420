/**
 * Predefined scenarios: ready-made sessions for the flows every app on the Agent SDK meets
 * (a text reply, a permission, several tools, `/compact`, a subagent, a question to the
 * user, an API failure that recovers, an interrupt), each checked against a recording of
 * the real CLI 2.1.328. By name from code ({@linkcode builtinScenario}), from files
 * (`loadScenario("builtin:<name>")`, `"extends": "builtin:<name>"`) and from the fake
 * binary (`--scenario builtin:<name>`).
 *
 * @module
 */

import { editDistance } from "./_checks.ts";
import { kindOf } from "../wire/_kind_of.ts";
import type { Scenario } from "./scenario.ts";
import type { ScenarioOptions } from "./scenario_builder.ts";
import { apiErrorRetry } from "./builtin/api_error_retry.ts";
import { askUserQuestion } from "./builtin/ask_user_question.ts";
import { compactionEvent } from "./builtin/compaction_event.ts";
import { interruptMidStream } from "./builtin/interrupt_mid_stream.ts";
import { multiTool } from "./builtin/multi_tool.ts";
import { simpleConversation } from "./builtin/simple_conversation.ts";
import { subagentTask } from "./builtin/subagent_task.ts";
import { toolWithPermission } from "./builtin/tool_with_permission.ts";

/**
 * The names of the predefined scenarios, in the order the docs list them.
 *
 * @example Every name
 * ```ts
 * import { BUILTIN_SCENARIO_NAMES } from "@x/claude-mock";
 * console.log(BUILTIN_SCENARIO_NAMES.length, BUILTIN_SCENARIO_NAMES[0]); // 8 simple_conversation
 * ```
 */
export const BUILTIN_SCENARIO_NAMES = [
  "simple_conversation",
  "tool_with_permission",
  "multi_tool",
  "compaction_event",
  "subagent_task",
  "ask_user_question",
  "api_error_retry",
  "interrupt_mid_stream",
] as const;

/**
 * The name of a predefined scenario (see {@linkcode BUILTIN_SCENARIO_NAMES}).
 *
 * @example A name
 * ```ts
 * import type { BuiltinScenarioName } from "@x/claude-mock";
 * const name: BuiltinScenarioName = "multi_tool";
 * console.log(name); // multi_tool
 * ```
 */
export type BuiltinScenarioName = (typeof BUILTIN_SCENARIO_NAMES)[number];

/**
 * Options of {@linkcode builtinScenario}: scenario-wide fields (`seed`, `timing`, `model`,
 * `cwd`, `compact`, …) that override the predefined scenario's own.
 *
 * @example Another seed and model
 * ```ts
 * import type { BuiltinScenarioOptions } from "@x/claude-mock";
 * const options: BuiltinScenarioOptions = { seed: 7, model: "claude-sonnet-5-5" };
 * console.log(options.seed); // 7
 * ```
 */
export type BuiltinScenarioOptions = ScenarioOptions;

const MAKERS: Record<BuiltinScenarioName, (options: ScenarioOptions) => Scenario> = {
  simple_conversation: simpleConversation,
  tool_with_permission: toolWithPermission,
  multi_tool: multiTool,
  compaction_event: compactionEvent,
  subagent_task: subagentTask,
  ask_user_question: askUserQuestion,
  api_error_retry: apiErrorRetry,
  interrupt_mid_stream: interruptMidStream,
};

/**
 * A predefined scenario, built fresh (a new {@linkcode Scenario} each call). Each answers
 * any prompt, in as many turns as the app sends; each is checked against a session of the
 * real CLI. What each does, in short:
 *
 * - `simple_conversation`: a text reply; "hello" (any greeting) gets
 *   `Hello! How can I help you today?`, anything else `I can help with that.`.
 * - `tool_with_permission`: Bash `touch out.txt`, asked through the app's `canUseTool` in
 *   the default mode; allowed: `Done.`; denied: a permission denial and
 *   `Understood, I won't create out.txt.`.
 * - `multi_tool`: two Reads in one message, then Bash `ls`, then the answer.
 * - `compaction_event`: `/compact` writes the compaction's frames and its
 *   `compact_boundary`; other prompts as `simple_conversation`.
 * - `subagent_task`: an `Agent` tool use and the subagent's frames.
 * - `ask_user_question`: an `AskUserQuestion` for the app's `canUseTool` to answer.
 * - `api_error_retry`: `connection_reset_recovered`: `api_retry` frames, then the answer.
 * - `interrupt_mid_stream`: a long streamed story for the app to `interrupt()`
 *   (`cp_interrupt_partial`).
 *
 * The texts are the recordings' except where an answer must fit any app (noted in each
 * scenario's docs). `options` override the scenario's own fields. An unknown name throws
 * a `RangeError` listing the names and naming the closest one; a name that is not a string
 * a `TypeError`.
 *
 * @example The app's permission callback exercised
 * ```ts
 * import { query } from "@anthropic-ai/claude-agent-sdk";
 * import { builtinScenario, MockTransport, PermissionRecorder } from "@x/claude-mock";
 *
 * const mock = new MockTransport(builtinScenario("tool_with_permission"));
 * const permissions = PermissionRecorder.allowAll();
 * let result = "";
 * for await (
 *   const m of query({
 *     prompt: "Create out.txt with touch.",
 *     options: { spawnClaudeCodeProcess: mock.spawn, canUseTool: permissions.canUseTool },
 *   })
 * ) if (m.type === "result" && m.subtype === "success") result = m.result;
 * permissions.assertAsked("Bash", 1);
 * console.log(result); // Done.
 * ```
 *
 * @example A misspelt name
 * ```ts
 * import { builtinScenario, type BuiltinScenarioName } from "@x/claude-mock";
 * try {
 *   builtinScenario("multi_tools" as BuiltinScenarioName);
 * } catch (error) {
 *   console.log((error as Error).message);
 *   // Unknown builtin scenario 'multi_tools' (did you mean 'multi_tool'?); the builtin
 *   // scenarios are simple_conversation, tool_with_permission, multi_tool, …
 * }
 * ```
 */
export function builtinScenario(
  name: BuiltinScenarioName,
  options: BuiltinScenarioOptions = {},
): Scenario {
  if (typeof name !== "string") {
    throw new TypeError(
      `Cannot make a builtin scenario: the name must be a string (one of ${
        BUILTIN_SCENARIO_NAMES.join(", ")
      }), got ${kindOf(name)}`,
    );
  }
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new TypeError(
      `Cannot make the builtin scenario '${name}': the options must be an object, got ${
        kindOf(options)
      }`,
    );
  }
  if (!Object.hasOwn(MAKERS, name)) {
    throw new RangeError(
      `Unknown builtin scenario '${name}' (did you mean '${
        closestName(name)
      }'?); the builtin scenarios are ${BUILTIN_SCENARIO_NAMES.join(", ")}`,
    );
  }
  return MAKERS[name](options);
}

/**
 * The name `name` most likely meant: one that contains it or that it contains, else the
 * nearest by edit distance (ignoring case, `-` and spaces as `_`).
 */
function closestName(name: string): BuiltinScenarioName {
  const wanted = name.toLowerCase().replace(/[-\s]/g, "_");
  const within = BUILTIN_SCENARIO_NAMES.find((n) =>
    wanted.length >= 3 && (n.includes(wanted) || wanted.includes(n))
  );
  if (within) return within;
  let best: BuiltinScenarioName = BUILTIN_SCENARIO_NAMES[0];
  let bestDistance = Infinity;
  for (const candidate of BUILTIN_SCENARIO_NAMES) {
    const d = editDistance(wanted, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}
