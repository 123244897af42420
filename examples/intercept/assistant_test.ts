// The unchanged app (assistant.ts) tested against a scenario, a named failure and a cassette.
// Run: deno test -A --config examples/intercept/deno.test.json examples/intercept/
import assert from "node:assert/strict";
import { mockClaude, ScenarioBuilder } from "@x/claude-mock";
import { cassette } from "@x/claude-mock/cassette";
import { ask } from "./assistant.ts";

Deno.test("ask: the answer of a scenario", async () => {
  await using claude = mockClaude(
    new ScenarioBuilder().on("notes").respond("The notes have two lines.").build(),
  );
  assert.equal(await ask("Summarize notes.txt"), "The notes have two lines.");
  claude.assertWrote(/Summarize notes\.txt/);
  claude.assertScenarioFinished();
});

Deno.test("ask: a named failure reaches the app as the SDK's error", async () => {
  await using _claude = mockClaude(new ScenarioBuilder().on("notes").failure("auth_error").build());
  await assert.rejects(ask("Summarize notes.txt"), /Invalid API key/);
});

Deno.test("ask: a recording of the real CLI replays through the app", async (t) => {
  await using tape = await cassette(t, "hello"); // __cassettes__/hello.jsonl beside this file
  await using _claude = mockClaude(tape);
  assert.equal(await ask("hello"), "Hello! How can I help you today?");
});

Deno.test("ask: two tests at once keep their own mock", async () => {
  const test = async (name: string) => {
    await using _claude = mockClaude(
      new ScenarioBuilder().on("who").respond(`I am ${name}.`).build(),
    );
    await Promise.resolve(); // the other test activates its mock meanwhile
    return await ask("who are you?");
  };
  assert.deepEqual(await Promise.all([test("a"), test("b")]), ["I am a.", "I am b."]);
});
