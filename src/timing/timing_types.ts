/**
 * The timing types a scenario's signatures show (profiles, delays). The entry points
 * re-export this file, so each documents them on its own.
 *
 * @module
 */

export type { Delay, Timing, TimingProfile, TimingProfileName } from "./timing_profile.ts";
