/**
 * Token usage and cost accounting as the real CLI reports it in `result` frames: the
 * per-turn `usage` object, the per-model `modelUsage` map and `total_cost_usd`, computed
 * from a list of API calls with the same arithmetic the CLI 2.1.328 recordings show
 * (tokens × list price per million tokens, summed in call order).
 *
 * @module
 */

import { modelFacts } from "./model_facts.ts";

/** Input tokens the fake Messages API of the recordings reports for every call. */
export const DEFAULT_INPUT_TOKENS = 120;
/** Output tokens the fake Messages API of the recordings reports for every call. */
const DEFAULT_OUTPUT_TOKENS = 25;

/** The tokens of one Messages API call. */
export interface ApiCallUsage {
  /** The model that answered (default: the model of the context or the caller). */
  model?: string;
  /** Input tokens (default {@linkcode DEFAULT_INPUT_TOKENS}). */
  inputTokens?: number;
  /** Output tokens (default {@linkcode DEFAULT_OUTPUT_TOKENS}). */
  outputTokens?: number;
  /**
   * Output tokens the call is billed at, when they differ from what its usage reports: a
   * stream that broke reports its `message_start` output, and the CLI bills what it estimates
   * streamed (default `outputTokens`). `modelUsage` and the cost count these; a turn's `usage`
   * counts `outputTokens`.
   */
  billedOutputTokens?: number;
  /** Prompt-cache read tokens (default 0). */
  cacheReadInputTokens?: number;
  /** Prompt-cache write tokens (default 0). */
  cacheCreationInputTokens?: number;
}

/** The `usage` object of a `result` frame (the SDK's `NonNullableUsage`). */
export type ResultUsage = {
  /** Input tokens. */
  input_tokens: number;
  /** Prompt-cache write tokens. */
  cache_creation_input_tokens: number;
  /** Prompt-cache read tokens. */
  cache_read_input_tokens: number;
  /** Output tokens. */
  output_tokens: number;
  /** Output token breakdown. */
  output_tokens_details: { thinking_tokens: number };
  /** Server tool counts. */
  server_tool_use: { web_search_requests: number; web_fetch_requests: number };
  /** Service tier. */
  service_tier: "standard" | "priority" | "batch";
  /** Prompt-cache writes by lifetime. */
  cache_creation: { ephemeral_1h_input_tokens: number; ephemeral_5m_input_tokens: number };
  /** Inference region (empty). */
  inference_geo: string;
  /** Per-iteration usage (empty). */
  iterations: never[];
  /** Speed tier. */
  speed: "standard" | "fast";
  /** Fallback credit (`null`). */
  fallback_credit: null;
};

/** One model's entry in a `result` frame's `modelUsage` (the SDK's `ModelUsage`). */
export interface ModelUsageEntry {
  /** Input tokens. */
  inputTokens: number;
  /** Output tokens. */
  outputTokens: number;
  /** Prompt-cache read tokens. */
  cacheReadInputTokens: number;
  /** Prompt-cache write tokens. */
  cacheCreationInputTokens: number;
  /** Web searches. */
  webSearchRequests: number;
  /** Cost in USD. */
  costUSD: number;
  /** Context window of the model. */
  contextWindow: number;
  /** Output token limit of the model. */
  maxOutputTokens: number;
  /** Thinking tokens. */
  thinkingTokens: number;
  /** Prompt-cache writes, 5 minute lifetime. */
  cacheCreationEphemeral5mInputTokens: number;
  /** Prompt-cache writes, 1 hour lifetime. */
  cacheCreationEphemeral1hInputTokens: number;
  /** The canonical model name. */
  canonicalModel: string;
  /** The API provider. */
  provider: "firstParty";
  /** How the cost was computed. */
  costBasis: "list" | "unknown";
}

/**
 * The cost in USD of one API call at list price (a model the CLI does not know: at the default
 * model's, as the CLI bills it).
 *
 * @example The cost of the recordings' default call
 * ```ts
 * import { apiCallCost } from "./usage.ts";
 * console.log(apiCallCost("claude-opus-5-5", { inputTokens: 120, outputTokens: 25 })); // 0.00098
 * ```
 */
export function apiCallCost(model: string, call: ApiCallUsage): number {
  const price = modelFacts(model).price;
  const t = tokensOf(call);
  return t.input * price.input / 1e6 + t.billed * price.output / 1e6 +
    t.cacheRead * price.cacheRead / 1e6 + t.cacheWrite * price.cacheWrite / 1e6;
}

/**
 * The `usage` object of a `result` frame summed over the given API calls (the main agent
 * loop of one turn). With no calls it has the zeroed shape (and key order) the CLI writes
 * on error and local-command results.
 *
 * @example Usage of a turn with two API calls
 * ```ts
 * import { resultUsage } from "@x/claude-mock/builders";
 * const usage = resultUsage([{}, {}]);
 * console.log(usage.input_tokens, usage.output_tokens); // 240 50
 * ```
 */
export function resultUsage(calls: readonly ApiCallUsage[]): ResultUsage {
  let input = 0, output = 0, cacheRead = 0, cacheWrite = 0;
  for (const call of calls) {
    const t = tokensOf(call);
    input += t.input;
    output += t.output;
    cacheRead += t.cacheRead;
    cacheWrite += t.cacheWrite;
  }
  const rest = {
    server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
    service_tier: "standard" as const,
    cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: cacheWrite },
    inference_geo: "",
    iterations: [],
    speed: "standard" as const,
    fallback_credit: null,
  };
  if (calls.length === 0) {
    // The CLI writes a zeroed usage with output_tokens_details first (interrupt, api_error
    // and /compact recordings).
    return {
      output_tokens_details: { thinking_tokens: 0 },
      input_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 0,
      ...rest,
    };
  }
  return {
    input_tokens: input,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
    output_tokens: output,
    output_tokens_details: { thinking_tokens: 0 },
    ...rest,
  };
}

/**
 * The `modelUsage` map of a `result` frame: tokens and cost per model over the given API
 * calls (every call of the session so far, subagents included, as the CLI counts it).
 *
 * @example Two calls on two models
 * ```ts
 * import { modelUsage } from "@x/claude-mock/builders";
 * const byModel = modelUsage([{ model: "claude-opus-5-5" }, { model: "claude-sonnet-5-5" }]);
 * console.log(byModel["claude-sonnet-5-5"].costUSD); // 0.00049
 * ```
 */
export function modelUsage(
  calls: readonly ApiCallUsage[],
  options: { model?: string } = {},
): Record<string, ModelUsageEntry> {
  const out: Record<string, ModelUsageEntry> = {};
  for (const call of calls) {
    const model = call.model ?? options.model;
    if (model === undefined) {
      throw new TypeError(
        "Cannot compute modelUsage: an API call has no model and no default model was given",
      );
    }
    const t = tokensOf(call);
    const facts = modelFacts(model);
    const entry = out[model] ??= {
      inputTokens: 0,
      outputTokens: 0,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
      webSearchRequests: 0,
      costUSD: 0,
      contextWindow: facts.contextWindow,
      maxOutputTokens: facts.maxOutputTokens,
      thinkingTokens: 0,
      cacheCreationEphemeral5mInputTokens: 0,
      cacheCreationEphemeral1hInputTokens: 0,
      canonicalModel: facts.canonicalModel,
      provider: "firstParty",
      costBasis: facts.costBasis,
    };
    entry.inputTokens += t.input;
    entry.outputTokens += t.billed;
    entry.cacheReadInputTokens += t.cacheRead;
    entry.cacheCreationInputTokens += t.cacheWrite;
    entry.cacheCreationEphemeral5mInputTokens += t.cacheWrite;
    entry.costUSD += apiCallCost(model, call);
  }
  return out;
}

/**
 * The `total_cost_usd` of a `result` frame: the sum of `costUSD` over a `modelUsage` map.
 *
 * @example Total cost
 * ```ts
 * import { modelUsage } from "@x/claude-mock/builders";
 * import { totalCost } from "./usage.ts";
 * console.log(totalCost(modelUsage([{}, {}], { model: "claude-opus-5-5" }))); // 0.00196
 * ```
 */
export function totalCost(usageByModel: Readonly<Record<string, ModelUsageEntry>>): number {
  let total = 0;
  for (const entry of Object.values(usageByModel)) total += entry.costUSD;
  return total;
}

function tokensOf(call: ApiCallUsage) {
  const t = {
    input: call.inputTokens ?? DEFAULT_INPUT_TOKENS,
    output: call.outputTokens ?? DEFAULT_OUTPUT_TOKENS,
    cacheRead: call.cacheReadInputTokens ?? 0,
    cacheWrite: call.cacheCreationInputTokens ?? 0,
    billed: call.billedOutputTokens ?? call.outputTokens ?? DEFAULT_OUTPUT_TOKENS,
  };
  // checked in the order of the fields (every API call's cost and usage reads them)
  checkTokens("input", t.input);
  checkTokens("output", t.output);
  checkTokens("cacheRead", t.cacheRead);
  checkTokens("cacheWrite", t.cacheWrite);
  checkTokens("billed", t.billed);
  return t;
}

function checkTokens(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0) {
    throw new RangeError(
      `Cannot account API usage: ${name} tokens must be a non-negative integer, got ${value}`,
    );
  }
}
