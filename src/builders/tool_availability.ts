/**
 * Which built-in tools a session has, and what the real CLI 2.1.328 answers a tool use of one
 * it does not have: `--tools` chooses the set (`""` none,
 * `default` the default one), a deny rule naming a whole tool (`--disallowedTools Bash`, a
 * settings `deny: ["Write"]`) takes it out, and with Bash out Glob and Grep come in (the
 * default set leaves them out: Bash's `find` and `grep` do their work). A tool use of a tool
 * the session does not have is not asked about and does not run: its result is the error
 * `No such tool available: <name>`, with a hint when the CLI knows the tool.
 *
 * @module
 */

import { modelFacts } from "./model_facts.ts";

import { DEFAULT_TOOLS, PERMISSION_PROMPT_TOOLS } from "./inventory.ts";

/** Built-in tools a session can be given (`--tools`): Glob and Grep only when asked for. */
const OFFERABLE: ReadonlySet<string> = new Set([
  ...DEFAULT_TOOLS,
  ...PERMISSION_PROMPT_TOOLS,
  "Glob",
  "Grep",
]);

/**
 * Every built-in tool name the CLI knows (its "disabled" hint names them): TodoWrite and LSP
 * too, which `--tools` does not bring back.
 */
const KNOWN_TOOLS: ReadonlySet<string> = new Set([...OFFERABLE, "TodoWrite", "LSP"]);

/** Other names the model may call a tool by (as recorded: `Agent` runs `Task`). */
const ALIASES: Readonly<Record<string, string>> = Object.freeze({
  Agent: "Task",
  KillShell: "TaskStop",
});

/** How a session's tools are chosen. */
export interface SessionToolsOptions {
  /**
   * `--tools`: the built-in tools to offer, by name (names the CLI does not offer are left
   * out); `[]` for none, `["default"]` for the default set. Default: the default set.
   */
  tools?: readonly string[];
  /** Whether the SDK answers permission prompts (`canUseTool`): adds the interactive tools. */
  canUseTool?: boolean;
  /** Tools a deny rule names whole (`Bash`, not `Bash(rm:*)`): left out. */
  denied?: readonly string[];
  /** A structured output was asked for (`--json-schema`): adds `StructuredOutput`. */
  structuredOutput?: boolean;
  /** The session's model: one of the 4 generation adds the task tools (`modelFacts`). */
  model?: string;
}

/**
 * The built-in tools of a session, as `system/init` lists them: `Task` first, then by name.
 *
 * @example Bash denied: Glob and Grep take its place (and Monitor, which needs it, goes)
 * ```ts
 * import { sessionTools } from "./tool_availability.ts";
 * const tools = sessionTools({ denied: ["Bash"] });
 * console.log(tools.includes("Glob"), tools.includes("Bash"), tools.includes("Monitor"));
 * // true false false
 * ```
 */
export function sessionTools(options: SessionToolsOptions = {}): string[] {
  const denied = new Set(options.denied ?? []);
  const chosen = options.tools && !(options.tools.length === 1 && options.tools[0] === "default")
    ? options.tools.map((t) => ALIASES[t] ?? t).filter((t) => OFFERABLE.has(t))
    : undefined;
  let tools = chosen ?? [
    ...DEFAULT_TOOLS,
    ...(options.model !== undefined ? modelFacts(options.model).extraTools : []),
    ...(options.canUseTool ? PERMISSION_PROMPT_TOOLS : []),
  ];
  tools = tools.filter((t) => !denied.has(t));
  if (options.structuredOutput) tools = [...tools, "StructuredOutput"];
  if (!chosen && denied.has("Bash")) {
    tools = [...tools.filter((t) => t !== "Monitor"), "Glob", "Grep"].filter((t) => !denied.has(t));
  }
  const unique = [...new Set(tools)];
  const rest = unique.filter((t) => t !== "Task").sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return [...(unique.includes("Task") ? ["Task"] : []), ...rest];
}

/**
 * Whether a session with the built-in tools `tools` has the tool `name` (an alias counts as
 * its tool). MCP tools (`mcp__server__tool`) are not built-in: this says nothing of them.
 */
export function hasTool(tools: readonly string[], name: string): boolean {
  return tools.includes(ALIASES[name] ?? name);
}

/**
 * What the real CLI answers a tool use of `name` in a session with the built-in tools
 * `tools`: the error text of its result (`tool_use_result`; the message content wraps it in
 * `<tool_use_error>`).
 *
 * @example A session with Bash: Glob is not there
 * ```ts
 * import { noSuchToolError, sessionTools } from "./tool_availability.ts";
 * console.log(noSuchToolError("Glob", sessionTools()));
 * // Error: No such tool available: Glob. Glob is not available in this session — find files with `find` via the Bash tool instead.
 * console.log(noSuchToolError("Frobnicate", sessionTools()));
 * // Error: No such tool available: Frobnicate
 * ```
 */
export function noSuchToolError(name: string, tools: readonly string[]): string {
  const head = `Error: No such tool available: ${name}`;
  if (!KNOWN_TOOLS.has(name)) return head;
  if (name === "Glob" || name === "Grep") {
    if (!tools.includes("Bash")) return `${head}. ${name} is disabled for this session.`;
    const instead = name === "Glob" ? "find files with `find`" : "search file contents with `grep`";
    return `${head}. ${name} is not available in this session \u2014 ${instead} via the Bash tool instead.`;
  }
  return `${head}. ${name} is disabled for this session, in subagents as well as here.`;
}

/**
 * What the real CLI (2.1.328, 2.1.332) answers a subagent's use of a tool its agent does not
 * have (a custom agent's `tools` leave it out, or its `disallowedTools` name it; a built-in
 * agent's limits; ExitPlanMode, which no subagent has): the error text of its result (`tool_use_result`; the message content wraps it in `<tool_use_error>`).
 *
 * @example A reviewer without Bash
 * ```ts
 * import { subagentNoSuchToolError } from "./tool_availability.ts";
 * console.log(subagentNoSuchToolError("Bash"));
 * // Error: No such tool available: Bash. Bash is not among the tools available here. Continue with the tools you have.
 * ```
 */
export function subagentNoSuchToolError(name: string): string {
  if (name === "ExitPlanMode") {
    // whatever the agent's tools (2.1.328, 2.1.332: Explore, conformance agents_builtin_explore_tools)
    return "Error: No such tool available: ExitPlanMode. ExitPlanMode is not available inside " +
      "subagents. Complete the task with the tools provided and return findings to the orchestrator.";
  }
  return `Error: No such tool available: ${name}. ${name} is not among the tools available here. ` +
    "Continue with the tools you have.";
}
