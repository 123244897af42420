import assert from "node:assert/strict";
import { createBuildContext } from "./build_context.ts";
import { commandsOf } from "./slash_commands.ts";
import { modelFacts } from "./model_facts.ts";
import { offeredModels } from "./models.ts";
import { systemInit } from "./system.ts";
import { apiCallCost, modelUsage } from "./usage.ts";

Deno.test("a current model: list prices, 1M window, per-turn effort, ultracode, no extra entry", () => {
  const facts = modelFacts("claude-opus-5-5");
  assert.deepEqual(
    [facts.costBasis, facts.contextWindow, facts.maxOutputTokens, facts.perTurnEffort],
    ["list", 1_000_000, 128_000, true],
  );
  assert.equal(offeredModels("claude-opus-5-5").length, 5);
  assert.equal(offeredModels("opus").length, 5);
});

Deno.test("Sonnet 4 (CLI 2.1.328): $3/$15, canonical claude-sonnet-4-0, no ultracode", () => {
  const usage = modelUsage([{ inputTokens: 120, outputTokens: 8 }], { model: "claude-sonnet-4" });
  const entry = usage["claude-sonnet-4"];
  assert.equal(entry.costUSD, 0.00048);
  assert.equal(entry.canonicalModel, "claude-sonnet-4-0");
  assert.equal(entry.contextWindow, 200_000);
  const ctx = createBuildContext({ seed: 1, model: "claude-sonnet-4" });
  assert.equal(systemInit(ctx).per_turn_effort_active, false);
  const effort = commandsOf(ctx.cli, "claude-sonnet-4").find((c) => c.name === "effort");
  assert.equal(effort?.argumentHint, "<low|medium|high|xhigh|max|auto>");
});

Deno.test("a model the CLI does not know: the default's prices, costBasis unknown", () => {
  assert.equal(
    apiCallCost("my-model", { inputTokens: 120, outputTokens: 8 }),
    apiCallCost("claude-opus-5-5", { inputTokens: 120, outputTokens: 8 }),
  );
  const entry = modelUsage([{}], { model: "my-model" })["my-model"];
  assert.deepEqual([entry.costBasis, entry.maxOutputTokens], ["unknown", 32_000]);
  assert.equal(offeredModels("my-model").at(-1)?.displayName, "my-model");
});

Deno.test("modelFacts: read once per catalog and name, shared frozen (every API call's cost asks)", () => {
  const a = modelFacts("claude-3-7-sonnet-20250219");
  assert.equal(modelFacts("claude-3-7-sonnet-20250219"), a);
  assert.notEqual(modelFacts("claude-3-7-sonnet-latest"), a);
  assert.ok(Object.isFrozen(a) && Object.isFrozen(a.price) && Object.isFrozen(a.listed));
  assert.throws(() => {
    (a.price as { input: number }).input = 0;
  }, TypeError);
  // any number of names a user's --model brings: the cache stays bounded and answers alike
  for (let i = 0; i < 600; i++) modelFacts(`custom-model-${i}`);
  assert.deepEqual(modelFacts("claude-3-7-sonnet-20250219"), a);
});
