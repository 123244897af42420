/**
 * Internal: `builtin:<name>` references to predefined scenarios, as `loadScenario` and a
 * scenario file's `extends` take them. Not part of the public API.
 *
 * @module
 */

import {
  BUILTIN_SCENARIO_NAMES,
  builtinScenario,
  type BuiltinScenarioName,
} from "./builtin_scenarios.ts";
import type { Scenario } from "./scenario.ts";

/** The scheme of a reference to a predefined scenario. */
const BUILTIN_SCHEME = "builtin:";

/** Every reference, in the order of {@linkcode BUILTIN_SCENARIO_NAMES}. */
export const BUILTIN_REFERENCES: readonly string[] = BUILTIN_SCENARIO_NAMES.map((name) =>
  `${BUILTIN_SCHEME}${name}`
);

/** Whether `value` is a `builtin:` reference (a string or a URL with that scheme). */
export function isBuiltinReference(value: unknown): boolean {
  return (typeof value === "string" && value.startsWith(BUILTIN_SCHEME)) ||
    (value instanceof URL && value.protocol === BUILTIN_SCHEME);
}

/**
 * The predefined scenario `reference` (`builtin:<name>`) names; an unknown name is a
 * `RangeError` in the loader's format, naming the reference, the closest name and the list.
 */
export function builtinFromReference(reference: string): Scenario {
  const name = reference.slice(BUILTIN_SCHEME.length);
  try {
    return builtinScenario(name as BuiltinScenarioName);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new RangeError(
      `Cannot load scenario: ${error.message.replace(/^Unknown/, "unknown")} (in ${reference})`,
    );
  }
}
