/**
 * The synthetic `assistant` frame the real CLI (2.1.328 to 2.1.332) writes for a local slash
 * command sent as a prompt (`/cost`, `/compact` with nothing to compact): model `<synthetic>`,
 * the command's output as its one text block, the output wrapped in `<local-command-stdout>`
 * (or `-stderr` for a failure) as `local_command_source`, the command that ran as
 * `local_command_run`, and a failure's `local_command_outcome`. Internal.
 *
 * @internal
 * @module
 */

import { timestampOf } from "./_common.ts";
import { syntheticUsage } from "./api_error_message.ts";
import type { Frame } from "../wire/frame.ts";
import type { BuildContext } from "./build_context.ts";

/** What a local command printed, and how it ended. */
export interface LocalCommandOutput {
  /** The command that ran (`usage` for `/cost`, `compact`). */
  command: string;
  /** Its arguments (`""` for none). */
  args: string;
  /** What it printed. */
  text: string;
  /** Whether it failed (its output went to stderr). */
  failed?: boolean;
  /** The frame's `context_usage` (`/context`). */
  contextUsage?: Record<string, unknown>;
}

/** The synthetic assistant frame of a local command's output. */
export function localCommandMessage(
  ctx: BuildContext,
  output: LocalCommandOutput,
): Frame {
  const stream = output.failed ? "stderr" : "stdout";
  return {
    type: "assistant",
    message: {
      diagnostics: null,
      id: ctx.ids.uuid(),
      container: null,
      model: "<synthetic>",
      role: "assistant",
      stop_details: null,
      stop_reason: "end_turn",
      stop_sequence: null,
      type: "message",
      usage: syntheticUsage(),
      // the output without its closing blank lines (`/context`'s report ends with one)
      content: [{ type: "text", text: output.text.trimEnd() }],
      context_management: null,
    },
    parent_tool_use_id: null,
    local_command_source: `<local-command-${stream}>${output.text}</local-command-${stream}>`,
    session_id: ctx.sessionId,
    uuid: ctx.ids.uuid(),
    timestamp: timestampOf(ctx),
    ...(output.contextUsage ? { context_usage: output.contextUsage } : {}),
    local_command_run: { command: output.command, args: output.args },
    ...(output.failed ? { local_command_outcome: { kind: "failed" } } : {}),
  };
}
