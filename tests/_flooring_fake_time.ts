// A fake clock that behaves as @std/testing's FakeTime does where it matters to deadlines:
// it replaces Date.now, setTimeout and clearTimeout on globalThis, floors every delay to
// whole milliseconds, and runs a timer armed during a tick for "now" inside that same tick.
// @std/testing cannot be installed here (no JSR), so tests use this stand-in.

interface Timer {
  id: number;
  at: number;
  fn: () => void;
}

export class FlooringFakeTime {
  now: number;
  /** setTimeout calls so far (to bound re-arming). */
  armed = 0;
  #timers: Timer[] = [];
  #nextId = 1;
  #saved: { setTimeout: unknown; clearTimeout: unknown; now: () => number };

  constructor(start = 0) {
    this.now = start;
    const g = globalThis as unknown as Record<string, unknown>;
    this.#saved = {
      setTimeout: g.setTimeout,
      clearTimeout: g.clearTimeout,
      now: Date.now,
    };
    g.setTimeout = (fn: () => void, ms = 0) => {
      this.armed++;
      const id = this.#nextId++;
      const delay = Math.max(0, Math.floor(Number(ms) || 0));
      this.#timers.push({ id, at: this.now + delay, fn });
      return id;
    };
    g.clearTimeout = (id: number) => {
      this.#timers = this.#timers.filter((t) => t.id !== id);
    };
    Date.now = () => this.now;
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
      next.fn();
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
    Date.now = this.#saved.now;
  }
}
