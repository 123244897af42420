/**
 * A tool use that runs until the client interrupts the turn (`untilInterrupt`): the real CLI's
 * long command (`sleep 5`) that the app stops with the SDK's `interrupt()`. Waiting for the
 * client is real time, bounded like a control answer.
 *
 * @module
 */

import type { ScriptedToolCall } from "../scenario/step.ts";
import { realTimeout } from "../timing/real_time.ts";
import type { Engine } from "./engine.ts";
import { describeTurn } from "./turn_result.ts";
import { Interrupted, TurnFailure, type TurnState } from "./turn_state.ts";

/**
 * Waits until the turn is aborted, then throws its reason; an interrupt marks `call` as the
 * tool use stopped while it ran (its result is the CLI's rejection, written by the interrupt
 * tail). Past the session's control timeout (real time) the turn fails, naming the tool.
 */
export async function runUntilInterrupt(
  engine: Engine,
  turn: TurnState,
  call: ScriptedToolCall,
  options: { subagent?: boolean } = {},
): Promise<never> {
  const ms = engine.control.timeoutMs;
  let stopListening = () => {};
  let cancelTimer = () => {};
  try {
    await new Promise<void>((_resolve, reject) => {
      if (turn.abort.aborted) return reject(turn.abort.reason);
      stopListening = turn.abort.onAbort(reject);
      cancelTimer = realTimeout(() =>
        reject(
          new TurnFailure(
            `claude-mock: ${describeTurn(engine, turn)}: ${
              options.subagent ? "a subagent's" : "the"
            } ${call.block.name} tool use (${call.block.id}) runs until the app interrupts the session (untilInterrupt), but no interrupt came within ${ms} ms of real time`,
          ),
        ), ms);
    });
  } catch (error) {
    if (error instanceof Interrupted && !options.subagent) {
      turn.rejectedTool = call.block;
      turn.rejectedRunning = true;
    }
    throw error;
  } finally {
    stopListening();
    cancelTimer();
  }
  throw new TypeError("unreachable: the wait only ends by rejecting");
}
