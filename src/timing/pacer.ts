/**
 * The schedule behind pacing: each chunk's delay from a timing profile (seeded jitter,
 * speed factor), anchored to absolute deadlines. Shared by `PaceStream` and the engine's
 * output, so both pace alike.
 *
 * @module
 */

import type { Prng } from "../random/pcg32.ts";
import type { Delay, TimingProfile } from "./timing_profile.ts";

/** What a {@linkcode Pacer} needs. */
export interface PacerOptions {
  /** The profile whose delays apply when a chunk brings none of its own. */
  profile: TimingProfile;
  /** Multiplies every delay. */
  speedFactor: number;
  /** Jitter source in `[0, 1)`. */
  prng: Prng;
  /** How far behind its schedule a stream may be and still catch up (ms). */
  maxCatchUpMs: number;
}

/**
 * Computes delays and deadlines. `delay()` draws jitter only when the delay has some, so
 * the same seed gives the same delays whatever else runs.
 */
export class Pacer {
  #profile: TimingProfile;
  #speed: number;
  #prng: Prng;
  #maxCatchUp: number;
  #scheduled = Number.NEGATIVE_INFINITY;

  /** Creates a schedule. */
  constructor(options: PacerOptions) {
    this.#profile = options.profile;
    this.#speed = options.speedFactor;
    this.#prng = options.prng;
    this.#maxCatchUp = options.maxCatchUpMs;
  }

  /**
   * A chunk's delay in ms after the speed factor: `explicit` (a number: no jitter) or the
   * profile's delay for `type`.
   */
  delay(explicit: number | Delay | undefined, type: string | undefined): number {
    let delay: Delay;
    if (typeof explicit === "number") {
      if (!Number.isFinite(explicit) || explicit < 0) {
        throw new RangeError(`Cannot pace: a delay must be a finite number >= 0, got ${explicit}`);
      }
      delay = { baseMs: explicit, jitterMs: 0 };
    } else if (explicit) delay = explicit;
    else delay = (type !== undefined && this.#profile.byType?.[type]) || this.#profile;
    const jitter = delay.jitterMs > 0 ? this.#prng() * delay.jitterMs : 0;
    return (delay.baseMs + jitter) * this.#speed;
  }

  /** The deadline of a chunk due `delay` ms after the previous one (catching up when late). */
  deadline(delay: number, now: number): number {
    const from = now - this.#scheduled > this.#maxCatchUp ? now : this.#scheduled;
    this.#scheduled = from + delay;
    return this.#scheduled;
  }

  /** Restarts the schedule at `now` (the chunk it was waiting for was dropped). */
  restart(now: number): void {
    this.#scheduled = now;
  }

  /** Notes a chunk that goes out now with no delay (it restarts a stale schedule). */
  immediate(now: number): void {
    if (now - this.#scheduled > this.#maxCatchUp) this.#scheduled = now;
  }
}
