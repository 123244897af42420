import assert from "node:assert/strict";
import { apiCallCost, modelUsage, resultUsage, totalCost } from "./usage.ts";

Deno.test("apiCallCost uses list prices per million tokens", () => {
  assert.equal(apiCallCost("claude-opus-5-5", {}), 0.00098);
  assert.equal(apiCallCost("claude-sonnet-5-5", {}), 0.00049);
  assert.equal(apiCallCost("claude-opus-5-5", { inputTokens: 120, outputTokens: 34 }), 0.00116);
  // a model the CLI does not know is billed at the default model's prices (conform model_custom)
  assert.equal(apiCallCost("unknown-model", {}), 0.00098);
  assert.throws(
    () => apiCallCost("claude-opus-5-5", { inputTokens: -1 }),
    /input tokens must be a non-negative integer, got -1/,
  );
});

Deno.test("resultUsage sums calls; no calls gives the zeroed error shape", () => {
  const usage = resultUsage([{ inputTokens: 10, outputTokens: 2, cacheReadInputTokens: 3 }, {}]);
  assert.equal(usage.input_tokens, 130);
  assert.equal(usage.output_tokens, 27);
  assert.equal(usage.cache_read_input_tokens, 3);
  assert.equal(Object.keys(usage)[0], "input_tokens");
  assert.equal(Object.keys(resultUsage([]))[0], "output_tokens_details");
});

Deno.test("modelUsage groups by model and totalCost sums them", () => {
  const byModel = modelUsage([{ model: "claude-opus-5-5" }, { model: "claude-sonnet-5-5" }, {}], {
    model: "claude-sonnet-5-5",
  });
  assert.equal(byModel["claude-sonnet-5-5"].inputTokens, 240);
  assert.equal(byModel["claude-opus-5-5"].costUSD, 0.00098);
  assert.equal(totalCost(byModel), 0.00196);
  assert.equal(modelUsage([{ model: "custom" }]).custom.costBasis, "unknown");
  assert.throws(() => modelUsage([{}]), /an API call has no model/);
});
