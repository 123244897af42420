/**
 * Timer ids the Agent SDK can `unref()` under fake timers. `@std/testing`'s `FakeTime` (and
 * other fakes) return plain numbers from `setTimeout`; the SDK arms its timers as
 * `setTimeout(...).unref()` (the grace period after an app aborts a query), which then throws
 * `unref is not a function`. While installed, the global timer functions are wrapped: a
 * number id comes back as a {@linkcode FakeTimerId} (`unref`, `ref`, `hasRef`, `refresh`, and
 * the number itself as its primitive value), and `clearTimeout` / `clearInterval` take either.
 * Whatever the fake returns that is not a number is passed through. Internal.
 *
 * @module
 */

/** A fake timer's number id, with the methods Node's `Timeout` has. */
export class FakeTimerId {
  /** The fake's id. */
  readonly id: number;
  /** Wraps `id`. */
  constructor(id: number) {
    this.id = id;
  }
  /** Does nothing (a fake timer keeps no process alive). */
  unref(): this {
    return this;
  }
  /** Does nothing. */
  ref(): this {
    return this;
  }
  /** Always `true`. */
  hasRef(): boolean {
    return true;
  }
  /** Does nothing (a fake cannot re-arm through its id). */
  refresh(): this {
    return this;
  }
  /** The id, so `+timer` and template strings give the number. */
  [Symbol.toPrimitive](): number {
    return this.id;
  }
}

type Timers = Record<"setTimeout" | "setInterval" | "clearTimeout" | "clearInterval", unknown>;
type Fn = (...args: unknown[]) => unknown;

let installed = 0;
let saved: Timers | undefined;
let wrappers: Timers | undefined;

/**
 * Wraps the global timer functions installed now (the fake's) so their ids can be
 * `unref()`ed; returns the function that puts them back (nested installs share one wrap).
 * Functions another fake installed in the meantime are left alone.
 */
export function useFakeTimerIds(): () => void {
  const g = globalThis as unknown as Timers;
  if (installed++ === 0) {
    const original: Timers = {
      setTimeout: g.setTimeout,
      setInterval: g.setInterval,
      clearTimeout: g.clearTimeout,
      clearInterval: g.clearInterval,
    };
    const arm = (set: unknown) => (...args: unknown[]) => {
      const id = (set as Fn)(...args);
      return typeof id === "number" ? new FakeTimerId(id) : id;
    };
    const clear = (unset: unknown) => (id: unknown) =>
      (unset as Fn)(id instanceof FakeTimerId ? id.id : id);
    saved = original;
    wrappers = {
      setTimeout: arm(original.setTimeout),
      setInterval: arm(original.setInterval),
      clearTimeout: clear(original.clearTimeout),
      clearInterval: clear(original.clearInterval),
    };
    Object.assign(g, wrappers);
  }
  let done = false;
  return () => {
    if (done) return;
    done = true;
    if (--installed > 0) return;
    for (const name of Object.keys(wrappers!) as (keyof Timers)[]) {
      // put back only what is still ours (the fake may have been restored already)
      if (g[name] === wrappers![name]) g[name] = saved![name];
    }
    saved = wrappers = undefined;
  };
}
