/**
 * The session's agents as the real CLI knows them: its built-in ones and the custom ones an
 * app defines (the SDK's `agents` option, delivered in `initialize`; `--agents <json>` on the
 * command line), listed in `initialize`'s answer and `system/init`, and the model a subagent
 * of each type runs on.
 *
 * @module
 */

import { type AgentInfoEntry, DEFAULT_AGENTS } from "../builders/agents.ts";
import { resolveModel } from "../builders/inventory.ts";
import type { PermissionMode } from "../builders/system.ts";
import { agentDefinitionIssues } from "./agent_definitions_check.ts";

/** A custom agent's definition, as the SDK's `AgentDefinition` (the fields the mock reads). */
export interface CustomAgent {
  /** When to use it. */
  description: string;
  /** Its system prompt. */
  prompt?: string;
  /** The tools it may use (default: all of the session's). */
  tools?: string[];
  /** Tools it may not use. */
  disallowedTools?: string[];
  /** Its model: an alias, a model id, or `inherit` (default: the session's). */
  model?: string;
  /** How many API round trips it may make before it is stopped. */
  maxTurns?: number;
  /** The permission mode its tool uses are decided in (see {@linkcode subagentMode}). */
  permissionMode?: PermissionMode;
  /** Whether an Agent call of it runs in the background (the call returns at once). */
  background?: boolean;
}

/**
 * What the built-in agents may use, as the real CLI (2.1.328, 2.1.332) lets them: `Explore` and
 * `Plan` are read-only (no Write, Edit, NotebookEdit, no nested Agent, no ExitPlanMode),
 * `statusline-setup` has Read and Edit alone, `general-purpose` and `claude` have every tool
 * of the session. Recorded: conformance cases `agents_builtin_*`.
 */
export const BUILTIN_AGENT_TOOLS: Readonly<
  Record<string, Readonly<Pick<CustomAgent, "tools" | "disallowedTools">>>
> = Object.freeze({
  Explore: { disallowedTools: ["Agent", "ExitPlanMode", "Edit", "Write", "NotebookEdit"] },
  Plan: { disallowedTools: ["Agent", "ExitPlanMode", "Edit", "Write", "NotebookEdit"] },
  "statusline-setup": { tools: ["Read", "Edit"] },
});

/** What the agents are worked out from: the `--agents` flag and the `initialize` request. */
export interface AgentSources {
  /** `--agents`: a JSON object of definitions by name. */
  flag?: string;
  /** The `initialize` request (its `agents`). */
  initialize?: Record<string, unknown>;
}

/**
 * The custom agents by name: `--agents`' then `initialize`'s (the later definition of a name
 * wins). As the real CLI (2.1.328, 2.1.332): `initialize`'s `agents` with any definition that
 * is not valid (see {@linkcode agentDefinitionIssues}) are dropped whole, silently; a bad
 * `--agents` throws (the fake binary refuses it before the session starts).
 *
 * @throws {SyntaxError} when `--agents` is not a valid set of definitions.
 *
 * @example Agents from initialize
 * ```ts
 * import { customAgents } from "./session_agents.ts";
 * const agents = customAgents({
 *   initialize: { agents: { reviewer: { description: "Reviews.", prompt: "Review.", model: "haiku" } } },
 * });
 * console.log(Object.keys(agents)); // [ "reviewer" ]
 * ```
 */
export function customAgents(sources: AgentSources): Record<string, CustomAgent> {
  const out: Record<string, CustomAgent> = {};
  const take = (value: unknown) => {
    if (!isObject(value) || agentDefinitionIssues(value).length > 0) return;
    for (const [name, def] of Object.entries(value)) {
      // the real CLI's record drops "__proto__" (on Node it would be the object's prototype)
      if (name === "__proto__") continue;
      out[name] = def as unknown as CustomAgent;
    }
  };
  if (sources.flag !== undefined) take(parseAgentsFlag(sources.flag));
  // initialize's agents named with a leading '-' are left out, the others kept (2.1.332)
  const given = sources.initialize?.agents;
  take(
    isObject(given)
      ? Object.fromEntries(Object.entries(given).filter(([name]) => !name.startsWith("-")))
      : given,
  );
  return out;
}

/**
 * Reads `--agents`' value: a JSON object of agent definitions by name, checked as the real CLI
 * checks it. An empty value is no agents. A value that names a file (see
 * {@linkcode agentsFlagJson}) is not read here (the fake binary reads it and passes its text
 * on): no agents.
 *
 * @example Definitions by name
 * ```ts
 * import { parseAgentsFlag } from "./session_agents.ts";
 * const agents = parseAgentsFlag('{"reviewer": {"description": "Reviews.", "prompt": "Review."}}');
 * console.log(Object.keys(agents)); // [ "reviewer" ]
 * ```
 *
 * @throws {SyntaxError} the real CLI's message (`Invalid --agents configuration:` and the
 * reasons, one a line) when the text is not valid JSON or the definitions are not valid.
 */
export function parseAgentsFlag(value: string): Record<string, unknown> {
  const read = agentsFlagJson(value);
  if (read.kind !== "json") return {};
  const parsed = read.value;
  const issues = agentDefinitionIssues(parsed);
  if (issues.length > 0) {
    throw new SyntaxError(`Invalid --agents configuration:\n${issues.join("\n")}`);
  }
  return parsed as Record<string, unknown>;
}

/**
 * The agents the CLI lists (`initialize`'s `agents`, `system/init`'s names): the built-in ones
 * and the custom ones, a custom one taking the place of a built-in one of its name, sorted by
 * name without regard to case (as 2.1.328 and 2.1.332 list them).
 *
 * @example A custom agent among the built-in ones
 * ```ts
 * import { listedAgents } from "./session_agents.ts";
 * const names = listedAgents({ reviewer: { description: "Reviews." } }).map((a) => a.name);
 * console.log(names.indexOf("reviewer") > names.indexOf("Plan")); // true
 * ```
 */
export function listedAgents(custom: Record<string, CustomAgent>): AgentInfoEntry[] {
  const byName = new Map<string, AgentInfoEntry>();
  for (const agent of DEFAULT_AGENTS) byName.set(agent.name, { ...agent });
  for (const [name, def] of Object.entries(custom)) {
    byName.set(name, {
      name,
      description: def.description,
      ...(typeof def.model === "string" ? { model: def.model } : {}),
    });
  }
  return [...byName.values()].sort((a, b) => {
    const x = a.name.toLowerCase();
    const y = b.name.toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/**
 * The model a subagent of `type` runs on: its agent's `model` resolved (`haiku` →
 * `claude-haiku-5-5`), the session's model when it has none, says `inherit`, or names a model
 * the mock does not know.
 *
 * @example A custom agent on haiku
 * ```ts
 * import { subagentModel } from "./session_agents.ts";
 * const agents = [{ name: "reviewer", description: "Reviews.", model: "haiku" }];
 * console.log(subagentModel(agents, "reviewer", "claude-opus-5-5")); // claude-haiku-5-5
 * ```
 */
export function subagentModel(
  agents: readonly AgentInfoEntry[],
  type: string,
  sessionModel: string,
): string {
  const model = agents.find((a) => a.name === type)?.model;
  if (model === undefined || model === "inherit") return sessionModel;
  return resolveModel(model) ?? model;
}

/**
 * How the real CLI (2.1.328, 2.1.332) reads `--agents`' value: an empty value is no agents;
 * JSON other than `null` is the definitions (checked later); text starting with `{` that is
 * not JSON is refused; anything else names a file (relative to the working directory).
 *
 * @example A file path, and JSON
 * ```ts
 * import { agentsFlagJson } from "./session_agents.ts";
 * console.log(agentsFlagJson("agents.json").kind); // file
 * console.log(agentsFlagJson('{"a": {"description": "A.", "prompt": "A."}}').kind); // json
 * ```
 *
 * @throws {SyntaxError} the CLI's message (`Invalid --agents configuration:` then
 * `invalid JSON: <the parser's message>`) when the text starts with `{` and is not JSON.
 */
export function agentsFlagJson(
  value: string,
): { kind: "none" } | { kind: "file" } | { kind: "json"; value: unknown } {
  if (value === "") return { kind: "none" };
  try {
    const parsed = JSON.parse(value);
    if (parsed !== null) return { kind: "json", value: parsed };
  } catch (error) {
    if (value.trim().startsWith("{")) {
      throw new SyntaxError(
        `Invalid --agents configuration:\ninvalid JSON: ${(error as Error).message}`,
      );
    }
  }
  return { kind: "file" };
}

/**
 * What a subagent of `type` may use: its custom agent's `tools` and `disallowedTools`, else a
 * built-in agent's ({@linkcode BUILTIN_AGENT_TOOLS}); `undefined` when it has every tool of
 * the session.
 *
 * @example A custom agent's limits, then a built-in one's
 * ```ts
 * import { agentToolLimits } from "./session_agents.ts";
 * const custom = { reviewer: { description: "Reviews.", tools: ["Read"] } };
 * console.log(agentToolLimits(custom, "reviewer")?.tools); // [ "Read" ]
 * console.log(agentToolLimits(custom, "statusline-setup")?.tools); // [ "Read", "Edit" ]
 * console.log(agentToolLimits(custom, "general-purpose")); // undefined
 * ```
 */
export function agentToolLimits(
  custom: Readonly<Record<string, CustomAgent>>,
  type: string,
): Readonly<Pick<CustomAgent, "tools" | "disallowedTools">> | undefined {
  return Object.hasOwn(custom, type)
    ? custom[type]
    : Object.hasOwn(BUILTIN_AGENT_TOOLS, type)
    ? BUILTIN_AGENT_TOOLS[type]
    : undefined;
}

/**
 * Whether an agent with these limits lacks the tool `name`: its `tools` (unless `*`) leave it
 * out, or its `disallowedTools` name it.
 *
 * @example Explore is read-only
 * ```ts
 * import { agentLacksTool, BUILTIN_AGENT_TOOLS } from "./session_agents.ts";
 * console.log(agentLacksTool(BUILTIN_AGENT_TOOLS.Explore, "Write")); // true
 * console.log(agentLacksTool(BUILTIN_AGENT_TOOLS.Explore, "Bash")); // false
 * ```
 */
export function agentLacksTool(
  limits: Readonly<Pick<CustomAgent, "tools" | "disallowedTools">> | undefined,
  name: string,
): boolean {
  if (!limits) return false;
  const tools = limits.tools;
  if (Array.isArray(tools) && !tools.includes("*") && !tools.includes(name)) return true;
  return Array.isArray(limits.disallowedTools) && limits.disallowedTools.includes(name);
}

/**
 * The permission mode a subagent's tool uses are decided in: its agent's `permissionMode`,
 * unless the session's mode is `bypassPermissions`, `acceptEdits` or `auto`, which the subagent
 * keeps (2.1.328, 2.1.332: an `acceptEdits` agent writes unasked in a `default` session; a
 * `default` agent in an `acceptEdits` session writes unasked too).
 *
 * @example An acceptEdits agent in a default session
 * ```ts
 * import { subagentMode } from "./session_agents.ts";
 * console.log(subagentMode("default", "acceptEdits")); // acceptEdits
 * console.log(subagentMode("acceptEdits", "default")); // acceptEdits
 * ```
 */
export function subagentMode(session: string, agent: PermissionMode | undefined): string {
  if (agent === undefined) return session;
  if (session === "bypassPermissions" || session === "acceptEdits" || session === "auto") {
    return session;
  }
  return agent;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
