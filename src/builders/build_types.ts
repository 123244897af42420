/**
 * The builder types the entry points' signatures show: the build context, its ids and CLI
 * version facts, results, tool calls and user content. The entry points re-export this file,
 * so each documents them on its own.
 *
 * @module
 */

export type { BuildContext } from "./build_context.ts";
export type {
  CliVersion,
  CliVersionFacts,
  ContextUsageBaseline,
  ModelRetirement,
} from "./cli_versions.ts";
export { IdGenerator } from "./ids.ts";
export type { ResultSubtype, TerminalReason } from "./result.ts";
export type { ToolCall, ToolCallResult } from "./tools.ts";
export type {
  PermissionDecisionName,
  ToolResultContent,
  UserImageBlock,
  UserTextBlock,
} from "./user.ts";
