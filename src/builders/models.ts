/**
 * The models the mock offers in the `initialize` answer, taken from what the real CLI
 * 2.1.328 reported in the recordings.
 *
 * @module
 */

import { modelFacts } from "./model_facts.ts";
import type { ModelInfoEntry } from "./model_info_entry.ts";

export type { ModelInfoEntry };

/** The models the CLI offers. */
export const DEFAULT_MODELS: readonly ModelInfoEntry[] = Object.freeze([
  {
    "value": "default",
    "resolvedModel": "claude-opus-5-5",
    "displayName": "Default (recommended)",
    "description": "Use the default model (currently Opus 5.5) · $4/$20 per Mtok",
    "supportsEffort": true,
    "supportedEffortLevels": ["low", "medium", "high", "xhigh", "max"],
    "supportsAdaptiveThinking": true,
    "supportsFastMode": true,
    "supportsAutoMode": true,
    "supportsThinkingOff": false,
  },
  {
    "value": "opus",
    "resolvedModel": "claude-opus-5-5",
    "displayName": "Opus",
    "description": "Opus 5.5 · Best for everyday, complex tasks · $4/$20 per Mtok",
    "supportsEffort": true,
    "supportedEffortLevels": ["low", "medium", "high", "xhigh", "max"],
    "supportsAdaptiveThinking": true,
    "supportsFastMode": true,
    "supportsAutoMode": true,
    "supportsThinkingOff": false,
  },
  {
    "value": "fable",
    "resolvedModel": "claude-fable-5-2",
    "displayName": "Fable",
    "description":
      "Fable 5.2 · Most capable for your hardest and longest-running tasks · $8/$40 per Mtok",
    "supportsEffort": true,
    "supportedEffortLevels": ["low", "medium", "high", "xhigh", "max"],
    "supportsAdaptiveThinking": true,
    "supportsFastMode": true,
    "supportsAutoMode": true,
    "supportsThinkingOff": false,
  },
  {
    "value": "sonnet",
    "resolvedModel": "claude-sonnet-5-5",
    "displayName": "Sonnet",
    "description": "Sonnet 5.5 · Efficient for routine tasks · $2/$10 per Mtok",
    "supportsEffort": true,
    "supportedEffortLevels": ["low", "medium", "high", "xhigh", "max"],
    "supportsAdaptiveThinking": true,
    "supportsAutoMode": true,
    "supportsThinkingOff": false,
  },
  {
    "value": "haiku",
    "resolvedModel": "claude-haiku-5-5",
    "displayName": "Haiku",
    "description":
      "Haiku 5.5 · Fastest for quick answers · $0.10/$0.50 per Mtok ($0.50/$2.50 for prompts over 100k)",
    "supportsEffort": true,
    "supportedEffortLevels": ["low", "medium", "high", "xhigh", "max"],
    "supportsAdaptiveThinking": true,
    "supportsAutoMode": true,
    "supportsThinkingOff": false,
  },
]);

/**
 * The models the `initialize` answer offers in a session on `model`: the CLI's, and `model`'s
 * own entry when it is not among them (a model of the 4 generation, a custom one).
 *
 * @example A session on a custom model
 * ```ts
 * import { offeredModels } from "./models.ts";
 * console.log(offeredModels("my-model").at(-1)?.description); // Custom model
 * ```
 */
export function offeredModels(model: string): ModelInfoEntry[] {
  const listed = DEFAULT_MODELS.some((m) => m.resolvedModel === model || m.value === model)
    ? undefined
    : modelFacts(model).listed;
  return [...DEFAULT_MODELS.map((m) => ({ ...m })), ...(listed ? [{ ...listed }] : [])];
}
