/**
 * The models the real CLI knows, as data: its baked-in model catalog (first-party facts:
 * list prices, context window, output limit, effort levels, per-turn effort, fast mode), the
 * aliases users pass (`opus`, `sonnet[1m]`, `best`, `opusplan`), the legacy ids it remaps to
 * the latest Opus, and how it reads an id (`canonicalModelId`: case, spaces, `[1m]`, dates,
 * `-latest`, Bedrock and Vertex forms). Taken from CLI 2.1.328–2.1.332 (the catalog the
 * binaries carry, checked by running each id through the real CLI: `conformance/model_*`).
 *
 * @module
 */

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

/** An effort level a model offers (`/effort`, the `initialize` answer's models). */
export type EffortLevel = "low" | "medium" | "high" | "xhigh" | "max";

/** One model of the catalog. */
export interface CatalogModel {
  /** The canonical id (`modelUsage.canonicalModel`): `claude-opus-4-5`. */
  readonly id: string;
  /** The family, as its alias names it. */
  readonly family: "opus" | "sonnet" | "haiku" | "fable" | "mythos";
  /** As the model picker names it (`Opus 4.5`, `Claude 3.7 Sonnet`). */
  readonly displayName: string;
  /** Other names it goes by, without a date (`claude-opus-4` for `claude-opus-4-0`). */
  readonly names?: readonly string[];
  /** List prices; `undefined` for a model the CLI knows but does not price. */
  readonly price?: ModelPrice;
  /** `modelUsage.contextWindow`. */
  readonly contextWindow: number;
  /** `modelUsage.maxOutputTokens`. */
  readonly maxOutputTokens: number;
  /** The effort levels it offers (none: no effort). */
  readonly effort?: readonly EffortLevel[];
  /** Adaptive thinking (and auto mode) in its models entry. */
  readonly adaptiveThinking?: boolean;
  /** `system/init`'s `per_turn_effort_active`. */
  readonly perTurnEffort?: boolean;
  /** Fast mode (`/fast` names it, its models entry says `supportsFastMode`). */
  readonly fastMode?: boolean;
  /** It refuses thinking turned off (`supportsThinkingOff: false`). */
  readonly thinkingAlwaysOn?: boolean;
  /**
   * A session on it has the legacy tool set: the task tools (`TaskCreate`, `TaskGet`,
   * `TaskList`, `TaskUpdate`), and `/effort` offers no `ultracode`.
   */
  readonly legacyTools?: boolean;
  /** A session on it has the task tools, `/effort` still offers `ultracode` (Opus 4.7). */
  readonly taskTools?: boolean;
  /** Given with `[1m]`, the picker names it `<name> (1M context)`. */
  readonly namedOneMillion?: boolean;
}

/** What a CLI version knows of models (`CliVersionFacts.modelCatalog`). */
export interface ModelCatalog {
  /** The models, newest of each family last. */
  readonly models: readonly CatalogModel[];
  /** Alias → the canonical id it resolves to (`best` → `claude-opus-5-5`). */
  readonly aliases: Readonly<Record<string, string>>;
  /** The default model (`default`, and a session with no model). */
  readonly defaultModel: string;
  /**
   * Legacy ids the CLI runs as the latest Opus unless `CLAUDE_CODE_DISABLE_LEGACY_MODEL_REMAP`
   * is set (compared lower-cased, trimmed, without `[1m]`).
   */
  readonly legacyRemaps: readonly string[];
  /** The alias whose model the legacy ids run as, and how the notice names it. */
  readonly remapTarget: { readonly alias: string; readonly description: string };
  /** The model `opusplan` runs outside plan mode, and its picker entry. */
  readonly opusplan: {
    readonly model: string;
    readonly displayName: string;
    readonly description: string;
  };
}

const tier = (input: number, output: number, cacheRead = input / 10): ModelPrice => ({
  input,
  output,
  cacheRead,
  cacheWrite: input * 1.25,
});

const FIVE: readonly EffortLevel[] = ["low", "medium", "high", "xhigh", "max"];
const FOUR: readonly EffortLevel[] = ["low", "medium", "high", "max"];
const K200 = 200_000, M1 = 1_000_000;

/**
 * The catalog of CLI 2.1.328–2.1.332 (identical first-party facts in all three: the
 * binaries' baked-in model catalog, plus the Claude 3 models it still names).
 */
export const MODEL_CATALOG_328: ModelCatalog = Object.freeze({
  models: Object.freeze(
    [
      // Claude 3: known (output limits, legacy tools), not priced
      {
        id: "claude-3-opus",
        family: "opus",
        displayName: "",
        contextWindow: K200,
        maxOutputTokens: 4096,
        legacyTools: true,
      },
      {
        id: "claude-3-sonnet",
        family: "sonnet",
        displayName: "",
        contextWindow: K200,
        maxOutputTokens: 8192,
        legacyTools: true,
      },
      {
        id: "claude-3-haiku",
        family: "haiku",
        displayName: "",
        contextWindow: K200,
        maxOutputTokens: 4096,
        legacyTools: true,
      },
      {
        id: "claude-3-5-haiku",
        family: "haiku",
        displayName: "Claude 3.5 Haiku",
        price: tier(0.8, 4),
        contextWindow: K200,
        maxOutputTokens: 8192,
        legacyTools: true,
      },
      {
        id: "claude-3-5-sonnet",
        family: "sonnet",
        displayName: "Claude 3.5 Sonnet",
        price: tier(3, 15),
        contextWindow: K200,
        maxOutputTokens: 8192,
        legacyTools: true,
      },
      {
        id: "claude-3-7-sonnet",
        family: "sonnet",
        displayName: "Claude 3.7 Sonnet",
        price: tier(3, 15),
        contextWindow: K200,
        maxOutputTokens: 32_000,
        legacyTools: true,
      },
      {
        id: "claude-haiku-4-5",
        family: "haiku",
        displayName: "Haiku 4.5",
        price: tier(1, 5),
        contextWindow: K200,
        maxOutputTokens: 32_000,
        legacyTools: true,
      },
      {
        id: "claude-sonnet-4-0",
        family: "sonnet",
        displayName: "Sonnet 4",
        names: ["claude-sonnet-4"],
        price: tier(3, 15),
        contextWindow: K200,
        maxOutputTokens: 32_000,
        legacyTools: true,
        namedOneMillion: true,
      },
      {
        id: "claude-sonnet-4-5",
        family: "sonnet",
        displayName: "Sonnet 4.5",
        price: tier(3, 15),
        contextWindow: K200,
        maxOutputTokens: 32_000,
        legacyTools: true,
        namedOneMillion: true,
      },
      {
        id: "claude-sonnet-4-6",
        family: "sonnet",
        displayName: "Sonnet 4.6",
        price: tier(3, 15),
        contextWindow: K200,
        maxOutputTokens: 32_000,
        effort: FOUR,
        adaptiveThinking: true,
        legacyTools: true,
        namedOneMillion: true,
      },
      {
        id: "claude-sonnet-5",
        family: "sonnet",
        displayName: "Sonnet 5",
        price: tier(2, 10),
        contextWindow: M1,
        maxOutputTokens: 64_000,
        effort: FIVE,
        adaptiveThinking: true,
      },
      {
        id: "claude-opus-4-0",
        family: "opus",
        displayName: "Opus 4",
        names: ["claude-opus-4"],
        price: tier(15, 75),
        contextWindow: K200,
        maxOutputTokens: 32_000,
        legacyTools: true,
      },
      {
        id: "claude-opus-4-1",
        family: "opus",
        displayName: "Opus 4.1",
        price: tier(15, 75),
        contextWindow: K200,
        maxOutputTokens: 32_000,
        legacyTools: true,
      },
      {
        id: "claude-opus-4-5",
        family: "opus",
        displayName: "Opus 4.5",
        price: tier(5, 25),
        contextWindow: K200,
        maxOutputTokens: 32_000,
        effort: ["low", "medium", "high"],
        legacyTools: true,
      },
      {
        id: "claude-opus-4-6",
        family: "opus",
        displayName: "Opus 4.6",
        price: tier(5, 25),
        contextWindow: K200,
        maxOutputTokens: 64_000,
        effort: FOUR,
        adaptiveThinking: true,
        legacyTools: true,
        namedOneMillion: true,
      },
      {
        id: "claude-opus-4-7",
        family: "opus",
        displayName: "Opus 4.7",
        price: tier(5, 25),
        contextWindow: M1,
        maxOutputTokens: 64_000,
        effort: FIVE,
        adaptiveThinking: true,
        taskTools: true,
        namedOneMillion: true,
      },
      {
        id: "claude-opus-4-8",
        family: "opus",
        displayName: "Opus 4.8",
        price: tier(5, 25),
        contextWindow: M1,
        maxOutputTokens: 64_000,
        effort: FIVE,
        adaptiveThinking: true,
        fastMode: true,
        namedOneMillion: true,
      },
      {
        id: "claude-opus-5",
        family: "opus",
        displayName: "Opus 5",
        price: tier(5, 25),
        contextWindow: M1,
        maxOutputTokens: 64_000,
        effort: FIVE,
        adaptiveThinking: true,
        fastMode: true,
        namedOneMillion: true,
      },
      {
        id: "claude-fable-5",
        family: "fable",
        displayName: "Fable 5",
        price: tier(10, 50),
        contextWindow: M1,
        maxOutputTokens: 64_000,
        effort: FIVE,
        adaptiveThinking: true,
        thinkingAlwaysOn: true,
      },
      {
        id: "claude-fable-5-1",
        family: "fable",
        displayName: "Fable 5.1",
        price: tier(10, 50, 0.25),
        contextWindow: M1,
        maxOutputTokens: 64_000,
        effort: FIVE,
        adaptiveThinking: true,
        perTurnEffort: true,
        thinkingAlwaysOn: true,
      },
      {
        id: "claude-mythos-5",
        family: "mythos",
        displayName: "Mythos 5",
        price: tier(10, 50),
        contextWindow: M1,
        maxOutputTokens: 64_000,
      },
      {
        id: "claude-mythos-5-1",
        family: "mythos",
        displayName: "Mythos 5.1",
        price: tier(10, 50, 0.25),
        contextWindow: M1,
        maxOutputTokens: 64_000,
        effort: FIVE,
        adaptiveThinking: true,
        thinkingAlwaysOn: true,
      },
      {
        id: "claude-mythos-5-2",
        family: "mythos",
        displayName: "Mythos 5.2",
        price: tier(8, 40, 0.2),
        contextWindow: M1,
        maxOutputTokens: 128_000,
        effort: FIVE,
        adaptiveThinking: true,
        perTurnEffort: true,
        fastMode: true,
        thinkingAlwaysOn: true,
      },
      // the models the CLI offers (its aliases' targets)
      {
        id: "claude-opus-5-5",
        family: "opus",
        displayName: "Opus 5.5",
        price: tier(4, 20, 0.2),
        contextWindow: M1,
        maxOutputTokens: 128_000,
        effort: FIVE,
        adaptiveThinking: true,
        perTurnEffort: true,
        fastMode: true,
        thinkingAlwaysOn: true,
        namedOneMillion: true,
      },
      {
        id: "claude-fable-5-2",
        family: "fable",
        displayName: "Fable 5.2",
        price: tier(8, 40, 0.2),
        contextWindow: M1,
        maxOutputTokens: 128_000,
        effort: FIVE,
        adaptiveThinking: true,
        perTurnEffort: true,
        fastMode: true,
        thinkingAlwaysOn: true,
      },
      {
        id: "claude-sonnet-5-5",
        family: "sonnet",
        displayName: "Sonnet 5.5",
        price: tier(2, 10, 0.1),
        contextWindow: M1,
        maxOutputTokens: 128_000,
        effort: FIVE,
        adaptiveThinking: true,
        perTurnEffort: true,
        thinkingAlwaysOn: true,
      },
      {
        id: "claude-haiku-5-5",
        family: "haiku",
        displayName: "Haiku 5.5",
        price: tier(0.1, 0.5),
        contextWindow: M1,
        maxOutputTokens: 128_000,
        effort: FIVE,
        adaptiveThinking: true,
        perTurnEffort: true,
        thinkingAlwaysOn: true,
      },
    ] satisfies CatalogModel[] as CatalogModel[],
  ),
  aliases: Object.freeze({
    default: "claude-opus-5-5",
    best: "claude-opus-5-5",
    opus: "claude-opus-5-5",
    fable: "claude-fable-5-2",
    sonnet: "claude-sonnet-5-5",
    haiku: "claude-haiku-5-5",
  }),
  defaultModel: "claude-opus-5-5",
  legacyRemaps: Object.freeze([
    "claude-opus-4-20250514",
    "claude-opus-4-1-20250805",
    "claude-opus-4-0",
    "claude-opus-4-1",
  ]),
  remapTarget: Object.freeze({ alias: "opus", description: "the latest Opus" }),
  opusplan: Object.freeze({
    model: "claude-sonnet-5-5",
    displayName: "Opus Plan Mode",
    description: "Use Opus in plan mode, Sonnet otherwise",
  }),
});

/**
 * Each CLI version's catalog, oldest first: a version has the catalog of the newest row not
 * above the version its behaviour comes from (`CliVersion.basis`).
 */
const CATALOG_HISTORY: ReadonlyArray<readonly [string, ModelCatalog]> = [
  ["2.1.328", MODEL_CATALOG_328],
];

/**
 * The model catalog of a CLI version (`cliVersionFacts(...)`, `ctx.cli`).
 *
 * @example The catalog 2.1.332 runs with
 * ```ts
 * import { modelCatalogOf } from "./model_catalog.ts";
 * import { cliVersionFacts } from "./cli_versions.ts";
 * console.log(modelCatalogOf(cliVersionFacts("2.1.332")).aliases.opus); // claude-opus-5-5
 * ```
 */
export function modelCatalogOf(cli: { readonly basis: string }): ModelCatalog {
  // asked before every API call: looked up once per version
  const known = CATALOGS.get(cli.basis);
  if (known) return known;
  const parts = (v: string) => v.split(".").map(Number);
  const [a, b, c] = parts(cli.basis);
  let found = CATALOG_HISTORY[0][1];
  for (const [version, catalog] of CATALOG_HISTORY) {
    const [x, y, z] = parts(version);
    if (x < a || (x === a && (y < b || (y === b && z <= c)))) found = catalog;
  }
  if (CATALOGS.size >= 64) CATALOGS.clear();
  CATALOGS.set(cli.basis, found);
  return found;
}

/** The catalog of each version asked for so far (catalogs are frozen: shared as they are). */
const CATALOGS = new Map<string, ModelCatalog>();

/** A date, a `-latest`, a Bedrock version after a known model's name. */
const TRAILER = /^(?:(?:-|@)\d{8}|-latest)?(?:-v\d+(?::\d+)?)?$/;
/** A Bedrock id: `us.anthropic.claude-…`, `anthropic.claude-…`. */
const BEDROCK = /^(?:[a-z-]+\.)?anthropic\.(claude-.*)$/;

/**
 * How the CLI reads a model id to look it up: trimmed, in lower case, without a window suffix
 * (`[1m]`, `[2m]`).
 *
 * @example An alias as a user may type it
 * ```ts
 * import { modelKey } from "./model_catalog.ts";
 * console.log(modelKey(" Sonnet[1m] ")); // sonnet
 * ```
 */
export function modelKey(id: string): string {
  return id.trim().toLowerCase().replace(/\[[12]m\]$/, "");
}

/**
 * The catalog model an id names, as the CLI reads it: lower-cased and trimmed, without
 * `[1m]`, a path or a Bedrock prefix, the model's name (or another name of it) followed by
 * nothing, a date (`-20250929`, `@20250929`), `-latest` or a Bedrock version (`-v1:0`); else
 * the newest model whose name the id contains (`claude-opus-4-5x` is Opus 4.5). `undefined`
 * for an id that names none.
 *
 * @example Ids of Sonnet 4.5
 * ```ts
 * import { catalogModel, MODEL_CATALOG_328 } from "./model_catalog.ts";
 * for (const id of ["claude-sonnet-4-5-20250929", "us.anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5@20250929"]) {
 *   console.log(catalogModel(id, MODEL_CATALOG_328)?.id); // claude-sonnet-4-5
 * }
 * ```
 */
export function catalogModel(id: string, catalog: ModelCatalog): CatalogModel | undefined {
  let r = modelKey(id);
  if (r === "" || /\s/.test(r)) return undefined;
  r = r.slice(r.lastIndexOf("/") + 1);
  r = BEDROCK.exec(r)?.[1] ?? r;
  let best: { model: CatalogModel; length: number } | undefined;
  for (const model of catalog.models) {
    for (const name of [model.id, ...(model.names ?? [])]) {
      if (r.startsWith(name) && TRAILER.test(r.slice(name.length))) {
        if (!best || name.length > best.length) best = { model, length: name.length };
      }
    }
  }
  if (best) return best.model;
  // the CLI's fallback: the newest model whose name the id contains
  let found: { model: CatalogModel; length: number } | undefined;
  for (const model of catalog.models) {
    for (const name of [model.id, ...(model.names ?? [])]) {
      const at = r.indexOf(name);
      // `claude-opus-4` must not be read in `claude-opus-4-5`
      if (at < 0 || /^-\d(?!\d)/.test(r.slice(at + name.length))) continue;
      if (!found || name.length > found.length) found = { model, length: name.length };
    }
  }
  return found?.model;
}

/**
 * The name the CLI sends the API for a session's model: without the `[1m]` that asks for the
 * 1M window.
 *
 * @example A model with the 1M window asked for
 * ```ts
 * import { apiModelName } from "./model_catalog.ts";
 * console.log(apiModelName("claude-sonnet-4-6[1m]")); // claude-sonnet-4-6
 * ```
 */
export function apiModelName(model: string): string {
  return model.replace(ONE_MILLION, "");
}

/** The suffix that asks for the 1M window. */
export const ONE_MILLION: RegExp = /\[1m\]$/i;

/** How a session's model was chosen (`resolveSessionModel`). */
export interface SessionModel {
  /** The model the session reports (`system/init`, messages, `modelUsage` keys). */
  model: string;
  /** It was an alias (`opus`, `Sonnet[1m]`, `best`, `default`, `opusplan`). */
  alias?: string;
  /** A legacy id the CLI runs as the latest Opus: the id as given (trimmed). */
  remappedFrom?: string;
}

/**
 * The model a session given `requested` (`--model`, the settings' `model`) runs on, as the
 * CLI resolves it: an alias (any case, with or without `[1m]`) to its model, a legacy id it
 * remaps to the latest Opus (unless `CLAUDE_CODE_DISABLE_LEGACY_MODEL_REMAP` is set), any
 * other id as given, trimmed (a dated, cloud or unknown id is reported as it is).
 *
 * @example An alias, a remapped id and a dated one
 * ```ts
 * import { MODEL_CATALOG_328, resolveSessionModel } from "./model_catalog.ts";
 * console.log(resolveSessionModel("Sonnet[1m]", MODEL_CATALOG_328).model); // claude-sonnet-5-5
 * console.log(resolveSessionModel("claude-opus-4-1", MODEL_CATALOG_328).model); // claude-opus-5-5
 * console.log(resolveSessionModel("claude-opus-4-1", MODEL_CATALOG_328, { CLAUDE_CODE_DISABLE_LEGACY_MODEL_REMAP: "1" }).model);
 * // claude-opus-4-1
 * console.log(resolveSessionModel("claude-3-7-sonnet-20250219", MODEL_CATALOG_328).model); // claude-3-7-sonnet-20250219
 * ```
 */
export function resolveSessionModel(
  requested: string,
  catalog: ModelCatalog,
  env: Record<string, string | undefined> = {},
): SessionModel {
  const trimmed = requested.trim();
  const key = modelKey(trimmed);
  if (Object.hasOwn(catalog.aliases, key)) {
    return { model: catalog.aliases[key], alias: key };
  }
  if (key === "opusplan") return { model: catalog.opusplan.model, alias: key };
  const optOut = env.CLAUDE_CODE_DISABLE_LEGACY_MODEL_REMAP;
  if (catalog.legacyRemaps.includes(key) && !(optOut !== undefined && optOut !== "")) {
    return { model: catalog.aliases[catalog.remapTarget.alias], remappedFrom: trimmed };
  }
  // a model whose window is 1M anyway drops the `[1m]` it was given
  const named = catalog.models.find((m) => m.id === key);
  if (named && named.contextWindow >= 1_000_000 && key !== trimmed.toLowerCase()) {
    return { model: named.id };
  }
  return { model: trimmed };
}
