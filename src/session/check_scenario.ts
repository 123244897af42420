/**
 * Checks a scenario once before the first session runs it: a scenario object is checked
 * the first time, so every later session of it starts in constant time.
 *
 * @module
 */

import type { Scenario } from "../scenario/scenario.ts";
import { validateScenario } from "../scenario/validate_scenario.ts";

const checked = new WeakSet<object>();

/** Throws (naming the scenario, the path and the problem) when `scenario` cannot run. */
export function checkScenarioOnce(scenario: Scenario): void {
  if (typeof scenario === "object" && scenario !== null && checked.has(scenario)) return;
  validateScenario(scenario, { verb: "start a session for" });
  checked.add(scenario);
}
