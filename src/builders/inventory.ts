/**
 * The default tool inventory the mock reports ({@linkcode defaultTools}) and model
 * resolution ({@linkcode resolveModel}), taken from what the real CLI 2.1.328 reported in
 * the recordings. The other inventory tables live beside it: slash commands, skills,
 * agents, plugins, models, capabilities and output styles.
 *
 * @module
 */

import { DEFAULT_MODELS } from "./models.ts";

/** The built-in tools `system/init` lists when the SDK has no `canUseTool` (the `Agent` tool is listed as `Task`). */
export const DEFAULT_TOOLS: readonly string[] = Object.freeze([
  "Task",
  "Bash",
  "CronCreate",
  "CronDelete",
  "CronList",
  "Edit",
  "EnterWorktree",
  "ExitWorktree",
  "ListAgents",
  "Monitor",
  "NotebookEdit",
  "Read",
  "ReportFindings",
  "ScheduleWakeup",
  "SendMessage",
  "Skill",
  "TaskStop",
  "ToolSearch",
  "WebFetch",
  "WebSearch",
  "Workflow",
  "Write",
]);

/** The tools the CLI adds when a permission prompt tool is set (the SDK's `canUseTool`). */
export const PERMISSION_PROMPT_TOOLS: readonly string[] = Object.freeze([
  "AskUserQuestion",
  "EnterPlanMode",
  "ExitPlanMode",
]);

/**
 * The built-in tool list of `system/init`: {@linkcode DEFAULT_TOOLS}, plus
 * {@linkcode PERMISSION_PROMPT_TOOLS} when the SDK has a `canUseTool` callback, sorted as
 * the CLI sorts them (`Task` first, then by name), then the given MCP tools.
 *
 * @example The tools of a session with `canUseTool` and one MCP tool
 * ```ts
 * import { defaultTools } from "./inventory.ts";
 * console.log(defaultTools({ canUseTool: true, mcpTools: ["mcp__calc__add"] }));
 * ```
 */
export function defaultTools(
  options: { canUseTool?: boolean; mcpTools?: readonly string[] } = {},
): string[] {
  const builtIn = options.canUseTool
    ? [...DEFAULT_TOOLS, ...PERMISSION_PROMPT_TOOLS]
    : [...DEFAULT_TOOLS];
  const rest = builtIn.filter((t) => t !== "Task").sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return [...(builtIn.includes("Task") ? ["Task"] : []), ...rest, ...(options.mcpTools ?? [])];
}

/**
 * The full model name for an alias or a full name, as the CLI resolves `set_model`
 * (`sonnet` → `claude-sonnet-5-5`), or `undefined` when the model is unknown.
 *
 * @example Resolving a model alias
 * ```ts
 * import { resolveModel } from "./inventory.ts";
 * console.log(resolveModel("sonnet")); // claude-sonnet-5-5
 * ```
 */
export function resolveModel(model: string): string | undefined {
  const byAlias = DEFAULT_MODELS.find((m) => m.value === model);
  if (byAlias) return byAlias.resolvedModel;
  return DEFAULT_MODELS.some((m) => m.resolvedModel === model) ? model : undefined;
}
