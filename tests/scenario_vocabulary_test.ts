// Scenario vocabulary through the real Agent SDK: failures placed by meaning, the unmatched
// strategies, the end-of-test assertions, per-test overrides of a shared base, and messages
// that name the closest exchange.
import assert from "node:assert/strict";
import { query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import {
  AssertionError,
  MockTransport,
  runQuery as runPrompts,
  ScenarioBuilder,
  scenarioFromJSON,
  withOverrides,
} from "../mod.ts";
import { kinds, runQuery } from "./_sdk.ts";

/** Runs `prompts` through the SDK, each after the previous turn's result (the library's runner). */
const converse = (mock: MockTransport, prompts: string[]) => runPrompts(mock, prompts, { query });

const texts = (messages: SDKMessage[]) =>
  messages.flatMap((m) =>
    m.type === "assistant"
      ? (m.message.content as Array<{ type: string; text?: string }>)
        .filter((b) => b.type === "text").map((b) => b.text)
      : []
  );
const results = (messages: SDKMessage[]) =>
  messages.flatMap((m) => (m.type === "result" ? [m] : []));

/** Runs `fn` with `console.warn` captured. */
async function captureWarnings<T>(fn: () => Promise<T>): Promise<{ value: T; warned: string[] }> {
  const warned: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => void warned.push(args.join(" "));
  try {
    return { value: await fn(), warned };
  } finally {
    console.warn = original;
  }
}

// ---- failures placed by meaning --------------------------------------------------------

Deno.test("crashAfter({ assistantMessages: 2 }): the app sees two messages, then the process error", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder().on("go").respond("One.").respond("Two.").respond("Never sent.")
      .crashAfter({ assistantMessages: 2, code: 3 }).build(),
  );
  const { messages, error } = await runQuery(mock, "go");
  assert.deepEqual(texts(messages), ["One.", "Two."]);
  assert.deepEqual(kinds(messages), ["system/init", "assistant", "assistant"]);
  assert.match(error?.message ?? "", /Claude Code process exited with code 3/);
  assert.deepEqual(await mock.exited, { code: 3, signal: null });
});

Deno.test("crashAfter({ beforeToolResult: true }): the tool use arrives, its result never does", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder().on("deploy").usesBash("make deploy", { say: "Deploying.", stdout: "ok" })
      .respond("Deployed.").crashAfter({ beforeToolResult: true }).build(),
  );
  const { messages, error } = await runQuery(mock, "deploy", {
    allowedTools: ["Bash"],
  });
  const blocks = messages.flatMap((m) =>
    m.type === "assistant" ? (m.message.content as Array<{ type: string }>).map((b) => b.type) : []
  );
  assert.deepEqual(blocks, ["text", "tool_use"]);
  assert.equal(messages.some((m) => m.type === "user"), false, "no tool result");
  assert.match(error?.message ?? "", /Claude Code process exited with code 1/);
});

Deno.test("crash({ midStream }): partial text reaches the app, the message never completes", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder().on("write")
      .respond("An introduction.")
      .crash({ midStream: 4, code: 2 })
      .respond("A long answer that streams in several pieces and is cut in the middle.", {
        chunkSize: 8,
      })
      .build(),
  );
  const { messages, error } = await runQuery(mock, "write", { includePartialMessages: true });
  assert.deepEqual(texts(messages), ["An introduction."]);
  const events = messages.flatMap((m) =>
    m.type === "stream_event" ? [(m.event as { type: string }).type] : []
  );
  const second = events.lastIndexOf("message_start");
  assert.deepEqual(events.slice(second), [
    "message_start",
    "content_block_start",
    "content_block_delta",
    "content_block_delta",
  ]);
  assert.match(error?.message ?? "", /Claude Code process exited with code 2/);
});

Deno.test("a scenario file places a crash step and warns on unmatched prompts", async () => {
  const scenario = scenarioFromJSON({
    name: "file",
    unmatched: "warn",
    exchanges: [{
      on: "go",
      steps: [{ say: "Starting." }, { crash: { beforeToolResult: true, code: 4 } }, {
        bash: { command: "ls", stdout: "a" },
      }],
    }],
  });
  const mock = new MockTransport(scenario);
  const { value, warned } = await captureWarnings(() => converse(mock, ["hello", "go"]));
  assert.deepEqual(texts(value.messages), ["Hello! How can I help?", "Starting."]);
  assert.equal(results(value.messages)[0].subtype, "success");
  assert.match(
    warned[0],
    /^claude-mock: warning: no exchange of scenario 'file' matched user message "hello" \(turn 1\)/,
  );
  assert.match(value.error?.message ?? "", /exited with code 4/);
});

// ---- unmatched strategies and messages ---------------------------------------------------

Deno.test("unmatched: the SDK's error names the message and the closest exchange", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder({ name: "build" })
      .on("build").respond("Built.")
      .on("delete the build dir").respond("Deleted.")
      .build(),
  );
  const { messages, error } = await converse(mock, ["build it", "delete the buld dir"]);
  assert.deepEqual(texts(messages), ["Built."]);
  assert.ok(error, "the SDK did not throw");
  assert.match(
    error.message,
    new RegExp(
      String.raw`no exchange of scenario 'build' matched user message "delete the buld ` +
        String.raw`dir" \(turn 2\): expected a message that contains "delete the build dir"\. ` +
        String.raw`Closest: exchanges\[1\] on contains "delete the build dir" ` +
        String.raw`\(used 0 of 1 times\)`,
    ),
  );
});

Deno.test("unmatched 'warn': a success with the default reply, and a warning", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder({ name: "chat" }).on("weather").respond("Sunny.").onUnmatched("warn")
      .build(),
  );
  const { value, warned } = await captureWarnings(() => runQuery(mock, "tell me a joke"));
  assert.equal(value.error, undefined);
  assert.deepEqual(texts(value.messages), ["Hello! How can I help?"]);
  assert.equal(warned.length, 1);
  assert.match(
    warned[0],
    /user message "tell me a joke" \(turn 1\): expected a message that contains "weather"; answered with "Hello! How can I help\?"$/,
  );
  assert.throws(() => mock.assertScenarioFinished(), AssertionError);
});

Deno.test("unmatched function: decides per prompt, with a reply or the error", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder().onUnmatched((prompt, turn) =>
      prompt.endsWith("?") ? { reply: `Question ${turn.turn + 1}: no idea.` } : "error"
    ).build(),
  );
  const { messages, error } = await converse(mock, ["why?", "do it"]);
  assert.deepEqual(texts(messages), ["Question 1: no idea."]);
  assert.match(error?.message ?? "", /matched user message "do it" \(turn 2\)/);
});

// ---- end-of-test assertions ----------------------------------------------------------------

Deno.test("assertAllExchangesUsed / assertScenarioFinished after a real SDK run", async () => {
  const scenario = new ScenarioBuilder({ name: "deploy" })
    .on("build").respond("Built.")
    .on("delete the build dir").respond("Deleted.")
    .on("status").times(2).respond("Green.")
    .onUnmatched({ reply: "Sorry?" })
    .build();
  const partial = new MockTransport(scenario);
  await converse(partial, ["build", "delete the buld dir", "status"]);
  assert.throws(() => partial.assertAllExchangesUsed(), {
    name: "AssertionError",
    message: [
      "MockTransport 'deploy': 1 of 3 exchanges were never used:",
      `- exchanges[1] on contains "delete the build dir" (used 0 of 1 times); closest prompt: "delete the buld dir" (turn 2, which matched no exchange)`,
    ].join("\n"),
  });
  assert.throws(() => partial.assertScenarioFinished(), {
    name: "AssertionError",
    message: [
      "MockTransport 'deploy': the scenario did not finish:",
      `- exchanges[1] on contains "delete the build dir" (used 0 of 1 times); closest prompt: "delete the buld dir" (turn 2, which matched no exchange)`,
      `- exchanges[2] on contains "status" (used 1 of 2 times)`,
      `- user message "delete the buld dir" (turn 2) matched no exchange; closest: exchanges[1] on contains "delete the build dir" (used 0 of 1 times)`,
    ].join("\n"),
  });

  const complete = new MockTransport(scenario);
  const { error } = await converse(complete, ["build", "delete the build dir", "status", "status"]);
  assert.equal(error, undefined);
  complete.assertAllExchangesUsed();
  complete.assertScenarioFinished();
});

Deno.test("assertAllExchangesUsed before the mock ran says so", () => {
  const mock = new MockTransport(
    new ScenarioBuilder({ name: "idle" }).on("a").respond("A.").build(),
  );
  assert.throws(() => mock.assertAllExchangesUsed(), {
    message:
      `MockTransport 'idle' never ran (pass mock.spawn to the SDK or call connect()): 1 of 1 exchange was never used:\n- exchanges[0] on contains "a" (used 0 of 1 times)`,
  });
});

// ---- per-test overrides --------------------------------------------------------------------

const BASE = new ScenarioBuilder({ name: "app" })
  .on("deploy").repeat().respond("Deployed.")
  .on("status").repeat().respond("All green.")
  .build();

Deno.test("withOverrides: one test makes the deploy fail, the base is untouched", async () => {
  const failing = new MockTransport(
    withOverrides(BASE, (s) => s.on("deploy").failure("overloaded")),
  );
  const { messages, error } = await runQuery(failing, "deploy", {
    env: { ...Deno.env.toObject(), CLAUDE_CODE_MAX_RETRIES: "0" },
  });
  assert.match(error?.message ?? "", /API Error: 529 Overloaded/);
  assert.equal(results(messages)[0].is_error, true);
  // the shared base, in the next test's transport, still answers with its own exchanges
  const base = new MockTransport(BASE);
  const ok = await converse(base, ["deploy", "status"]);
  assert.equal(ok.error, undefined);
  assert.deepEqual(texts(ok.messages), ["Deployed.", "All green."]);
  assert.equal(BASE.exchanges.length, 2);
});

Deno.test("withOverrides: an override used up lets the base's exchange answer next", async () => {
  const mock = new MockTransport(
    withOverrides(BASE, (s) => s.on("deploy").respond("Deploy 1 of 2.")),
  );
  const { messages, error } = await converse(mock, ["deploy", "deploy", "status"]);
  assert.equal(error, undefined);
  assert.deepEqual(texts(messages), ["Deploy 1 of 2.", "Deployed.", "All green."]);
  mock.assertScenarioFinished();
});
