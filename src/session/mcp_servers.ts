/**
 * What the engine knows of the client's in-process (SDK) MCP servers: their names and
 * tools from `initialize`, and the hint the real CLI adds to a deferred tool's error.
 *
 * @module
 */

import { isObject } from "../wire/frame.ts";

/** The SDK MCP server names the client registered in `initialize`. */
export function sdkMcpServers(initialize: Record<string, unknown> | undefined): string[] {
  const servers = initialize?.sdkMcpServers;
  return Array.isArray(servers) ? servers.filter((s): s is string => typeof s === "string") : [];
}

function toolsOf(initialize: Record<string, unknown> | undefined, server: string): unknown[] {
  const manifests = initialize?.sdkMcpServerManifests;
  const tools = isObject(manifests) && isObject(manifests[server])
    ? (manifests[server] as { toolsListResult?: { tools?: unknown } }).toolsListResult?.tools
    : undefined;
  return Array.isArray(tools) ? tools : [];
}

/** The tools of one SDK MCP server, from its manifest. */
export function mcpToolsOf(
  initialize: Record<string, unknown> | undefined,
  server: string,
): Array<{ name: string; description?: string }> {
  return toolsOf(initialize, server).filter(isObject).map((t) => ({
    name: String(t.name),
    ...(typeof t.description === "string" ? { description: t.description } : {}),
  }));
}

/** `mcp__<server>__<tool>` names of every SDK MCP tool, for `system/init`. */
export function mcpToolNames(initialize: Record<string, unknown> | undefined): string[] {
  const names: string[] = [];
  for (const server of sdkMcpServers(initialize)) {
    for (const tool of toolsOf(initialize, server)) {
      if (isObject(tool) && typeof tool.name === "string") {
        names.push(`mcp__${server}__${tool.name}`);
      }
    }
  }
  return names;
}

/** The server of an `mcp__<server>__<tool>` name. */
export function mcpServerOf(tool: string): string | undefined {
  if (!tool.startsWith("mcp__")) return undefined;
  const parts = tool.split("__");
  return parts.length >= 3 ? parts[1] : undefined;
}

/** What the real CLI appends to an error of a deferred (not always loaded) SDK MCP tool. */
export function deferredSchemaHint(
  initialize: Record<string, unknown> | undefined,
  server: string,
  tool: string,
): string {
  const name = tool.split("__").slice(2).join("__");
  const found = toolsOf(initialize, server).find((t) => isObject(t) && t.name === name);
  if (!isObject(found)) return "";
  const meta = isObject(found._meta) ? found._meta : {};
  if (meta["anthropic/alwaysLoad"] === true || !isObject(found.inputSchema)) return "";
  const { $schema, ...schema } = found.inputSchema;
  const shown = JSON.stringify($schema === undefined ? schema : { ...schema, $schema });
  return `\n\nThis tool's input schema was not in your prompt when you ` +
    `called it. The input schema is: ${shown}\nIf your input does ` +
    `not match this schema, correct it and call the tool again. If ` +
    `it matches, the error above has another cause. If the corrected ` +
    `call fails the same way, call ToolSearch with query "select:${tool}" ` +
    `to load the tool, then call it again.`;
}

/**
 * Whether `--mcp-config` (its values as given) configures the MCP server `server`: a JSON
 * value names its servers under `mcpServers`; a file path could name any.
 */
export function mcpConfigHas(configs: readonly string[] | undefined, server: string): boolean {
  for (const config of configs ?? []) {
    if (!config.trim().startsWith("{")) return true;
    try {
      const servers = (JSON.parse(config) as { mcpServers?: unknown }).mcpServers;
      if (isObject(servers) && Object.hasOwn(servers, server)) return true;
    } catch {
      // not JSON after all: the real CLI refuses it; here it configures nothing
    }
  }
  return false;
}
