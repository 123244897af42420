/**
 * The predefined scenario `multi_tool`: two tool uses in one message, then one more.
 *
 * @module
 */

import { any } from "../matcher.ts";
import type { Scenario } from "../scenario.ts";
import { ScenarioBuilder, type ScenarioOptions } from "../scenario_builder.ts";
import { NOTES, PROJECT, TODO } from "./_replies.ts";

/**
 * `multi_tool`: every prompt (as recorded: "Read notes.txt and todo.txt.") gets one
 * message with a text and two Read tool uses (`notes.txt` and `todo.txt`, run together,
 * their results after the message, as the real CLI runs them), then a message
 * with one more tool use, Bash `ls` ("List files", output `notes.txt\ntodo.txt`), then the final text `notes.txt has three project notes;
 * todo.txt lists two tasks.`; the result counts `num_turns: 4`. Reads in the working
 * directory and `ls` are read-only: nothing is asked in the default mode. The scenario's
 * `cwd` is `/home/user/project`, where its files are (the fake binary reports it too).
 * `options` override the scenario's own.
 *
 * @example Two messages with tools, then the answer
 * ```ts
 * import { multiTool } from "./multi_tool.ts";
 * const scenario = multiTool();
 * console.log(scenario.cwd, (scenario.exchanges[0].steps as unknown[]).length);
 * // /home/user/project 3
 * ```
 */
export function multiTool(options: ScenarioOptions = {}): Scenario {
  return new ScenarioBuilder({ name: "multi_tool", cwd: PROJECT, ...options })
    .on(any()).repeat()
    .usesTogether(
      (tools) =>
        tools.usesRead(`${PROJECT}/notes.txt`, { content: NOTES })
          .usesRead(`${PROJECT}/todo.txt`, { content: TODO }),
      { say: "I'll read both files." },
    )
    .usesBash("ls", { description: "List files", stdout: "notes.txt\ntodo.txt" })
    .respond("notes.txt has three project notes; todo.txt lists two tasks.")
    .build();
}
