/**
 * Internal: the argument checks {@linkcode ScenarioBuilder} and {@linkcode ExchangeBuilder}
 * share. Their messages have the format of `validateScenario`'s (`Cannot build scenario
 * '<name>': '<path>' <problem>`). Not part of the public API.
 *
 * @module
 */

import { type Matcher, toMatcher, type Trigger } from "./matcher.ts";
import type { ErrorClass } from "./_checks.ts";
import { kindOf } from "../wire/_kind_of.ts";
import { validateStep } from "./validate_step.ts";
import { show } from "../wire/_show.ts";
import { MAX_NESTING_TEXT, nestedBeyond, NESTING_WHY } from "../wire/_nesting.ts";

/** What a builder method's argument must be (`?`: or undefined). */
export type Need =
  | "string"
  | "text"
  | "content"
  | "boolean"
  | "object"
  | "exitCode"
  | "count"
  | "size"
  | "pieces"
  | "string?"
  | "text?"
  | "content?"
  | "boolean?"
  | "exitCode?"
  | "count?"
  | "size?"
  | "pieces?";

const EXPECTED = {
  string: "a non-empty string",
  text: "a string",
  content: "a string, or null for a missing file",
  boolean: "a boolean",
  object: "a plain object",
  exitCode: "an integer from 0 to 255",
  count: "an integer >= 0",
  size: "an integer >= 1",
  pieces: "an array of strings",
};

/** Options of `validateStep` for a step the builder adds. */
export function BUILD(name: string | undefined): { name?: string; verb: string; note: string } {
  return { name, verb: "build", note: "" };
}

/** Throws in the format of `validateScenario`'s messages. */
export function fail(
  kind: ErrorClass,
  name: string | undefined,
  path: string,
  problem: string,
): never {
  throw new kind(`Cannot build scenario${name ? ` '${name}'` : ""}: '${path}' ${problem}`);
}

export function triggerAt(trigger: Trigger, name: string | undefined, path: string): Matcher {
  try {
    return toMatcher(trigger);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return fail(
      TypeError,
      name,
      path,
      `must be a string, RegExp, function or Matcher, got ${kindOf(trigger)}`,
    );
  }
}

export function checkObject(
  value: unknown,
  name: string | undefined,
  path: string,
  what: string,
): void {
  if (!isRecord(value)) {
    fail(TypeError, name, path, `${what} must be an object, got ${kindOf(value)}`);
  }
}

export function checkBoolean(value: unknown, name: string | undefined, path: string): void {
  if (typeof value !== "boolean") {
    fail(TypeError, name, path, `must be a boolean, got ${kindOf(value)}`);
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Where a builder method adds its step, for messages. */
export interface At {
  /** The scenario's name. */
  name: string | undefined;
  /** The step's path. */
  path: string;
}

/** Checks a `uses*` helper's arguments, then its common options. */
export function checkUses(
  at: At,
  method: string,
  options: {
    say?: unknown;
    thinking?: unknown;
    permission?: unknown;
    ifDenied?: unknown;
    untilInterrupt?: unknown;
    outputTokens?: unknown;
    chunkSize?: unknown;
    inputChunks?: unknown;
  },
  needs: Array<[string, unknown, Need]>,
): void {
  for (const [what, value, need] of needs) checkNeed(at, method, [what, value, need]);
  if (!isRecord(options)) {
    fail(TypeError, at.name, at.path, `${method} needs an options object, got ${kindOf(options)}`);
  }
  checkNeed(at, method, ["options.say", options.say, "text?"]);
  checkNeed(at, method, ["options.thinking", options.thinking, "text?"]);
  checkNeed(at, method, ["options.outputTokens", options.outputTokens, "count?"]);
  checkNeed(at, method, ["options.chunkSize", options.chunkSize, "size?"]);
  checkNeed(at, method, ["options.inputChunks", options.inputChunks, "pieces?"]);
  if (options.untilInterrupt !== undefined && typeof options.untilInterrupt !== "boolean") {
    fail(
      TypeError,
      at.name,
      at.path,
      `${method} needs options.untilInterrupt to be a boolean, got ${
        kindOf(options.untilInterrupt)
      }`,
    );
  }
  if (
    options.permission !== undefined && options.permission !== "allow" &&
    options.permission !== "ask" && options.permission !== "deny"
  ) {
    fail(
      typeof options.permission === "string" ? RangeError : TypeError,
      at.name,
      at.path,
      `${method} needs options.permission to be 'allow', 'ask' or 'deny', got ${
        typeof options.permission === "string"
          ? JSON.stringify(options.permission)
          : kindOf(options.permission)
      }`,
    );
  }
  const ifDenied = options.ifDenied;
  if (ifDenied === undefined || typeof ifDenied === "string" || typeof ifDenied === "function") {
    return;
  }
  if (!Array.isArray(ifDenied)) {
    fail(
      TypeError,
      at.name,
      at.path,
      `${method} needs options.ifDenied to be a reply text, an array of steps or a step function, got ${
        kindOf(ifDenied)
      }`,
    );
  }
  const part = options.say !== undefined ? 1 : 0;
  ifDenied.forEach((step, i) =>
    validateStep(step, `${at.path}.parts[${part}].ifDenied[${i}]`, BUILD(at.name))
  );
}

/** One argument of a builder method: it must be what `need` says. */
export function checkNeed(
  at: At,
  method: string,
  [what, value, need]: [string, unknown, Need],
): void {
  const optional = need.endsWith("?");
  if (optional && value === undefined) return;
  const base = need.replace("?", "") as keyof typeof EXPECTED;
  const ok = base === "string"
    ? typeof value === "string" && value !== ""
    : base === "text"
    ? typeof value === "string"
    : base === "content"
    ? typeof value === "string" || value === null
    : base === "boolean"
    ? typeof value === "boolean"
    : base === "object"
    ? isRecord(value)
    : base === "count"
    ? Number.isSafeInteger(value) && (value as number) >= 0
    : base === "size"
    ? Number.isSafeInteger(value) && (value as number) >= 1
    : base === "pieces"
    ? Array.isArray(value) && value.every((piece) => typeof piece === "string")
    : typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 255;
  if (ok && base === "object") {
    const beyond = nestedBeyond(value);
    if (beyond === undefined) return;
    fail(
      RangeError,
      at.name,
      at.path,
      `${method} needs ${what} nested at most ${MAX_NESTING_TEXT} levels deep, got one nested deeper at '${beyond}' (${NESTING_WHY})`,
    );
  }
  if (ok) return;
  const range = ((base === "exitCode" || base === "count" || base === "size") &&
    typeof value === "number") || (base === "string" && value === "");
  fail(
    range ? RangeError : TypeError,
    at.name,
    at.path,
    `${method} needs ${what} (${EXPECTED[base]}), got ${range ? show(value) : kindOf(value)}`,
  );
}
