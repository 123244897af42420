// The unchanged sample app under vitest: a scenario, a named failure, a recording of the real
// CLI replayed with cassette(), two concurrent tests with their own mocks, a query with no
// mock, a mock set up in a hook, and a mock a test leaves open (it does not answer the next). Run by scripts/npm_check.ts in a fresh project (npx vitest run). Node 20 has no
// `await using`: onTestFinished closes what a test opened.
import { afterEach, beforeEach, describe, expect, onTestFinished, test, vi } from "vitest";
import { mockClaude, ScenarioBuilder, settleWithFakeTime } from "@x/claude-mock";
import { cassette } from "@x/claude-mock/cassette";
import { installFakeClaude } from "@x/claude-mock/cli";
import { query } from "@anthropic-ai/claude-agent-sdk";
import { ask } from "../src/assistant.mjs";

test("a scenario answers the app's own query()", async () => {
  const claude = mockClaude(
    new ScenarioBuilder().on("notes").respond("The notes have two lines.").build(),
  );
  onTestFinished(() => claude.close());
  expect(await ask("Summarize notes.txt")).toBe("The notes have two lines.");
  claude.assertWrote(/Summarize notes\.txt/);
  claude.assertScenarioFinished();
});

test("a named failure reaches the app as the SDK's error", async () => {
  const claude = mockClaude(new ScenarioBuilder().on("notes").failure("auth_error").build());
  onTestFinished(() => claude.close());
  await expect(ask("Summarize notes.txt")).rejects.toThrow(/Invalid API key/);
});

test("hello", async (context) => {
  // named after the test: __cassettes__/hello.jsonl beside this file (a real CLI recording)
  const tape = await cassette(context);
  onTestFinished(() => tape.close()); // checks that the replay reached the end of the tape
  expect(tape.path).toMatch(/test\/__cassettes__\/hello\.jsonl$/);
  const claude = mockClaude(tape);
  onTestFinished(() => claude.close());
  expect(await ask("hello")).toBe("Hello! How can I help you today?");
});

describe("two tests at once", () => {
  // each waits until both have activated their mocks, then queries
  let arrived = 0;
  let release;
  const both = new Promise((resolve) => (release = resolve));
  const arrive = () => ++arrived === 2 && release();
  for (const name of ["a", "b"]) {
    test.concurrent(`test ${name} keeps its own mock`, async ({ onTestFinished }) => {
      const claude = mockClaude(
        new ScenarioBuilder({ name }).on("who").respond(`I am ${name}.`).build(),
      );
      onTestFinished(() => claude.close());
      arrive();
      await both;
      expect(await ask("who are you?")).toBe(`I am ${name}.`);
      expect(claude.transports.length).toBe(1);
    });
  }
});

test("a query with no mock fails, naming what to do", async () => {
  await expect(ask("hello")).rejects.toThrow(/no Claude mock is active here/);
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
    expect(await ask("hi")).toBe("from the hook");
  });
});

describe("a mock a test leaves open", () => {
  test("is left open", async () => {
    mockClaude(new ScenarioBuilder().on("hi").repeat().respond("left open").build());
    expect(await ask("hi")).toBe("left open");
  });
  test("does not answer the next test", async () => {
    await expect(ask("hi")).rejects.toThrow(/no Claude mock is active here/);
  });
});

describe("a mock activated after an await and left open", () => {
  let late;
  test("is left open", async () => {
    await Promise.resolve(); // the mock is activated in a continuation of the test
    late = mockClaude(new ScenarioBuilder({ name: "late" }).on("hi").repeat().respond("late").build());
    expect(await ask("hi")).toBe("late");
  });
  test("is closed after its test, and not named by the next", async () => {
    expect(late.active).toBe(false);
    const error = await ask("hi").catch((e) => e);
    expect(error.message).toMatch(/no Claude mock is active here/);
    expect(error.message).not.toMatch(/late/);
  });
});

test("a query pointed at the fake binary runs it, with the setup file in place", async () => {
  const fake = await installFakeClaude({
    scenario: new ScenarioBuilder().on("hi").respond("From the fake binary.").build(),
  });
  onTestFinished(() => fake.dispose());
  const options = { pathToClaudeCodeExecutable: fake.path, env: { ...process.env, ...fake.env } };
  let said;
  for await (const m of query({ prompt: "hi", options })) {
    if (m.type === "result") said = m.result;
  }
  expect(said).toBe("From the fake binary.");
});

test("fake timers: a paced session on the system clock, driven by vi", async () => {
  vi.useFakeTimers();
  onTestFinished(() => vi.useRealTimers());
  const claude = mockClaude(
    new ScenarioBuilder().on("notes").delay(60_000).respond("An hour's work, done.").build(),
    { clock: "system" }, // the scenario's delays wait on the (fake) global timers
  );
  onTestFinished(() => claude.close());
  const started = Date.now();
  const answer = await settleWithFakeTime(ask("Summarize notes.txt"), vi);
  expect(answer).toBe("An hour's work, done.");
  expect(Date.now() - started).toBeGreaterThanOrEqual(60_000); // fake time, no real wait
});
