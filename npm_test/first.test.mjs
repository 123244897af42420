// The README's first test under Node (node --test): a scenario, the real Agent SDK's query()
// against it through runQuery, and the answer. Run by scripts/npm_check.ts in a fresh project.
import assert from "node:assert/strict";
import { test } from "node:test";
import { MockTransport, runQuery, ScenarioBuilder } from "@x/claude-mock";

test("answers hello", async () => {
  const mock = new MockTransport(new ScenarioBuilder().on("hello").respond("Hi!").build());
  const { result, exit } = await runQuery(mock, "hello");
  assert.equal(result.result, "Hi!");
  assert.deepEqual(exit, { code: 0, signal: null });
});
