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
}

/** What the agents are worked out from: the `--agents` flag and the `initialize` request. */
export interface AgentSources {
  /** `--agents`: a JSON object of definitions by name. */
  flag?: string;
  /** The `initialize` request (its `agents`). */
  initialize?: Record<string, unknown>;
}

/**
 * The custom agents by name: `--agents`' then `initialize`'s (the later definition of a name
 * wins). A definition that is not an object with a string `description` is left out.
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
    if (!isObject(value)) return;
    for (const [name, def] of Object.entries(value)) {
      // the real CLI's record drops "__proto__" (on Node it would be the object's prototype)
      if (name === "__proto__") continue;
      if (isObject(def) && typeof def.description === "string") {
        out[name] = def as unknown as CustomAgent;
      }
    }
  };
  if (sources.flag !== undefined) take(parseAgentsFlag(sources.flag));
  take(sources.initialize?.agents);
  return out;
}

/**
 * Reads `--agents`' value: a JSON object of agent definitions by name. A value that is not
 * JSON text (not starting with `{`) names a file, which the mock does not read (as with
 * `--settings`): no agents.
 *
 * @throws {SyntaxError} when the JSON text is not valid.
 */
export function parseAgentsFlag(value: string): Record<string, unknown> {
  if (!value.trim().startsWith("{")) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw new SyntaxError(`Invalid --agents: not valid JSON (${(error as Error).message})`);
  }
  if (!isObject(parsed)) {
    throw new SyntaxError("Invalid --agents: expected a JSON object of agent definitions by name");
  }
  return parsed;
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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
