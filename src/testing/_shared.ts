/**
 * Helpers the recorders share: message text, and waiting on a responder under a signal.
 *
 * @module
 * @internal
 */

import { AssertionError } from "../session/assertion_error.ts";
import { show } from "../wire/_show.ts";

/** `1 call`, `2 calls`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** What {@linkcode assertCount} checks and how its message names it. */
export interface CountCheck {
  /** The call, for a bad `times`: `HookRecorder.assertCalled("Stop")`. */
  where: string;
  /** How many calls matched. */
  count: number;
  /** The expected count; `undefined` for at least once. */
  times: number | undefined;
  /** What was expected, before the count: `the Stop hook to be called`. */
  expected: string;
  /** The verb of the actual count: `called`, `asked`. */
  verb: string;
  /** Every call, listed under the message. */
  calls: () => string;
}

/**
 * The count check of `assertCalled` and `assertAsked`: throws a `RangeError` for a `times`
 * that is not a non-negative integer, and an `AssertionError` unless `count` is `times`
 * (at least one when `times` is omitted), naming both counts and listing every call.
 */
export function assertCount(check: CountCheck): void {
  const { where, count, times } = check;
  if (times !== undefined && (!Number.isInteger(times) || times < 0)) {
    throw new RangeError(`${where}: times must be a non-negative integer, got ${show(times)}`);
  }
  if (times === undefined ? count > 0 : count === times) return;
  throw new AssertionError(
    `Expected ${check.expected} ${
      times === undefined ? "at least once" : plural(times, "time")
    }, ` +
      `but it was ${check.verb} ${plural(count, "time")}.\n${check.calls()}`,
  );
}

/** JSON text of a value, or its string form when it cannot be serialized. */
export function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** `text`, cut to `max` characters with an ellipsis. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** `Name: message` of an error. */
export function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Races `work` against `signal`; a late rejection of `work` is swallowed. */
export async function settle<T>(work: T | Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!(work instanceof Promise) || !signal) return await work;
  if (signal.aborted) {
    work.catch(() => {});
    throw signal.reason;
  }
  let onAbort = (): void => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  work.catch(() => {});
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
