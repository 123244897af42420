/**
 * Named timing profiles: how long the mock waits before each frame.
 *
 * @module
 */

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
 * import { TIMING_PROFILES } from "@x/claude-mock";
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
 * names and negative or non-finite numbers.
 *
 * @example By name or by value
 * ```ts
 * import { timingProfile } from "@x/claude-mock";
 * console.log(timingProfile("fast").baseMs); // 1
 * console.log(timingProfile({ baseMs: 10, jitterMs: 0 }).name); // custom
 * ```
 */
export function timingProfile(profile: Timing): TimingProfile {
  if (typeof profile === "string") {
    const found = (TIMING_PROFILES as Record<string, TimingProfile>)[profile];
    if (!found) {
      throw new RangeError(
        `Unknown timing profile '${profile}': expected one of ${
          Object.keys(TIMING_PROFILES).join(", ")
        }`,
      );
    }
    return found;
  }
  const resolved: TimingProfile = {
    name: profile.name ?? "custom",
    baseMs: profile.baseMs,
    jitterMs: profile.jitterMs,
    firstFrameMs: profile.firstFrameMs ?? 0,
    ...(profile.byType ? { byType: profile.byType } : {}),
  };
  checkDelay(resolved, `timing profile '${resolved.name}'`);
  if (!(resolved.firstFrameMs >= 0) || !Number.isFinite(resolved.firstFrameMs)) {
    throw new RangeError(
      `Invalid timing profile '${resolved.name}': 'firstFrameMs' must be a finite number >= 0`,
    );
  }
  for (const [type, delay] of Object.entries(resolved.byType ?? {})) {
    checkDelay(delay, `timing profile '${resolved.name}' byType.${type}`);
  }
  return resolved;
}

function checkDelay(delay: Delay, where: string): void {
  for (const key of ["baseMs", "jitterMs"] as const) {
    const value = delay[key];
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw new RangeError(`Invalid ${where}: '${key}' must be a finite number >= 0, got ${value}`);
    }
  }
}
