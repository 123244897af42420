/**
 * The hook callback types of the Agent SDK's `query()` options (`hooks`), declared
 * structurally so the mock does not depend on the SDK: the hook events, a callback's
 * input and output, and the matcher entries of the `hooks` option.
 *
 * @module
 */

import type { PermissionSuggestion } from "../builders/control.ts";
import { SDK_HOOK_EVENTS } from "../builders/hook_events.ts";

/** The hook events (the SDK's `HookEvent`). */
export type HookEventName =
  | "PreToolUse"
  | "PostToolUse"
  | "PostToolUseFailure"
  | "PostToolBatch"
  | "Notification"
  | "UserPromptSubmit"
  | "UserPromptExpansion"
  | "SessionStart"
  | "SessionEnd"
  | "Stop"
  | "StopFailure"
  | "SubagentStart"
  | "SubagentStop"
  | "PreCompact"
  | "PostCompact"
  | "PreModelSwitch"
  | "PostModelSwitch"
  | "PermissionRequest"
  | "PermissionDenied"
  | "Setup"
  | "TeammateIdle"
  | "TaskCreated"
  | "TaskCompleted"
  | "Elicitation"
  | "ElicitationResult"
  | "ConfigChange"
  | "WorktreeCreate"
  | "WorktreeRemove"
  | "InstructionsLoaded"
  | "CwdChanged"
  | "FileChanged"
  | "DirectoryAdded"
  | "MessageDisplay"
  | "PreSkillShellCommand";

/** Every {@linkcode HookEventName}, in the SDK's order (its `HOOK_EVENTS`). */
export const HOOK_EVENT_NAMES: readonly HookEventName[] =
  SDK_HOOK_EVENTS as readonly HookEventName[];

/** The events whose hook output can carry `additionalContext` for the model. */
export type HookContextEvent =
  | "PreToolUse"
  | "PostToolUse"
  | "PostToolUseFailure"
  | "PostToolBatch"
  | "Notification"
  | "UserPromptSubmit"
  | "UserPromptExpansion"
  | "SessionStart"
  | "Setup"
  | "Stop"
  | "SubagentStart"
  | "SubagentStop"
  | "PostModelSwitch";

/**
 * The input of a hook callback (structurally a supertype of the SDK's `HookInput` union):
 * `hook_event_name`, the session fields, and the event's own fields (for tool events
 * `tool_name`, `tool_input`, `tool_use_id`).
 */
export interface HookCallbackInput {
  /** The event (`PreToolUse`, `Stop`, ...). */
  hook_event_name: string;
  /** The session id (always set by the CLI). */
  session_id?: string;
  /** The transcript file (always set by the CLI). */
  transcript_path?: string;
  /** The working directory (always set by the CLI). */
  cwd?: string;
  /** Tool events: the tool's name. */
  tool_name?: string;
  /** Tool events: the tool's input. */
  tool_input?: unknown;
  /** Tool events: the tool use id. */
  tool_use_id?: string;
  /** The event's other fields. */
  [key: string]: unknown;
}

/** Event-specific hook output (structurally the SDK's `hookSpecificOutput` union). */
export type HookSpecificOutput =
  | {
    hookEventName: "PreToolUse";
    permissionDecision?: "allow" | "deny" | "ask" | "defer";
    permissionDecisionReason?: string;
    updatedInput?: Record<string, unknown>;
    additionalContext?: string;
  }
  | {
    hookEventName: "UserPromptSubmit";
    additionalContext?: string;
    sessionTitle?: string;
    suppressOriginalPrompt?: boolean;
  }
  | {
    hookEventName: "UserPromptExpansion";
    additionalContext?: string;
    suppressOriginalPrompt?: boolean;
  }
  | {
    hookEventName: "SessionStart";
    additionalContext?: string;
    initialUserMessage?: string;
    sessionTitle?: string;
    watchPaths?: string[];
    reloadSkills?: boolean;
  }
  | { hookEventName: "Setup"; additionalContext?: string }
  | {
    hookEventName: "PreModelSwitch";
    permissionDecision?: "allow" | "deny" | "ask";
    permissionDecisionReason?: string;
  }
  | { hookEventName: "PostModelSwitch"; additionalContext?: string }
  | { hookEventName: "SubagentStart"; additionalContext?: string }
  | {
    hookEventName: "PostToolUse";
    additionalContext?: string;
    classifierContext?: string;
    updatedToolOutput?: unknown;
    updatedMCPToolOutput?: unknown;
  }
  | { hookEventName: "PostToolUseFailure"; additionalContext?: string }
  | { hookEventName: "PostToolBatch"; additionalContext?: string }
  | { hookEventName: "Stop"; additionalContext?: string }
  | { hookEventName: "SubagentStop"; additionalContext?: string }
  | { hookEventName: "PermissionDenied"; retry?: boolean }
  | { hookEventName: "Notification"; additionalContext?: string }
  | {
    hookEventName: "PermissionRequest";
    decision:
      | {
        behavior: "allow";
        updatedInput?: Record<string, unknown>;
        updatedPermissions?: PermissionSuggestion[];
      }
      | { behavior: "deny"; message?: string; interrupt?: boolean };
  }
  | {
    hookEventName: "Elicitation";
    action?: "accept" | "decline" | "cancel";
    content?: Record<string, unknown>;
  }
  | {
    hookEventName: "ElicitationResult";
    action?: "accept" | "decline" | "cancel";
    content?: Record<string, unknown>;
  }
  | { hookEventName: "CwdChanged"; watchPaths?: string[] }
  | { hookEventName: "FileChanged"; watchPaths?: string[] }
  | { hookEventName: "WorktreeCreate"; worktreePath: string }
  | { hookEventName: "MessageDisplay"; displayContent?: string };

/** A hook's synchronous answer (structurally the SDK's `SyncHookJSONOutput`). */
export interface SyncHookOutput {
  /** `false` stops the session after this hook (with `stopReason`). */
  continue?: boolean;
  /** Hide the hook's output from the transcript. */
  suppressOutput?: boolean;
  /** Why the session stops when `continue` is `false`. */
  stopReason?: string;
  /** The older, generic decision field. */
  decision?: "approve" | "block";
  /** A message shown to the user. */
  systemMessage?: string;
  /** A terminal escape sequence for the CLI to emit. */
  terminalSequence?: string;
  /** Why (with `decision`). */
  reason?: string;
  /** The event-specific answer. */
  hookSpecificOutput?: HookSpecificOutput;
}

/** A hook's "answer later" reply (structurally the SDK's `AsyncHookJSONOutput`). */
export interface AsyncHookOutput {
  /** Marks the reply as asynchronous. */
  async: true;
  /** How long the CLI waits for the late answer (ms). */
  asyncTimeout?: number;
}

/** What a hook callback answers (structurally the SDK's `HookJSONOutput`). */
export type HookOutput = AsyncHookOutput | SyncHookOutput;

/** One hook call the recorder saw. */
export interface HookInvocation {
  /** The event the hook was registered for. */
  event: HookEventName;
  /** The matcher it was registered with. */
  matcher: string | undefined;
  /** The tool (`input.tool_name`), for tool events. */
  toolName?: string;
  /** The tool use id (the callback's argument, else `input.tool_use_id`). */
  toolUseId?: string;
  /** The hook input as given. */
  input: HookCallbackInput;
  /** The answer; `undefined` while pending or when it failed. */
  output: HookOutput | undefined;
  /** Why the call failed (the responder threw, or the signal aborted). */
  error?: unknown;
  /** When the call started, by the recorder's clock (ms since the epoch). */
  at: number;
}

/** A hook callback: the SDK's `HookCallback` signature. */
export type HookCallbackFunction = (
  input: HookCallbackInput,
  toolUseID: string | undefined,
  options: { signal: AbortSignal },
) => Promise<HookOutput>;

/** One matcher entry for an event (structurally the SDK's `HookCallbackMatcher`). */
export interface HookMatcherEntry {
  /** Which tools (or sources) the hooks run for; omitted: all. */
  matcher?: string;
  /** The callbacks. */
  hooks: HookCallbackFunction[];
  /** Timeout in seconds for the callbacks of this entry. */
  timeout?: number;
}

/** The `hooks` option of `query()` (structurally the SDK's `Options["hooks"]`). */
export type HooksOption = { [E in HookEventName]?: HookMatcherEntry[] };
