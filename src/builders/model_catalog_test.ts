// How the mock reads the model ids users pass, checked against what the real CLI 2.1.332 did
// with each (conformance runs of one case per id; the representative ones are cases of
// conformance/model_* with recordings in tests/fixtures/real/conform/).
import assert from "node:assert/strict";
import { createBuildContext } from "./build_context.ts";
import { cliVersionFacts } from "./cli_versions.ts";
import { assistantMessage } from "./assistant.ts";
import {
  apiModelName,
  catalogModel,
  MODEL_CATALOG_328,
  modelCatalogOf,
  resolveSessionModel,
} from "./model_catalog.ts";
import { modelFacts } from "./model_facts.ts";
import { modelNotice } from "./model_retirement.ts";
import { offeredModels } from "./models.ts";
import { commandsOf } from "./slash_commands.ts";
import { sessionTools } from "./tool_availability.ts";
import { apiCallCost } from "./usage.ts";

const CATALOG = MODEL_CATALOG_328;

Deno.test("catalogModel reads dated, -latest, cloud, upper-case and spaced ids as the CLI does", () => {
  const cases: Array<[string, string | undefined]> = [
    ["claude-3-7-sonnet-20250219", "claude-3-7-sonnet"],
    ["claude-3-7-sonnet-latest", "claude-3-7-sonnet"],
    ["claude-sonnet-4-20250514", "claude-sonnet-4-0"],
    ["claude-opus-4-20250514", "claude-opus-4-0"],
    ["claude-opus-4-5-20251101", "claude-opus-4-5"],
    ["CLAUDE-OPUS-4-5", "claude-opus-4-5"],
    [" claude-opus-4-5 ", "claude-opus-4-5"],
    ["us.anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5"],
    ["claude-sonnet-4-5@20250929", "claude-sonnet-4-5"],
    ["claude-opus-4-1@20250805", "claude-opus-4-1"],
    ["claude-sonnet-4-6[1m]", "claude-sonnet-4-6"],
    ["claude-opus-5-5-20261001", "claude-opus-5-5"],
    ["claude-3-haiku-20240307", "claude-3-haiku"],
    ["claude-3-opus-latest", "claude-3-opus"],
    // the CLI's fallback: the newest model whose name the id contains
    ["claude-opus-4-5x", "claude-opus-4-5"],
    ["my-gateway-model", undefined],
    ["claude-2.1", undefined],
    ["", undefined],
  ];
  for (const [id, canonical] of cases) {
    assert.equal(catalogModel(id, CATALOG)?.id, canonical, id);
  }
});

Deno.test("resolveSessionModel: aliases in any case, [1m], best, default, opusplan", () => {
  const cases: Array<[string, string]> = [
    ["opus", "claude-opus-5-5"],
    ["Opus", "claude-opus-5-5"],
    [" Haiku ", "claude-haiku-5-5"],
    ["sonnet[1m]", "claude-sonnet-5-5"],
    ["opus[1m]", "claude-opus-5-5"],
    ["best", "claude-opus-5-5"],
    ["default", "claude-opus-5-5"],
    ["fable", "claude-fable-5-2"],
    ["opusplan", "claude-sonnet-5-5"],
    // a model whose window is 1M anyway drops the suffix; another keeps it
    ["claude-opus-5-5[1m]", "claude-opus-5-5"],
    ["claude-sonnet-4-6[1m]", "claude-sonnet-4-6[1m]"],
    // dated, cloud, upper-case and unknown ids are reported as given (trimmed)
    ["claude-3-7-sonnet-20250219", "claude-3-7-sonnet-20250219"],
    ["CLAUDE-OPUS-4-5", "CLAUDE-OPUS-4-5"],
    [" claude-opus-4-5 ", "claude-opus-4-5"],
    [
      "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
      "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    ],
    ["my-gateway-model", "my-gateway-model"],
  ];
  for (const [asked, model] of cases) {
    assert.equal(resolveSessionModel(asked, CATALOG).model, model, asked);
  }
});

Deno.test("resolveSessionModel: legacy Opus ids run as the latest Opus unless the env opts out", () => {
  for (
    const id of ["claude-opus-4-1", "claude-opus-4-0", "claude-opus-4-20250514", "CLAUDE-OPUS-4-1"]
  ) {
    assert.deepEqual(resolveSessionModel(id, CATALOG), {
      model: "claude-opus-5-5",
      remappedFrom: id,
    });
    const kept = resolveSessionModel(id, CATALOG, { CLAUDE_CODE_DISABLE_LEGACY_MODEL_REMAP: "1" });
    assert.equal(kept.model, id);
  }
  // an id the table does not name is not remapped (a Vertex form of Opus 4.1)
  assert.equal(
    resolveSessionModel("claude-opus-4-1@20250805", CATALOG).model,
    "claude-opus-4-1@20250805",
  );
});

Deno.test("Claude 3.7 Sonnet by its dated id: list prices, 200k, task tools, no effort, its entry", () => {
  const model = "claude-3-7-sonnet-20250219";
  const facts = modelFacts(model);
  assert.deepEqual(
    [facts.costBasis, facts.canonicalModel, facts.contextWindow, facts.maxOutputTokens],
    ["list", "claude-3-7-sonnet", 200_000, 32_000],
  );
  // the case's one call (120 in, 8 out) at $3/$15: 0.00048, as the real CLI billed it
  assert.equal(apiCallCost(model, { inputTokens: 120, outputTokens: 8 }), 0.00048);
  assert.equal(sessionTools({ model }).length - sessionTools().length, 4);
  const effort = commandsOf(cliVersionFacts("2.1.332"), model).find((c) => c.name === "effort");
  assert.equal(effort?.argumentHint, "<low|medium|high|xhigh|max|auto>");
  assert.deepEqual(offeredModels(model).at(-1), {
    value: model,
    resolvedModel: model,
    displayName: "Claude 3.7 Sonnet",
    description: "Newer version available \u00b7 select Sonnet for Sonnet 5.5",
    supportsThinkingOff: true,
  });
});

Deno.test("models whose facts the real CLI showed: windows, limits, task tools, fast mode", () => {
  const facts = (id: string) => modelFacts(id);
  assert.deepEqual(
    [facts("claude-opus-4-6").maxOutputTokens, facts("claude-opus-4-6").contextWindow],
    [64_000, 200_000],
  );
  assert.equal(facts("claude-3-5-haiku-latest").maxOutputTokens, 8192);
  // Claude 3 Haiku: known (no unrecognized_model note) but not priced
  assert.deepEqual(
    [facts("claude-3-haiku-20240307").known, facts("claude-3-haiku-20240307").costBasis],
    [true, "unknown"],
  );
  // Opus 4.7 has the task tools and still ultracode; Opus 4.8 neither the tools nor the note
  assert.deepEqual(
    [facts("claude-opus-4-7").extraTools.length, facts("claude-opus-4-7").ultracode],
    [4, true],
  );
  assert.equal(facts("claude-opus-4-8").extraTools.length, 0);
  const fast = commandsOf(cliVersionFacts("2.1.332"), "claude-opus-4-8").find((c) =>
    c.name === "fast"
  );
  assert.equal(fast?.description, "Toggle fast mode (Opus 4.8)");
  assert.equal(facts("claude-fable-5-1").perTurnEffort, true);
});

Deno.test("offeredModels: a remapped or aliased session adds no entry; opusplan and Fable do", () => {
  assert.equal(offeredModels("claude-opus-5-5", { requested: "claude-opus-4-1" }).length, 5);
  const plan = offeredModels("claude-sonnet-5-5", { requested: "opusplan" });
  assert.deepEqual(
    [plan.length, plan[5].value, plan[5].resolvedModel, plan[5].displayName],
    [6, "opusplan", "claude-sonnet-5-5", "Opus Plan Mode"],
  );
  // an older Fable comes right after the fable entry; the newest by its id takes its value
  const fable5 = offeredModels("claude-fable-5");
  assert.deepEqual(fable5.map((m) => m.value), [
    "default",
    "opus",
    "fable",
    "claude-fable-5",
    "sonnet",
    "haiku",
  ]);
  assert.equal(
    fable5[3].description,
    "Fable 5 \u00b7 Most capable for your hardest and longest-running tasks",
  );
  assert.equal(offeredModels("claude-fable-5-2")[2].value, "claude-fable-5-2");
  assert.equal(offeredModels("claude-fable-5-2", { requested: "fable" })[2].value, "fable");
  // a family the picker does not offer: a custom model's entry with the catalog's name
  const mythos = offeredModels("claude-mythos-5-2").at(-1);
  assert.deepEqual(
    [
      mythos?.displayName,
      mythos?.description,
      mythos?.supportsFastMode,
      mythos?.supportsThinkingOff,
    ],
    ["Mythos 5.2", "Custom model (claude-mythos-5-2)", true, false],
  );
  // spaces around the id: the entry's value keeps them, its resolvedModel not
  const spaced = offeredModels("claude-opus-4-5", { requested: " claude-opus-4-5 " }).at(-1);
  assert.deepEqual([spaced?.value, spaced?.resolvedModel], [
    " claude-opus-4-5 ",
    "claude-opus-4-5",
  ]);
});

Deno.test("modelNotice: a remap, a retirement by any id of the model, an unknown model", () => {
  const ctx = (model: string, requestedModel?: string) =>
    createBuildContext({ model, requestedModel, cliVersion: "2.1.332" });
  const now = Date.UTC(2026, 10, 26);
  assert.equal(
    modelNotice(ctx("claude-opus-5-5", "CLAUDE-OPUS-4-1"), { now }),
    "\u26a0 CLAUDE-OPUS-4-1 is automatically remapped to Opus 5.5 (the latest Opus). Set CLAUDE_CODE_DISABLE_LEGACY_MODEL_REMAP=1 to keep the requested model.\n",
  );
  assert.equal(
    modelNotice(ctx("claude-3-7-sonnet-latest"), { now }),
    "\u26a0 Claude 3.7 Sonnet was retired on February 19, 2026. Consider switching to a newer model.\n",
  );
  assert.match(
    modelNotice(ctx("us.anthropic.claude-sonnet-4-5-20250929-v1:0"), { now }) ?? "",
    /Sonnet 4\.5 will be retired/,
  );
  assert.equal(modelNotice(ctx("claude-opus-4-6"), { now }), undefined);
  assert.equal(modelNotice(ctx("claude-3-haiku-20240307"), { now }), undefined);
  assert.match(
    modelNotice(ctx("claude-2.1"), { now }) ?? "",
    /^Claude Code doesn't recognize the model "claude-2\.1", so it assumes a context window of 1m tokens\./,
  );
  // 2.1.328 does not retire Claude Sonnet 4.5 yet
  const old = createBuildContext({ model: "claude-sonnet-4-5-20250929", cliVersion: "2.1.328" });
  assert.equal(modelNotice(old, { now }), undefined);
});

Deno.test("[1m]: the API gets the id without it, the window is 1M, the picker says so", () => {
  const model = "claude-sonnet-4-6[1m]";
  assert.equal(resolveSessionModel(model, CATALOG).model, model);
  assert.equal(apiModelName(model), "claude-sonnet-4-6");
  assert.equal(modelFacts(model).contextWindow, 1_000_000);
  assert.equal(modelFacts("claude-3-7-sonnet-20250219[1m]").contextWindow, 1_000_000);
  assert.equal(offeredModels(model).at(-1)?.displayName, "Sonnet 4.6 (1M context)");
  // Opus 4.5 is not named so; a model whose window is 1M anyway drops the suffix, its entry not
  assert.equal(offeredModels("claude-opus-4-5[1m]").at(-1)?.displayName, "Opus 4.5");
  assert.equal(resolveSessionModel("claude-opus-4-8[1m]", CATALOG).model, "claude-opus-4-8");
  const entry = offeredModels("claude-opus-4-8", { requested: "claude-opus-4-8[1m]" }).at(-1);
  assert.deepEqual([entry?.value, entry?.resolvedModel], [
    "claude-opus-4-8[1m]",
    "claude-opus-4-8",
  ]);
  // an unknown model given its window: no word that the CLI assumes one
  const ctx = createBuildContext({ model: "my-model[1m]", cliVersion: "2.1.332" });
  assert.equal(modelNotice(ctx, { now: 0 }), undefined);
  const [assistant] = assistantMessage(createBuildContext({ model }), "hi");
  assert.equal(assistant.message.model, "claude-sonnet-4-6");
});

Deno.test("modelCatalogOf: one catalog per version, the same when asked again, frozen", () => {
  for (const version of ["2.0.1", "2.1.328", "2.1.330", "2.1.331", "2.1.332", "2.2.0"]) {
    const cli = cliVersionFacts(version);
    const catalog = modelCatalogOf(cli);
    assert.equal(modelCatalogOf({ basis: cli.basis }), catalog);
    assert.ok(Object.isFrozen(catalog) && Object.isFrozen(catalog.models));
  }
  assert.equal(modelCatalogOf(cliVersionFacts("2.1.328")), MODEL_CATALOG_328);
  assert.equal(modelCatalogOf(cliVersionFacts("2.0.1")), MODEL_CATALOG_328);
});
