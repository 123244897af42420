/**
 * The SDK's `mcp_call` request: a tool of an MCP server the CLI runs (`--mcp-config`, or
 * delivered in `initialize`), called with no model turn, answered as the real CLI answers it
 * (2.1.328 to 2.1.332). The mock runs no MCP server: the result
 * is the one the scenario scripts for that tool (`usesTool("mcp__server__tool", input,
 * {result, isError})`, the call with the same input first). A tool error is an error answer
 * with the tool's text; with `soft_error_result` a CLI that says
 * `mcp_call_soft_error_result_v1` (2.1.331 and later) answers success with `isError: true`.
 *
 * @module
 */

import { recordedStepForm } from "../scenario/_json_forms.ts";
import { isObject } from "../wire/frame.ts";
import { ControlError } from "./control_channel.ts";
import type { Engine } from "./engine.ts";
import { mcpConfigHas, mcpServerOf } from "./mcp_servers.ts";

/** Registers the `mcp_call` answer on the engine's control channel. */
export function installMcpCall(engine: Engine): void {
  engine.control.handle("mcp_call", (request) => {
    const tool = request.tool;
    if (typeof tool !== "string") throw new ControlError("mcp_call: tool must be a string");
    const server = mcpServerOf(tool);
    if (server === undefined) {
      throw new ControlError(`Not a fully-qualified MCP tool name: ${tool}`);
    }
    const entry = engine.mcpRoster.find(server);
    if (entry?.source === "sdk") {
      throw new ControlError(
        `mcp_call does not support SDK MCP servers. SDK servers are caller-provided — invoke ${server} directly.`,
      );
    }
    const there = entry
      ? entry.status === "connected"
      : mcpConfigHas(engine.flags.mcpConfig, server);
    if (!there) {
      throw new ControlError(`MCP server not connected: ${server}`);
    }
    const args = isObject(request.arguments) ? request.arguments : {};
    const scripted = scriptedResult(engine, tool, args);
    if (!scripted) {
      throw new ControlError(
        `claude-mock: the scenario scripts no result for ${tool} (the mock runs no MCP server; script one with usesTool("${tool}", input, { result }))`,
      );
    }
    const content = [{ type: "text", text: scripted.result }];
    if (!scripted.isError) return { content };
    if (request.soft_error_result === true && engine.ctx.cli.facts.mcpCallSoftErrors) {
      return { content, isError: true };
    }
    throw new ControlError(scripted.result);
  });
}

/** The result the scenario scripts for `tool`: the use with the same input, else the first. */
function scriptedResult(
  engine: Engine,
  tool: string,
  args: Record<string, unknown>,
): { result: string; isError: boolean } | undefined {
  const found: Array<{ input: unknown; result: string; isError: boolean }> = [];
  const visit = (form: unknown): void => {
    if (Array.isArray(form)) return form.forEach(visit);
    if (!isObject(form)) return;
    // the steps of usesTogether: each with the form its own builder call recorded
    if (typeof form.kind === "string") return visit(recordedStepForm(form as never));
    if (form.name === tool && isObject(form.input)) {
      found.push({
        input: form.input,
        result: typeof form.result === "string" ? form.result : "",
        isError: form.isError === true,
      });
    }
    for (const value of Object.values(form)) visit(value);
  };
  for (const exchange of engine.scenario.exchanges) {
    if (!Array.isArray(exchange.steps)) continue;
    for (const step of exchange.steps) visit(recordedStepForm(step));
  }
  const wanted = JSON.stringify(args);
  return found.find((f) => JSON.stringify(f.input) === wanted) ?? found[0];
}
