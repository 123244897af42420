import assert from "node:assert/strict";
import { createBuildContext } from "./build_context.ts";
import { resultFrame, subagentStats } from "./result.ts";

Deno.test("resultFrame success defaults: one call of the recordings' size", () => {
  const ctx = createBuildContext();
  const result = resultFrame(ctx, { result: "ok" });
  assert.equal(result.subtype, "success");
  assert.equal(result.is_error, false);
  assert.equal(result.num_turns, 1);
  assert.equal(result.stop_reason, "end_turn");
  assert.equal(result.terminal_reason, "completed");
  assert.equal(result.total_cost_usd, 0.00098);
  assert.equal(result.usage.input_tokens, 120);
  assert.deepEqual(Object.keys(result.modelUsage), [ctx.model]);
});

Deno.test("resultFrame error subtypes get the CLI's errors and terminal reasons", () => {
  const ctx = createBuildContext();
  const maxTurns = resultFrame(ctx, { subtype: "error_max_turns", numTurns: 4 });
  assert.deepEqual("errors" in maxTurns && maxTurns.errors, [
    "Reached maximum number of turns (3)",
  ]);
  assert.equal(maxTurns.terminal_reason, "max_turns");
  assert.equal(maxTurns.is_error, true);
  const ede = resultFrame(ctx, { subtype: "error_during_execution", errors: ["boom"] });
  assert.equal(ede.terminal_reason, "aborted_streaming");
  assert.equal(ede.stop_reason, null);
  assert.equal(ede.total_cost_usd, 0);
  assert.equal(
    resultFrame(ctx, { subtype: "error_max_budget_usd" }).terminal_reason,
    "budget_exhausted",
  );
});

Deno.test("resultFrame API error and local command shapes", () => {
  const ctx = createBuildContext();
  const apiError = resultFrame(ctx, { apiErrorStatus: 529 });
  assert.equal(apiError.subtype, "success");
  assert.equal(apiError.is_error, true);
  if (apiError.subtype === "success") {
    assert.equal(apiError.api_error_type, "overloaded_error");
    assert.equal(apiError.result, "API Error: 529");
  }
  assert.equal(apiError.terminal_reason, "api_error");
  const compact = resultFrame(ctx, { localCommand: "compact" });
  assert.equal(Object.keys(compact)[0], "is_error");
  assert.equal(compact.num_turns, 0);
  assert.equal("terminal_reason" in compact, false);
});

Deno.test("resultFrame rejects contradictory options", () => {
  const ctx = createBuildContext();
  assert.throws(() => resultFrame(ctx, { subtype: "nope" as never }), /unknown subtype "nope"/);
  assert.throws(
    () => resultFrame(ctx, { subtype: "error_max_turns", result: "x" }),
    /only apply to subtype "success"/,
  );
  assert.throws(() => resultFrame(ctx, { errors: ["x"] }), /errors only apply to error subtypes/);
  assert.throws(
    () => resultFrame(ctx, { apiErrorStatus: 400, localCommand: "compact" }),
    /cannot be combined/,
  );
  assert.throws(
    () => resultFrame(ctx, { numTurns: -1 }),
    /options.numTurns must be a non-negative integer/,
  );
});

Deno.test("subagentStats counts completed foreground subagents", () => {
  assert.equal(subagentStats().spawned, 0);
  const stats = subagentStats({ "general-purpose": 2, Explore: 1 });
  assert.equal(stats.spawned, 3);
  assert.equal(stats.requested.foreground, 3);
  assert.equal(stats.max_depth, 1);
  assert.throws(() => subagentStats({ x: -1 }), RangeError);
});
