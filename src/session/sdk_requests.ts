/**
 * The client's requests to the CLI, answered as the real CLI answers them: `initialize`,
 * `interrupt`, `set_model`, `set_permission_mode`, `set_max_thinking_tokens`, and the
 * read-only queries (`mcp_status`, `get_context_usage`, `get_settings`,
 * `get_session_cost`, `rewind_files`).
 *
 * @module
 */

import { DEFAULT_MODEL } from "../builders/build_context.ts";
import { initializeResponse } from "../builders/control.ts";
import { resolveModel } from "../builders/inventory.ts";
import { PERMISSION_MODES, type PermissionMode, systemStatus } from "../builders/system.ts";
import { userText } from "../builders/user.ts";
import { rulesFromSettings } from "../scenario/permission_rules.ts";
import { isObject } from "../wire/frame.ts";
import { AnswerThen, ControlError, type ControlHandler, EncodedAnswer } from "./control_channel.ts";
import type { Engine } from "./engine.ts";
import { mcpToolsOf, sdkMcpServers } from "./mcp_servers.ts";
import { Interrupted } from "./turn_state.ts";
import { canonicalJson } from "../wire/_canonical_json.ts";

const INITIALIZE_ANSWERS = new Map<string, EncodedAnswer>();

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Registers the built-in answers on the engine's control channel. */
export function installSdkRequests(engine: Engine): void {
  const control = engine.control;
  const ctx = engine.ctx;
  const answers = engine.scenario.answers;
  if (answers && answers.length > 0) {
    // a converted recording: the app's requests get the recorded answers, each once
    const used = new Set<number>();
    control.interceptWith((request) => {
      if (request.subtype === "initialize") return undefined;
      const { request_id: _id, ...body } = request;
      const wanted = canonicalJson(body);
      let index = answers.findIndex((a, i) => !used.has(i) && canonicalJson(a.request) === wanted);
      if (index < 0) {
        index = answers.findIndex((a, i) => !used.has(i) && a.request.subtype === body.subtype);
      }
      if (index < 0) return undefined;
      used.add(index);
      const { response, error } = answers[index];
      return error !== undefined ? { error } : { response };
    });
  }
  control.handle(
    "initialize",
    ((request: Record<string, unknown>) => {
      engine.initializeRequest = request;
      // as recorded (r2_init_*): `hooks_applied` with hooks, the SDK's MCP servers parked
      const options = {
        hooksApplied: isObject(request.hooks),
        sdkMcpServers: sdkMcpServers(request),
      };
      const extra = engine.scenario.initialize;
      if (extra !== undefined) return { ...initializeResponse(ctx, options), ...extra };
      // the same answer every session with this session id, mode, hooks and servers: encode it once
      const key = JSON.stringify([ctx.sessionId, ctx.permissionMode, options]);
      let answer = INITIALIZE_ANSWERS.get(key);
      if (!answer) {
        if (INITIALIZE_ANSWERS.size >= 256) INITIALIZE_ANSWERS.clear();
        answer = new EncodedAnswer(deepFreeze(initializeResponse(ctx, options)), key);
        INITIALIZE_ANSWERS.set(key, answer);
      }
      return answer;
    }) as ControlHandler,
  );
  control.handle("interrupt", async () => {
    await interruptTurn(engine);
    return { still_queued: [] };
  });
  control.handle("set_permission_mode", (request) => {
    const mode = request.mode;
    if (typeof mode !== "string" || !PERMISSION_MODES.includes(mode as never)) {
      throw new RangeError(
        `Invalid permission mode ${JSON.stringify(mode)}: expected one of ${
          PERMISSION_MODES.join(", ")
        }`,
      );
    }
    ctx.permissionMode = mode;
    // the status frame follows the answer, as the real CLI writes them (r2_set_permission_mode)
    return new AnswerThen({ mode }, () => [
      systemStatus(ctx, null, { permissionMode: mode as PermissionMode }),
    ]);
  });
  control.handle("set_model", async (request) => {
    const wanted = request.model;
    if (wanted === undefined || wanted === null) {
      ctx.model = DEFAULT_MODEL;
      return { model: DEFAULT_MODEL };
    }
    const model = wanted === "default"
      ? DEFAULT_MODEL
      : typeof wanted === "string" && wanted !== ""
      ? resolveModel(wanted) ?? (engine.scenario.models?.includes(wanted) ? wanted : undefined)
      : undefined;
    if (model === undefined) {
      throw new ControlError(
        wanted === ""
          ? 'Model "(unrecognized model name)" is not a recognized model id. Run /model to see available models.'
          : `Model '${String(wanted)}' not found`,
        { error_code: wanted === "" ? "catalog_unknown" : "not_found", model: ctx.model },
      );
    }
    ctx.model = model;
    const shown = typeof wanted === "string" && wanted !== model && wanted !== "default"
      ? `${wanted} (${model})`
      : model;
    await engine.send({
      frame: userText(
        ctx,
        `<local-command-stdout>Set model to \`${shown}\`</local-command-stdout>`,
        { isReplay: true },
      ),
      delay: 0,
    });
    return { model };
  });
  control.handle("set_max_thinking_tokens", (request) => {
    const tokens = request.max_thinking_tokens;
    if (
      tokens !== null && (typeof tokens !== "number" || !Number.isInteger(tokens) || tokens < 0)
    ) {
      throw new RangeError(
        "Invalid 'max_thinking_tokens': expected a non-negative integer or null",
      );
    }
    engine.maxThinkingTokens = tokens as number | null;
    return undefined;
  });
  control.handle("mcp_status", () => ({
    mcpServers: sdkMcpServers(engine.initializeRequest).map((name) => ({
      name,
      status: "connected",
      serverInfo: { name, version: "1.0.0" },
      scope: "sdk",
      tools: mcpToolsOf(engine.initializeRequest, name),
    })),
  }));
  control.handle("get_context_usage", () => contextUsage(engine));
  control.handle("get_settings", () => ({
    permissions: rulesFromSettings(engine.flags.settings),
    model: ctx.model,
    permissionMode: ctx.permissionMode,
  }));
  control.handle("get_session_cost", () => ({
    total_cost_usd: engine.ledger.costUsd,
    num_api_calls: engine.ledger.calls,
  }));
  control.handle(
    "rewind_files",
    () => ({ canRewind: false, error: "No file checkpoints in a claude-mock session" }),
  );
}

/**
 * Interrupts the running turn as the client's `interrupt` does (an open permission question
 * is withdrawn first); resolves with whether there was a turn to interrupt. A turn whose
 * result is written, or that is already ending, is left alone.
 */
export async function interruptTurn(engine: Engine): Promise<boolean> {
  const turn = engine.turn;
  if (!turn || turn.resultSent || turn.abort.aborted) return false;
  const pending = turn.pendingPermission;
  if (pending) {
    // the real CLI withdraws the open permission question first
    await engine.send({
      frame: { type: "control_cancel_request", request_id: pending.requestId },
      delay: 0,
    });
  }
  turn.abort.abort(new Interrupted());
  return true;
}

function contextUsage(engine: Engine): Record<string, unknown> {
  const window = 1_000_000;
  const messages = engine.ledger.tokens;
  const system = 3000;
  const tools = 12000;
  const total = system + tools + messages;
  const pct = (n: number) => Math.round((n / window) * 10000) / 100;
  const initialize = engine.initializeRequest;
  return {
    categories: [
      { name: "System prompt", tokens: system, color: "promptBorder" },
      { name: "System tools", tokens: tools, color: "inactive" },
      { name: "Messages", tokens: messages, color: "purple_FOR_SUBAGENTS_ONLY" },
      { name: "Free space", tokens: window - total, color: "promptBorder" },
    ],
    totalTokens: total,
    maxTokens: window,
    rawMaxTokens: window,
    percentage: pct(total),
    model: engine.ctx.model,
    memoryFiles: [],
    mcpTools: sdkMcpServers(initialize).flatMap((server) =>
      mcpToolsOf(initialize, server).map((t) => ({
        name: `mcp__${server}__${t.name}`,
        serverName: server,
        tokens: 100,
      }))
    ),
    agents: [],
    isAutoCompactEnabled: true,
    maxThinkingTokens: engine.maxThinkingTokens,
  };
}
