/**
 * `__mock__` commands: a user message whose whole text is `{"__mock__": {...}}` is run by the
 * mock instead of being matched against the scenario, in process and through the fake
 * binary. {@linkcode mockCommand} writes those texts, so a test drives the mock through the
 * app's own input (its chat box, its command line) without hand-written JSON.
 *
 * @example A command prompt through the app's own input
 * ```ts
 * import { mockCommand } from "@x/claude-mock/mock-command";
 * import { MockTransport, runQuery } from "@x/claude-mock";
 *
 * const prompt = mockCommand.sequence([
 *   mockCommand.textResponse("Looking."),
 *   mockCommand.textResponse("Found 3 TODOs."),
 * ]);
 * const { result } = await runQuery(new MockTransport(), prompt);
 * console.log(result?.subtype, result?.subtype === "success" && result.result);
 * // success Found 3 TODOs.
 * ```
 *
 * @module
 */

// the `__mock__` commands, with their machinery loaded at once (the fake binary's bundle loads
// it on the first command prompt): every session this entry point makes answers them
import "./src/mock_commands/_eager.ts";

export * from "./src/scenario/mock_command.ts";

// Types the signatures above show, from the layers they belong to (`deno doc --lint` of this
// entry point on its own wants each of them exported here).
export { type PermissionSuggestion } from "./src/builders/control.ts";
export { type PermissionMode } from "./src/builders/system.ts";
export {
  BUILTIN_SCENARIO_NAMES,
  type BuiltinScenarioName,
} from "./src/scenario/builtin_scenarios.ts";
export { type AskUserQuestionItem } from "./src/scenario/exchange_options.ts";
// the scenario file format
export * from "./src/scenario/scenario_file_types.ts";
// the types its signatures show, shared with the other entry points
export * from "./src/scenario/scenario_types.ts";
