/**
 * What the real CLI knows of a model, beyond its name: its list prices, context window and
 * output limit (`modelUsage`), whether it takes a per-turn effort (`system/init`), which
 * tools and `/effort` levels a session on it has, and the entry the `initialize` answer adds
 * for it to the models it offers. Read from the CLI version's model catalog
 * (`model_catalog.ts`), by the model's canonical id: `claude-3-7-sonnet-20250219`,
 * `CLAUDE-3-7-SONNET-LATEST` and `us.anthropic.claude-3-7-sonnet-20250219-v1:0` are all
 * Claude 3.7 Sonnet.
 *
 * @module
 */

import type { ModelInfoEntry } from "./model_info_entry.ts";
import {
  type CatalogModel,
  catalogModel,
  MODEL_CATALOG_328,
  type ModelCatalog,
  type ModelPrice,
  ONE_MILLION,
} from "./model_catalog.ts";

export type { ModelPrice };

/**
 * List prices of the models the CLI offers, in USD per million tokens (the catalog's:
 * `$4/$20 per Mtok` for Opus 5.5 and so on, cache writes 1.25× the input price).
 */
export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze(
  Object.fromEntries(
    Object.values(MODEL_CATALOG_328.aliases).map((id) => [
      id,
      MODEL_CATALOG_328.models.find((m) => m.id === id)!.price!,
    ]),
  ),
);

/** What the CLI knows of a model. */
export interface ModelFacts {
  /** The prices it bills the model at (a model it does not price: the default model's). */
  price: ModelPrice;
  /** `list` when the CLI knows the model's prices, else `unknown`. */
  costBasis: "list" | "unknown";
  /** Whether the model is in the CLI's catalog (else it notes `unrecognized_model`). */
  known: boolean;
  /** `modelUsage.contextWindow`. */
  contextWindow: number;
  /** `modelUsage.maxOutputTokens`. */
  maxOutputTokens: number;
  /** `system/init`'s `per_turn_effort_active`. */
  perTurnEffort: boolean;
  /** Whether `/effort` offers `ultracode [on|off]`. */
  ultracode: boolean;
  /** The display name `/fast` names when the model has fast mode (`Opus 4.8`). */
  fastModeName?: string;
  /** Tools a session on the model has beyond the default ones. */
  extraTools: readonly string[];
  /** `modelUsage.canonicalModel`. */
  canonicalModel: string;
  /** The entry the `initialize` answer adds to the models it offers (a model not among them). */
  listed?: ModelInfoEntry;
}

/** The task tools a session on an older model has. */
const TASK_TOOLS: readonly string[] = ["TaskCreate", "TaskGet", "TaskList", "TaskUpdate"];

/** The picker's words for the models it offers (`Best for everyday, complex tasks`). */
const TAGLINES: Readonly<Record<string, string>> = {
  opus: "Best for everyday, complex tasks",
  fable: "Most capable for your hardest and longest-running tasks",
  sonnet: "Efficient for routine tasks",
  haiku: "Fastest for quick answers",
};

/**
 * What the CLI knows of `model` (the name a session reports): a model of its catalog by any
 * of its ids, or one it does not know (billed at the default model's prices,
 * `costBasis: "unknown"`, offered as a "Custom model").
 *
 * @example A dated id of a catalog model, and one the CLI does not know
 * ```ts
 * import { modelFacts } from "./model_facts.ts";
 * const sonnet = modelFacts("claude-3-7-sonnet-20250219");
 * console.log(sonnet.canonicalModel, sonnet.contextWindow, sonnet.listed?.displayName);
 * // claude-3-7-sonnet 200000 Claude 3.7 Sonnet
 * console.log(modelFacts("my-model").costBasis, modelFacts("my-model").maxOutputTokens); // unknown 32000
 * ```
 */
export function modelFacts(model: string, catalog: ModelCatalog = MODEL_CATALOG_328): ModelFacts {
  // every API call's cost and usage asks again: read once per catalog and name, then shared
  // (frozen, so no caller can change what the next one reads)
  let cached = FACTS.get(catalog);
  if (!cached) FACTS.set(catalog, cached = new Map());
  let facts = cached.get(model);
  if (!facts) {
    facts = deepFreeze(readFacts(model, catalog));
    if (cached.size >= FACTS_PER_CATALOG) cached.clear();
    cached.set(model, facts);
  }
  return facts;
}

/** The facts read so far, by catalog and name. */
const FACTS = new WeakMap<ModelCatalog, Map<string, ModelFacts>>();
/** How many names a catalog keeps facts for (any name can come from a user's `--model`). */
const FACTS_PER_CATALOG = 256;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function readFacts(model: string, catalog: ModelCatalog): ModelFacts {
  const known = catalogModel(model, catalog);
  const fallback = catalog.models.find((m) => m.id === catalog.defaultModel)!.price!;
  if (!known) {
    return {
      price: fallback,
      costBasis: "unknown",
      known: false,
      contextWindow: 1_000_000,
      maxOutputTokens: 32_000,
      perTurnEffort: false,
      ultracode: true,
      extraTools: [],
      canonicalModel: model.replace(/\./g, "-"),
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
  // `[1m]` asks for the 1M window
  const oneMillion = ONE_MILLION.test(model.trim());
  return {
    price: known.price ?? fallback,
    costBasis: known.price ? "list" : "unknown",
    known: true,
    contextWindow: oneMillion ? 1_000_000 : known.contextWindow,
    maxOutputTokens: known.maxOutputTokens,
    perTurnEffort: known.perTurnEffort === true,
    ultracode: known.legacyTools !== true,
    ...(known.fastMode ? { fastModeName: known.displayName } : {}),
    extraTools: known.legacyTools || known.taskTools ? TASK_TOOLS : [],
    canonicalModel: known.id,
    listed: listedEntry(model, known, catalog, oneMillion),
  };
}

/** The picker's entry for a session on `model`, a name of the catalog model `known`. */
function listedEntry(
  model: string,
  known: CatalogModel,
  catalog: ModelCatalog,
  oneMillion: boolean,
): ModelInfoEntry {
  const latest = catalog.aliases[known.family];
  const latestModel = latest === undefined
    ? undefined
    : catalog.models.find((m) => m.id === latest);
  const description = known.displayName === ""
    ? "Custom model"
    : latest === known.id
    ? `${TAGLINES[known.family]} (${model})`
    : latestModel === undefined
    ? `Custom model (${model})`
    : known.family === "fable"
    ? `${known.displayName} \u00b7 ${TAGLINES.fable}`
    : `Newer version available \u00b7 select ${cap(known.family)} for ${latestModel.displayName}`;
  // a family the picker does not offer: a custom model's entry, with the catalog's names
  const custom = latestModel === undefined;
  const effort = custom ? ["low", "medium", "high", "xhigh", "max"] as const : known.effort;
  const adaptive = custom || known.adaptiveThinking;
  return {
    value: model,
    resolvedModel: model,
    displayName: known.displayName === ""
      ? model
      : oneMillion && known.namedOneMillion
      ? `${known.displayName} (1M context)`
      : known.displayName,
    description,
    ...(effort ? { supportsEffort: true, supportedEffortLevels: [...effort] } : {}),
    ...(adaptive ? { supportsAdaptiveThinking: true } : {}),
    ...(known.fastMode ? { supportsFastMode: true } : {}),
    ...(adaptive ? { supportsAutoMode: true } : {}),
    supportsThinkingOff: known.thinkingAlwaysOn !== true,
  };
}

function cap(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
