/**
 * {@linkcode withOverrides}: per-test changes to a shared base scenario, as msw's
 * `server.use(...)` overrides its base handlers.
 *
 * @module
 */

import { isObject } from "../wire/frame.ts";
import { kindOf } from "../wire/_kind_of.ts";
import type { Scenario } from "./scenario.ts";
import { ScenarioBuilder } from "./scenario_builder.ts";
import { validateScenario } from "./validate_scenario.ts";

/**
 * A new scenario made of `base` and `overrides`: the overrides' exchanges come first, so
 * they are tried before the base's (an override used up lets the base's exchange answer the
 * next matching message, as any two exchanges with the same trigger do), and the
 * scenario-level settings the overrides set (`crashAfter`, `onUnmatched`, `timing`,
 * `withExitCode`, `onConnect`, options such as `model` or `seed`, ...) replace the base's.
 * `base` is never changed, so one base serves every test.
 *
 * `overrides` is a function that adds to a fresh {@linkcode ScenarioBuilder} (named like
 * the base, so its errors name the base), or a scenario whose exchanges and settings are
 * taken. A function must work synchronously (a returned promise is a `TypeError`).
 *
 * @example One test fails the deploy, the others use the base
 * ```ts
 * import { ScenarioBuilder, withOverrides } from "@x/claude-mock";
 * const base = new ScenarioBuilder({ name: "app" })
 *   .on("deploy").repeat().respond("Deployed.")
 *   .on("status").repeat().respond("All green.")
 *   .build();
 * const failing = withOverrides(base, (s) => s.on("deploy").failure("overloaded"));
 * console.log(failing.exchanges.length, base.exchanges.length); // 3 2
 * console.log(failing.exchanges[0].steps); // [ { kind: "failure", name: "overloaded" } ]
 * ```
 *
 * @example Overriding a setting
 * ```ts
 * import { ScenarioBuilder, withOverrides } from "@x/claude-mock";
 * const base = new ScenarioBuilder({ name: "app" }).on("hi").respond("Hello!").build();
 * const lenient = withOverrides(base, (s) => s.onUnmatched("warn"));
 * console.log(lenient.unmatched, base.unmatched); // warn undefined
 * ```
 */
export function withOverrides(
  base: Scenario,
  overrides: Scenario | ((builder: ScenarioBuilder) => unknown),
): Scenario {
  validateScenario(base, { verb: "override" });
  const label = typeof base.name === "string" ? ` '${base.name}'` : "";
  let over: Scenario;
  if (typeof overrides === "function") {
    const builder = new ScenarioBuilder(base.name !== undefined ? { name: base.name } : {});
    const returned = overrides(builder);
    if (isObject(returned) && typeof returned.then === "function") {
      throw new TypeError(
        `Cannot override scenario${label}: the overrides function returned a promise; add the overrides synchronously (an async function's later changes would be lost)`,
      );
    }
    over = builder.build();
  } else if (isObject(overrides)) {
    over = validateScenario(overrides, { verb: "override with" });
  } else {
    throw new TypeError(
      `Cannot override scenario${label}: the overrides must be a function (builder) => ... or a scenario, got ${
        kindOf(overrides)
      }`,
    );
  }
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined || key === "exchanges") continue;
    if (key === "onConnect" && Array.isArray(value) && value.length === 0) continue;
    merged[key] = value;
  }
  merged.exchanges = [...over.exchanges, ...base.exchanges];
  return validateScenario(merged, { verb: "override" });
}
