/**
 * Which tools a session has: the built-in set as `--tools`, whole-tool deny rules, the SDK's
 * `canUseTool` and a structured output choose it (or the scenario's `tools`), and the MCP tools
 * of the servers it has. A use of any other tool fails with the real CLI's error
 * (2.1.328). Also where the permission rules come from.
 *
 * @module
 */

import { hasTool, noSuchToolError, sessionTools } from "../builders/tool_availability.ts";
import { rulesFromSettings, type RuleSource } from "../scenario/permission_rules.ts";
import type { Engine } from "./engine.ts";
import { mcpConfigHas, mcpServerOf, mcpToolNames } from "./mcp_servers.ts";

const BUILT_IN = new WeakMap<
  Engine,
  { initialize: unknown; model: string; tools: readonly string[] }
>();

/**
 * The session's built-in tools (`system/init` lists them, then the MCP tools): the
 * scenario's `tools` when it has them, else as `--tools`, the deny rules that name a whole
 * tool and `canUseTool` choose them.
 */
export function builtInTools(engine: Engine): readonly string[] {
  const cached = BUILT_IN.get(engine);
  if (
    cached && cached.initialize === engine.initializeRequest && cached.model === engine.ctx.model
  ) return cached.tools;
  const tools = engine.scenario.tools ?? chosenTools(engine);
  BUILT_IN.set(engine, { initialize: engine.initializeRequest, model: engine.ctx.model, tools });
  return tools;
}

/**
 * The tool sets chosen so far, by what chose them: sessions of one configuration share one
 * (frozen) list instead of working it out each.
 */
const CHOSEN = new Map<string, readonly string[]>();

/** The built-in tools `--tools`, the whole-tool deny rules, `canUseTool`, a schema and the model choose. */
function chosenTools(engine: Engine): readonly string[] {
  const denied = ruleSources(engine).flatMap(({ rules }) =>
    (rules.deny ?? []).filter((rule) => !rule.includes("("))
  );
  const options = {
    ...(engine.flags.tools !== undefined ? { tools: engine.flags.tools } : {}),
    canUseTool: engine.flags.permissionPromptTool === "stdio",
    denied,
    structuredOutput: engine.jsonSchema !== undefined,
    model: engine.ctx.model,
  };
  const key = JSON.stringify([
    options.tools ?? null,
    options.canUseTool,
    denied,
    options.structuredOutput,
    options.model,
  ]);
  let tools = CHOSEN.get(key);
  if (!tools) {
    tools = Object.freeze(sessionTools(options));
    if (CHOSEN.size >= 256) CHOSEN.clear();
    CHOSEN.set(key, tools);
  }
  return tools;
}

/**
 * Whether a whole-tool deny rule (`--disallowedTools`, the settings' deny rules) takes MCP tool
 * `name` (`mcp__<server>__<tool>`) out of the session, as the real CLI (2.1.328, 2.1.332) does:
 * the tool's own name, its server's (`mcp__<server>`) or `mcp__<server>__*`. Such a tool is
 * neither in `system/init` nor usable ("No such tool available"), not a permission denial.
 */
export function mcpToolDenied(engine: Engine, name: string): boolean {
  const server = mcpServerOf(name);
  if (server === undefined) return false;
  return ruleSources(engine).some(({ rules }) =>
    (rules.deny ?? []).some((rule) =>
      rule === name || rule === `mcp__${server}` || rule === `mcp__${server}__*`
    )
  );
}

/**
 * The real CLI's error for a use of tool `name` when the session does not have it, else
 * `undefined`. An MCP tool (`mcp__server__tool`) is there when its server is: one the SDK
 * registered, or one `--mcp-config` or `initialize` configures (a scenario scripts what such a server's
 * tools return), or the scenario's `tools` lists it.
 */
export function unavailableTool(engine: Engine, name: string): string | undefined {
  if (engine.scenario.tools?.includes(name)) return undefined;
  const server = mcpServerOf(name);
  if (server !== undefined || name.startsWith("mcp__")) {
    // a server that failed, is disabled or pending has no tools; a config file the session
    // did not read (a path given to a Session directly) could name any server
    // an SDK server's tools are those its manifest lists (the mock cannot know those of a
    // server the CLI runs)
    const entry = server === undefined ? undefined : engine.mcpRoster.find(server);
    const there = entry !== undefined
      ? entry.status === "connected" && !mcpToolDenied(engine, name) &&
        (entry.source !== "sdk" || mcpToolNames(engine.initializeRequest).includes(name))
      : server !== undefined && mcpConfigHas(engine.flags.mcpConfig, server);
    return there ? undefined : `Error: No such tool available: ${name}`;
  }
  const tools = builtInTools(engine);
  return hasTool(tools, name) ? undefined : noSuchToolError(name, tools);
}

/** Where permission rules come from: the scenario, `--settings`, `--allowedTools`/`--disallowedTools`. */
export function ruleSources(engine: Engine): RuleSource[] {
  const sources: RuleSource[] = [];
  if (engine.scenario.permissions) {
    sources.push({ rules: engine.scenario.permissions, source: "scenario" });
  }
  const session = engine.sessionRules;
  if (session.allow.length + session.ask.length + session.deny.length > 0) {
    sources.push({ rules: session, source: "session" });
  }
  const settings = rulesFromSettings(engine.flags.settings);
  if (settings.allow || settings.ask || settings.deny) {
    sources.push({ rules: settings, source: "flagSettings" });
  }
  const flags = engine.flags;
  if (flags.allowedTools.length > 0 || flags.disallowedTools.length > 0) {
    sources.push({
      rules: { allow: flags.allowedTools, deny: flags.disallowedTools },
      source: "cliArg",
    });
  }
  return sources;
}
