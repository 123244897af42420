// A stand-in for @std/testing's FakeTime, which cannot be installed here: JSR is out of reach
// and no npm package carries it (issue 21 item 10 looked for one). It follows FakeTime's
// documented behaviour where the SDK and the mock meet it: it replaces Date.now, setTimeout,
// clearTimeout, setInterval, clearInterval and AbortSignal.timeout on globalThis; its timer ids
// are plain numbers (no unref); it floors every delay to whole milliseconds (an interval to at
// least 1); it passes setTimeout's extra arguments to the callback; and a timer armed during a
// tick for "now" runs inside that same tick.

interface Timer {
  id: number;
  at: number;
  fn: (...args: unknown[]) => void;
  args: unknown[];
  every?: number;
}

type Saved = Record<"setTimeout" | "clearTimeout" | "setInterval" | "clearInterval", unknown> & {
  now: () => number;
  timeout: (ms: number) => AbortSignal;
};

export class FlooringFakeTime {
  now: number;
  /** setTimeout calls so far (to bound re-arming). */
  armed = 0;
  #timers: Timer[] = [];
  #nextId = 1;
  #saved: Saved;

  constructor(start = 0) {
    this.now = start;
    const g = globalThis as unknown as Record<string, unknown>;
    this.#saved = {
      setTimeout: g.setTimeout,
      clearTimeout: g.clearTimeout,
      setInterval: g.setInterval,
      clearInterval: g.clearInterval,
      now: Date.now,
      timeout: AbortSignal.timeout,
    };
    const arm = (every: boolean) => (fn: () => void, ms = 0, ...args: unknown[]) => {
      this.armed++;
      const id = this.#nextId++;
      const delay = Math.max(every ? 1 : 0, Math.floor(Number(ms) || 0));
      this.#timers.push({ id, at: this.now + delay, fn, args, ...(every ? { every: delay } : {}) });
      return id;
    };
    const clear = (id: unknown) => {
      this.#timers = this.#timers.filter((t) => t.id !== id);
    };
    g.setTimeout = arm(false);
    g.setInterval = arm(true);
    g.clearTimeout = clear;
    g.clearInterval = clear;
    Date.now = () => this.now;
    AbortSignal.timeout = (ms: number) => {
      const controller = new AbortController();
      (g.setTimeout as (fn: () => void, ms: number) => number)(
        () => controller.abort(new DOMException("Signal timed out.", "TimeoutError")),
        ms,
      );
      return controller.signal;
    };
  }

  /** Runs every timer due up to now + ms, in order; timers armed for "now" run in the same tick. */
  tick(ms: number, limit = 10_000): void {
    const end = this.now + ms;
    let runs = 0;
    while (true) {
      this.#timers.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = this.#timers[0];
      if (!next || next.at > end) break;
      if (++runs > limit) {
        throw new Error(`FlooringFakeTime: more than ${limit} timers in one tick`);
      }
      this.#timers.shift();
      this.now = Math.max(this.now, next.at);
      if (next.every !== undefined) this.#timers.push({ ...next, at: next.at + next.every });
      next.fn(...next.args);
    }
    this.now = end;
  }

  /** Lets promise callbacks run, then ticks ms. */
  async tickAsync(ms: number): Promise<void> {
    for (let i = 0; i < 5; i++) await Promise.resolve();
    this.tick(ms);
    for (let i = 0; i < 5; i++) await Promise.resolve();
  }

  /** Jumps to the next timer and runs it (and what is due with it); false when none. */
  async nextAsync(): Promise<boolean> {
    for (let i = 0; i < 5; i++) await Promise.resolve();
    this.#timers.sort((a, b) => a.at - b.at || a.id - b.id);
    const next = this.#timers[0];
    if (!next) return false;
    this.tick(Math.max(0, next.at - this.now));
    return true;
  }

  get pending(): number {
    return this.#timers.length;
  }

  restore(): void {
    const g = globalThis as unknown as Record<string, unknown>;
    g.setTimeout = this.#saved.setTimeout;
    g.clearTimeout = this.#saved.clearTimeout;
    g.setInterval = this.#saved.setInterval;
    g.clearInterval = this.#saved.clearInterval;
    Date.now = this.#saved.now;
    AbortSignal.timeout = this.#saved.timeout;
  }

  [Symbol.dispose](): void {
    this.restore();
  }
}
