/**
 * Options of {@linkcode validateScenario}: what was being done and where the scenario came
 * from, for the message.
 *
 * @module
 */

/**
 * Options of {@linkcode validateScenario}.
 *
 * @example Loading a file
 * ```ts
 * import type { ValidateScenarioOptions } from "./validate_scenario_options.ts";
 * const options: ValidateScenarioOptions = { verb: "load", source: "chat.json" };
 * console.log(options.verb); // load
 * ```
 */
export interface ValidateScenarioOptions {
  /** What was being done, for the message: `Cannot ${verb} scenario ...` (default `build`). */
  verb?: string;
  /** Where the scenario came from (a file name), added as ` (in ${source})`. */
  source?: string;
}
