/**
 * Asking for permission to use a tool, as the real CLI asks: the client (`can_use_tool`) and
 * the PermissionRequest hooks the SDK registered.
 *
 * @module
 */

import type { CanUseToolRequest, ControlRequestFrameOut } from "../builders/control.ts";
import { sessionStateChanged } from "../builders/system.ts";
import type { ScriptedToolCall } from "../scenario/step.ts";
import { isObject } from "../wire/frame.ts";
import type { Engine } from "./engine.ts";
import { firstHookDecision, hookCallbacks } from "./hook_runner.ts";
import { mcpServerField } from "./mcp_servers.ts";
import {
  Interrupted,
  type PermissionOutcome,
  StreamClosed,
  type ToolDecision,
  TurnFailure,
  type TurnState,
} from "./turn_state.ts";

/**
 * The PermissionRequest hooks for a tool use the CLI would ask about (`asked`, its
 * `can_use_tool` request), as the real CLI calls them: `tool_name`, `tool_input` and the
 * request's `permission_suggestions`. The hooks run together, and the first to answer with a
 * decision decides at once, in the user's place (the real CLI 2.1.328 to 2.1.332: a fast deny
 * beats a slow allow and a fast allow a slow deny; the slow hook is abandoned): `allow` runs
 * the tool (with its `updatedInput`; accepted by the hook), `deny` refuses it with the hook's
 * message (a `permission_denied` frame, reason `hook`). `undefined` when no hook decides (the
 * real CLI then denies as usual).
 */
export function permissionRequestHooks(
  engine: Engine,
  turn: TurnState,
  asked: CanUseToolRequest,
): Promise<ToolDecision | undefined> {
  return firstHookDecision(engine, hookCallbacks(engine, "PermissionRequest", asked.tool_name), {
    hook_event_name: "PermissionRequest",
    tool_name: asked.tool_name,
    tool_input: asked.input,
    ...(asked.permission_suggestions !== undefined
      ? { permission_suggestions: asked.permission_suggestions }
      : {}),
    ...mcpServerField(engine, asked.tool_name),
  }, { turn, toolUseId: asked.tool_use_id, decide: (output) => hookDecision(asked, output) });
}

/** What one PermissionRequest hook's output decides (`undefined`: nothing). */
function hookDecision(
  asked: CanUseToolRequest,
  output: Record<string, unknown>,
): ToolDecision | undefined {
  const specific = isObject(output.hookSpecificOutput) ? output.hookSpecificOutput : {};
  const decision = isObject(specific.decision) ? specific.decision : undefined;
  if (decision?.behavior === "allow") {
    return {
      kind: "allow",
      input: isObject(decision.updatedInput) ? decision.updatedInput : asked.input,
      meta: "hookAllowed",
    };
  }
  if (decision?.behavior === "deny") {
    const message = typeof decision.message === "string"
      ? decision.message
      : `Permission to use ${asked.tool_name} was denied by a PermissionRequest hook.`;
    return {
      kind: "deny",
      message,
      meta: { decision: "reject", source: "hook", reason_type: "hook" },
      nonExecutionKind: "permission-rule",
      deniedFrame: { reasonType: "hook", reason: message },
    };
  }
  return undefined;
}

/**
 * Sends a built `can_use_tool` request and takes the client's answer as the real CLI does:
 * `requires_action` while it waits, `allow` (with `updatedInput`), `deny` (with `interrupt`),
 * a malformed answer fails the turn, an interrupt while it waits rejects the tool.
 */
export async function askWith(
  engine: Engine,
  turn: TurnState,
  { request, block, beside }: {
    request: ControlRequestFrameOut<CanUseToolRequest>;
    block: ScriptedToolCall["block"];
    /** Asked right after the request goes out (the PermissionRequest hooks), awaited too. */
    beside?: () => Promise<unknown>;
  },
): Promise<PermissionOutcome> {
  const input = block.input;
  await engine.send({ frame: sessionStateChanged(engine.ctx, "requires_action"), delay: 0 });
  turn.pendingPermission = { requestId: request.request_id, block };
  let answer: Record<string, unknown>;
  try {
    const answering = engine.control.request(request, { signal: turn.abort.signal });
    if (beside !== undefined) {
      // both are in flight at once: an answer that fails first is not left unobserved
      answering.catch(() => {});
      await beside();
    }
    answer = await answering;
  } catch (error) {
    if (error instanceof StreamClosed) return await unanswerable(engine, error);
    if (turn.abort.reason instanceof Interrupted) {
      turn.rejectedTool = block;
      turn.denials.push({ tool_name: block.name, tool_use_id: block.id, tool_input: input });
      await engine.send({ frame: sessionStateChanged(engine.ctx, "running"), delay: 0 });
    }
    throw error;
  } finally {
    turn.pendingPermission = undefined;
  }
  const before = turn.beforeRunning;
  turn.beforeRunning = undefined;
  if (before) await before();
  const where = `the client's answer to can_use_tool for ${block.name} (tool_use_id ${block.id})`;
  if (answer.behavior === "allow" && answer.updatedPermissions !== undefined) {
    // loaded when an answer carries updates: most runs never see one
    const { applyPermissionUpdates } = await import("./permission_updates.ts");
    await applyPermissionUpdates(engine, answer.updatedPermissions, where);
  }
  if (turn.heldRunning !== undefined) turn.heldRunning++;
  else await engine.send({ frame: sessionStateChanged(engine.ctx, "running"), delay: 0 });
  if (answer.behavior === "allow") {
    if (answer.updatedInput !== undefined && !isObject(answer.updatedInput)) {
      throw new TurnFailure(
        `claude-mock: ${where} is malformed: 'response.updatedInput' must be an object`,
      );
    }
    return {
      kind: "allow",
      input: (answer.updatedInput as Record<string, unknown>) ?? input,
      meta: "userAllowed",
    };
  }
  if (answer.behavior === "deny") {
    if (typeof answer.message !== "string") {
      throw new TurnFailure(
        `claude-mock: ${where} is malformed: 'response.message' must be a string`,
      );
    }
    if (answer.interrupt === true) turn.abort.abort(new Interrupted());
    return { kind: "deny", message: answer.message, meta: "userDenied" };
  }
  throw new TurnFailure(
    `claude-mock: ${where} is malformed: 'response.behavior' must be "allow" or "deny", got ${
      JSON.stringify(answer.behavior)
    }`,
  );
}

/**
 * stdin closed: no one can answer a `can_use_tool` request; the real CLI (2.1.332) denies the
 * tool so, and the turn goes on.
 */
async function unanswerable(engine: Engine, error: StreamClosed): Promise<PermissionOutcome> {
  await engine.send({ frame: sessionStateChanged(engine.ctx, "running"), delay: 0 });
  return {
    kind: "deny",
    message: `Tool permission request failed: ${error.name}: ${error.message}`,
    meta: { decision: "reject", source: "config", reason_type: "other" },
    nonExecutionKind: "permission-rule",
  };
}
