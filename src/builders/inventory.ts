/**
 * The default inventory the mock reports: tools, slash commands, skills, agents, plugins,
 * models and capabilities, taken from what the real CLI 2.1.328 reported in the
 * recordings (descriptions shortened to their first sentence).
 *
 * @module
 */

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
 * import { defaultTools } from "@x/claude-mock";
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

/** A slash command of the `initialize` answer (the SDK's `SlashCommand`). */
export interface SlashCommandInfo {
  /** The command name, without the slash. */
  name: string;
  /** What it does. */
  description: string;
  /** Its argument hint. */
  argumentHint: string;
  /** Other names. */
  aliases?: string[];
  /** Whether it ships with the CLI. */
  builtin?: boolean;
}

/** The slash commands the CLI reports (`initialize` answer, `system/init`). */
export const DEFAULT_COMMANDS: readonly SlashCommandInfo[] = Object.freeze([
  {
    "name": "deep-research",
    "description":
      "Deep research harness — fan-out web searches, fetch sources, adversarially verify claims…",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "dataviz",
    "description":
      "Use this skill whenever you are about to create ANY chart, graph, plot, dashboard, or data…",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "update-config",
    "description": "Use this skill to configure the Claude Code harness via settings.json.",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "verify",
    "description":
      "Verify that a code change actually does what it's supposed to by exercising it end-to-end and…",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "debug",
    "description": "Enable debug logging for this session and help diagnose issues",
    "argumentHint": "[issue description]",
    "builtin": true,
  },
  {
    "name": "code-review",
    "description":
      "Review the current diff, or a PR number/branch/path target, for correctness bugs (plus broken…",
    "argumentHint":
      "[low|medium|high|xhigh|max] [--fix] [--comment] [<pr#>|<branch>|<path>] [--max-findings <n>|all]",
    "aliases": ["review"],
    "builtin": true,
  },
  {
    "name": "simplify",
    "description":
      "Review the changed code for reuse, simplification, efficiency, and altitude cleanups, then apply…",
    "argumentHint": "[<target>]",
    "builtin": true,
  },
  {
    "name": "batch",
    "description":
      "Research and plan a large-scale change, then execute it in parallel across 5–30 isolated…",
    "argumentHint": "<instruction>",
    "builtin": true,
  },
  {
    "name": "fewer-permission-prompts",
    "description":
      "Scan your transcripts for common read-only Bash and MCP tool calls, then add a prioritized…",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "doctor",
    "description":
      "Health-check the user's Claude Code setup and fix issues: diagnose installation health — what…",
    "argumentHint": "[prompt-audit [<path>]]",
    "aliases": ["checkup"],
    "builtin": true,
  },
  {
    "name": "loop",
    "description": "Run a prompt or slash command on a recurring interval (e.g. /loop 5m /foo).",
    "argumentHint": "[interval] [prompt]",
    "aliases": ["proactive"],
    "builtin": true,
  },
  {
    "name": "claude-api",
    "description":
      "Reference for the Claude API / Anthropic SDK — model ids, pricing, params, streaming, tool use…",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "workflow-authoring",
    "description":
      "Reference for writing a Workflow tool script (script API and gotchas, resume, quality patterns…",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "run",
    "description": "Launch and drive this project's app to see a change working.",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "run-skill-generator",
    "description":
      "Author or improve the run-<unit> skill - a per-project skill that tells agents how to build…",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "plugin-authoring",
    "description":
      "Make a mod: a change to Claude's own interface or behaviour, such as a theme, a panel or pane…",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "agents",
    "description": "(removed) Ask Claude to create/manage subagents, or edit .claude/agents/",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "auto-mode-setup",
    "description": "Teach auto mode about your environment, plus optional rule tweaks",
    "argumentHint":
      "[--request-id <uuid>] (--wizard posture=… scope=… depth=… --propose | --expect-sha256 <64-hex> --apply-file <path>)",
    "builtin": true,
  },
  {
    "name": "autocompact",
    "description": "Set how full the context gets before auto-summarizing",
    "argumentHint": "[auto|<tokens>]",
    "builtin": true,
  },
  {
    "name": "clear",
    "description":
      "Start a new session with empty context; previous session stays on disk (resumable with /resume)",
    "argumentHint": "[name]",
    "aliases": ["reset", "new"],
    "builtin": true,
  },
  {
    "name": "color",
    "description": "Set the prompt bar color for this session",
    "argumentHint": "[red|blue|green|yellow|purple|orange|pink|cyan|default]",
    "builtin": true,
  },
  {
    "name": "compact",
    "description": "Free up context by summarizing the conversation so far",
    "argumentHint": "<optional custom summarization instructions>",
    "builtin": true,
  },
  {
    "name": "config",
    "description": "Set a setting by key",
    "argumentHint": "key=value",
    "aliases": ["settings"],
    "builtin": true,
  },
  {
    "name": "output-style",
    "description": "List output styles or switch to one",
    "argumentHint": "[style]",
    "builtin": true,
  },
  {
    "name": "context",
    "description": "Show current context usage",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "effort",
    "description": "Set the model's effort level",
    "argumentHint": "<low|medium|high|xhigh|max|auto|ultracode [on|off]>",
    "builtin": true,
  },
  {
    "name": "fast",
    "description": "Toggle fast mode (Opus 5.5)",
    "argumentHint": "[on|off]",
    "builtin": true,
  },
  {
    "name": "focus",
    "description": "Toggle focus view: just your prompt, summary, and response",
    "argumentHint": "[on|off]",
    "builtin": true,
  },
  {
    "name": "heapdump",
    "description":
      "Dump the JS heap to the Desktop; on Linux with no Desktop folder, the home directory",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "init",
    "description": "Initialize a new CLAUDE.md file with codebase documentation",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "mcp",
    "description": "Manage MCP servers",
    "argumentHint": "[reconnect|enable|disable [<server>|all]]",
    "builtin": true,
  },
  {
    "name": "model",
    "description": "Set the AI model for Claude Code",
    "argumentHint": "<model>",
    "builtin": true,
  },
  {
    "name": "__remote-workflow",
    "description":
      "Run the workflow script delivered in this session environment (server-launched sessions only)",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "workflow-launch-exec",
    "description":
      "Execute a server-launched workflow handoff (workflow_launch event sessions only)",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "reload-plugins",
    "description": "Activate pending plugin changes in the current session",
    "argumentHint": "[--force]",
    "builtin": true,
  },
  {
    "name": "reload-skills",
    "description": "Pick up skills added or changed on disk during this session",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "rename",
    "description": "Rename the current conversation",
    "argumentHint": "[name]",
    "aliases": ["name"],
    "builtin": true,
  },
  {
    "name": "security-review",
    "description": "Complete a security review of the pending changes on the current branch",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "usage",
    "description": "Show session cost, plan usage, and what's contributing to your limits",
    "argumentHint": "",
    "aliases": ["cost", "stats"],
    "builtin": true,
  },
  {
    "name": "insights",
    "description": "Generate a report analyzing your Claude Code sessions",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "recap",
    "description": "Generate a one-line session recap now",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "goal",
    "description": "Set a goal — keep working until the condition is met",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "list-agents",
    "description": "List subagents, teammates, and other Claude sessions you can message",
    "argumentHint": "",
    "aliases": ["peers"],
    "builtin": true,
  },
  {
    "name": "team-onboarding",
    "description": "Help teammates ramp on Claude Code with a guide from your usage",
    "argumentHint": "",
    "builtin": true,
  },
]);

/** The skills `system/init` lists. */
export const DEFAULT_SKILLS: readonly string[] = Object.freeze([
  "deep-research",
  "dataviz",
  "update-config",
  "verify",
  "debug",
  "code-review",
  "simplify",
  "batch",
  "fewer-permission-prompts",
  "doctor",
  "loop",
  "claude-api",
  "workflow-authoring",
  "run",
  "run-skill-generator",
  "plugin-authoring",
]);

/** The slash commands bound to the local terminal (`terminal_slash_commands`). */
export const TERMINAL_SLASH_COMMANDS: readonly string[] = Object.freeze([
  "doctor",
  "color",
  "focus",
  "reload-plugins",
]);

/** An agent of the `initialize` answer (the SDK's `AgentInfo`). */
export interface AgentInfoEntry {
  /** The agent name. */
  name: string;
  /** What it is for. */
  description: string;
  /** Its model (`inherit`, `sonnet`, ...). */
  model?: string;
}

/** The agents the CLI reports. */
export const DEFAULT_AGENTS: readonly AgentInfoEntry[] = Object.freeze([
  {
    "name": "claude",
    "description": "Catch-all for any task that doesn't fit a more specific agent.",
  },
  {
    "name": "Explore",
    "description": "Fast read-only search agent for locating code.",
    "model": "inherit",
  },
  {
    "name": "general-purpose",
    "description":
      "General-purpose agent for researching complex questions, searching for code, and executing multi-step tasks.",
  },
  {
    "name": "Plan",
    "description": "Software architect agent for designing implementation plans.",
    "model": "inherit",
  },
  {
    "name": "statusline-setup",
    "description": "Use this agent to configure the user's Claude Code status line setting.",
    "model": "sonnet",
  },
]);

/** A plugin entry of `system/init`. */
export interface PluginEntry {
  /** The plugin name. */
  name: string;
  /** Where it was loaded from. */
  path: string;
  /** `name@marketplace`. */
  source?: string;
  /** Its version. */
  version?: string;
}

/** The plugins `system/init` lists. */
export const DEFAULT_PLUGINS: readonly PluginEntry[] = Object.freeze([
  { "name": "cc-plugin-agents-md", "path": "builtin", "source": "cc-plugin-agents-md@builtin" },
  { "name": "cc-plugin-privacy", "path": "builtin", "source": "cc-plugin-privacy@builtin" },
  {
    "name": "cc-plugin-plugin-authoring",
    "path": "builtin",
    "source": "cc-plugin-plugin-authoring@builtin",
  },
]);

/** A model of the `initialize` answer (the SDK's `ModelInfo`). */
export interface ModelInfoEntry {
  /** The alias (`default`, `opus`, `sonnet`, ...). */
  value: string;
  /** The full model name it resolves to. */
  resolvedModel: string;
  /** Display name. */
  displayName: string;
  /** Description with prices. */
  description: string;
  /** Effort support. */
  supportsEffort: boolean;
  /** Effort levels. */
  supportedEffortLevels: Array<"low" | "medium" | "high" | "xhigh" | "max">;
  /** Adaptive thinking support. */
  supportsAdaptiveThinking: boolean;
  /** Fast mode support. */
  supportsFastMode?: boolean;
  /** Auto mode support. */
  supportsAutoMode: boolean;
  /** Whether thinking can be turned off. */
  supportsThinkingOff: boolean;
}

/** The models the CLI offers. */
export const DEFAULT_MODELS: readonly ModelInfoEntry[] = Object.freeze([
  {
    "value": "default",
    "resolvedModel": "claude-opus-5-5",
    "displayName": "Default (recommended)",
    "description": "Use the default model (currently Opus 5.5) · $4/$20 per Mtok",
    "supportsEffort": true,
    "supportedEffortLevels": ["low", "medium", "high", "xhigh", "max"],
    "supportsAdaptiveThinking": true,
    "supportsFastMode": true,
    "supportsAutoMode": true,
    "supportsThinkingOff": false,
  },
  {
    "value": "opus",
    "resolvedModel": "claude-opus-5-5",
    "displayName": "Opus",
    "description": "Opus 5.5 · Best for everyday, complex tasks · $4/$20 per Mtok",
    "supportsEffort": true,
    "supportedEffortLevels": ["low", "medium", "high", "xhigh", "max"],
    "supportsAdaptiveThinking": true,
    "supportsFastMode": true,
    "supportsAutoMode": true,
    "supportsThinkingOff": false,
  },
  {
    "value": "fable",
    "resolvedModel": "claude-fable-5-2",
    "displayName": "Fable",
    "description":
      "Fable 5.2 · Most capable for your hardest and longest-running tasks · $8/$40 per Mtok",
    "supportsEffort": true,
    "supportedEffortLevels": ["low", "medium", "high", "xhigh", "max"],
    "supportsAdaptiveThinking": true,
    "supportsFastMode": true,
    "supportsAutoMode": true,
    "supportsThinkingOff": false,
  },
  {
    "value": "sonnet",
    "resolvedModel": "claude-sonnet-5-5",
    "displayName": "Sonnet",
    "description": "Sonnet 5.5 · Efficient for routine tasks · $2/$10 per Mtok",
    "supportsEffort": true,
    "supportedEffortLevels": ["low", "medium", "high", "xhigh", "max"],
    "supportsAdaptiveThinking": true,
    "supportsAutoMode": true,
    "supportsThinkingOff": false,
  },
  {
    "value": "haiku",
    "resolvedModel": "claude-haiku-5-5",
    "displayName": "Haiku",
    "description":
      "Haiku 5.5 · Fastest for quick answers · $0.10/$0.50 per Mtok ($0.50/$2.50 for prompts over 100k)",
    "supportsEffort": true,
    "supportedEffortLevels": ["low", "medium", "high", "xhigh", "max"],
    "supportsAdaptiveThinking": true,
    "supportsAutoMode": true,
    "supportsThinkingOff": false,
  },
]);

/**
 * The full model name for an alias or a full name, as the CLI resolves `set_model`
 * (`sonnet` → `claude-sonnet-5-5`), or `undefined` when the model is unknown.
 *
 * @example Resolving a model alias
 * ```ts
 * import { resolveModel } from "@x/claude-mock";
 * console.log(resolveModel("sonnet")); // claude-sonnet-5-5
 * ```
 */
export function resolveModel(model: string): string | undefined {
  const byAlias = DEFAULT_MODELS.find((m) => m.value === model);
  if (byAlias) return byAlias.resolvedModel;
  return DEFAULT_MODELS.some((m) => m.resolvedModel === model) ? model : undefined;
}

/** The protocol capabilities `system/init` lists. */
export const INIT_CAPABILITIES: readonly string[] = Object.freeze([
  "interrupt_receipt_v1",
  "interrupt_cancel_queued_v1",
  "interrupt_send_now_v1",
  "interrupt_requeue_taken_v1",
  "msg_lifecycle_v1",
  "request_marker_lists_v1",
  "ask_user_question_unanswered_v1",
  "lifecycle_wakeup_source_v1",
  "sdk_mcp_tools_list_changed",
  "sdk_mcp_manifests",
  "mcp_read_resource_v1",
  "mcp_tool_ui_meta_v1",
  "ui_surface_v1",
  "mcp_call_result_not_for_model_v1",
  "mcp_call_check_permissions_v1",
  "voice_call_talk_line_v1",
  "withdrawn_files_note_v2",
  "ui_pane_widget_v1",
  "reload_plugins_refuse_if_busy_v1",
  "silent_resend_files_v1",
]);

/** The capabilities the `initialize` answer lists. */
export const INITIALIZE_CAPABILITIES: readonly string[] = Object.freeze([
  "ui_surface_v1",
  "mcp_call_result_not_for_model_v1",
  "mcp_call_check_permissions_v1",
  "voice_call_talk_line_v1",
  "ui_pane_widget_v1",
  "reload_plugins_refuse_if_busy_v1",
]);

/** The output styles the `initialize` answer lists. */
export const OUTPUT_STYLES: readonly string[] = Object.freeze([
  "default",
  "Proactive",
  "Concise",
  "Explanatory",
  "Learning",
]);

/** The home directory the mock reports (as scrubbed in the recordings). */
export const DEFAULT_HOME = "/home/user";

/**
 * The CLI's project slug of a path: every character other than a letter or digit becomes
 * `-` (`/home/user/project` → `-home-user-project`).
 *
 * @example A project slug
 * ```ts
 * import { projectSlug } from "@x/claude-mock";
 * console.log(projectSlug("/home/user/project")); // -home-user-project
 * ```
 */
export function projectSlug(path: string): string {
  return path.replace(/[^a-zA-Z0-9]/g, "-");
}
