/**
 * The slash commands the mock reports ({@linkcode DEFAULT_COMMANDS}, in the `initialize`
 * answer and `system/init`) and those bound to the terminal, taken from what the real CLI
 * 2.1.328 reports in its `initialize` answer (full descriptions; a version's own descriptions
 * in {@linkcode commandsOf}).
 *
 * @module
 */

import { modelCatalogOf } from "./model_catalog.ts";
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
      "Deep research harness — fan-out web searches, fetch sources, adversarially verify claims, synthesize a cited report. (dynamic workflow)",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "dataviz",
    "description":
      "Use this skill whenever you are about to create ANY chart, graph, plot, dashboard, or " +
      "data visualization, in ANY output medium — an HTML or React artifact, inline SVG, " +
      "plotting code in any library (matplotlib, plotly, d3, Recharts, …), an image/PNG you will " +
      "render and upload, or a chart shared into Slack. Read it BEFORE writing the first line of " +
      "chart code, choosing chart colors, building a stat tile / meter / KPI row, or laying out " +
      "a dashboard. When the destination is a first-party document connector (host-designated, " +
      "never self-described) that renders live charts, hand it the rows (inline, or as an " +
      "uploaded data file the chart cites) rather than a rendered PNG/SVG — a picture of a chart " +
      "loses hover, data inspection and per-value comments. Produces visualizations that read as " +
      "one system — elegant, accessible, consistent in light and dark — using a brand-neutral " +
      "placeholder palette you swap for your own. Teaches a design-system-agnostic method: a " +
      "form heuristic, a color formula with a runnable validator, mark specs, and interaction " +
      "rules. A validated default palette is documented in `references/palette.md` — swap that " +
      'file\'s values for your brand\'s. Triggers on: "chart", "graph", "plot", "data viz", ' +
      '"visualization", "dashboard", "analytics", "visualize data", "categorical colors", ' +
      '"sequential / diverging palette", "stat tile", "sparkline", "heatmap", "legend", "axis", ' +
      '"tooltip", "chart colors", "color by series".',
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "update-config",
    "description":
      "Use this skill to configure the Claude Code harness via settings.json. Automated " +
      'behaviors ("from now on when X", "each time X", "whenever X", "before/after X") require ' +
      "hooks configured in settings.json - the harness executes these, not Claude, so " +
      'memory/preferences cannot fulfill them. Also use for: permissions ("allow X", "add ' +
      'permission", "move permission to"), env vars ("set X=Y"), hook troubleshooting, or any ' +
      'changes to settings.json/settings.local.json files. Examples: "allow npm commands", "add ' +
      'bq permission to global settings", "move permission to user settings", "set DEBUG=true", ' +
      '"when claude stops show X". For simple settings like theme/model, suggest the /config ' +
      "command.",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "verify",
    "description":
      "Verify that a code change actually does what it's supposed to by exercising it end-to-end " +
      "and observing behavior — drive the affected flow, not just tests or typecheck. Run before " +
      "committing nontrivial changes; bootstraps this repo's project verify skill if none exists " +
      "yet. Don't invoke it on a diff that only touches tests, docs, or other code with no " +
      "runtime surface to drive (a change to product source always has one) — there's nothing to " +
      "observe.",
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
      "Review the current diff, or a PR number/branch/path target, for correctness bugs (plus " +
      "broken CLAUDE.md rules and cleanups where the model's recipe covers them; see /simplify) " +
      "at the effort level given first, before any target (low|medium|high|xhigh|max: from few " +
      "high-confidence findings to many, some uncertain); with no level given, it reuses the " +
      "level you typed last. Pass --comment to post findings as inline PR comments, or --fix to " +
      "apply them to the working tree after the review. Pass --max-findings <n> to report up to " +
      "n findings, or --max-findings all for every finding. The choice stays until you pass " +
      "--max-findings default.",
    "argumentHint":
      "[low|medium|high|xhigh|max] [--fix] [--comment] [<pr#>|<branch>|<path>] [--max-findings <n>|all]",
    "aliases": ["review"],
    "builtin": true,
  },
  {
    "name": "simplify",
    "description":
      "Review the changed code for reuse, simplification, efficiency, and altitude cleanups, then apply the fixes. Quality only — it does not hunt for bugs; use /code-review for that.",
    "argumentHint": "[<target>]",
    "builtin": true,
  },
  {
    "name": "batch",
    "description":
      "Research and plan a large-scale change, then execute it in parallel across 5–30 isolated worktree agents that each open a PR.",
    "argumentHint": "<instruction>",
    "builtin": true,
  },
  {
    "name": "fewer-permission-prompts",
    "description":
      "Scan your transcripts for common read-only Bash and MCP tool calls, then add a prioritized allowlist to project .claude/settings.json to reduce permission prompts.",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "doctor",
    "description":
      "Health-check the user's Claude Code setup and fix issues: diagnose installation health — " +
      "what the `claude doctor` terminal diagnostics cover — from local data (duplicate or " +
      "leftover installs, PATH, unparseable settings files, broken or colliding agent " +
      "definitions, skills whose frontmatter fails to parse); find unused skills, MCP servers, " +
      "and plugins versus their context cost and disable dead weight; deduplicate local " +
      "CLAUDE.md files against checked-in ones; trim checked-in CLAUDE.md files by cutting " +
      "content a session could derive from the codebase (directory layouts, tech-stack lists, " +
      "architecture overviews) while keeping gotchas, rationale, and non-standard conventions; " +
      "migrate always-loaded CLAUDE.md guidance into lazy skills and nested CLAUDE.md files; " +
      "flag slow hooks and context-heavy extensions; check the installed version is current; " +
      "make auto mode the default permission mode; and pre-approve frequently denied read-only " +
      "commands. Use when the user asks for a doctor run, checkup, audit, tune-up, or cleanup of " +
      "their Claude Code setup or configuration.",
    "argumentHint": "[prompt-audit [<path>]]",
    "aliases": ["checkup"],
    "builtin": true,
  },
  {
    "name": "loop",
    "description":
      "Run a prompt or slash command on a recurring interval (e.g. /loop 5m /foo). Omit the interval to let the model self-pace.",
    "argumentHint": "[interval] [prompt]",
    "aliases": ["proactive"],
    "builtin": true,
  },
  {
    "name": "claude-api",
    "description":
      "Reference for the Claude API / Anthropic SDK — model ids, pricing, params, streaming, " +
      "tool use, MCP, agents, caching, token counting, model migration.\nTRIGGER — read FIRST, " +
      "before you answer, run a command or open a file (already started? read it now); don't " +
      'skip because it "looks like a one-liner" — whenever: the prompt names Claude/Anthropic ' +
      "in any form (Claude, Anthropic, Fable, Opus, Sonnet, Haiku, `anthropic`, `@anthropic-ai`, " +
      "`claude-*`, `us.anthropic.*`, `[1m]`); the user asks about an LLM (pricing/model " +
      "choice/limits/caching) — never answer from memory; OR the task is LLM-shaped with " +
      "provider unstated (agent/MCP/tool-definition/multi-agent/RAG/LLM-judge/computer-use; " +
      "generate/summarize/extract/classify/rewrite/converse over NL; debugging " +
      "refusals/cutoffs/streaming/tool-calls/tokens).\nSKIP only when another provider is being " +
      "worked on (overrides all triggers): OpenAI/GPT/Gemini/Llama/Mistral/Cohere/Ollama named " +
      "in the query; OR `grep -rE " +
      "'openai|langchain_openai|google.generativeai|genai|mistralai|cohere|ollama'` over the " +
      "project hits (run this grep FIRST if no provider named — don't Read the file; if nothing " +
      "hits, load this skill).",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "workflow-authoring",
    "description":
      "Reference for writing a Workflow tool script (script API and gotchas, resume, quality " +
      "patterns, worked examples). Load before authoring a script for a workflow the user " +
      "already opted into; it does not itself authorize running one.",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "run",
    "description":
      "Launch and drive this project's app to see a change working. Use when asked to run, " +
      "start, or screenshot the app, or to confirm a change works in the real app (not just " +
      "tests). First looks for a project skill that already covers launching the app; otherwise " +
      "falls back to built-in patterns per project type (CLI, server, TUI, Electron, " +
      "browser-driven, library).",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "run-skill-generator",
    "description":
      "Author or improve the run-<unit> skill - a per-project skill that tells agents how to " +
      "build, launch, and drive this project's app. Use when the user asks to set up the " +
      "project, get it running, write run instructions, or verify build/run steps work from a " +
      "clean environment.",
    "argumentHint": "",
    "builtin": true,
  },
  {
    "name": "plugin-authoring",
    "description":
      "Make a mod: a change to Claude's own interface or behaviour, such as a theme, a panel or " +
      "pane that stays beside the chat and updates, a band, status line, toast, slash command, " +
      "or hook on tool calls. Use to make, change or debug a mod or its hooks module.",
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
  const facts = model === undefined ? undefined : modelFacts(model, modelCatalogOf(cli));
  const ultracode = facts === undefined || facts.ultracode;
  return DEFAULT_COMMANDS.map((c) =>
    c.name === "clear"
      ? { ...c, description: cli.facts.clearDescription }
      : c.name === "fast" && facts?.fastModeName !== undefined
      ? { ...c, description: `Toggle fast mode (${facts.fastModeName})` }
      : c.name === "effort" && !ultracode
      ? { ...c, argumentHint: c.argumentHint.replace("|ultracode [on|off]", "") }
      : { ...c }
  );
}
