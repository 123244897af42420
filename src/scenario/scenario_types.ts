/**
 * The types a scenario is made of (exchanges, steps, matchers, named failures) and, below
 * them, the builder, timing and frame types their signatures show: what every entry point that
 * takes a scenario re-exports (`export *`), so each documents them on its own.
 *
 * @module
 */

export * from "../builders/build_types.ts";
export * from "../timing/timing_types.ts";
export * from "../wire/frame_types.ts";
export type { CrashPoint } from "./crash_point.ts";
export type { Matcher } from "./matcher.ts";
export { FAILURE_NAMES, type FailureName } from "./named_failures.ts";
export type { PermissionRules } from "./permission_rules.ts";
export type { CompactOptions, Exchange, RecordedAnswer, Scenario, SkillSpec } from "./scenario.ts";
export type {
  MessagePart,
  ResultOptions,
  ScriptedToolCall,
  Step,
  StepSource,
  TurnInfo,
} from "./step.ts";
export type { UnmatchedAnswer, UnmatchedHandler, UnmatchedStrategy } from "./unmatched_strategy.ts";
