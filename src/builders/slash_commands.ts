/**
 * The slash commands the mock reports ({@linkcode DEFAULT_COMMANDS}, in the `initialize`
 * answer and `system/init`) and those bound to the terminal, taken from what the real CLI
 * 2.1.328 reported in the recordings (descriptions shortened to their first sentence; a
 * version's own descriptions in {@linkcode commandsOf}).
 *
 * @module
 */

import { modelFacts } from "./model_facts.ts";

import type { CliVersion } from "./cli_versions.ts";

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

/** The slash commands bound to the local terminal (`terminal_slash_commands`). */
export const TERMINAL_SLASH_COMMANDS: readonly string[] = Object.freeze([
  "doctor",
  "color",
  "focus",
  "reload-plugins",
]);

/**
 * The slash commands CLI `cli` reports: {@linkcode DEFAULT_COMMANDS}, with the descriptions
 * that version gives and, in a session on `model`, the `/effort` levels it offers (a fresh
 * copy).
 */
export function commandsOf(cli: CliVersion, model?: string): SlashCommandInfo[] {
  const ultracode = model === undefined || modelFacts(model).ultracode;
  return DEFAULT_COMMANDS.map((c) =>
    c.name === "clear"
      ? { ...c, description: cli.facts.clearDescription }
      : c.name === "effort" && !ultracode
      ? { ...c, argumentHint: c.argumentHint.replace("|ultracode [on|off]", "") }
      : { ...c }
  );
}
