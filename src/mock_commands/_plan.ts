/**
 * The `__mock__` machinery behind `mockCommandPlanner`: parsing a command prompt and running
 * its commands. The library's entry points load it with everything else (`_eager.ts`), the fake
 * binary's bundle on its first command prompt (most runs have none, and the machinery is a
 * quarter of the bundle). Internal.
 *
 * @module
 */

import { builtinScenario, type BuiltinScenarioName } from "../scenario/builtin_scenarios.ts";
import type { Step, StepSource } from "../scenario/step.ts";
import { CommandRun } from "./_run.ts";
import { type ParsedCommand, parseMockPrompt } from "./_parse.ts";
import type { Engine } from "../session/engine.ts";
import { TurnFailure, type TurnState } from "../session/turn_state.ts";

/** The steps of a `__mock__` prompt's turn: its commands, or the failure that ends it. */
export function mockPlan(engine: Engine, turn: TurnState): StepSource {
  let commands: ParsedCommand[];
  try {
    commands = parseMockPrompt(turn.text, lookupBuiltin);
  } catch (error) {
    return failing((error as Error).message);
  }
  return () => new CommandRun(engine, turn, commands).steps();
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
