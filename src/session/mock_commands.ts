/**
 * The `__mock__` command protocol, as an engine part: a user message whose whole text is
 * `{"__mock__": {"command": …, "params": {…}}}` is run instead of being matched against the
 * scenario's exchanges, in-process and through the fake binary alike, so an app's own
 * integration test drives the mock through the app's normal input path. (The texts come
 * from `mockCommand`.)
 *
 * A command prompt is one turn, like any prompt: `running`, the UserPromptSubmit hooks,
 * `system/init`, the commands' frames in order, one `result`, `idle`. The turn ends with the
 * result the commands write (`result`, `error`, a scenario exchange's own result, a hook
 * answering `continue: false`, an interrupt); otherwise, when they ran out, with a success
 * result carrying the last main-thread text, after the Stop hooks, as a scenario exchange
 * ends. A prompt that is not valid JSON, an unknown command or a bad parameter ends the turn
 * with an error result naming the command and the field; nothing is written before it.
 *
 * @module
 */

import { builtinScenario, type BuiltinScenarioName } from "../scenario/builtin_scenarios.ts";
import type { Step, StepSource } from "../scenario/step.ts";
import { CommandRun } from "./_mock_run.ts";
import { isMockPrompt, type ParsedCommand, parseMockPrompt } from "./_mock_parse.ts";
import type { Engine, TurnPlanner } from "./engine.ts";
import { TurnFailure } from "./turn_state.ts";

/**
 * The planner that answers `__mock__` prompts (registered on every engine): `undefined` for
 * any other prompt, and in verbatim (recorded) scenarios, which carry their own turns.
 */
export function mockCommandPlanner(engine: Engine): TurnPlanner {
  return (turn) => {
    if (engine.scenario.verbatim === true || !isMockPrompt(turn.text)) return undefined;
    let commands: ParsedCommand[];
    try {
      commands = parseMockPrompt(turn.text, lookupBuiltin);
    } catch (error) {
      return failing((error as Error).message);
    }
    return () => new CommandRun(engine, turn, commands).steps();
  };
}

function lookupBuiltin(name: string) {
  return builtinScenario(name as BuiltinScenarioName);
}

/** A step source that fails the turn with `message` before writing anything. */
function failing(message: string): StepSource {
  return () => ({
    [Symbol.iterator](): Iterator<Step> {
      throw new TurnFailure(message);
    },
  });
}
