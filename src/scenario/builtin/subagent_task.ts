/**
 * The predefined scenario `subagent_task`: a subagent run through the Agent tool.
 *
 * @module
 */

import { text } from "../../builders/assistant.ts";
import { readTool, taskTool } from "../../builders/tools.ts";
import { any } from "../matcher.ts";
import type { Scenario } from "../scenario.ts";
import { ScenarioBuilder, type ScenarioOptions } from "../scenario_builder.ts";
import { NOTES, PROJECT } from "./_replies.ts";

/** What the subagent is asked. */
const PROMPT = "Read notes.txt in the current directory and summarize it in one sentence.";
/** The subagent's report. */
const REPORT =
  "The notes say the build uses make, tests are in tests/, and releases are on Fridays.";

/**
 * `subagent_task`: every prompt (as recorded: "Use a subagent to summarize notes.txt.")
 * gets `I'll delegate this to a subagent.` and an `Agent` tool use ("Summarize notes
 * file", `general-purpose`), then the subagent's frames as the real CLI writes them
 * (recording `subagent_task`): `task_started`, the subagent's prompt, `task_progress`, its
 * own Read of `notes.txt` and that result (with `parent_tool_use_id` set), `task_updated`,
 * `task_notification` with its report, the Agent tool's hand-back result; then the answer
 * `Summary from the subagent: build with make, tests in tests/, release on Fridays.`.
 * Nothing is asked in the default mode. The scenario's `cwd` is `/home/user/project`,
 * where the file is. Its tool call is built in code (the file format has no subagent
 * tool uses), so `scenarioToJSON` cannot save it. `options` override the scenario's own.
 *
 * @example The answer's first message
 * ```ts
 * import { subagentTask } from "./subagent_task.ts";
 * const steps = subagentTask().exchanges[0].steps as Array<{ kind: string }>;
 * console.log(steps.map((s) => s.kind)); // [ "message", "message" ]
 * ```
 */
export function subagentTask(options: ScenarioOptions = {}): Scenario {
  return new ScenarioBuilder({ name: "subagent_task", cwd: PROJECT, ...options })
    .on(any()).repeat()
    .respond([
      text("I'll delegate this to a subagent."),
      (ctx) =>
        taskTool(ctx, "Summarize notes file", {
          prompt: PROMPT,
          result: REPORT,
          tools: [readTool(ctx, `${PROJECT}/notes.txt`, { content: NOTES })],
        }),
    ])
    .respond("Summary from the subagent: build with make, tests in tests/, release on Fridays.")
    .build();
}
