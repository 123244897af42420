/**
 * Real time that fake timers cannot touch: the host's timers and monotonic clock, taken
 * when this module loads. The engine waits on it for the client (a control answer, a
 * write), which is real work of unknown length, and yields to the event loop on it so
 * long output never starves the app's own timers.
 *
 * @module
 */

type SetTimer = (fn: () => void, ms?: number) => unknown;
type ClearTimer = (handle: unknown) => void;

const g = globalThis as unknown as {
  setTimeout: SetTimer;
  clearTimeout: ClearTimer;
  setImmediate?: (fn: () => void) => unknown;
  performance?: { now(): number };
};
const hostSetTimeout: SetTimer = g.setTimeout.bind(globalThis);
const hostClearTimeout: ClearTimer = g.clearTimeout.bind(globalThis);
// Captured now, so fake timers installed later do not replace it. On Deno `setImmediate` is a
// lazy getter that loads the Node compatibility layer (about 15 ms of start-up): the getter
// is kept and called on the first yield instead.
const immediateDescriptor = Object.getOwnPropertyDescriptor(globalThis, "setImmediate");
let hostSetImmediate: ((fn: () => void) => unknown) | undefined | null = immediateDescriptor?.get
  ? null
  : g.setImmediate?.bind(globalThis);
function setImmediateOfHost(): ((fn: () => void) => unknown) | undefined {
  if (hostSetImmediate === null) {
    const real = immediateDescriptor?.get?.call(globalThis) as
      | ((fn: () => void) => unknown)
      | undefined;
    hostSetImmediate = real?.bind(globalThis);
  }
  return hostSetImmediate;
}
const perf = g.performance;
const hostNow: () => number = perf && typeof perf.now === "function"
  ? perf.now.bind(perf)
  : Date.now;

/** Milliseconds on the host's monotonic clock (not faked by `FakeTime` or sinon). */
export function realNow(): number {
  return hostNow();
}

/** A real-time timer: calls `fn` after `ms` real milliseconds; returns its canceller. */
export function realTimeout(fn: () => void, ms: number): () => void {
  const handle = hostSetTimeout(fn, ms);
  return () => hostClearTimeout(handle);
}

/** Resolves on a later turn of the event loop (a macrotask), so timers and I/O run. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise<void>((resolve) => {
    const immediate = setImmediateOfHost();
    if (immediate) immediate(resolve);
    else hostSetTimeout(resolve, 0);
  });
}

/** How much real time work may run on microtasks before it yields (ms). */
export const YIELD_EVERY_MS = 4;

/**
 * Tracks how long work has run without giving the event loop a turn. `due()` is cheap
 * (it reads the clock every 16th call); when it says so, await {@linkcode yieldToEventLoop}.
 */
export class LoopBudget {
  #since = hostNow();
  #calls = 0;

  /** Whether the work has run long enough that it should yield now. */
  due(): boolean {
    if ((++this.#calls & 15) !== 0) return false;
    const now = hostNow();
    if (now - this.#since < YIELD_EVERY_MS) return false;
    this.#since = now;
    return true;
  }

  /** A yield when one is due, else `undefined` (stay synchronous). */
  maybeYield(): Promise<void> | undefined {
    return this.due() ? yieldToEventLoop() : undefined;
  }
}

/** Throws a RangeError for a time (a deadline or a delay) that is not a finite number. */
export function checkTime(value: number, where: string): void {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new RangeError(`Cannot wait in ${where}: the time must be a finite number, got ${value}`);
  }
}
