/**
 * The app's control requests on the session's MCP servers, answered as the real CLI answers
 * them (2.1.328 to 2.1.332): `mcp_toggle` (`toggleMcpServer`), `mcp_reconnect`
 * (`reconnectMcpServer`) and `mcp_set_servers` (`setMcpServers`). See `mcp_roster.ts`.
 *
 * @module
 */

import { isObject } from "../wire/frame.ts";
import { ControlError } from "./control_channel.ts";
import type { Engine } from "./engine.ts";

/** Registers the answers on the engine's control channel. */
export function installMcpControls(engine: Engine): void {
  engine.control.handle("mcp_toggle", (request) => {
    engine.mcpRoster.toggle(serverName(request, "mcp_toggle"), request.enabled !== false);
    return undefined;
  });
  engine.control.handle("mcp_reconnect", (request) => {
    engine.mcpRoster.reconnect(serverName(request, "mcp_reconnect"));
    return undefined;
  });
  engine.control.handle("mcp_set_servers", (request) => {
    if (!isObject(request.servers)) {
      throw new ControlError("mcp_set_servers: servers must be an object");
    }
    // one entry that is not an object refuses the whole call, nothing changed (2.1.332)
    for (const config of Object.values(request.servers)) {
      if (!isObject(config)) {
        throw new ControlError("mcp_set_servers: servers must be an object of config objects");
      }
    }
    return { ...engine.mcpRoster.set(request.servers) };
  });
}

function serverName(request: Record<string, unknown>, subtype: string): string {
  if (typeof request.serverName !== "string") {
    throw new ControlError(`${subtype}: serverName must be a string`);
  }
  return request.serverName;
}
