/**
 * The bounds scenario numbers are checked against ({@linkcode SCENARIO_LIMITS}): delays and
 * timeouts, `apiError` retries and the speed factor.
 *
 * @module
 */

/**
 * The bounds scenario numbers are checked against.
 *
 * @example Reading a bound
 * ```ts
 * import type { ScenarioLimits } from "./scenario_limits.ts";
 * const limits: ScenarioLimits = { maxDelayMs: 1000, maxRetries: 3, maxSpeedFactor: 10 };
 * console.log(limits.maxRetries); // 3
 * ```
 */
export interface ScenarioLimits {
  /**
   * The longest delay or timeout in milliseconds: 2147483647 (2^31 - 1, about 24.8 days),
   * the longest timer `setTimeout` honours; longer ones would fire at once.
   */
  readonly maxDelayMs: number;
  /** The most `api_retry` frames an `apiError` step writes: 100. */
  readonly maxRetries: number;
  /** The largest speed factor: 1000 (a 20 ms frame then takes 20 s). */
  readonly maxSpeedFactor: number;
}

/**
 * The bounds {@linkcode validateScenario} checks numbers against (see
 * {@linkcode ScenarioLimits}). Delays are also finite and >= 0, timeouts finite and > 0.
 *
 * @example The longest delay
 * ```ts
 * import { SCENARIO_LIMITS } from "./scenario_limits.ts";
 * console.log(SCENARIO_LIMITS.maxDelayMs); // 2147483647
 * ```
 */
export const SCENARIO_LIMITS: ScenarioLimits = Object.freeze({
  maxDelayMs: 2 ** 31 - 1,
  maxRetries: 100,
  maxSpeedFactor: 1000,
});
