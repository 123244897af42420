/**
 * The scenario file format as TypeScript types: what a `.json` scenario holds (the JSON
 * Schema at {@linkcode SCENARIO_SCHEMA_URL} says the same to an editor), and
 * {@linkcode scenarioToJSON}, which saves a scenario that is data as such a file. Loading one
 * is in `@x/claude-mock`: `loadScenario(path)` and `scenarioFromJSON(object)`.
 *
 * @example A scenario file, typed, saved and loaded back
 * ```ts
 * import { type ScenarioFile, scenarioToJSON } from "@x/claude-mock/scenario-file";
 * import { scenarioFromJSON } from "@x/claude-mock";
 *
 * const file: ScenarioFile = {
 *   name: "status",
 *   exchanges: [{ on: "status", repeat: true, steps: [{ say: "All green." }] }],
 * };
 * const scenario = scenarioFromJSON(file);
 * console.log(JSON.stringify(scenarioToJSON(scenario).exchanges));
 * // [{"on":"status","repeat":true,"steps":[{"say":"All green."}]}]
 * ```
 *
 * @module
 */

export * from "./src/scenario/scenario_file.ts";
export { scenarioToJSON } from "./src/scenario/scenario_to_json.ts";
export { isFailureName } from "./src/scenario/named_failures.ts";

// Types the signatures above show, from the layers they belong to (`deno doc --lint` of this
// entry point on its own wants each of them exported here).
export {
  BUILTIN_SCENARIO_NAMES,
  type BuiltinScenarioName,
} from "./src/scenario/builtin_scenarios.ts";
// the types its signatures show, shared with the other entry points
export * from "./src/scenario/scenario_types.ts";
