/**
 * Named timing profiles: how long the mock waits before each frame.
 *
 * @module
 */

import { kindOf } from "../wire/_kind_of.ts";

/** A delay: a base plus uniform random jitter in `[0, jitterMs)`, in milliseconds. */
export interface Delay {
  /** The fixed part. */
  baseMs: number;
  /** The random part's upper bound. */
  jitterMs: number;
}

/**
 * How a session paces its frames. Each frame waits `(base + jitter) * speedFactor`;
 * `byType` overrides the delay per frame type (`stream_event` deltas come faster than
 * whole messages), and `firstFrameMs` is added before the first frame of each turn (the
 * time to first token).
 */
export interface TimingProfile extends Delay {
  /** The profile's name. */
  name: string;
  /** Extra delay before a turn's first frame. */
  firstFrameMs: number;
  /** Per frame type overrides. */
  byType?: Record<string, Delay>;
}

/** The names of the built-in profiles. */
export type TimingProfileName = "instant" | "fast" | "realistic" | "slow";

/** A timing given by name, or as a delay with optional profile fields. */
export type Timing = TimingProfileName | (Partial<TimingProfile> & Delay);

/**
 * The built-in profiles. `instant` never waits; `realistic` follows the real CLI's
 * recorded pace (≈100 ms to first token, ≈15 ms between stream deltas).
 *
 * @example Pick a profile
 * ```ts
 * import { TIMING_PROFILES } from "./timing_profile.ts";
 * console.log(TIMING_PROFILES.realistic.firstFrameMs); // 100
 * ```
 */
export const TIMING_PROFILES: Readonly<Record<TimingProfileName, TimingProfile>> = Object.freeze({
  instant: { name: "instant", baseMs: 0, jitterMs: 0, firstFrameMs: 0 },
  fast: {
    name: "fast",
    baseMs: 1,
    jitterMs: 2,
    firstFrameMs: 5,
    byType: { stream_event: { baseMs: 0, jitterMs: 1 } },
  },
  realistic: {
    name: "realistic",
    baseMs: 20,
    jitterMs: 15,
    firstFrameMs: 100,
    byType: {
      stream_event: { baseMs: 10, jitterMs: 8 },
      control_response: { baseMs: 0, jitterMs: 3 },
    },
  },
  slow: {
    name: "slow",
    baseMs: 150,
    jitterMs: 150,
    firstFrameMs: 1500,
    byType: { stream_event: { baseMs: 60, jitterMs: 60 } },
  },
});

/**
 * Resolves a profile name or object to a {@linkcode TimingProfile}, failing on unknown
 * names (`RangeError`), wrong types (`TypeError`), and negative, non-finite or too long
 * delays (`RangeError`, over 2147483647 ms, the longest timer), naming the field.
 *
 * @example By name or by value
 * ```ts
 * import { timingProfile } from "@x/claude-mock/wire";
 * console.log(timingProfile("fast").baseMs); // 1
 * console.log(timingProfile({ baseMs: 10, jitterMs: 0 }).name); // custom
 * ```
 *
 * @example A bad field is named
 * ```ts
 * import { timingProfile } from "@x/claude-mock/wire";
 * try {
 *   timingProfile({ baseMs: 10, jitterMs: 0, byType: { stream_event: { baseMs: -1, jitterMs: 0 } } });
 * } catch (error) {
 *   console.log((error as Error).message);
 *   // Invalid timing profile 'custom': 'byType.stream_event.baseMs' must be a finite number >= 0, got -1
 * }
 * ```
 */
export function timingProfile(profile: Timing): TimingProfile {
  if (typeof profile === "string") {
    const found = Object.hasOwn(TIMING_PROFILES, profile)
      ? (TIMING_PROFILES as Record<string, TimingProfile>)[profile]
      : undefined;
    if (!found) {
      throw new RangeError(
        `Unknown timing profile '${profile}': expected one of ${
          Object.keys(TIMING_PROFILES).join(", ")
        }`,
      );
    }
    return found;
  }
  if (typeof profile !== "object" || profile === null || Array.isArray(profile)) {
    throw new TypeError(
      `Invalid timing: expected a profile name (${
        Object.keys(TIMING_PROFILES).join(", ")
      }) or a {baseMs, jitterMs} object, got ${kindOf(profile)}`,
    );
  }
  if (profile.name !== undefined && typeof profile.name !== "string") {
    throw new TypeError(
      `Invalid timing profile: 'name' must be a string, got ${kindOf(profile.name)}`,
    );
  }
  const name = profile.name ?? "custom";
  const fail = (field: string, problem: string, type: "type" | "range" = "range"): never => {
    const message = `Invalid timing profile '${name}': '${field}' ${problem}`;
    throw type === "type" ? new TypeError(message) : new RangeError(message);
  };
  checkMs(profile.baseMs, "baseMs", fail);
  checkMs(profile.jitterMs, "jitterMs", fail);
  if (profile.firstFrameMs !== undefined) checkMs(profile.firstFrameMs, "firstFrameMs", fail);
  const byType: unknown = profile.byType;
  if (byType !== undefined) {
    if (typeof byType !== "object" || byType === null || Array.isArray(byType)) {
      fail("byType", `must be an object of delays by frame type, got ${kindOf(byType)}`, "type");
    }
    for (const [type, delay] of Object.entries(byType as Record<string, unknown>)) {
      if (typeof delay !== "object" || delay === null || Array.isArray(delay)) {
        fail(`byType.${type}`, `must be a {baseMs, jitterMs} delay, got ${kindOf(delay)}`, "type");
      }
      const { baseMs, jitterMs } = delay as Record<string, unknown>;
      checkMs(baseMs, `byType.${type}.baseMs`, fail);
      checkMs(jitterMs, `byType.${type}.jitterMs`, fail);
    }
  }
  return {
    name,
    baseMs: profile.baseMs,
    jitterMs: profile.jitterMs,
    firstFrameMs: profile.firstFrameMs ?? 0,
    ...(profile.byType ? { byType: profile.byType } : {}),
  };
}

/** The longest delay a timer honours (2^31 - 1 ms). */
const MAX_MS = 2 ** 31 - 1;

function checkMs(
  value: unknown,
  field: string,
  fail: (field: string, problem: string, type?: "type" | "range") => never,
): void {
  const text = "must be a finite number >= 0";
  if (typeof value !== "number") fail(field, `${text}, got ${kindOf(value)}`, "type");
  const ms = value as number;
  if (!Number.isFinite(ms) || ms < 0) fail(field, `${text}, got ${ms}`);
  if (ms > MAX_MS) fail(field, `must be at most ${MAX_MS} ms, got ${ms}`);
}
