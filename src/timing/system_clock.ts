/**
 * A clock on real time, through the global timers looked up at call time, so
 * `@std/testing`'s `FakeTime` and `@sinonjs/fake-timers` drive it.
 *
 * @module
 */

import type { Clock, WaitOptions } from "./clock.ts";
import { checkTime } from "./real_time.ts";

type TimerFn = (fn: () => void, ms: number) => unknown;
type ClearFn = (handle: unknown) => void;

/**
 * Real time. `now()` is `Date.now()`; waits use `setTimeout` against an absolute deadline,
 * with the remaining time rounded up to whole milliseconds, so a timer that floors or
 * rounds delays (as `FakeTime` does) or fires early still converges on the deadline, and
 * delays never drift. Nothing is captured at module load: install fake timers before or
 * after creating it.
 *
 * @example Under fake timers
 * ```ts
 * import { SystemClock } from "@x/claude-mock";
 * const clock = new SystemClock();
 * const start = clock.now();
 * await clock.sleep(5);
 * if (clock.now() - start < 5) throw new Error("woke early");
 * ```
 */
export class SystemClock implements Clock {
  /** Always `system`. */
  readonly kind: "system" = "system";

  /** `Date.now()`, looked up at call time. */
  now(): number {
    return globalThis.Date.now();
  }

  /** Waits until `Date.now() >= deadline`. */
  sleepUntil(deadline: number, options: WaitOptions = {}): Promise<void> {
    checkTime(deadline, "SystemClock.sleepUntil");
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    if (this.now() >= deadline) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const signal = options.signal;
      let handle: unknown;
      let before = this.now();
      let stalls = 0;
      const onAbort = () => {
        (globalThis.clearTimeout as ClearFn)(handle);
        reject(signal!.reason);
      };
      const done = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const arm = () => {
        const now = this.now();
        const remaining = Math.ceil(deadline - now);
        if (remaining <= 0) return done();
        // A timer that fired while time stood still (a fake that runs timers without moving
        // its clock) would re-arm forever: after two such wake-ups the deadline counts as met.
        if (handle !== undefined && now <= before && ++stalls >= 2) return done();
        before = now;
        handle = (globalThis.setTimeout as TimerFn)(arm, remaining);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      arm();
    });
  }

  /** Waits `ms` milliseconds. */
  sleep(ms: number, options?: WaitOptions): Promise<void> {
    checkTime(ms, "SystemClock.sleep");
    return this.sleepUntil(this.now() + Math.max(0, ms), options);
  }
}
