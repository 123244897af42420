/**
 * A model as the `initialize` answer offers it (the SDK's `ModelInfo`).
 *
 * @module
 */

/** A model of the `initialize` answer (the SDK's `ModelInfo`). */
export interface ModelInfoEntry {
  /** The alias (`default`, `opus`, `sonnet`, ...). */
  value: string;
  /** The full model name it resolves to. */
  resolvedModel: string;
  /** Display name. */
  displayName: string;
  /** Description with prices. */
  description: string;
  /** Effort support. */
  supportsEffort?: boolean;
  /** Effort levels. */
  supportedEffortLevels?: Array<"low" | "medium" | "high" | "xhigh" | "max">;
  /** Adaptive thinking support. */
  supportsAdaptiveThinking?: boolean;
  /** Fast mode support. */
  supportsFastMode?: boolean;
  /** Auto mode support. */
  supportsAutoMode?: boolean;
  /** Whether thinking can be turned off. */
  supportsThinkingOff: boolean;
}
