// The unchanged sample app under jest (ES modules): a scenario, a named failure, a recording of
// the real CLI replayed with cassette(), two concurrent tests with their own mocks, a query
// with no mock, a mock set up in a hook, a mock a test leaves open (it does not answer the
// next), and jest's fake timers as they come. Run by scripts/npm_check.ts in a fresh project (npx jest).
import { afterEach, beforeEach, describe, expect, jest, test } from "@jest/globals";
import { mockClaude, ScenarioBuilder, settleWithFakeTime } from "@x/claude-mock";
import { cassette } from "@x/claude-mock/cassette";
import { ask } from "../src/assistant.mjs";

test("a scenario answers the app's own query()", async () => {
  const claude = mockClaude(
    new ScenarioBuilder().on("notes").respond("The notes have two lines.").build(),
  );
  try {
    expect(await ask("Summarize notes.txt")).toBe("The notes have two lines.");
    claude.assertWrote(/Summarize notes\.txt/);
    claude.assertScenarioFinished();
  } finally {
    await claude.close();
  }
});

test("a named failure reaches the app as the SDK's error", async () => {
  const claude = mockClaude(new ScenarioBuilder().on("notes").failure("auth_error").build());
  try {
    await expect(ask("Summarize notes.txt")).rejects.toThrow(/Invalid API key/);
  } finally {
    await claude.close();
  }
});

test("hello", async () => {
  // jest passes no test context: expect.getState() names the file and the test
  const tape = await cassette(expect.getState());
  expect(tape.path).toMatch(/test\/__cassettes__\/hello\.jsonl$/);
  const claude = mockClaude(tape);
  try {
    expect(await ask("hello")).toBe("Hello! How can I help you today?");
  } finally {
    await claude.close();
    await tape.close();
  }
});

describe("two tests at once", () => {
  // each waits until both have activated their mocks, then queries
  let arrived = 0;
  let release;
  const both = new Promise((resolve) => (release = resolve));
  const arrive = () => ++arrived === 2 && release();
  for (const name of ["a", "b"]) {
    test.concurrent(`test ${name} keeps its own mock`, async () => {
      const claude = mockClaude(
        new ScenarioBuilder({ name }).on("who").respond(`I am ${name}.`).build(),
      );
      try {
        arrive();
        await both;
        expect(await ask("who are you?")).toBe(`I am ${name}.`);
        expect(claude.transports.length).toBe(1);
      } finally {
        await claude.close();
      }
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

test("jest's fake timers, as they come, hold no query back", async () => {
  // jest.useFakeTimers() fakes queueMicrotask and process.nextTick too
  jest.useFakeTimers();
  const claude = mockClaude(
    new ScenarioBuilder().on("notes").respond("The notes have two lines.").build(),
  );
  try {
    expect(await ask("Summarize notes.txt")).toBe("The notes have two lines.");
  } finally {
    jest.useRealTimers();
    await claude.close();
  }
});

test("fake timers: a paced session on the system clock, driven by jest", async () => {
  jest.useFakeTimers();
  const claude = mockClaude(
    new ScenarioBuilder().on("notes").delay(60_000).respond("An hour's work, done.").build(),
    { clock: "system" },
  );
  try {
    const started = Date.now();
    const answer = await settleWithFakeTime(ask("Summarize notes.txt"), jest);
    expect(answer).toBe("An hour's work, done.");
    expect(Date.now() - started).toBeGreaterThanOrEqual(60_000);
  } finally {
    jest.useRealTimers();
    await claude.close();
  }
});
