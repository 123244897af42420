// Integration tests: the real @anthropic-ai/claude-agent-sdk drives the mock in-process
// through `spawnClaudeCodeProcess`.
import assert from "node:assert/strict";
import { collapseRuns, recordedMessageKinds } from "./_fidelity.ts";
import FakeTimers from "@sinonjs/fake-timers";
import {
  query,
  type SDKAssistantMessage,
  type SDKMessage,
  type SDKResultMessage,
} from "@anthropic-ai/claude-agent-sdk";
import { MockTransport, ScenarioBuilder, SystemClock } from "../mod.ts";
import { text, thinking } from "../builders.ts";
import { driveFakeTime, kinds, promptStream, runQuery } from "./_sdk.ts";

function resultOf(messages: readonly { type: string }[]): SDKResultMessage {
  const result = messages.findLast((m) => m.type === "result");
  assert.ok(result, "no result message");
  return result as SDKResultMessage;
}

function assistantTexts(messages: readonly { type: string }[]): string[] {
  return messages
    .filter((m): m is SDKAssistantMessage => m.type === "assistant")
    .flatMap((m) => m.message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])));
}

Deno.test("MockTransport + SDK: a single text turn", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder({ name: "hello" }).on("hello").respond("Hello! How can I help you today?")
      .build(),
  );
  const { messages, error } = await runQuery(mock, "hello");
  assert.equal(error, undefined);
  assert.deepEqual(kinds(messages), ["system/init", "assistant", "result/success"]);
  const result = resultOf(messages);
  assert.equal(result.subtype, "success");
  assert.equal(result.subtype === "success" && result.result, "Hello! How can I help you today?");
  assert.equal(result.num_turns, 1);
  assert.equal(result.session_id, messages[0].session_id);
  // What the SDK wrote: initialize first, then the prompt.
  const written = mock.writtenMessages();
  assert.equal(written[0].type, "control_request");
  assert.equal((written[0].request as { subtype: string }).subtype, "initialize");
  mock.assertWroteJson((f) => f.type === "user" && JSON.stringify(f).includes("hello"));
  assert.deepEqual(await mock.exited, { code: 0, signal: null });
});

Deno.test("MockTransport + SDK: multi-turn streaming input gives one result per turn", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder()
      .on("first").respond("One.")
      .on("second").respond("Two.")
      .build(),
  );
  let seen = 0;
  const waiters: Array<() => void> = [];
  const resultSeen = () =>
    new Promise<void>((resolve) => {
      if (seen > 0) {
        seen--;
        resolve();
      } else waiters.push(resolve);
    });
  const messages: SDKMessage[] = [];
  for await (
    const m of query({
      prompt: promptStream(["first", "second"], resultSeen),
      options: { spawnClaudeCodeProcess: mock.spawn },
    })
  ) {
    messages.push(m);
    if (m.type === "result") {
      const w = waiters.shift();
      if (w) w();
      else seen++;
    }
  }
  const results = messages.filter((m) => m.type === "result") as SDKResultMessage[];
  assert.equal(results.length, 2);
  assert.deepEqual(results.map((r) => r.subtype === "success" && r.result), ["One.", "Two."]);
  // system/init again at the start of every turn: what the app got from the real CLI in the
  // same two-turn conversation (tests/fixtures/real/multi_turn)
  assert.deepEqual(kinds(messages), await recordedMessageKinds("multi_turn"));
  assert.deepEqual((await mock.exited).code, 0);
});

Deno.test("MockTransport + SDK: a tool use flow (tool_use, tool_result, final text)", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder()
      .on("notes")
      .usesRead("/home/user/project/notes.txt", {
        say: "I'll read the file.",
        content: "alpha\nbeta\n",
      })
      .respond("The notes say alpha and beta.")
      .build(),
  );
  const { messages, error } = await runQuery(mock, "Read notes.txt");
  assert.equal(error, undefined);
  assert.deepEqual(kinds(messages), [
    "system/init",
    "assistant",
    "assistant",
    "user",
    "assistant",
    "result/success",
  ]);
  const toolUse = (messages[2] as SDKAssistantMessage).message.content[0];
  assert.equal(toolUse.type, "tool_use");
  assert.equal(toolUse.type === "tool_use" && toolUse.name, "Read");
  // Both blocks of the first API response share one message id.
  assert.equal(
    (messages[1] as SDKAssistantMessage).message.id,
    (messages[2] as SDKAssistantMessage).message.id,
  );
  const user = messages[3] as {
    message: { content: Array<{ type: string; tool_use_id: string; content: string }> };
  };
  assert.equal(user.message.content[0].type, "tool_result");
  assert.equal(user.message.content[0].tool_use_id, toolUse.type === "tool_use" ? toolUse.id : "");
  assert.match(user.message.content[0].content, /1\talpha\n2\tbeta/);
  const result = resultOf(messages);
  assert.equal(result.num_turns, 2);
  assert.equal(result.subtype === "success" && result.result, "The notes say alpha and beta.");
});

Deno.test("MockTransport + SDK: partial messages with includePartialMessages", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder().on("count").respond("One, two, three, four, five.").build(),
  );
  const { messages, error } = await runQuery(mock, "count to five", {
    includePartialMessages: true,
  });
  assert.equal(error, undefined);
  const k = kinds(messages);
  assert.equal(k[0], "system/init");
  assert.equal(k[1], "system/status");
  const events = messages.filter((m) => m.type === "stream_event") as Array<
    { event: { type: string; delta?: { text?: string } } }
  >;
  assert.deepEqual(
    [
      events[0].event.type,
      events[1].event.type,
      events.at(-3)!.event.type,
      events.at(-2)!.event.type,
      events.at(-1)!.event.type,
    ],
    ["message_start", "content_block_start", "content_block_stop", "message_delta", "message_stop"],
  );
  const streamed = events.flatMap((
    e,
  ) => (e.event.type === "content_block_delta" ? [e.event.delta?.text ?? ""] : [])).join("");
  assert.equal(streamed, "One, two, three, four, five.");
  // the block's assistant frame before its content_block_stop, and the rest in the order the
  // app got them from the real CLI (tests/fixtures/real/partial_messages)
  assert.deepEqual(
    collapseRuns(messages, k),
    await recordedMessageKinds("partial_messages", { collapseDeltas: true }),
  );
  // Without the flag the same scenario sends no stream events.
  const plain = new MockTransport(new ScenarioBuilder().on("count").respond("One.").build());
  const again = await runQuery(plain, "count");
  assert.ok(!kinds(again.messages).includes("stream_event"));
});

Deno.test("MockTransport + SDK: thinking blocks arrive as their own assistant frame with a signature", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder().on("why").respond("Because.", { thinking: "Let me think about why." })
      .build(),
  );
  const { messages } = await runQuery(mock, "why?");
  const assistants = messages.filter((m): m is SDKAssistantMessage => m.type === "assistant");
  assert.equal(assistants.length, 2);
  const block = assistants[0].message.content[0];
  assert.equal(block.type, "thinking");
  assert.ok(
    block.type === "thinking" && block.thinking === "Let me think about why." &&
      block.signature.length > 0,
  );
  assert.equal(assistants[0].message.id, assistants[1].message.id);
  assert.deepEqual(assistantTexts(messages), ["Because."]);
});

Deno.test("MockTransport + SDK: crashAfter surfaces as the SDK's process error", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder().on("hi").respond("Hello").respond("never sent").crashAfter(4, 2).build(),
  );
  const { messages, error } = await runQuery(mock, "hi");
  assert.ok(error, "the SDK did not throw");
  assert.match(error.message, /Claude Code process exited with code 2/);
  // The 4 frames written before the crash were delivered: the initialize answer and the
  // state change (both consumed by the SDK), system/init and the first assistant frame.
  assert.deepEqual(kinds(messages), ["system/init", "assistant"]);
  assert.deepEqual(await mock.exited, { code: 2, signal: null });
});

Deno.test("MockTransport + SDK: sendRaw writes a malformed line the SDK skips", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder({ timing: "instant" }).on("hi").sendRaw("{not json").sendRaw("[1,2]")
      .respond("Still here.").build(),
    { recordSent: true },
  );
  const { messages, error } = await runQuery(mock, "hi");
  // The real SDK drops stdout lines that are not JSON and goes on with the next line.
  assert.equal(error, undefined);
  assert.deepEqual(assistantTexts(messages), ["Still here."]);
  assert.equal(resultOf(messages).subtype, "success");
});

Deno.test("MockTransport + SDK: an unmatched prompt fails the test with a clear error", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder({ name: "weather" }).on("weather").respond("Sunny.").build(),
  );
  const { messages, error } = await runQuery(mock, "tell me a joke");
  const result = resultOf(messages);
  assert.equal(result.subtype, "error_during_execution");
  assert.ok(error, "the SDK did not throw");
  assert.match(
    error.message,
    /Claude Code returned an error result: claude-mock: no exchange of scenario 'weather' matched user message "tell me a joke"/,
  );
  assert.match(error.message, /expected a message that contains "weather"/);
  assert.equal((await mock.exited).code, 1);
});

Deno.test("MockTransport + SDK: an unmatched prompt can get a default answer instead", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder().on("weather").respond("Sunny.").onUnmatched({
      reply: "I can only talk about the weather.",
    }).build(),
  );
  const { messages, error } = await runQuery(mock, "tell me a joke");
  assert.equal(error, undefined);
  assert.deepEqual(assistantTexts(messages), ["I can only talk about the weather."]);
});

Deno.test("MockTransport + SDK: maxTurns stops after the limit with error_max_turns", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder().on("go").usesBash("ls", { stdout: "a\nb" }).respond("Done.").build(),
  );
  const { messages, error } = await runQuery(mock, "go", { maxTurns: 1 });
  const result = resultOf(messages);
  assert.equal(result.subtype, "error_max_turns");
  assert.ok(error);
  assert.match(error.message, /Reached maximum number of turns \(1\)/);
});

for (const maxTurns of [-1, 1.5]) {
  Deno.test(`MockTransport + SDK: maxTurns ${maxTurns} ends after the first call, as the real CLI (${maxTurns} in the error)`, async () => {
    // recorded (CLI 2.1.328 and 2.1.332, FINDINGS_gaps.md): a next call is made only while its
    // number stays within the limit, and the limit is printed as given
    const mock = new MockTransport(
      new ScenarioBuilder().on("go").usesBash("ls", { stdout: "a\nb" }).respond("Done.").build(),
    );
    const { messages } = await runQuery(mock, "go", { maxTurns });
    const result = resultOf(messages);
    assert.equal(result.subtype, "error_max_turns");
    assert.equal(result.num_turns, 2);
    assert.deepEqual("errors" in result && result.errors, [
      `Reached maximum number of turns (${maxTurns})`,
    ]);
  });
}

async function timedRun(seed: number): Promise<{ duration: number; stamps: string[] }> {
  const fake = FakeTimers.install({
    now: Date.UTC(2026, 5, 1),
    toFake: ["setTimeout", "clearTimeout", "Date"],
  });
  try {
    const mock = new MockTransport(
      new ScenarioBuilder({ timing: "realistic", seed })
        .on("hi").respond("Hello there.").usesRead("/tmp/x.txt", { content: "x" }).respond("Done.")
        .build(),
      { clock: new SystemClock() },
    );
    const run = runQuery(mock, "hi");
    // Drive fake time until the query is done (the FakeTime recipe: nextAsync until idle).
    await driveFakeTime(fake, run);
    const { messages, error } = await run;
    assert.equal(error, undefined);
    const stamps = messages.flatMap((
      m,
    ) => ("timestamp" in m && typeof m.timestamp === "string" ? [m.timestamp] : []));
    return { duration: resultOf(messages).duration_ms, stamps };
  } finally {
    fake.uninstall();
  }
}

Deno.test("MockTransport + SDK: realistic timing under fake timers is driven by the fake clock, same seed same timings", async () => {
  const a = await timedRun(7);
  const b = await timedRun(7);
  assert.deepEqual(a, b);
  // realistic: ≥ 100 ms to first token plus per-frame delays.
  assert.ok(a.duration >= 100, `duration ${a.duration}`);
  assert.ok(a.stamps.length >= 3);
  assert.ok(a.stamps.every((s) => s.startsWith("2026-06-01T00:00:0")));
});

Deno.test("MockTransport + SDK: realistic timing on the virtual clock takes no wall time and is deterministic", async () => {
  const run = async () => {
    const mock = new MockTransport(
      new ScenarioBuilder({ timing: "slow", seed: 3 }).on("hi").respond("A.").respond("B.").build(),
    );
    const { messages } = await runQuery(mock, "hi");
    assert.equal(mock.session.clock.kind, "virtual");
    return messages.map((
      m,
    ) => ("timestamp" in m ? m.timestamp : m.type === "result" ? m.duration_ms : null));
  };
  const a = await run();
  const b = await run();
  assert.deepEqual(a, b);
  assert.ok((a.at(-1) as number) >= 1500, "slow profile should report over 1.5 s of virtual time");
  // the times are the virtual clock's (it starts at 2026-01-01), not the machine's: the delays
  // passed there, and a virtual delay waits for no real time (virtual_clock_test.ts)
  const stamps = a.filter((x): x is string => typeof x === "string");
  assert.ok(
    stamps.length >= 2 && stamps.every((s) => s.startsWith("2026-01-01T00:00:0")),
    `${stamps}`,
  );
});

Deno.test("MockTransport + SDK: content given as blocks", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder().on("x").respond([thinking("hmm"), text("A"), text("B")]).build(),
  );
  const { messages } = await runQuery(mock, "x");
  assert.deepEqual(assistantTexts(messages), ["A", "B"]);
  assert.equal(
    resultOf(messages).subtype === "success" && (resultOf(messages) as { result: string }).result,
    "AB",
  );
});
