/**
 * The `Clock` a session runs on: where "now" comes from and how it waits.
 *
 * @module
 */

/** Options for a wait on a {@linkcode Clock}. */
export interface WaitOptions {
  /** Aborting rejects the wait with the signal's reason and clears its timer. */
  signal?: AbortSignal;
}

/**
 * Scripted time for a session: pacing, scripted delays, timestamps and durations. Two
 * implementations ship: {@linkcode SystemClock} (real time through the global timers, so
 * `FakeTime` and `@sinonjs/fake-timers` control it) and {@linkcode VirtualClock} (instant:
 * delays move a virtual now forward without waiting). Waiting for the client (a control
 * answer, a write) is not scripted time and never runs on a `Clock`: it is real time,
 * bounded by the session's `controlTimeoutMs`.
 *
 * @example A custom wait on any clock
 * ```ts
 * import { type Clock, VirtualClock } from "@x/claude-mock";
 * async function twice(clock: Clock): Promise<number> {
 *   const start = clock.now();
 *   await clock.sleep(1000);
 *   await clock.sleep(1000);
 *   return clock.now() - start;
 * }
 * console.log(await twice(new VirtualClock())); // 2000
 * ```
 */
export interface Clock {
  /** `virtual` or `system`. */
  readonly kind: "virtual" | "system";
  /** Milliseconds since the Unix epoch on this clock. */
  now(): number;
  /**
   * Waits until `deadline` (ms since the epoch on this clock). The session's own
   * delays (pacing, scripted pauses) use this: on a virtual clock it returns at once,
   * with `now()` moved to the deadline.
   */
  sleepUntil(deadline: number, options?: WaitOptions): Promise<void>;
  /** Waits `ms` milliseconds: `sleepUntil(now() + ms)`. */
  sleep(ms: number, options?: WaitOptions): Promise<void>;
}
