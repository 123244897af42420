/**
 * `settleWithFakeTime`: drives installed fake timers until a promise settles.
 *
 * @module
 */

import { realNow, realTimeout, yieldToEventLoop } from "./real_time.ts";
import { useFakeTimerIds } from "./_fake_timer_ids.ts";

/**
 * Fake timers that can run their next timer: `@sinonjs/fake-timers`' clock and
 * `@std/testing`'s `FakeTime` (their `nextAsync()`), or vitest's `vi` and jest's `jest` once
 * their fake timers are installed (their `advanceTimersToNextTimerAsync()`).
 */
export type SteppableFakeTime =
  | {
    /** Runs the next timer (after the microtasks queued so far). */
    nextAsync(): Promise<unknown>;
  }
  | {
    /** Runs the next timer (after the microtasks queued so far): vitest's and jest's. */
    advanceTimersToNextTimerAsync(): Promise<unknown>;
  };

/** Options for {@linkcode settleWithFakeTime}. */
export interface SettleWithFakeTimeOptions {
  /** At most this many timers are run before giving up (default 100,000). */
  maxSteps?: number;
  /** At most this much real time (ms) is spent before giving up (default 10,000). */
  realTimeoutMs?: number;
}

/**
 * Runs the fake clock's timers, one at a time, until `promise` settles, and returns its
 * value (or throws its error). The clock is sinon's or `FakeTime`, or under vitest and jest
 * their own fake timers: `settleWithFakeTime(promise, vi)`, `settleWithFakeTime(promise, jest)`. A single `tickAsync` is not enough for a query: the SDK arms
 * new timers as it goes (its write queue, its close grace period), and the mock's paced
 * output on the system clock waits on timers too. Between timers the event loop gets a real
 * turn, so stream work that no timer drives goes on. Gives up with a `RangeError` after
 * `maxSteps` timers or `realTimeoutMs` of real time, never hanging.
 *
 * While it runs, a fake whose `setTimeout` returns plain numbers (`@std/testing`'s
 * `FakeTime`) hands out ids with `unref()`, `ref()` and `hasRef()` instead, which
 * `clearTimeout` still takes: the SDK arms timers as `setTimeout(...).unref()` when an app
 * aborts a query (its grace period before it kills the process), and a number has no
 * `unref`. So an app's own timeout that aborts a query works under fake time.
 *
 * @example Driving `@sinonjs/fake-timers` until a paced session ends
 * ```ts
 * import FakeTimers from "@sinonjs/fake-timers";
 * import { MockTransport, ScenarioBuilder, settleWithFakeTime } from "@x/claude-mock";
 *
 * const fake = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout", "Date"] });
 * try {
 *   const scenario = new ScenarioBuilder({ timing: "realistic" }).on("hi").respond("Hello").build();
 *   const mock = new MockTransport(scenario, { clock: "system" }); // pacing on the fake timers
 *   const { readable, writable } = mock.connect();
 *   const writer = writable.getWriter();
 *   await writer.write('{"type":"user","message":{"role":"user","content":"hi"},"parent_tool_use_id":null}\n');
 *   await writer.close();
 *   const output = await settleWithFakeTime(new Response(readable).text(), fake);
 *   console.log(output.trim().split("\n").length > 2); // true: paced by fake time, in no real time
 * } finally {
 *   fake.uninstall();
 * }
 * ```
 */
export async function settleWithFakeTime<T>(
  promise: Promise<T>,
  fake: SteppableFakeTime,
  options: SettleWithFakeTimeOptions = {},
): Promise<T> {
  const maxSteps = options.maxSteps ?? 100_000;
  const realTimeoutMs = options.realTimeoutMs ?? 10_000;
  if (!Number.isSafeInteger(maxSteps) || maxSteps < 1) {
    throw new RangeError(
      `Cannot drive fake time: maxSteps must be a positive integer, got ${maxSteps}`,
    );
  }
  if (!Number.isFinite(realTimeoutMs) || realTimeoutMs <= 0) {
    throw new RangeError(
      `Cannot drive fake time: realTimeoutMs must be a positive number, got ${realTimeoutMs}`,
    );
  }
  if (!isThenable(promise)) {
    throw new TypeError(
      `Cannot drive fake time: the first argument must be a promise (what to wait for), got ${
        describeArgument(promise)
      }${typeof promise === "function" ? " (call it: settleWithFakeTime(run(), clock))" : ""}`,
    );
  }
  const next = stepOf(fake);
  if (next === undefined) {
    throw new TypeError(
      "Cannot drive fake time: the clock has no nextAsync() or advanceTimersToNextTimerAsync() " +
        "(pass @sinonjs/fake-timers' clock, @std/testing's FakeTime, or vitest's vi or jest's " +
        "jest after useFakeTimers())",
    );
  }
  const pending = pendingOf(fake);
  let settled = false;
  promise.then(() => (settled = true), () => (settled = true));
  const started = realNow();
  let steps = 0;
  const restoreIds = useFakeTimerIds();
  try {
    await drive();
  } finally {
    restoreIds();
  }
  return await promise;

  async function drive(): Promise<void> {
    while (!settled) {
      // no timer to run (when the clock can say): nothing fake time can do but wait
      const idle = pending?.() === 0;
      if (!idle && steps >= maxSteps) {
        throw new RangeError(
          `The promise did not settle after ${maxSteps} fake timers (maxSteps): something keeps ` +
            "re-arming a timer",
        );
      }
      if (realNow() - started > realTimeoutMs) {
        throw new RangeError(
          `The promise did not settle within ${realTimeoutMs} ms of real time while fake time ` +
            `was driven (${steps} timers run${
              idle ? "; no fake timer is pending" : ""
            }): it waits on something no timer drives`,
        );
      }
      if (idle) {
        // a real millisecond: I/O may still settle it, and a loop of turns would spin the CPU
        await new Promise<void>((resolve) => realTimeout(resolve, 1));
        continue;
      }
      steps++;
      await next!();
      // a real turn of the event loop: I/O and stream work that no fake timer drives
      if (!settled) await yieldToEventLoop();
    }
  }
}

/** How many timers `fake` holds, when it can say (sinon's, vitest's and jest's can). */
function pendingOf(fake: SteppableFakeTime): (() => number) | undefined {
  const given = fake as Partial<Record<string, unknown>>;
  for (const name of ["countTimers", "getTimerCount"]) {
    const count = given[name];
    if (typeof count === "function") {
      return () => {
        const n = (count as () => unknown).call(fake);
        return typeof n === "number" ? n : -1;
      };
    }
  }
  return undefined;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null &&
    typeof (value as { then?: unknown }).then === "function";
}

function describeArgument(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === "function") return "a function";
  if (typeof value === "object") return Array.isArray(value) ? "an array" : "an object";
  return `${typeof value} ${String(value)}`;
}

/** How `fake` runs its next timer, bound to it; `undefined` when it cannot. */
function stepOf(fake: SteppableFakeTime): (() => Promise<unknown>) | undefined {
  const given = fake as Partial<Record<string, unknown>> | undefined;
  if (typeof given?.nextAsync === "function") {
    return () => (given.nextAsync as () => Promise<unknown>).call(fake);
  }
  const advance = given?.advanceTimersToNextTimerAsync;
  if (typeof advance === "function") return () => (advance as () => Promise<unknown>).call(fake);
  return undefined;
}
