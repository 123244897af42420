/**
 * Internal: the argument checks {@linkcode ScenarioBuilder} and {@linkcode ExchangeBuilder}
 * share. Their messages have the format of `validateScenario`'s (`Cannot build scenario
 * '<name>': '<path>' <problem>`). Not part of the public API.
 *
 * @module
 */

import { type Matcher, toMatcher, type Trigger } from "./matcher.ts";
import { type ErrorClass, kindOf } from "./_checks.ts";

/** What a builder method's argument must be (`?`: or undefined). */
export type Need =
  | "string"
  | "text"
  | "content"
  | "boolean"
  | "object"
  | "exitCode"
  | "string?"
  | "text?"
  | "boolean?"
  | "exitCode?";

export const EXPECTED = {
  string: "a non-empty string",
  text: "a string",
  content: "a string, or null for a missing file",
  boolean: "a boolean",
  object: "a plain object",
  exitCode: "an integer from 0 to 255",
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

/** A value for a range error: a string quoted. */
export function show(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}
