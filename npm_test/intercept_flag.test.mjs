// Run by plain `node --test` (no --import): mockClaude() cannot route the app's SDK, and says
// which flag does; the module hooks can be installed later with register() for code imported
// after it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { mockClaude, ScenarioBuilder } from "@x/claude-mock";

test("mockClaude() without --import @x/claude-mock/register names the flag", () => {
  assert.throws(
    () => mockClaude(new ScenarioBuilder().on("hi").respond("Hello!").build()),
    (error) => {
      assert.match(
        error.message,
        /^Cannot activate mockClaude\(\): the app's import of @anthropic-ai\/claude-agent-sdk is not routed to claude-mock/,
      );
      assert.match(error.message, /node --import @x\/claude-mock\/register --test/);
      return true;
    },
  );
});

test("register() installs the hooks for what is imported after it", async (t) => {
  const { register } = await import("@x/claude-mock/register");
  register();
  const { query } = await import("@anthropic-ai/claude-agent-sdk");
  const claude = mockClaude(new ScenarioBuilder().on("hi").respond("Hello!").build());
  t.after(() => claude.close());
  let result;
  for await (const m of query({ prompt: "hi" })) if (m.type === "result") result = m.result;
  assert.equal(result, "Hello!");
});
