/**
 * The models the mock offers in the `initialize` answer, taken from what the real CLI
 * 2.1.328 reported in the recordings.
 *
 * @module
 */

import { modelFacts } from "./model_facts.ts";
import { catalogModel, MODEL_CATALOG_328, type ModelCatalog } from "./model_catalog.ts";
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
 * own entry when it is not among them (an older model, a dated id, a custom one; `requested`:
 * the alias or id the session was given, when it resolved to another name). A model
 * of the Fable family comes after the `fable` entry (the newest Fable, named by its id,
 * takes that entry's value); any other after them all.
 *
 * @example A session on a custom model
 * ```ts
 * import { offeredModels } from "./models.ts";
 * console.log(offeredModels("my-model").at(-1)?.description); // Custom model
 * ```
 */
export function offeredModels(
  model: string,
  options: { catalog?: ModelCatalog; requested?: string } = {},
): ModelInfoEntry[] {
  const catalog = options.catalog ?? MODEL_CATALOG_328;
  const models = DEFAULT_MODELS.map((m) => ({ ...m }));
  if (options.requested?.trim().toLowerCase() === "opusplan") {
    const plan = catalog.opusplan;
    return [...models, {
      value: "opusplan",
      resolvedModel: plan.model,
      displayName: plan.displayName,
      description: plan.description,
      supportsEffort: true,
      supportedEffortLevels: ["low", "medium", "high", "xhigh", "max"],
      supportsAdaptiveThinking: true,
      supportsAutoMode: true,
      supportsThinkingOff: false,
    }];
  }
  if (DEFAULT_MODELS.some((m) => m.resolvedModel === model || m.value === model)) {
    // the newest Fable named by its id (not by an alias) is the `fable` entry's value
    const fable = models.find((m) => m.value === "fable");
    if (fable && fable.resolvedModel === model && options.requested === undefined) {
      fable.value = model;
    }
    return models;
  }
  const { listed: facts, known } = modelFacts(model, catalog);
  if (!facts) return models;
  // the entry's value is the id as given (spaces around it, a `[1m]` the session dropped)
  // a model it does not know is shown as asked for (blanks too), resolved to the trimmed id
  const asked = options.requested;
  const listed = asked === undefined
    ? facts
    : known
    ? { ...facts, value: asked }
    : { ...facts, value: asked, displayName: asked };
  const fable = models.findIndex((m) => m.value === "fable");
  if (fable >= 0 && catalogModel(model, catalog)?.family === "fable") {
    models.splice(fable + 1, 0, { ...listed });
    return models;
  }
  return [...models, { ...listed }];
}
