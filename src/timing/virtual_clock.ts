/**
 * A clock that never waits: delays move a virtual "now" forward at once, so an hour of
 * scripted delays runs in microseconds, with the same timestamps every run.
 *
 * @module
 */

import type { Clock, WaitOptions } from "./clock.ts";
import { checkTime, LoopBudget, yieldToEventLoop } from "./real_time.ts";

/** The virtual epoch: where a virtual clock starts (2026-01-01T00:00:00.000Z). */
export const VIRTUAL_EPOCH: number = Date.UTC(2026, 0, 1);

/** Options for {@linkcode VirtualClock}. */
export interface VirtualClockOptions {
  /** Where virtual time starts, in ms since the epoch (default 2026-01-01T00:00:00Z). */
  start?: number;
}

/** Promise reactions are microtasks that fake timers cannot replace (unlike `queueMicrotask`). */
const RESOLVED: Promise<void> = Promise.resolve();

interface Sleeper {
  deadline: number;
  resolve: () => void;
}

/**
 * Virtual time for a session. `sleep`/`sleepUntil` resolve in deadline order and move
 * `now()` forward without waiting; no timer is involved, so fake timers (`FakeTime`,
 * `@sinonjs/fake-timers`) do not affect it. Long runs of sleeps give the event loop a
 * turn every few hundred wakes, so the app's own timers keep firing.
 *
 * @example An hour in no time
 * ```ts
 * import { VirtualClock } from "@x/claude-mock";
 * const clock = new VirtualClock({ start: 0 });
 * await clock.sleep(60 * 60 * 1000);
 * console.log(clock.now()); // 3600000
 * ```
 */
export class VirtualClock implements Clock {
  /** Always `virtual`. */
  readonly kind: "virtual" = "virtual";
  #now: number;
  #sleepers: Sleeper[] = [];
  #draining = false;
  #budget = new LoopBudget();

  /** Creates a virtual clock. */
  constructor(options: VirtualClockOptions = {}) {
    this.#now = options.start ?? VIRTUAL_EPOCH;
    if (!Number.isFinite(this.#now)) {
      throw new RangeError(`Cannot create VirtualClock: 'start' must be finite, got ${this.#now}`);
    }
  }

  /** The virtual time in ms since the epoch. */
  now(): number {
    return this.#now;
  }

  /** Moves virtual time forward by `ms` without waiting for anything. */
  advance(ms: number): void {
    if (!Number.isFinite(ms)) {
      throw new RangeError(`Cannot advance VirtualClock: 'ms' must be finite, got ${ms}`);
    }
    if (ms > 0) this.#now += ms;
  }

  /** Resolves once virtual time reaches `deadline` (moving it there). */
  sleepUntil(deadline: number, options: WaitOptions = {}): Promise<void> {
    checkTime(deadline, "VirtualClock.sleepUntil");
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    if (deadline <= this.#now && this.#sleepers.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const sleeper: Sleeper = { deadline, resolve };
      const signal = options.signal;
      if (signal) {
        const onAbort = () => {
          const i = this.#sleepers.indexOf(sleeper);
          if (i >= 0) this.#sleepers.splice(i, 1);
          reject(signal.reason);
        };
        signal.addEventListener("abort", onAbort, { once: true });
        sleeper.resolve = () => {
          signal.removeEventListener("abort", onAbort);
          resolve();
        };
      }
      this.#insert(sleeper);
      this.#drain();
    });
  }

  /** Resolves once virtual time has moved `ms` forward. */
  sleep(ms: number, options?: WaitOptions): Promise<void> {
    checkTime(ms, "VirtualClock.sleep");
    return this.sleepUntil(this.#now + Math.max(0, ms), options);
  }

  #insert(sleeper: Sleeper): void {
    const list = this.#sleepers;
    let i = list.length;
    while (i > 0 && list[i - 1].deadline > sleeper.deadline) i--;
    list.splice(i, 0, sleeper);
  }

  #drain(): void {
    if (this.#draining) return;
    this.#draining = true;
    const step = () => {
      this.#draining = false;
      const next = this.#sleepers.shift();
      if (!next) return;
      if (next.deadline > this.#now) this.#now = next.deadline;
      next.resolve();
      if (this.#sleepers.length > 0) this.#drain();
    };
    if (this.#budget.due()) yieldToEventLoop().then(step);
    else RESOLVED.then(step);
  }
}
