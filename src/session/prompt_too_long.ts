/**
 * A prompt too long for the model's context, as the real CLI 2.1.328 answers it (in print
 * mode): no API call; it tries to compact, cannot
 * (`too_few_groups`), writes a synthetic assistant message "Prompt is too long" and a result
 * with `is_error: true` and `terminal_reason: "blocking_limit"` (the process then exits 1).
 *
 * @module
 */

import { apiFailureMessage } from "../builders/api_error_message.ts";
import { systemStatus } from "../builders/system.ts";
import type { Engine } from "./engine.ts";
import { sendResult } from "./turn_result.ts";
import type { TurnState } from "./turn_state.ts";

/**
 * The longest prompt, in characters, the real CLI 2.1.328 sends with its default model
 * (claude-opus-5-5, a 1,000,000-token context): 2,921,002 characters went to the API,
 * 2,921,003 were refused (found by bisection against the real binary). The real limit
 * follows the model's context window and the session's system prompt and tools.
 */
const PROMPT_CHARS_LIMIT = 2_921_002;

/** The text of the synthetic message and of the result. */
const TOO_LONG = "Prompt is too long";

/** Whether `text` is too long to send, as the real CLI decides before any API call. */
export function promptTooLong(text: string): boolean {
  return text.length > PROMPT_CHARS_LIMIT;
}

/** Ends the turn as the real CLI ends a prompt too long for the context. */
export async function runPromptTooLong(engine: Engine, turn: TurnState): Promise<void> {
  const ctx = engine.ctx;
  const { session_id, uuid, ...status } = systemStatus(ctx, "compacting");
  // as the real CLI 2.1.328: the compaction it attempts reports no output, then fails
  await engine.send({
    frame: { ...status, compact_output_chars: 0, session_id, uuid },
    delay: 0,
  });
  await engine.send({
    frame: systemStatus(ctx, null, { compactResult: "failed", compactError: "too_few_groups" }),
    delay: 0,
  });
  await engine.send({
    frame: apiFailureMessage(ctx, { text: TOO_LONG, error: "invalid_request" }),
    delay: 0,
  });
  await sendResult(engine, turn, {
    subtype: "success",
    result: TOO_LONG,
    terminalReason: "blocking_limit",
    stopReason: "stop_sequence",
  }, { apiFailure: {}, apiCalls: [], numTurns: 1, durationApiMs: 0 });
  turn.stopped = true;
}
