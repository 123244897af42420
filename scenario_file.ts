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
export { type BuildContext } from "./src/builders/build_context.ts";
export {
  type CliVersion,
  type CliVersionFacts,
  type ContextUsageBaseline,
  type ModelRetirement,
} from "./src/builders/cli_versions.ts";
export { IdGenerator } from "./src/builders/ids.ts";
export { type ResultSubtype, type TerminalReason } from "./src/builders/result.ts";
export { type ToolCall, type ToolCallResult } from "./src/builders/tools.ts";
export {
  type PermissionDecisionName,
  type ToolResultContent,
  type UserImageBlock,
  type UserTextBlock,
} from "./src/builders/user.ts";
export {
  BUILTIN_SCENARIO_NAMES,
  type BuiltinScenarioName,
} from "./src/scenario/builtin_scenarios.ts";
export { type CrashPoint } from "./src/scenario/crash_point.ts";
export { type Matcher } from "./src/scenario/matcher.ts";
export { FAILURE_NAMES, type FailureName } from "./src/scenario/named_failures.ts";
export { type PermissionRules } from "./src/scenario/permission_rules.ts";
export {
  type CompactOptions,
  type Exchange,
  type RecordedAnswer,
  type Scenario,
  type SkillSpec,
} from "./src/scenario/scenario.ts";
export {
  type ApiErrorStep,
  type CrashStep,
  type DelayStep,
  type EmitStep,
  type ExitStep,
  type FailureStep,
  type MessagePart,
  type MessageStep,
  type RawStep,
  type RequestStep,
  type ResultOptions,
  type ResultStep,
  type ScriptedToolCall,
  type Step,
  type StepSource,
  type TurnInfo,
  type WaitForWriteStep,
} from "./src/scenario/step.ts";
export {
  type UnmatchedAnswer,
  type UnmatchedHandler,
  type UnmatchedStrategy,
} from "./src/scenario/unmatched_strategy.ts";
export {
  type Delay,
  type Timing,
  type TimingProfile,
  type TimingProfileName,
} from "./src/timing/timing_profile.ts";
export {
  type AssistantContentBlock,
  type Frame,
  type RedactedThinkingBlock,
  type TextBlock,
  type ThinkingBlock,
  type ToolUseBlock,
  type UserFrame,
  type Uuid,
} from "./src/wire/frame.ts";
