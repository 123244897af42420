/**
 * The predefined scenario `interrupt_mid_stream`: a long streamed answer to interrupt.
 *
 * @module
 */

import { any } from "../matcher.ts";
import type { Scenario } from "../scenario.ts";
import { ScenarioBuilder, type ScenarioOptions } from "../scenario_builder.ts";

/** How many lines the story has. */
const LINES = 200;

/**
 * `interrupt_mid_stream`: every prompt (as recorded: "Write a long story.") gets a long
 * answer, `Line 1 of the story. Line 2 of the story. …` up to `Line 200 of the story.`,
 * streamed one line per `text_delta` (as in recording `cp_interrupt_partial`) and paced
 * `realistic` (about 10–18 ms a delta on the system clock; no real time on the default
 * virtual clock). With `includePartialMessages`, an app that calls `q.interrupt()` after a
 * few deltas gets what the real CLI writes then: `{still_queued: []}`, the partial
 * assistant message (the lines streamed so far, `aborted: true`), `[Request interrupted by
 * user]`, the closed stream (`content_block_stop`, `message_delta`, `message_stop` with
 * `abandoned_blocks`) and an `error_during_execution` result (`terminal_reason:
 * "aborted_streaming"`); the SDK throws and the process exits 1. Not interrupted, the whole
 * story arrives and the turn succeeds.
 *
 * Where the interrupt lands: on the virtual clock the story is written without waiting, so
 * some lines after the delta the app reacted to, depending on the event loop; on the
 * system clock under fake timers (the recipe in the README's "Time") at the same line every
 * run, the delta already paced when the app sent it being the last. Through the fake
 * binary, whose virtual clock writes the story at once, run it with
 * `CLAUDE_MOCK_TIMING=realistic` (the system clock) to interrupt it mid-stream. `options`
 * override the scenario's own.
 *
 * @example The story's streaming
 * ```ts
 * import type { Step } from "@x/claude-mock";
 * import { interruptMidStream } from "./interrupt_mid_stream.ts";
 * const [step] = interruptMidStream().exchanges[0].steps as readonly Step[];
 * if (step.kind === "message") console.log(step.chunks?.[0].length, step.chunks?.[0][1]);
 * // 200 Line 2 of the story.
 * ```
 */
export function interruptMidStream(options: ScenarioOptions = {}): Scenario {
  // one line a delta, as recorded (each with its trailing space, but the last)
  const lines = Array.from({ length: LINES }, (_, i) => `Line ${i + 1} of the story.`)
    .map((line, i) => (i < LINES - 1 ? `${line} ` : line));
  return new ScenarioBuilder({ name: "interrupt_mid_stream", ...options })
    .on(any()).repeat().timing("realistic")
    .respond(lines.join(""), { chunks: [lines] })
    .build();
}
