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

type Name = "setTimeout" | "setInterval" | "clearTimeout" | "clearInterval";
type Fn = (...args: unknown[]) => unknown;

const NAMES: readonly Name[] = ["setTimeout", "setInterval", "clearTimeout", "clearInterval"];

/** One install: what each global was, and the function a fake last assigned to it. */
interface Install {
  /** The property as it was (Deno's timer globals are lazy accessors until assigned). */
  descriptors: Record<Name, PropertyDescriptor | undefined>;
  /** The value the global had when the wrap went on. */
  before: Record<Name, unknown>;
  /** The function calls go to: the fake's, or whatever was assigned since. */
  current: Record<Name, unknown>;
  /** The accessors installed on `globalThis`. */
  accessors: Record<Name, { get(): unknown; set(value: unknown): void }>;
}

let installed = 0;
let active: Install | undefined;

/**
 * Wraps the global timer functions so the ids of a fake's timers can be `unref()`ed; returns
 * the function that takes the wrap off (nested installs share one wrap).
 *
 * The wrap is an accessor on `globalThis`, not a replaced value: a fake that assigns its
 * functions again while the wrap is on (`@std/testing`'s `FakeTime` does it on every
 * `nextAsync()`, `tickAsync()` and `delay()`, through `FakeTime.restoreFor`) only changes what
 * the wrapper calls. Taking the wrap off leaves the function assigned last (the original
 * property itself when nothing was assigned); a wrap that someone redefined is left alone.
 */
export function useFakeTimerIds(): () => void {
  if (installed++ === 0) active = install();
  let done = false;
  return () => {
    if (done) return;
    done = true;
    if (--installed > 0) return;
    uninstall(active!);
    active = undefined;
  };
}

function install(): Install {
  const g = globalThis as unknown as Record<Name, unknown>;
  const state = {
    descriptors: {},
    before: {},
    current: {},
    accessors: {},
  } as Install;
  for (const name of NAMES) {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, name);
    state.descriptors[name] = descriptor;
    state.before[name] = state.current[name] = g[name];
    const wrapper = name.startsWith("set")
      ? (...args: unknown[]) => {
        const id = (state.current[name] as Fn)(...args);
        return typeof id === "number" ? new FakeTimerId(id) : id;
      }
      : (id?: unknown) => (state.current[name] as Fn)(id instanceof FakeTimerId ? id.id : id);
    const accessors = {
      get: () => wrapper,
      set: (value: unknown) => {
        // our own wrapper assigned back (a fake installed on top of us, then restored) would
        // call itself
        if (value !== wrapper) state.current[name] = value;
      },
    };
    state.accessors[name] = accessors;
    Object.defineProperty(globalThis, name, {
      ...accessors,
      enumerable: descriptor?.enumerable ?? true,
      configurable: true,
    });
  }
  return state;
}

function uninstall(state: Install): void {
  for (const name of NAMES) {
    const now = Object.getOwnPropertyDescriptor(globalThis, name);
    if (now?.get !== state.accessors[name].get) continue; // redefined by someone else
    const descriptor = state.descriptors[name];
    if (state.current[name] === state.before[name] && descriptor) {
      Object.defineProperty(globalThis, name, descriptor);
    } else {
      Object.defineProperty(globalThis, name, {
        value: state.current[name],
        writable: true,
        enumerable: descriptor?.enumerable ?? true,
        configurable: true,
      });
    }
  }
}
