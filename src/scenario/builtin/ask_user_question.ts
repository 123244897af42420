/**
 * The predefined scenario `ask_user_question`: the AskUserQuestion tool.
 *
 * @module
 */

import { any } from "../matcher.ts";
import type { Scenario } from "../scenario.ts";
import { ScenarioBuilder, type ScenarioOptions } from "../scenario_builder.ts";

/**
 * `ask_user_question`: every prompt (as recorded: "Help me pick a date library.") gets an
 * `AskUserQuestion` tool use with one question, "Which date library should we use?"
 * (header `Library`; choices `date-fns` "Small, functional helpers" and `Luxon`
 * "Immutable DateTime objects"; `multiSelect: false`), as in recording
 * `cp_ask_user_question`. The app's `canUseTool` gets it with `requires_user_interaction`;
 * it answers by allowing with `updatedInput.answers` (keyed by the question), which become
 * the tool result `Your questions have been answered: "<question>"="<answer>". …` (an answer
 * keyed by any other text is not read: `The user did not answer the questions.`). Then the
 * reply is `Thanks, I'll go with your choice.` (the recording's `Great, we will use
 * date-fns.` named the answer its app gave). Denied, the reply is `OK, tell me when you
 * have decided.`. `options` override the scenario's own.
 *
 * @example The question
 * ```ts
 * import { askUserQuestion } from "./ask_user_question.ts";
 * console.log(askUserQuestion().name); // ask_user_question
 * ```
 */
export function askUserQuestion(options: ScenarioOptions = {}): Scenario {
  return new ScenarioBuilder({ name: "ask_user_question", ...options })
    .on(any()).repeat()
    .usesAskUserQuestion([{
      question: "Which date library should we use?",
      header: "Library",
      options: [
        { label: "date-fns", description: "Small, functional helpers" },
        { label: "Luxon", description: "Immutable DateTime objects" },
      ],
      multiSelect: false,
    }], { ifDenied: "OK, tell me when you have decided." })
    .respond("Thanks, I'll go with your choice.")
    .build();
}
