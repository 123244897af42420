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
// Captured now, so fake timers installed later do not replace them. On Deno the timer globals
// are lazy getters whose first call loads the timers (about 9 ms of start-up) and
// `setImmediate`'s loads the Node compatibility layer (about 15 ms): the getters are kept and
// called on first use instead. Assigning a fake to the global does not change what the kept
// getter returns.
function hostGlobal<T extends (...args: never[]) => unknown>(name: string): () => T | undefined {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, name);
  let value: T | undefined | null = descriptor?.get
    ? null
    : (g as unknown as Record<string, T | undefined>)[name]?.bind(globalThis) as T | undefined;
  return () => {
    if (value === null) {
      value = (descriptor?.get?.call(globalThis) as T | undefined)?.bind(globalThis) as
        | T
        | undefined;
    }
    return value;
  };
}
const hostSetTimeout = hostGlobal<SetTimer>("setTimeout");
const hostClearTimeout = hostGlobal<ClearTimer>("clearTimeout");
const setImmediateOfHost = hostGlobal<(fn: () => void) => unknown>("setImmediate");
const perf = g.performance;
const hostNow: () => number = perf && typeof perf.now === "function"
  ? perf.now.bind(perf)
  : Date.now;

/** Milliseconds on the host's monotonic clock (not faked by `FakeTime` or sinon). */
export function realNow(): number {
  return hostNow();
}

/** A real-time timer: calls `fn` after `ms` milliseconds; returns its canceller. */
export type RealTimer = (fn: () => void, ms: number) => () => void;

let timerOfProcess: RealTimer | undefined;

/**
 * Makes {@linkcode realTimeout} arm its timers with `timer` from now on, for the whole
 * process: the fake binary's own process on Deno, where the global `setTimeout` is Node's and
 * its first use costs about 8 ms of start-up. Internal; the library never calls it.
 */
export function useRealTimer(timer: RealTimer): void {
  timerOfProcess = timer;
}

/** A real-time timer: calls `fn` after `ms` real milliseconds; returns its canceller. */
export function realTimeout(fn: () => void, ms: number): () => void {
  if (timerOfProcess) return timerOfProcess(fn, ms);
  const handle = hostSetTimeout()!(fn, ms);
  return () => hostClearTimeout()!(handle);
}

/** A settled promise: its reactions are microtasks that fake timers cannot hold back. */
const SETTLED: Promise<void> = Promise.resolve();

/**
 * Runs `fn` on a microtask, as `queueMicrotask` does, but on one that fake timers cannot hold
 * back: jest's fake timers (its defaults) replace `queueMicrotask` with one that runs only when
 * the test advances the fake clock. What `fn` throws is thrown on a real timer, as an
 * uncaught exception (as from `queueMicrotask`), not as an unhandled rejection.
 */
export function realMicrotask(fn: () => void): void {
  SETTLED.then(fn).catch((error) =>
    realTimeout(() => {
      throw error;
    }, 0)
  );
}

/** Resolves on a later turn of the event loop (a macrotask), so timers and I/O run. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise<void>((resolve) => {
    const immediate = setImmediateOfHost();
    if (immediate) immediate(resolve);
    else hostSetTimeout()!(resolve, 0);
  });
}

/**
 * How many units of work (lines written, virtual sleeps resolved, chunks paced) may run on
 * microtasks before the event loop gets a turn. A count, not a time: what runs between two
 * turns of the loop is the same on a fast machine and on a slow or loaded one (a time budget
 * yielded more often the slower the machine, which held output back and slowed the mock
 * most where it was already slow). 256 lines of stream-json are well under a millisecond of
 * work on a desktop machine, so the app's timers still run while output never ends.
 */
export const YIELD_EVERY = 256;

/**
 * Counts work done without giving the event loop a turn. `due()` says when the count is
 * spent (every {@linkcode YIELD_EVERY}th call); then await {@linkcode yieldToEventLoop}.
 */
export class LoopBudget {
  #every: number;
  #left: number;

  /** A budget of `every` units of work between yields. */
  constructor(every: number = YIELD_EVERY) {
    if (!Number.isInteger(every) || every < 1) {
      throw new RangeError(
        `Cannot create LoopBudget: 'every' must be a positive integer, got ${every}`,
      );
    }
    this.#every = every;
    this.#left = every;
  }

  /** Counts one unit of work; whether it is time to yield now. */
  due(): boolean {
    if (--this.#left > 0) return false;
    this.#left = this.#every;
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
