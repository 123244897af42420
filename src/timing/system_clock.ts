/**
 * A clock on real time, through the global timers looked up at call time, so
 * `@std/testing`'s `FakeTime` and `@sinonjs/fake-timers` drive it.
 *
 * @module
 */

import type { Clock, WaitOptions } from "./clock.ts";

type TimerFn = (fn: () => void, ms: number) => unknown;
type ClearFn = (handle: unknown) => void;

/**
 * Real time. `now()` is `Date.now()`; waits use `setTimeout` against an absolute deadline
 * and re-arm when a coarse or fake tick fires early, so delays never drift. Nothing is
 * captured at module load: install fake timers before or after creating it.
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
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    if (this.now() >= deadline) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const signal = options.signal;
      let handle: unknown;
      const onAbort = () => {
        (globalThis.clearTimeout as ClearFn)(handle);
        reject(signal!.reason);
      };
      const arm = () => {
        const remaining = deadline - this.now();
        if (remaining <= 0) {
          signal?.removeEventListener("abort", onAbort);
          resolve();
          return;
        }
        handle = (globalThis.setTimeout as TimerFn)(arm, remaining);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      arm();
    });
  }

  /** Waits `ms` milliseconds. */
  sleep(ms: number, options?: WaitOptions): Promise<void> {
    return this.sleepUntil(this.now() + Math.max(0, ms), options);
  }

  /** Waits `ms` milliseconds (the same as `sleep` on real time). */
  timeout(ms: number, options?: WaitOptions): Promise<void> {
    return this.sleep(ms, options);
  }

  /** Does nothing on real time. */
  touch(): void {}
}
