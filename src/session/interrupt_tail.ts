/**
 * What the real CLI writes after an `interrupt`: the partial assistant message
 * (`aborted: true`), the interruption notice, the closed stream and an aborted result; or,
 * during a pending permission or a running tool (a subagent's too), the rejected tool use, the
 * subagents it stopped (killed) and `aborted_tools`.
 *
 * @module
 */

import { assistantMessage } from "../builders/assistant.ts";
import { abortedStreamEnd } from "../builders/stream_events.ts";
import { toolResult, userText } from "../builders/user.ts";
import { taskNotification, taskUpdated } from "../builders/task_frames.ts";
import type { Engine } from "./engine.ts";
import { sendResult } from "./turn_result.ts";
import type { TurnState } from "./turn_state.ts";

const REJECTED_TOOL_USE = "The user doesn't want to proceed with this tool use. The tool " +
  "use was rejected (eg. if it was a file edit, the new_string " +
  "was NOT written to the file). STOP what you are doing and wait " +
  "for the user to tell you how to proceed.";

/** What the rejection adds when the tool was stopped while it ran (2.1.328, 2.1.332). */
const STOPPED_WHILE_RUNNING = " Correction to the text above: this call was stopped while " +
  "running, not refused before it ran. It may have run in part or in full, and its changes may " +
  "have been written. No permission prompt was involved. Work it started elsewhere (a remote " +
  "command, a background process) may still be running, so check before starting the same " +
  "work again. The instruction to stop and wait still stands.";

/** Writes the frames that close an interrupted turn, then its result. */
export async function interruptTail(engine: Engine, turn: TurnState): Promise<void> {
  const ctx = engine.ctx;
  const progress = turn.streaming;
  turn.streaming = undefined;
  const rejected = turn.rejectedTool;
  if (rejected) {
    turn.userMessages += 2; // the rejected tool's result and the notice
    await engine.send({
      frame: toolResult(ctx, rejected.id, {
        content: REJECTED_TOOL_USE + (turn.rejectedRunning ? STOPPED_WHILE_RUNNING : ""),
        isError: true,
        toolUseResult: "User rejected tool use",
        permissionDecision: null,
        extra: { tool_result_meta: [{ id: rejected.id, non_execution_kind: "user-rejected" }] },
      }),
      delay: 0,
    });
    // the subagents it stopped: killed, their notification `stopped` with no usage
    for (const task of turn.stoppedTasks ?? []) {
      const patch = { status: "killed" as const, end_time: ctx.now() };
      await engine.send({ frame: taskUpdated(ctx, task, { patch }), delay: 0 });
      const notice = taskNotification(ctx, task, { status: "stopped", summary: task.description });
      delete (notice as { usage?: unknown }).usage;
      await engine.send({ frame: notice, delay: 0 });
    }
    await engine.send({
      frame: userText(ctx, "[Request interrupted by user for tool use]"),
      delay: 0,
    });
    await sendResult(engine, turn, {
      subtype: "error_during_execution",
      errors: ["[ede_diagnostic] result_type=user last_content_type=n/a stop_reason=tool_use"],
      terminalReason: "aborted_tools",
      stopReason: "tool_use",
    });
    return;
  }
  turn.userMessages++; // the notice
  if (progress && progress.partial && progress.blockIndex >= 0) {
    const message = progress.frames[0];
    const partialText = progress.text;
    if (partialText !== "") {
      const [frame] = assistantMessage(ctx, partialText, {
        messageId: message.message.id,
        requestId: typeof message.request_id === "string" ? message.request_id : undefined,
        aborted: true,
      });
      await engine.send({ frame, delay: 0 });
    }
    await engine.send({ frame: userText(ctx, "[Request interrupted by user]"), delay: 0 });
    const tail = abortedStreamEnd(ctx, message, {
      openBlockIndex: progress.blockIndex,
      abandonedFromIndex: progress.blockIndex + 1,
    });
    for (const frame of tail) await engine.send({ frame, delay: 0 });
  } else {
    await engine.send({ frame: userText(ctx, "[Request interrupted by user]"), delay: 0 });
  }
  await sendResult(engine, turn, {
    subtype: "error_during_execution",
    errors: ["[ede_diagnostic] result_type=user last_content_type=n/a stop_reason=null"],
    terminalReason: "aborted_streaming",
    stopReason: null,
  }, { apiCalls: [] });
}
