/**
 * Process-wide defaults for seed, speed factor and timing profile. A session reads them
 * once, when it is created; nothing else is shared between sessions.
 *
 * @module
 */

import type { TimingProfileName } from "./timing_profile.ts";

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
 *
 * @example A global seed and speed
 * ```ts
 * import { getDefaults, setDefaults } from "@x/claude-mock";
 * const previous = setDefaults({ seed: 42, speedFactor: 0.5 });
 * console.log(getDefaults().seed); // 42
 * setDefaults(previous);
 * ```
 */
export function setDefaults(defaults: Partial<MockDefaults>): MockDefaults {
  const previous = current;
  const next = { ...current, ...defaults };
  if (!(next.speedFactor >= 0) || !Number.isFinite(next.speedFactor)) {
    throw new RangeError(
      `Cannot set defaults: 'speedFactor' must be a finite number >= 0, got ${next.speedFactor}`,
    );
  }
  current = Object.freeze(next);
  return previous;
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
