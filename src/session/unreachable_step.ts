/**
 * Steps the real CLI never reaches: it ends a turn at the model's reply without tool uses (it
 * calls the API again only to ask for the StructuredOutput tool it has not asked for yet), so a
 * message, an API error or an API failure scripted after such a reply is never played by a
 * real run (`serveMessagesApi`, `cli.ts conform`). The mock plays what the scenario says, and
 * warns once per step.
 *
 * @module
 */

import type { Step } from "../scenario/step.ts";
import type { Engine } from "./engine.ts";
import type { TurnState } from "./turn_state.ts";

/** The unreachable steps warned about, per scenario (each once, however many sessions). */
const WARNED = new WeakMap<object, Set<string>>();

/**
 * Whether `step` comes after the model's last word in this turn: a reply without tool uses,
 * and no StructuredOutput tool left to ask for.
 */
export function unreachable(engine: Engine, turn: TurnState, step: Step): boolean {
  if (turn.textOnly !== true) return false;
  const model = step.kind === "message" || step.kind === "apiError" ||
    (step.kind === "failure" && step.name !== "max_budget");
  return model && !(engine.jsonSchema !== undefined && !turn.enforced);
}

/**
 * Warns (once per step and scenario) when `step`, at `where` in the scenario, is one the real
 * CLI would never reach.
 */
export function warnIfUnreachable(
  engine: Engine,
  turn: TurnState,
  step: Step,
  where: string,
): void {
  if (!unreachable(engine, turn, step)) return;
  let warned = WARNED.get(engine.scenario);
  if (!warned) WARNED.set(engine.scenario, warned = new Set());
  if (warned.has(where)) return;
  warned.add(where);
  const scenario = engine.scenario.name !== undefined
    ? ` of scenario '${engine.scenario.name}'`
    : "";
  engine.warn(
    `claude-mock: warning: ${where}${scenario} (${step.kind}) follows a reply without tool uses: ` +
      "the real CLI ends the turn at that reply and never reaches it " +
      "(script it after a tool use, or in the next turn)",
  );
}
