/**
 * The hook events the CLI knows, as its `get_hooks_listing` answer lists them (recordings
 * `v*_control_more`): the catalogue of CLI 2.1.328, and `PreSkillShellCommand` from the
 * version that calls it (`ctx.cli.facts.preSkillShellCommand`, 2.1.332).
 *
 * @module
 */

import type { CliVersion } from "./cli_versions.ts";

/**
 * The hook events in the SDK's order (its `HOOK_EVENTS`), which is also the order the CLI
 * lists them in when `--settings` names one it does not know (its message stops at 500
 * characters, after `CwdChanged`: the order of the rest there was not seen). Internal.
 */
export const SDK_HOOK_EVENTS: readonly string[] = Object.freeze(
  [
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "SessionStart",
    "SessionEnd",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "PreModelSwitch",
    "PostModelSwitch",
    "PermissionRequest",
    "PermissionDenied",
    "Setup",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "Elicitation",
    "ElicitationResult",
    "ConfigChange",
    "WorktreeCreate",
    "WorktreeRemove",
    "InstructionsLoaded",
    "CwdChanged",
    "FileChanged",
    "DirectoryAdded",
    "MessageDisplay",
    "PreSkillShellCommand",
  ],
);

/** One event of the catalogue. */
export interface HookEventInfo {
  /** The event name. */
  name: string;
  /** What it is for. */
  summary: string;
  /** Whether its hooks take a matcher. */
  supportsMatcher: boolean;
}

const CATALOGUE_328: readonly HookEventInfo[] = Object.freeze([
  { name: "PreToolUse", summary: "Before tool execution", supportsMatcher: true },
  { name: "PostToolUse", summary: "After tool execution", supportsMatcher: true },
  { name: "PostToolUseFailure", summary: "After tool execution fails", supportsMatcher: true },
  {
    name: "PostToolBatch",
    summary: "After a batch of tool calls resolves",
    supportsMatcher: false,
  },
  {
    name: "PermissionDenied",
    summary: "After auto mode denies a tool call",
    supportsMatcher: true,
  },
  { name: "Notification", summary: "When notifications are sent", supportsMatcher: true },
  { name: "UserPromptSubmit", summary: "When the user submits a prompt", supportsMatcher: false },
  {
    name: "UserPromptExpansion",
    summary: "When a user-typed slash command expands into a prompt",
    supportsMatcher: true,
  },
  { name: "SessionStart", summary: "When a new session is started", supportsMatcher: true },
  { name: "Stop", summary: "Right before Claude concludes its response", supportsMatcher: false },
  { name: "StopFailure", summary: "When the turn ends due to an API error", supportsMatcher: true },
  {
    name: "SubagentStart",
    summary: "When a subagent (Agent tool call) is started",
    supportsMatcher: true,
  },
  {
    name: "SubagentStop",
    summary: "Right before a subagent (Agent tool call) concludes its response",
    supportsMatcher: true,
  },
  { name: "PreCompact", summary: "Before conversation compaction", supportsMatcher: true },
  { name: "PostCompact", summary: "After conversation compaction", supportsMatcher: true },
  {
    name: "PreModelSwitch",
    summary: "Before a requested model switch (/model, model picker, set_model)",
    supportsMatcher: true,
  },
  {
    name: "PostModelSwitch",
    summary: "After the session model changes (any cause)",
    supportsMatcher: true,
  },
  { name: "SessionEnd", summary: "When a session is ending", supportsMatcher: true },
  {
    name: "PermissionRequest",
    summary: "When a permission dialog is displayed",
    supportsMatcher: true,
  },
  { name: "Setup", summary: "Repo setup hooks for init and maintenance", supportsMatcher: true },
  { name: "TeammateIdle", summary: "When a teammate is about to go idle", supportsMatcher: false },
  { name: "TaskCreated", summary: "When a task is being created", supportsMatcher: false },
  {
    name: "TaskCompleted",
    summary: "When a task is being marked as completed",
    supportsMatcher: false,
  },
  {
    name: "Elicitation",
    summary: "When an MCP server requests user input (elicitation)",
    supportsMatcher: true,
  },
  {
    name: "ElicitationResult",
    summary: "After a user responds to an MCP elicitation",
    supportsMatcher: true,
  },
  {
    name: "ConfigChange",
    summary: "When configuration files change during a session",
    supportsMatcher: true,
  },
  {
    name: "InstructionsLoaded",
    summary: "When an instruction file (CLAUDE.md or rule) is loaded",
    supportsMatcher: true,
  },
  {
    name: "WorktreeCreate",
    summary: "Create an isolated worktree for VCS-agnostic isolation",
    supportsMatcher: false,
  },
  {
    name: "WorktreeRemove",
    summary: "Remove a previously created worktree",
    supportsMatcher: false,
  },
  { name: "CwdChanged", summary: "After the working directory changes", supportsMatcher: false },
  { name: "FileChanged", summary: "When a watched file changes", supportsMatcher: true },
  {
    name: "DirectoryAdded",
    summary: "After a working directory is added mid-session",
    supportsMatcher: true,
  },
  {
    name: "MessageDisplay",
    summary: "While assistant message text is displayed",
    supportsMatcher: false,
  },
]);

const PRE_SKILL_SHELL_COMMAND: HookEventInfo = {
  name: "PreSkillShellCommand",
  summary: "Before a skill's inline shell command runs",
  supportsMatcher: true,
};

/**
 * The hook event catalogue of CLI `cli` (a fresh copy).
 *
 * @example The events of a version
 * ```ts
 * import { cliVersionFacts } from "@x/claude-mock/builders";
 * import { hookEventCatalogue } from "./hook_events.ts";
 * console.log(hookEventCatalogue(cliVersionFacts("2.1.332")).at(-1)?.name); // PreSkillShellCommand
 * ```
 */
export function hookEventCatalogue(cli: CliVersion): HookEventInfo[] {
  const events = CATALOGUE_328.map((e) => ({ ...e }));
  if (cli.facts.preSkillShellCommand) events.push({ ...PRE_SKILL_SHELL_COMMAND });
  return events;
}
