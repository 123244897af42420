/**
 * Validation of timings: {@linkcode validateTiming} checks a profile name or a
 * `{baseMs, jitterMs}` object, naming the bad field.
 *
 * @module
 */

import { type Timing, TIMING_PROFILES } from "../timing/timing_profile.ts";
import { isObject } from "../wire/frame.ts";
import { Checker } from "./_checks.ts";
import type { ValidateStepOptions } from "./validate_step.ts";

/**
 * Checks a timing (a profile name, or a `{baseMs, jitterMs}` object with optional
 * `firstFrameMs`, `byType` and `name`) found at `path`, naming the bad field. Defaults:
 * verb `build`, no note.
 *
 * @example An exchange's timing
 * ```ts
 * import { validateTiming } from "./validate_timing.ts";
 * try {
 *   validateTiming({ baseMs: 10, jitterMs: -1 }, "exchanges[1].timing", { name: "x" });
 * } catch (error) {
 *   console.log((error as Error).message);
 *   // Cannot build scenario 'x': 'exchanges[1].timing.jitterMs' must be a finite number >= 0, got -1
 * }
 * ```
 */
export function validateTiming(
  timing: unknown,
  path: string,
  options: ValidateStepOptions = {},
): asserts timing is Timing {
  new TimingChecker({
    name: options.name,
    verb: options.verb ?? "build",
    source: options.source,
    note: options.note ?? "",
  }).timing(timing, path);
}

const TIMING_KEYS = { name: true, baseMs: true, jitterMs: true, firstFrameMs: true, byType: true };

/** The checks of {@linkcode validateTiming}. */
class TimingChecker extends Checker {
  timing(value: unknown, path: string): void {
    const names = Object.keys(TIMING_PROFILES);
    const what = `a timing profile name (${names.join(", ")}) or a {baseMs, jitterMs} object`;
    if (typeof value === "string") {
      if (!names.includes(value)) this.range(path, what, value);
      return;
    }
    if (!isObject(value)) this.type(path, what, value);
    this.knownKeys(value, path, TIMING_KEYS, "a timing field");
    if (value.name !== undefined) this.string(value.name, `${path}.name`);
    this.ms(value.baseMs, `${path}.baseMs`);
    this.ms(value.jitterMs, `${path}.jitterMs`);
    if (value.firstFrameMs !== undefined) this.ms(value.firstFrameMs, `${path}.firstFrameMs`);
    if (value.byType === undefined) return;
    const byType = this.object(value.byType, `${path}.byType`, "an object of delays by frame type");
    for (const [type, delay] of Object.entries(byType)) this.delay(delay, `${path}.byType.${type}`);
  }
}
