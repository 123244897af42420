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
export { type BuildContext } from "./src/builders/build_context.ts";
export {
  type CliVersion,
  type CliVersionFacts,
  type ContextUsageBaseline,
  type ModelRetirement,
} from "./src/builders/cli_versions.ts";
export { type PermissionSuggestion } from "./src/builders/control.ts";
export { IdGenerator } from "./src/builders/ids.ts";
export { type ResultSubtype, type TerminalReason } from "./src/builders/result.ts";
export { type PermissionMode } from "./src/builders/system.ts";
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
export { type AskUserQuestionItem } from "./src/scenario/exchange_options.ts";
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
  type ApiErrorStepFile,
  type AskUserQuestionStepFile,
  type BashStepFile,
  type ConnectStepFile,
  type CrashStepFile,
  type DelayFile,
  type DelayStepFile,
  type EditStepFile,
  type EmitStepFile,
  type ExchangeFile,
  type ExitStepFile,
  type FailureStepFile,
  type GenericToolStepFile,
  type MessageFileOptions,
  type QuestionFile,
  type RawStepFile,
  type ReadStepFile,
  type RequestStepFile,
  type ResultStepFile,
  type SayStepFile,
  type ScenarioFile,
  type StepFile,
  type TaskStepFile,
  type TogetherStepFile,
  type ToolFileOptions,
  type ToolUseStepFile,
  type TriggerFile,
  type WaitForStepFile,
  type WriteStepFile,
} from "./src/scenario/scenario_file.ts";
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
