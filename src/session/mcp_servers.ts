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

/**
 * The MCP server of a tool, as the real CLI (2.1.328 to 2.1.332) names it in a tool hook's input
 * (`mcp_server`): an SDK server the client registered is `sdk`, one the CLI runs itself
 * `dynamic`; `undefined` for a tool that is not an MCP server's.
 */
export function mcpServerProvenance(
  initialize: Record<string, unknown> | undefined,
  tool: string,
): { name: string; source: string } | undefined {
  const server = mcpServerOf(tool);
  if (server === undefined) return undefined;
  return { name: server, source: sdkMcpServers(initialize).includes(server) ? "sdk" : "dynamic" };
}

/** `{ mcp_server }` for an MCP tool's hook input, `{}` for any other tool. */
export function mcpServerField(
  engine: { initializeRequest?: Record<string, unknown> },
  tool: string,
): { mcp_server?: { name: string; source: string } } {
  const server = mcpServerProvenance(engine.initializeRequest, tool);
  return server !== undefined ? { mcp_server: server } : {};
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

/** An MCP server the CLI runs itself: configured by `--mcp-config` or in `initialize`. */
export interface ExternalMcpServer {
  /** The server name. */
  name: string;
  /** Its configuration (`type`, `command`, `args`, `env`, `url`, ...). */
  config: Record<string, unknown>;
}

/**
 * The MCP servers the CLI runs itself, in order: those of `--mcp-config` (JSON values; a
 * file path is not read), then those the SDK delivered in `initialize` (`mcpServersDelivery:
 * "initialize"`). In-process (`type: "sdk"`) servers are the SDK's, not listed here.
 */
export function externalMcpServers(
  configs: readonly string[] | undefined,
  initialize: Record<string, unknown> | undefined,
): ExternalMcpServer[] {
  const out: ExternalMcpServer[] = [];
  const add = (servers: unknown) => {
    if (!isObject(servers)) return;
    for (const [name, config] of Object.entries(servers)) {
      if (!isObject(config) || config.type === "sdk" || out.some((s) => s.name === name)) continue;
      out.push({ name, config });
    }
  };
  for (const config of configs ?? []) {
    if (!config.trim().startsWith("{")) continue;
    try {
      add((JSON.parse(config) as { mcpServers?: unknown }).mcpServers);
    } catch {
      // not JSON: configures nothing here
    }
  }
  add(initialize?.mcpServers);
  return out;
}

/** Whether the CLI runs MCP server `server` itself (`--mcp-config` or `initialize`). */
export function hasExternalMcpServer(
  configs: readonly string[] | undefined,
  initialize: Record<string, unknown> | undefined,
  server: string,
): boolean {
  if (mcpConfigHas(configs, server)) return true;
  const servers = initialize?.mcpServers;
  return isObject(servers) && isObject(servers[server]) && servers[server].type !== "sdk";
}

/**
 * The SDK's in-process MCP tools, as `get_context_usage` and `mcp_status` list them: the
 * full name, the server, the tool's own name, and whether it is always loaded
 * (`_meta["anthropic/alwaysLoad"]`; others are deferred).
 */
export function mcpToolEntries(
  initialize: Record<string, unknown> | undefined,
): Array<{ name: string; serverName: string; tool: string; isLoaded: boolean }> {
  const out: Array<{ name: string; serverName: string; tool: string; isLoaded: boolean }> = [];
  for (const server of sdkMcpServers(initialize)) {
    for (const tool of toolsOf(initialize, server)) {
      if (!isObject(tool) || typeof tool.name !== "string") continue;
      const meta = isObject(tool._meta) ? tool._meta : {};
      out.push({
        name: `mcp__${server}__${tool.name}`,
        serverName: server,
        tool: tool.name,
        isLoaded: meta["anthropic/alwaysLoad"] === true,
      });
    }
  }
  return out;
}
