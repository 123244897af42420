/**
 * {@linkcode CrashPoint}: where a scenario's process crashes, said by meaning (after the
 * nth assistant message, before a tool result, k stream events into a message) or by the
 * raw count of frames written.
 *
 * @module
 */

/**
 * Where the process crashes (`crashAfter` of a scenario): exits with `code` (default 1,
 * from 1 to 255), delivering what was already written. Give exactly one placement, except
 * that `midStream` combines with `assistantMessages`:
 *
 * - `frames: n`: right after n frames of any kind (the `initialize` answer, state changes
 *   and `system/init` count).
 * - `assistantMessages: n`: right after the nth assistant message of the session (one API
 *   response: all its frames, with stream events up to its `message_stop`), before
 *   anything that follows it (its permission requests and tool results too). Synthetic
 *   API-error messages and a subagent's messages do not count.
 * - `beforeToolResult: n` (`true`: 1): just before the nth tool result of the session
 *   (the tool ran, its result never comes).
 * - `midStream: k`: after k stream events (`message_start` is the first) of the next
 *   assistant message: the first one, or the one after `assistantMessages` messages. A
 *   message that does not stream (no partial messages) crashes before its first frame; a
 *   message with k stream events or fewer crashes at its end.
 *
 * A point the session never reaches does not crash it (`assertScenarioFinished` names
 * it). An exchange step `.crash()` places a crash inside one exchange instead.
 *
 * @example Crashing after the second assistant message
 * ```ts
 * import { ScenarioBuilder } from "@x/claude-mock";
 * const scenario = new ScenarioBuilder()
 *   .on("go").respond("One.").respond("Two.").respond("Never sent.")
 *   .crashAfter({ assistantMessages: 2, code: 2 })
 *   .build();
 * console.log(scenario.crashAfter); // { assistantMessages: 2, code: 2 }
 * ```
 */
export interface CrashPoint {
  /** Crash right after this many frames were written. */
  frames?: number;
  /** Crash right after the nth assistant message (API response) of the session. */
  assistantMessages?: number;
  /** Crash just before the nth tool result of the session (`true`: the first). */
  beforeToolResult?: true | number;
  /** Crash after this many stream events of the next assistant message. */
  midStream?: number;
  /** The exit code (default 1, from 1 to 255). */
  code?: number;
}
