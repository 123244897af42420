/**
 * Frame builders: every frame the real Claude Code CLI writes, in its shapes (system init,
 * assistant messages and their stream events, tool calls and results, results with usage
 * and cost, control requests and responses, tasks, compaction). Scenarios use them through
 * {@linkcode ScenarioBuilder}'s `emit` and `__mock__` commands; tests use them to build a
 * frame to compare with or to emit verbatim. Each takes a {@linkcode BuildContext} (session
 * id, model, cwd, clock, ids), so the same context and seed give the same frames.
 *
 * @example Building an assistant message and the result that ends its turn
 * ```ts
 * import { assistantMessage, createBuildContext, resultFrame } from "@x/claude-mock/builders";
 *
 * const ctx = createBuildContext({ seed: 1 });
 * const [reply] = assistantMessage(ctx, "Hello!");
 * console.log(reply.type, reply.message.content[0]); // assistant { type: "text", text: "Hello!" }
 * console.log(resultFrame(ctx, { result: "Hello!" }).subtype); // success
 * ```
 *
 * @module
 */

export {
  type BuildContextOptions,
  CLAUDE_CODE_VERSION,
  createBuildContext,
  DEFAULT_CWD,
  DEFAULT_MODEL,
  DEFAULT_TEMP_DIR,
} from "./src/builders/build_context.ts";
export { type IdGeneratorOptions } from "./src/builders/ids.ts";
export {
  CLI_VERSION_HISTORY,
  cliVersionFacts,
  cliVersionOfSdk,
  type CliVersionRow,
  type CliVersionSource,
  type InstalledSdkInfo,
  KNOWN_CLI_VERSIONS,
  NEWEST_CLI_VERSION,
  resolveCliVersion,
  type ResolveCliVersionOptions,
} from "./src/builders/cli_versions.ts";
export {
  type AssistantContentInput,
  assistantMessage,
  type AssistantMessageBodyOut,
  type AssistantMessageFrame,
  type AssistantMessageOptions,
  type AssistantUsage,
  type BuiltContentBlock,
  type PlainTextBlock,
  text,
  thinking,
  type ThinkingDisplay,
  toolUse,
  type ToolUseInput,
  type ToolUseMeta,
} from "./src/builders/assistant.ts";
export {
  type ApiErrorAssistantFrame,
  apiErrorMessage,
  type ApiErrorMessageOptions,
  apiFailureMessage,
  type ApiFailureMessageOptions,
  type AssistantMessageError,
  type SyntheticUsage,
} from "./src/builders/api_error_message.ts";
export { permissionDenied, type PermissionDeniedFrame } from "./src/builders/permission_denied.ts";
export {
  type CliUserFrame,
  type PermissionDecision,
  toolResult,
  type ToolResultBlockOut,
  type ToolResultMeta,
  type ToolResultOptions,
  userPrompt,
  type UserPromptFrame,
  userText,
  type UserTextOptions,
} from "./src/builders/user.ts";
export {
  type ApiKeySource,
  apiRetry,
  type ApiRetryFrame,
  type ApiRetryOptions,
  type McpServerEntry,
  type PermissionMode,
  type SessionState,
  sessionStateChanged,
  type SessionStateChangedFrame,
  type SessionStatus,
  systemInformational,
  type SystemInformationalFrame,
  systemInit,
  type SystemInitFrame,
  type SystemInitOptions,
  systemStatus,
  type SystemStatusFrame,
  type SystemStatusOptions,
} from "./src/builders/system.ts";
export type { FastModeDisabledReason, FastModeState } from "./src/builders/fast_mode.ts";
export {
  compactBoundary,
  type CompactBoundaryFrame,
  type CompactBoundaryOptions,
} from "./src/builders/compact_boundary.ts";
export { thinkingTokens, type ThinkingTokensFrame } from "./src/builders/thinking_tokens.ts";
export {
  newTask,
  type TaskInfo,
  taskNotification,
  type TaskNotificationFrame,
  type TaskNotificationOptions,
  taskProgress,
  type TaskProgressFrame,
  type TaskProgressOptions,
  taskStarted,
  type TaskStartedFrame,
  type TaskStatus,
  taskUpdated,
  type TaskUpdatedFrame,
  type TaskUsage,
} from "./src/builders/task_frames.ts";
export {
  type AbortedDeltaUsage,
  abortedStreamEnd,
  type AbortedStreamEndOptions,
  type ContentDelta,
  type PartialSequenceFrame,
  type StartContentBlock,
  type StartMessage,
  type StopReason,
  type StreamEvent,
  type StreamEventFrameOut,
  streamEvents,
  type StreamEventsOptions,
} from "./src/builders/stream_events.ts";
export {
  type PermissionDenial,
  type ResultErrorFrame,
  type ResultErrorSubtype,
  resultFrame,
  type ResultFrameBase,
  type ResultFrameOptions,
  type ResultFrameOut,
  type ResultSuccessFrame,
  type ResultTiming,
  type SubagentStats,
} from "./src/builders/result.ts";
export {
  type AccountInfoEntry,
  type CanUseToolRequest,
  canUseToolRequest,
  type CanUseToolRequestOptions,
  controlError,
  type ControlErrorFrame,
  controlRequest,
  type ControlRequestFrameOut,
  controlSuccess,
  type ControlSuccessFrame,
  type DecisionReasonType,
  type HookCallbackRequest,
  hookCallbackRequest,
  type HookCallbackRequestOptions,
  type HookEventFields,
  hookInput,
  type InitializeResponse,
  initializeResponse,
  type InitializeResponseOptions,
  type McpMessageRequest,
  mcpToolCallRequest,
  type PermissionSuggestion,
} from "./src/builders/control.ts";
export {
  bashTool,
  type BashToolOptions,
  editTool,
  type EditToolOptions,
  genericTool,
  type GenericToolOptions,
  readTool,
  type ReadToolOptions,
  taskTool,
  type TaskToolCall,
  type TaskToolOptions,
  writeTool,
  type WriteToolOptions,
} from "./src/builders/tools.ts";
export {
  globTool,
  type GlobToolOptions,
  type GrepOutputMode,
  grepTool,
  type GrepToolOptions,
} from "./src/builders/search_tools.ts";
export {
  type NotebookEditMode,
  notebookEditTool,
  type NotebookEditToolOptions,
} from "./src/builders/notebook_edit.ts";
export {
  type ApiCallUsage,
  modelUsage,
  type ModelUsageEntry,
  type ResultUsage,
  resultUsage,
} from "./src/builders/usage.ts";
export type { SubagentInfo } from "./src/builders/subagent.ts";
export type { SlashCommandInfo } from "./src/builders/slash_commands.ts";
export type { AgentInfoEntry } from "./src/builders/agents.ts";
export type { PluginEntry } from "./src/builders/plugins.ts";
export type { ModelInfoEntry } from "./src/builders/models.ts";
export { type PatchHunk, structuredPatch } from "./src/builders/structured_patch.ts";

// Types the signatures above show, from the layers they belong to (`deno doc --lint` of this
// entry point on its own wants each of them exported here).
export { type Prng } from "./src/random/pcg32.ts";
export { type Clock, type WaitOptions } from "./src/timing/clock.ts";
export {
  type AssistantFrame,
  type AssistantMessageBody,
  type ControlRequestFrame,
  type ControlResponseBody,
  type ControlResponseFrame,
  type MessageUsage,
  type ResultFrame,
  type StreamEventFrame,
  type SystemFrame,
} from "./src/wire/frame.ts";
// the types its signatures show, shared with the other entry points
export * from "./src/builders/build_types.ts";
export * from "./src/wire/frame_types.ts";
