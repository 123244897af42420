/**
 * Checks a scenario once before the first session runs it: a scenario object is checked
 * the first time, so every later session of it starts in constant time.
 *
 * @module
 */

import type { Matcher } from "../scenario/matcher.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { isObject } from "../wire/frame.ts";

const checked = new WeakSet<object>();

/** Throws when `scenario` cannot run; remembers scenarios that passed. */
export function checkScenarioOnce(scenario: Scenario): void {
  if (isObject(scenario) && checked.has(scenario)) return;
  if (!isObject(scenario)) {
    throw new TypeError("Cannot start a session: the scenario must be an object");
  }
  if (!Array.isArray(scenario.exchanges)) {
    throw new TypeError(
      `Cannot start a session${
        scenario.name ? ` for '${scenario.name}'` : ""
      }: 'exchanges' must be an array`,
    );
  }
  scenario.exchanges.forEach((e, i) => {
    if (!isObject(e) || !e.trigger || typeof (e.trigger as Matcher).test !== "function") {
      throw new TypeError(`Cannot start a session: 'exchanges[${i}].trigger' must be a Matcher`);
    }
    if (!Array.isArray(e.steps) && typeof e.steps !== "function") {
      throw new TypeError(
        `Cannot start a session: 'exchanges[${i}].steps' must be an array or a function`,
      );
    }
  });
  checked.add(scenario);
}
