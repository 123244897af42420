/**
 * The fast mode state the CLI reports in `system/init`, the `initialize` answer and
 * result frames: {@linkcode FastModeState} and {@linkcode FastModeDisabledReason}.
 *
 * @module
 */

/** The fast mode state (the SDK's `FastModeState`). */
export type FastModeState = "off" | "cooldown" | "on";

/** Why fast mode is off (the SDK's `FastModeDisabledReason`). */
export type FastModeDisabledReason =
  | "free"
  | "preference"
  | "extra_usage_disabled"
  | "network_error"
  | "unknown"
  | "not_first_party"
  | "disabled_by_env"
  | "model_not_allowed"
  | "sdk_opt_in_required"
  | "pending";
