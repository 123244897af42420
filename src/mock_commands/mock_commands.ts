/**
 * The `__mock__` command protocol, as a front end of the engine: a user message whose whole text
 * is `{"__mock__": {"command": …, "params": {…}}}` is run instead of being matched against the
 * scenario's exchanges, in-process and through the fake binary alike, so an app's own
 * integration test drives the mock through the app's normal input path. (The texts come from
 * `mockCommand`.) Loading this module adds its planner to every engine made after
 * (`addTurnPlanner`): the hosts of a session (`MockTransport`, the fake binary) and the entry
 * points load it.
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

import type { StepSource } from "../scenario/step.ts";
import { addTurnPlanner, type Engine, type TurnPlanner } from "../session/engine.ts";
import type { TurnState } from "../session/turn_state.ts";

type MockPlan = (engine: Engine, turn: TurnState) => StepSource;
let plan: MockPlan | undefined;

/** Whether a prompt is meant as a `__mock__` command (its text starts with `{"__mock__"`). */
export function isMockPrompt(text: string): boolean {
  // the substring first: most prompts are not commands, and a first RegExp costs a cold process
  return text.includes('"__mock__"') && /^\s*\{\s*"__mock__"\s*:/.test(text);
}

/** Sets the machinery that plans a command prompt's turn (`_eager.ts` gives it at once). */
export function provideMockPlan(machinery: MockPlan): void {
  plan = machinery;
}

/**
 * The planner that answers `__mock__` prompts (added to every engine): `undefined` for any
 * other prompt, in verbatim (recorded) scenarios, which carry their own turns, and when the
 * session's `mockCommands` is `"off"`. A turn it plans is marked `byCommand`: unless
 * `mockCommands` is `"live"`, the tools it uses are never run live.
 */
export function mockCommandPlanner(engine: Engine): TurnPlanner {
  return (turn) => {
    if (
      engine.mockCommands === "off" || engine.scenario.verbatim === true ||
      !isMockPrompt(turn.text)
    ) {
      return undefined;
    }
    turn.byCommand = true;
    if (plan) return plan(engine, turn);
    // the machinery is not loaded (the fake binary's bundle leaves it out of its start-up):
    // load it as the turn's steps begin
    return (info) => ({
      async *[Symbol.asyncIterator]() {
        plan ??= (await import("./_plan.ts")).mockPlan;
        const source = plan(engine, turn);
        yield* typeof source === "function" ? source(info) : source;
      },
    });
  };
}

addTurnPlanner(mockCommandPlanner);
