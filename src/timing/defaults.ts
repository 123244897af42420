/**
 * Process-wide defaults for seed, speed factor and timing profile. A session reads them
 * once, when it is created; nothing else is shared between sessions.
 *
 * @module
 */

import { kindOf } from "../wire/_kind_of.ts";
import { TIMING_PROFILES, type TimingProfileName } from "./timing_profile.ts";

/** The defaults every new session starts from. */
export interface MockDefaults {
  /** The seed for ids and jitter. */
  seed: bigint | number;
  /** Multiplies every delay (0.5 = twice as fast). */
  speedFactor: number;
  /** The timing profile. */
  timing: TimingProfileName;
}

const INITIAL: MockDefaults = Object.freeze({ seed: 0, speedFactor: 1, timing: "instant" });
let current: MockDefaults = INITIAL;

/**
 * Sets process-wide defaults for sessions created afterwards; returns the previous ones.
 * Each value is checked: `seed` a bigint or a safe integer, `speedFactor` a finite number
 * from 0 to 1000, `timing` a profile name (`instant`, `fast`, `realistic`, `slow`); a wrong
 * type throws a `TypeError`, a value out of range a `RangeError`, and nothing changes.
 *
 * @example A global seed and speed
 * ```ts
 * import { getDefaults, setDefaults } from "@x/claude-mock";
 * const previous = setDefaults({ seed: 42, speedFactor: 0.5 });
 * console.log(getDefaults().seed); // 42
 * setDefaults(previous);
 * ```
 *
 * @example A bad value is named
 * ```ts
 * import { setDefaults } from "@x/claude-mock";
 * try {
 *   setDefaults({ seed: "abc" as unknown as number });
 * } catch (error) {
 *   console.log((error as Error).message);
 *   // Cannot set defaults: 'seed' must be a bigint or a safe integer, got a string
 * }
 * ```
 */
export function setDefaults(defaults: Partial<MockDefaults>): MockDefaults {
  if (typeof defaults !== "object" || defaults === null || Array.isArray(defaults)) {
    throw new TypeError(
      `Cannot set defaults: expected an object with seed, speedFactor or timing, got ${
        kindOf(defaults)
      }`,
    );
  }
  for (const key of Object.keys(defaults)) {
    if (!Object.hasOwn(INITIAL, key)) {
      throw new TypeError(
        `Cannot set defaults: '${key}' is not a default; expected seed, speedFactor or timing`,
      );
    }
  }
  const previous = current;
  const next = { ...current, ...defaults };
  const { seed, speedFactor, timing } = next as Record<keyof MockDefaults, unknown>;
  if (typeof seed !== "bigint") {
    const text = "must be a bigint or a safe integer";
    if (typeof seed !== "number") fail(TypeError, "seed", `${text}, got ${kindOf(seed)}`);
    if (!Number.isSafeInteger(seed)) fail(RangeError, "seed", `${text}, got ${seed}`);
  }
  const speedText = "must be a finite number from 0 to 1000";
  if (typeof speedFactor !== "number") {
    fail(TypeError, "speedFactor", `${speedText}, got ${kindOf(speedFactor)}`);
  }
  if (!Number.isFinite(speedFactor) || speedFactor < 0 || speedFactor > 1000) {
    fail(RangeError, "speedFactor", `${speedText}, got ${speedFactor}`);
  }
  const names = Object.keys(TIMING_PROFILES);
  const timingText = `must be a timing profile name (${names.join(", ")})`;
  if (typeof timing !== "string") fail(TypeError, "timing", `${timingText}, got ${kindOf(timing)}`);
  if (!Object.hasOwn(TIMING_PROFILES, timing)) {
    fail(RangeError, "timing", `${timingText}, got ${JSON.stringify(timing)}`);
  }
  current = Object.freeze(next);
  return previous;
}

function fail(
  kind: TypeErrorConstructor | RangeErrorConstructor,
  field: string,
  problem: string,
): never {
  throw new kind(`Cannot set defaults: '${field}' ${problem}`);
}

/**
 * The current process-wide defaults.
 *
 * @example Reading the defaults
 * ```ts
 * import { getDefaults } from "@x/claude-mock";
 * console.log(getDefaults().timing); // "instant"
 * ```
 */
export function getDefaults(): MockDefaults {
  return current;
}
