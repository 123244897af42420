/**
 * Internal: the low-level checks the scenario validators share ({@linkcode Checker}), the
 * message format (`Cannot <verb> scenario '<name>': '<path>' must be ..., got ...`) and the
 * "did you mean" hint for unknown fields. Not part of the public API.
 *
 * @module
 */

import { isObject } from "../wire/frame.ts";
import { kindOf } from "../wire/_kind_of.ts";
import { show } from "../wire/_show.ts";
import { joinPath, MAX_NESTING_TEXT, nestedBeyond, NESTING_WHY } from "../wire/_nesting.ts";
import { SCENARIO_LIMITS } from "./scenario_limits.ts";

/** The error a check throws: a `TypeError` for a wrong type, a `RangeError` for a wrong value. */
export type ErrorClass = TypeErrorConstructor | RangeErrorConstructor;

/** What a {@linkcode Checker}'s messages say besides the path and the problem. */
export interface CheckerContext {
  name: string | undefined;
  verb: string;
  source: string | undefined;
  note: string;
}

/** What a step list must be, for messages. */
export const STEPS = "an array of steps or a step function";
/** `integer(..., MAX_SAFE)` reads `an integer >= min`. */
export const MAX_SAFE: number = Number.MAX_SAFE_INTEGER;
/** The permission rule lists, and a tool call's permission override. */
export const PERMISSIONS: string[] = ["allow", "ask", "deny"];

/**
 * Walks values and throws the first problem in the module's format. Problems read
 * `must be <expected>, got <what was there>`: a `TypeError` ({@linkcode Checker.type}) when
 * the type is wrong, a `RangeError` ({@linkcode Checker.range}) when the value is.
 */
export class Checker {
  #context: CheckerContext;

  constructor(context: CheckerContext) {
    this.#context = context;
  }

  fail(kind: ErrorClass, path: string, problem: string): never {
    const { name, verb, source, note } = this.#context;
    const label = name ? ` '${name}'` : "";
    const where = path === "" ? "" : `'${path}'${note ? ` (${note})` : ""} `;
    throw new kind(`Cannot ${verb} scenario${label}: ${where}${problem}${sourceSuffix(source)}`);
  }

  type(path: string, expected: string, value: unknown): never {
    this.fail(TypeError, path, `must be ${expected}, got ${kindOf(value)}`);
  }

  range(path: string, expected: string, got: unknown): never {
    this.fail(
      RangeError,
      path,
      `must be ${expected}, got ${typeof got === "string" ? show(got) : got}`,
    );
  }

  /**
   * Refuses data nested deeper than the product's limit (`MAX_NESTING`), naming where: the
   * engine and the SDK walk frames recursively, so deeper data would overflow the call stack.
   */
  nesting(value: unknown, path: string): void {
    const beyond = nestedBeyond(value);
    if (beyond === undefined) return;
    this.fail(
      RangeError,
      joinPath(path, beyond),
      `nests deeper than ${MAX_NESTING_TEXT} levels (${NESTING_WHY})`,
    );
  }

  // ---- scalars -------------------------------------------------------------------------

  string(value: unknown, path: string, nonEmpty = false): string {
    const what = nonEmpty ? "a non-empty string" : "a string";
    if (typeof value !== "string") this.type(path, what, value);
    if (nonEmpty && value === "") this.range(path, what, value);
    return value;
  }

  boolean(value: unknown, path: string): void {
    if (typeof value !== "boolean") this.type(path, "a boolean", value);
  }

  function(value: unknown, path: string): void {
    if (typeof value !== "function") this.type(path, "a function", value);
  }

  object(value: unknown, path: string, what: string): Record<string, unknown> {
    if (!isObject(value)) this.type(path, what, value);
    return value;
  }

  oneOf(value: unknown, path: string, allowed: readonly string[]): string {
    const what = `one of ${allowed.map((a) => `'${a}'`).join(", ")}`;
    if (typeof value !== "string") this.type(path, what, value);
    if (!allowed.includes(value)) this.range(path, what, value);
    return value;
  }

  /** A finite number from 0 to `max`. */
  number(value: unknown, path: string, max: number = Infinity): void {
    const what = "a finite number >= 0";
    if (typeof value !== "number") this.type(path, what, value);
    if (!Number.isFinite(value) || value < 0) this.range(path, what, value);
    if (value > max) this.fail(RangeError, path, `must be at most ${max}, got ${value}`);
  }

  /** An integer from `min` to `max` (inclusive). */
  integer(value: unknown, path: string, min: number, max: number): void {
    const what = max === MAX_SAFE ? `an integer >= ${min}` : `an integer from ${min} to ${max}`;
    if (typeof value !== "number") this.type(path, what, value);
    if (!Number.isSafeInteger(value) || value < min || value > max) this.range(path, what, value);
  }

  /** A delay in ms (finite, >= 0) or, with `timeout`, a timeout (> 0); at most the timer limit. */
  ms(value: unknown, path: string, timeout = false): void {
    const what = timeout ? "a finite number > 0" : "a finite number >= 0";
    if (typeof value !== "number") this.type(path, what, value);
    if (!Number.isFinite(value) || value < 0 || (timeout && value === 0)) {
      this.range(path, what, value);
    }
    const max = SCENARIO_LIMITS.maxDelayMs;
    if (value > max) {
      this.fail(RangeError, path, `must be at most ${max} ms (about 24.8 days), got ${value}`);
    }
  }

  seed(value: unknown, path: string): void {
    const what = "a bigint or a safe integer";
    if (typeof value === "bigint") return;
    if (typeof value !== "number") this.type(path, what, value);
    if (!Number.isSafeInteger(value)) this.range(path, what, value);
  }

  stringList(value: unknown, path: string, what: string): void {
    if (!Array.isArray(value)) this.type(path, `an array of ${what}`, value);
    value.forEach((item, i) => this.string(item, `${path}[${i}]`, true));
  }

  /** Unknown keys of `value` are typos: name the key and what it resembles. */
  knownKeys(value: Record<string, unknown>, path: string, known: object, what: string): void {
    for (const key of Object.keys(value)) {
      if (Object.hasOwn(known, key)) continue;
      const near = nearest(key, Object.keys(known));
      const hint = near
        ? ` (did you mean '${near}'?)`
        : `; expected one of ${Object.keys(known).join(", ")}`;
      this.fail(TypeError, path === "" ? key : `${path}.${key}`, `is not ${what}${hint}`);
    }
  }

  /** `value` must be one of many `names`: a near miss is named. */
  nameIn(value: unknown, path: string, names: readonly string[], what: string): void {
    if (typeof value !== "string") this.type(path, what, value);
    if (names.includes(value)) return;
    const near = nearest(value, names);
    this.fail(
      RangeError,
      path,
      `is not ${what}: ${show(value)}${
        near ? ` (did you mean '${near}'?)` : `; expected one of ${names.join(", ")}`
      }`,
    );
  }

  // ---- composite values shared by steps, timings and exchanges ------------------------

  /** A {baseMs, jitterMs} delay (a TimingProfile is one too: extra fields are not typos). */
  delay(value: unknown, path: string): void {
    const delay = this.object(value, path, "a {baseMs, jitterMs} delay");
    this.ms(delay.baseMs, `${path}.baseMs`);
    this.ms(delay.jitterMs, `${path}.jitterMs`);
  }

  matcher(value: unknown, path: string): void {
    if (
      !isObject(value) || typeof value.test !== "function" || typeof value.kind !== "string" ||
      typeof value.description !== "string"
    ) {
      this.type(
        path,
        "a Matcher (an object with test(), kind and description; toMatcher() makes one from a string or RegExp)",
        value,
      );
    }
  }
}

export function sourceSuffix(source: string | undefined): string {
  return source ? ` (in ${source})` : "";
}

/** The known key `key` most likely is a typo of (same letters ignoring case, or close). */
export function nearest(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    if (candidate.toLowerCase() === lower) return candidate;
    const d = editDistance(lower, candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return bestDistance <= Math.min(2, Math.floor(key.length / 3)) ? best : undefined;
}

/** Levenshtein distance (shared by the suggestions of the scenario layer). */
export function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}
