/**
 * The `system/init` frame that opens each turn, with its encoded line.
 *
 * @module
 */

import { DEFAULT_COMMANDS } from "../builders/slash_commands.ts";
import { systemInit } from "../builders/system.ts";
import type { Frame } from "../wire/frame.ts";
import { customCommandsOf } from "./custom_commands.ts";
import type { Engine } from "./engine.ts";
import { LINE_TEMPLATES } from "./line_templates.ts";
import { mcpServerOf, mcpToolNames } from "./mcp_servers.ts";
import type { Outgoing } from "./outbox.ts";
import { builtInTools, mcpToolDenied } from "./session_tools.ts";

/**
 * The `system/init` frame of a turn, with its encoded line: only its uuid changes from
 * turn to turn, so the rest is encoded once per session id, model, mode, cwd and tools
 * (and, unless the session records what it sends, the frame is not even rebuilt).
 */
export function initFrame(engine: Engine): Outgoing {
  const ctx = engine.ctx;
  const initialize = engine.initializeRequest;
  let base = engine.initBase;
  const roster = engine.mcpRoster;
  if (!base || base.initialize !== initialize || base.mcpChanges !== roster.changes) {
    // those the CLI runs (--mcp-config, initialize), then the SDK's in-process servers; the
    // tools of a server that is not connected (disabled, failed, pending) are not there
    const servers = roster.entries.map(({ name, status, source }) => ({ name, status, source }));
    // sorted by name, as the real CLI lists them (2.1.328, 2.1.332)
    const mcpTools = mcpToolNames(initialize).filter((tool) =>
      roster.usable(mcpServerOf(tool) ?? "") && !mcpToolDenied(engine, tool)
    ).sort();
    const own = customCommandsOf(engine);
    const options = {
      tools: engine.scenario.tools ?? [...builtInTools(engine), ...mcpTools],
      // the custom agents among the built-in ones (2.1.328, 2.1.332)
      agents: engine.agents.map((a) => a.name),
      ...(servers.length > 0 ? { mcpServers: servers } : {}),
      // the --mcp-config entries the CLI skipped (2.1.328, 2.1.332)
      ...(roster.errors.length > 0 ? { mcpServerErrors: roster.errors } : {}),
      // the custom slash commands first, by name (2.1.328 to 2.1.332)
      ...(own.length > 0
        ? {
          slashCommands: [
            ...own.map((c) => c.name),
            ...DEFAULT_COMMANDS.map((c) => c.name).filter((name) =>
              !own.some((command) => command.name === name)
            ),
          ],
        }
        : {}),
    };
    const key = JSON.stringify(["init", ctx.cli.version, ctx.sessionId, ctx.cwd, options]);
    base = { initialize, mcpChanges: roster.changes, options, key };
    engine.initBase = base;
  }
  let line = base.line;
  if (line?.model !== ctx.model || line.mode !== ctx.permissionMode) {
    line = {
      model: ctx.model,
      mode: ctx.permissionMode,
      key: `${base.key}|${ctx.model}|${ctx.permissionMode}`,
    };
    base.line = line;
  }
  const key = line.key;
  if (!engine.outbox.sent && LINE_TEMPLATES.has(key)) {
    const bytes = LINE_TEMPLATES.line(key, ctx.ids.uuid(), () => undefined);
    return { frame: INIT_TYPE, bytes };
  }
  const frame = systemInit(ctx, base.options);
  const bytes = LINE_TEMPLATES.line(key, frame.uuid, (slot) => ({ ...frame, uuid: slot }));
  return { frame, bytes };
}

/** What the output needs of an init frame it is handed already encoded. */
const INIT_TYPE: Frame = Object.freeze({ type: "system", subtype: "init" });
