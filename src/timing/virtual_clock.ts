/**
 * A clock that never waits: delays move a virtual "now" forward at once, so an hour of
 * scripted delays runs in microseconds, with the same timestamps every run.
 *
 * @module
 */

import type { Clock, WaitOptions } from "./clock.ts";

/** Options for {@linkcode VirtualClock}. */
export interface VirtualClockOptions {
  /** Where virtual time starts, in ms since the epoch (default 2026-01-01T00:00:00Z). */
  start?: number;
  /**
   * How many quiet event-loop turns a {@linkcode Clock.timeout} waits before virtual
   * time jumps to its deadline (default 20). Input ({@linkcode Clock.touch}) restarts
   * the count.
   */
  idleTurns?: number;
}

interface Sleeper {
  deadline: number;
  seq: number;
  resolve: () => void;
}

/**
 * Virtual time for a session. `sleep`/`sleepUntil` resolve in deadline order on the
 * microtask queue and move `now()` forward; `timeout` (a wait on the SDK) fires only after
 * the event loop has stayed quiet for a few turns, so an answer that is coming wins.
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
  #idleTurns: number;
  #sleepers: Sleeper[] = [];
  #seq = 0;
  #draining = false;
  #activity = 0;

  /** Creates a virtual clock. */
  constructor(options: VirtualClockOptions = {}) {
    this.#now = options.start ?? Date.UTC(2026, 0, 1);
    this.#idleTurns = options.idleTurns ?? 20;
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
    if (ms > 0) this.#now += ms;
  }

  /** Resolves (on a microtask) once virtual time reaches `deadline`. */
  sleepUntil(deadline: number, options: WaitOptions = {}): Promise<void> {
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    if (deadline <= this.#now && this.#sleepers.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const sleeper: Sleeper = { deadline, seq: this.#seq++, resolve };
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
    return this.sleepUntil(this.#now + Math.max(0, ms), options);
  }

  /**
   * Resolves after the event loop has been quiet for `idleTurns` turns (no `touch()`,
   * no sleeper pending), then moves virtual time to the deadline. Abort to cancel.
   */
  timeout(ms: number, options: WaitOptions = {}): Promise<void> {
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    const deadline = this.#now + Math.max(0, ms);
    return new Promise<void>((resolve, reject) => {
      const signal = options.signal;
      let handle: unknown;
      let quiet = 0;
      let seen = this.#activity;
      const finish = () => {
        signal?.removeEventListener("abort", onAbort);
      };
      const onAbort = () => {
        (globalThis.clearTimeout as (id: unknown) => void)(handle);
        finish();
        reject(signal!.reason);
      };
      const turn = () => {
        if (this.#activity !== seen || this.#sleepers.length > 0) {
          seen = this.#activity;
          quiet = 0;
        } else {
          quiet++;
        }
        if (quiet >= this.#idleTurns) {
          finish();
          if (deadline > this.#now) this.#now = deadline;
          resolve();
          return;
        }
        handle = globalThis.setTimeout(turn, 0);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      handle = globalThis.setTimeout(turn, 0);
    });
  }

  /** Records input activity: pending timeouts start counting quiet turns again. */
  touch(): void {
    this.#activity++;
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
    queueMicrotask(() => {
      this.#draining = false;
      const next = this.#sleepers.shift();
      if (!next) return;
      if (next.deadline > this.#now) this.#now = next.deadline;
      next.resolve();
      if (this.#sleepers.length > 0) this.#drain();
    });
  }
}
