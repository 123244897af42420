/**
 * Internal: the tool calls of `__mock__` commands (a tool use and what running it returns,
 * in the real CLI's shapes for Read, Write, Edit and Bash), and the `can_use_tool` round
 * trip of a `permission_request` that carries suggestions or comes from a subagent, answered
 * as the engine's own tool flow takes the answer. Not part of the public API.
 *
 * @module
 */

import type { BuildContext } from "../builders/build_context.ts";
import { canUseToolRequest, type PermissionSuggestion } from "../builders/control.ts";
import { permissionDenied } from "../builders/permission_denied.ts";
import {
  bashTool,
  editTool,
  genericTool,
  readTool,
  type ToolCall,
  writeTool,
} from "../builders/tools.ts";
import type { ScriptedToolCall } from "../scenario/step.ts";
import type { ToolUseBlock } from "../wire/frame.ts";
import type { Engine } from "../session/engine.ts";
import { askWith } from "../session/permission_request.ts";
import type { PermissionOutcome, TurnState } from "../session/turn_state.ts";

/** What a `tool_result` command said a tool returned. */
export interface ToolOutcome {
  /** The result text. */
  result?: string;
  /** The error text (an `is_error` result). */
  error?: string;
}

/**
 * The tool call of a tool use: the block keeps `input` as given; the result is the
 * outcome's, in the real CLI's shape for Read (the text is the file), Bash (stdout), and
 * Write and Edit (without a result text), else as an MCP-style text result.
 */
export function mockToolCall(ctx: BuildContext, use: ToolUse): ScriptedToolCall {
  const call = shapedCall(ctx, use);
  return {
    block: { type: "tool_use", id: use.id, name: use.name, input: use.input },
    result: call.result,
    rerun: (input, rerunCtx) => shapedCall(rerunCtx, { ...use, input }).result,
  };
}

/** A tool use of a command, and what a `tool_result` command said it returned. */
export interface ToolUse {
  /** The tool. */
  name: string;
  /** Its input, as given. */
  input: Record<string, unknown>;
  /** The tool use id. */
  id: string;
  /** Its result. */
  outcome: ToolOutcome;
}

function shapedCall(ctx: BuildContext, use: ToolUse): ToolCall {
  const { name, input, id, outcome } = use;
  const text = (key: string) => typeof input[key] === "string" ? input[key] as string : undefined;
  if (outcome.error !== undefined) {
    return genericTool(ctx, name, { input, result: outcome.error, isError: true, id });
  }
  const path = text("file_path");
  if (name === "Read" && path) {
    return readTool(ctx, path, { content: outcome.result ?? "", id });
  }
  const command = text("command");
  if (name === "Bash" && command) {
    const description = text("description");
    return bashTool(ctx, command, {
      stdout: outcome.result ?? "",
      id,
      ...(description !== undefined ? { description } : {}),
    });
  }
  if (outcome.result === undefined && name === "Write" && path && text("content") !== undefined) {
    return writeTool(ctx, path, { content: text("content")!, id });
  }
  const [oldString, newString] = [text("old_string"), text("new_string")];
  if (
    outcome.result === undefined && name === "Edit" && path && oldString !== undefined &&
    newString !== undefined
  ) {
    return editTool(ctx, path, {
      oldString,
      newString,
      id,
      ...(typeof input.replace_all === "boolean" ? { replaceAll: input.replace_all } : {}),
    });
  }
  return genericTool(ctx, name, { input, result: outcome.result ?? "", isError: false, id });
}

/**
 * Asks the client's `canUseTool` about `block` with the command's suggestions (and, for a
 * subagent, its `agent_id`), and takes the answer as the engine's tool flow does: `allow`
 * (with `updatedInput`), `deny` (with `interrupt`), a malformed answer fails the turn, an
 * interrupt while it waits rejects the tool. With no one to ask (no `canUseTool`, print
 * mode) the tool is denied as the real CLI denies it.
 */
export async function askClientFor(
  engine: Engine,
  turn: TurnState,
  options: {
    block: ToolUseBlock;
    agentId?: string;
    suggestions?: PermissionSuggestion[];
    interactive?: boolean;
  },
): Promise<PermissionOutcome> {
  const { block, agentId } = options;
  const ctx = engine.ctx;
  if (engine.flags.permissionPromptTool !== "stdio") {
    const message =
      `Claude requested permissions to use ${block.name}, but you haven't granted it yet.`;
    await engine.send({
      frame: permissionDenied(ctx, { toolName: block.name, toolUseId: block.id, message }),
      delay: 0,
    });
    return {
      kind: "deny",
      message,
      meta: { decision: "reject", source: "config" },
      nonExecutionKind: "user-rejected",
    };
  }
  const built = canUseToolRequest(ctx, block, {
    ...(options.suggestions !== undefined ? { permissionSuggestions: options.suggestions } : {}),
    ...(options.interactive ? { requiresUserInteraction: true } : {}),
  });
  const frame = agentId === undefined
    ? built
    : { ...built, request: { ...built.request, agent_id: agentId } };
  return await askWith(engine, turn, { request: frame, block });
}

/** The short activity line of a subagent's `task_progress` ("Reading notes.txt", as recorded). */
export function activityOf(block: ToolUseBlock): string {
  const input = block.input;
  const file = typeof input.file_path === "string" ? input.file_path.split("/").pop() : undefined;
  switch (block.name) {
    case "Read":
      return `Reading ${file ?? "a file"}`;
    case "Write":
      return `Writing ${file ?? "a file"}`;
    case "Edit":
      return `Editing ${file ?? "a file"}`;
    case "Bash":
      return typeof input.description === "string"
        ? input.description
        : `Running ${String(input.command ?? "a command")}`;
    default:
      return `Using ${block.name}`;
  }
}
