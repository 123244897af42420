/**
 * What the real CLI knows of a model, beyond its name: its list prices, context window and
 * output limit (`modelUsage`), whether it takes a per-turn effort (`system/init`), which
 * tools and `/effort` levels a session on it has, and the entry the `initialize` answer adds
 * for it to the models it offers. Taken from CLI 2.1.328 run with each model.
 *
 * @module
 */

import type { ModelInfoEntry } from "./model_info_entry.ts";

/** List prices of a model in USD per million tokens. */
export interface ModelPrice {
  /** Input tokens. */
  input: number;
  /** Output tokens. */
  output: number;
  /** Prompt-cache reads. */
  cacheRead: number;
  /** Prompt-cache writes (5 minute ephemeral cache). */
  cacheWrite: number;
}

/**
 * List prices per model, as the real CLI 2.1.328 advertises them in its `initialize`
 * answer (`$4/$20 per Mtok` for Opus 5.5 and so on). Cache prices follow the API's usual
 * ratios (reads 0.1×, writes 1.25× the input price); the recordings never exercise them.
 */
export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze({
  "claude-opus-5-5": { input: 4, output: 20, cacheRead: 0.4, cacheWrite: 5 },
  "claude-fable-5-2": { input: 8, output: 40, cacheRead: 0.8, cacheWrite: 10 },
  "claude-sonnet-5-5": { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 },
  "claude-haiku-5-5": { input: 0.1, output: 0.5, cacheRead: 0.01, cacheWrite: 0.125 },
});

/** What the CLI knows of a model. */
export interface ModelFacts {
  /** The prices it bills the model at (a model it does not know: the default model's). */
  price: ModelPrice;
  /** `list` when the CLI knows the model's prices, else `unknown`. */
  costBasis: "list" | "unknown";
  /** `modelUsage.contextWindow`. */
  contextWindow: number;
  /** `modelUsage.maxOutputTokens`. */
  maxOutputTokens: number;
  /** `system/init`'s `per_turn_effort_active`. */
  perTurnEffort: boolean;
  /** Whether `/effort` offers `ultracode [on|off]`. */
  ultracode: boolean;
  /** Tools a session on the model has beyond the default ones. */
  extraTools: readonly string[];
  /** `modelUsage.canonicalModel`. */
  canonicalModel: string;
  /** The entry the `initialize` answer adds to the models it offers (a model not among them). */
  listed?: ModelInfoEntry;
}

/** Models of the 4 generation the CLI still knows: prices, name, what it offers instead. */
const PREVIOUS: Readonly<
  Record<string, {
    price: ModelPrice;
    name: string;
    family: string;
    canonical?: string;
    effort?: ModelInfoEntry["supportedEffortLevels"];
  }>
> = {
  "claude-opus-4-5": {
    price: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
    name: "Opus 4.5",
    family: "Opus",
    effort: ["low", "medium", "high"],
  },
  "claude-sonnet-4-5": {
    price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    name: "Sonnet 4.5",
    family: "Sonnet",
  },
  "claude-sonnet-4": {
    price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    name: "Sonnet 4",
    family: "Sonnet",
    canonical: "claude-sonnet-4-0",
  },
  "claude-haiku-4-5": {
    price: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
    name: "Haiku 4.5",
    family: "Haiku",
  },
};

/** The task tools a session on a model of the 4 generation has. */
const PREVIOUS_TOOLS: readonly string[] = ["TaskCreate", "TaskGet", "TaskList", "TaskUpdate"];

/**
 * What the CLI knows of `model` (a full model name): one it offers, one of the 4 generation,
 * or one it does not know (billed at the default model's prices, `costBasis: "unknown"`,
 * offered as a "Custom model").
 *
 * @example A model of the 4 generation, and one the CLI does not know
 * ```ts
 * import { modelFacts } from "./model_facts.ts";
 * console.log(modelFacts("claude-sonnet-4-5").contextWindow); // 200000
 * console.log(modelFacts("my-model").costBasis, modelFacts("my-model").maxOutputTokens); // unknown 32000
 * ```
 */
export function modelFacts(model: string): ModelFacts {
  const current = MODEL_PRICES[model];
  if (current) {
    return {
      price: current,
      costBasis: "list",
      contextWindow: 1_000_000,
      maxOutputTokens: 128_000,
      perTurnEffort: true,
      ultracode: true,
      extraTools: [],
      canonicalModel: model,
    };
  }
  const previous = Object.hasOwn(PREVIOUS, model) ? PREVIOUS[model] : undefined;
  if (previous) {
    return {
      price: previous.price,
      costBasis: "list",
      contextWindow: 200_000,
      maxOutputTokens: 32_000,
      perTurnEffort: false,
      ultracode: false,
      extraTools: PREVIOUS_TOOLS,
      canonicalModel: previous.canonical ?? model,
      listed: {
        value: model,
        resolvedModel: model,
        displayName: previous.name,
        description:
          `Newer version available · select ${previous.family} for ${previous.family} 5.5`,
        ...(previous.effort
          ? { supportsEffort: true, supportedEffortLevels: [...previous.effort] }
          : {}),
        supportsThinkingOff: true,
      },
    };
  }
  return {
    price: MODEL_PRICES["claude-opus-5-5"],
    costBasis: "unknown",
    contextWindow: 1_000_000,
    maxOutputTokens: 32_000,
    perTurnEffort: false,
    ultracode: true,
    extraTools: [],
    canonicalModel: model,
    listed: {
      value: model,
      resolvedModel: model,
      displayName: model,
      description: "Custom model",
      supportsEffort: true,
      supportedEffortLevels: ["low", "medium", "high", "xhigh", "max"],
      supportsAdaptiveThinking: true,
      supportsAutoMode: true,
      supportsThinkingOff: true,
    },
  };
}
