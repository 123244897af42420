// The unchanged sample app under node:test, run as `node --import @x/claude-mock/register
// --test`: a scenario, a named failure, a recording of the real CLI replayed with cassette(),
// two concurrent tests with their own mocks, a query with no mock, a mock set up in a hook, and a
// mock a test leaves open (it does not answer the next). Run by
// scripts/npm_check.ts in a fresh project. Node 20 has no `await using`: t.after() closes what
// a test opened.
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, test } from "node:test";
import { mockClaude, ScenarioBuilder } from "@x/claude-mock";
import { cassette } from "@x/claude-mock/cassette";
import { query } from "@anthropic-ai/claude-agent-sdk";
import { ask } from "../src/assistant.mjs";

test("a scenario answers the app's own query()", async (t) => {
  const claude = mockClaude(
    new ScenarioBuilder().on("notes").respond("The notes have two lines.").build(),
  );
  t.after(() => claude.close());
  assert.equal(await ask("Summarize notes.txt"), "The notes have two lines.");
  claude.assertWrote(/Summarize notes\.txt/);
  claude.assertScenarioFinished();
});

test("a named failure reaches the app as the SDK's error", async (t) => {
  const claude = mockClaude(new ScenarioBuilder().on("notes").failure("auth_error").build());
  t.after(() => claude.close());
  await assert.rejects(ask("Summarize notes.txt"), /Invalid API key/);
});

test("hello", async (t) => {
  // named after the test: __cassettes__/hello.jsonl beside this file (a real CLI recording)
  const tape = await cassette(t);
  t.after(() => tape.close()); // checks that the replay reached the end of the tape
  assert.match(tape.path, /test\/__cassettes__\/hello\.jsonl$/);
  const claude = mockClaude(tape);
  t.after(() => claude.close());
  assert.equal(await ask("hello"), "Hello! How can I help you today?");
});

describe("two tests at once", { concurrency: 2 }, () => {
  // each waits until both have activated their mocks, then queries
  let arrived = 0;
  let release;
  const both = new Promise((resolve) => (release = resolve));
  const arrive = () => ++arrived === 2 && release();
  for (const name of ["a", "b"]) {
    test(`test ${name} keeps its own mock`, async (t) => {
      const claude = mockClaude(
        new ScenarioBuilder({ name }).on("who").respond(`I am ${name}.`).build(),
      );
      t.after(() => claude.close());
      arrive();
      await both;
      assert.equal(await ask("who are you?"), `I am ${name}.`);
      assert.equal(claude.transports.length, 1);
    });
  }
});

test("a query with no mock fails, naming what to do", async () => {
  await assert.rejects(ask("hello"), /no Claude mock is active here/);
});

describe("a mock set up in a hook", () => {
  let claude;
  beforeEach(() => {
    // a hook's mock is for the tests that follow, one at a time: global
    claude = mockClaude(new ScenarioBuilder().on("hi").respond("from the hook").build(), {
      global: true,
    });
  });
  afterEach(() => claude.close());
  test("answers the test", async () => {
    assert.equal(await ask("hi"), "from the hook");
  });
});

describe("a mock a test leaves open", () => {
  test("is left open", async () => {
    mockClaude(new ScenarioBuilder().on("hi").repeat().respond("left open").build());
    assert.equal(await ask("hi"), "left open");
  });
  test("does not answer the next test", async () => {
    await assert.rejects(ask("hi"), /no Claude mock is active here/);
  });
});

test("a query pointed at the package's bin runs it, with the hooks in place", async () => {
  // node_modules/.bin/claude-mock: the fake binary, answering its default scenario
  const options = { pathToClaudeCodeExecutable: "node_modules/.bin/claude-mock" };
  let said;
  for await (const m of query({ prompt: "hello", options })) {
    if (m.type === "result") said = m.result;
  }
  assert.equal(said, "Hello! How can I help?");
});
