/**
 * Internal: the checks of crash placements, shared by `validateStep` (the `crash` step),
 * `validateScenario` (`crashAfter`, and where crash steps sit in a step list). Not part of
 * the public API.
 *
 * @module
 */

import { type Checker, MAX_SAFE } from "./_checks.ts";
import type { CrashStep } from "./step.ts";

/** The placements of a scenario's `crashAfter`, in message order. */
const CRASH_PLACES: string[] = [
  "frames",
  "assistantMessages",
  "beforeToolResult",
  "midStream",
];

const CRASH_POINT_KEYS = {
  frames: true,
  assistantMessages: true,
  beforeToolResult: true,
  midStream: true,
  code: true,
};

/** Checks a scenario's `crashAfter` (see `CrashPoint`). */
export function checkCrashPoint(c: Checker, value: unknown, path: string): void {
  const point = c.object(
    value,
    path,
    "a crash point object ({frames}, {assistantMessages}, {beforeToolResult} or {midStream}, and an optional code)",
  );
  c.knownKeys(point, path, CRASH_POINT_KEYS, "a crashAfter field");
  if (point.frames !== undefined) c.integer(point.frames, `${path}.frames`, 0, MAX_SAFE);
  if (point.assistantMessages !== undefined) {
    c.integer(point.assistantMessages, `${path}.assistantMessages`, 1, MAX_SAFE);
  }
  if (point.beforeToolResult !== undefined && point.beforeToolResult !== true) {
    const what = "true or an integer >= 1";
    if (typeof point.beforeToolResult !== "number") {
      c.type(`${path}.beforeToolResult`, what, point.beforeToolResult);
    }
    const n = point.beforeToolResult;
    if (!Number.isSafeInteger(n) || n < 1) c.range(`${path}.beforeToolResult`, what, n);
  }
  if (point.midStream !== undefined) c.integer(point.midStream, `${path}.midStream`, 1, MAX_SAFE);
  if (point.code !== undefined) c.integer(point.code, `${path}.code`, 1, 255);
  const places = CRASH_PLACES.filter((key) => point[key] !== undefined);
  if (places.length === 0) {
    c.fail(TypeError, path, `must have one of ${CRASH_PLACES.join(", ")}, got none`);
  }
  const combined = places.length === 2 && places[0] === "assistantMessages" &&
    places[1] === "midStream";
  if (places.length > 1 && !combined) {
    c.fail(
      TypeError,
      path,
      `has both '${places[0]}' and '${
        places[1]
      }': a crash has one place (only midStream combines with assistantMessages)`,
    );
  }
}

/** Checks the fields of a `crash` step. */
export function checkCrashStep(c: Checker, step: CrashStep, path: string): void {
  if (step.code !== undefined) c.integer(step.code, `${path}.code`, 1, 255);
  if (step.midStream !== undefined) c.integer(step.midStream, `${path}.midStream`, 1, MAX_SAFE);
  if (step.beforeToolResult !== undefined) {
    c.boolean(step.beforeToolResult, `${path}.beforeToolResult`);
  }
  if (step.midStream !== undefined && step.beforeToolResult === true) {
    c.fail(
      TypeError,
      path,
      "has both 'midStream' and 'beforeToolResult': a crash has one place",
    );
  }
}

/**
 * A crash step placed in the message that follows it (`midStream`, `beforeToolResult`) needs
 * a message step after it in the same list: `.respond("x").crash({ midStream: 3 })` is the
 * likely mistake (the crash cuts the next message, not the previous one).
 */
export function checkCrashPlacement(c: Checker, steps: readonly unknown[], path: string): void {
  let messageAfter = false;
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i] as { kind?: unknown; midStream?: unknown; beforeToolResult?: unknown };
    if (step.kind === "message") messageAfter = true;
    if (step.kind !== "crash" || messageAfter) continue;
    const place = step.midStream !== undefined
      ? `{ midStream: ${step.midStream} }`
      : step.beforeToolResult === true
      ? "{ beforeToolResult: true }"
      : undefined;
    if (place === undefined) continue;
    c.fail(
      RangeError,
      `${path}[${i}]`,
      `crash ${place} cuts the message that follows it, but no message step follows it (put the crash before the message it cuts)`,
    );
  }
}
