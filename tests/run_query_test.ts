// The query runner (runQuery, startQuery), the spies on the app's own callbacks, and the
// mock's accessors for the app's answers, against the real Agent SDK.
import assert from "node:assert/strict";
import { calcServer } from "./_sdk.ts";
import {
  type CanUseTool,
  type HookCallbackMatcher,
  type HookEvent,
  query,
  type SDKMessage,
  type SDKResultMessage,
  type SDKUserMessage,
} from "@anthropic-ai/claude-agent-sdk";
import {
  HookRecorder,
  MockTransport,
  PermissionRecorder,
  type QueryRun,
  runQuery,
  ScenarioBuilder,
  startQuery,
  type Step,
} from "../mod.ts";
import { text } from "../builders.ts";

function kinds(messages: readonly SDKMessage[]): string[] {
  return messages.map((m) => "subtype" in m ? `${m.type}/${m.subtype}` : m.type);
}

function toolResults(
  messages: readonly SDKMessage[],
): Array<{ content: unknown; is_error?: boolean }> {
  return messages
    .filter((m): m is SDKUserMessage => m.type === "user")
    .flatMap((m) =>
      Array.isArray(m.message.content)
        ? m.message.content.filter((b) => (b as { type: string }).type === "tool_result") as never[]
        : []
    );
}

Deno.test("runQuery: one turn, with the SDK's types when the SDK's query is passed", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder().on("notes")
      .usesRead("/home/user/project/notes.txt", { content: "a\nb\n" })
      .respond("The notes have two lines.")
      .build(),
  );
  const run: QueryRun<SDKMessage> = await runQuery(mock, "Summarize notes.txt", { query });
  const result: SDKResultMessage | undefined = run.result; // typed by the SDK's query
  assert.deepEqual(kinds(run.messages), [
    "system/init",
    "assistant",
    "user",
    "assistant",
    "result/success",
  ]);
  assert.equal(result?.subtype === "success" && result.result, "The notes have two lines.");
  assert.deepEqual(run.results, [result]);
  assert.equal(run.error, undefined);
  assert.deepEqual(run.exit, { code: 0, signal: null });
  assert.ok(run.writes.some((w) => w.raw.includes("Summarize notes.txt")));
  assert.deepEqual(run.writes, mock.writes());
});

Deno.test("runQuery: the default query is the app's own SDK, loaded on first use", async () => {
  const mock = new MockTransport(new ScenarioBuilder().on("hi").respond("Hello!").build());
  const run = await runQuery(mock, "hi", { model: "claude-opus-4-5" });
  assert.equal(run.result?.result, "Hello!");
  assert.equal(run.messages[0].model, "claude-opus-4-5"); // the SDK's options reach the mock
});

Deno.test("runQuery: a prompt stream that throws is the run's error, not the SDK's 'aborted by user'", async () => {
  const mock = new MockTransport(new ScenarioBuilder().on("hi").respond("Hello!").build());
  const boom = new Error("the app's prompt source failed");
  const run = await runQuery(
    mock,
    (async function* (): AsyncGenerator<SDKUserMessage> {
      yield* [];
      throw boom;
    })(),
    { query },
  );
  assert.ok(run.error instanceof Error);
  assert.equal(run.error.cause, boom);
  assert.match(
    run.error.message,
    /^runQuery\(mock, prompt, options\): the prompt stream threw: the app's prompt source failed; the SDK then ended the query: /,
  );
  // a stream that ends well changes nothing
  const fine = await runQuery(
    new MockTransport(new ScenarioBuilder().on("hi").respond("Hello!").build()),
    (async function* (): AsyncGenerator<SDKUserMessage> {
      yield {
        type: "user",
        message: { role: "user", content: "hi" },
        parent_tool_use_id: null,
        session_id: "",
      };
    })(),
    { query },
  );
  assert.equal(fine.error, undefined);
  assert.equal(fine.result?.subtype === "success" && fine.result.result, "Hello!");
});

Deno.test("runQuery: an array prompt sends each message after the previous turn's result", async () => {
  const userFramesSeen: number[] = [];
  const seeing = (reply: string) =>
    function* (): Generator<Step> {
      // while this turn runs, how many user messages has the SDK written?
      userFramesSeen.push(mock.writes().filter((w) => w.frame?.type === "user").length);
      yield { kind: "message", parts: [text(reply)] };
    };
  const mock = new MockTransport(
    new ScenarioBuilder()
      .onLazy("first", seeing("One."))
      .onLazy("second", seeing("Two."))
      .onLazy("third", seeing("Three."))
      .build(),
  );
  const run = await runQuery(mock, [
    "first",
    "second",
    { type: "user", message: { role: "user", content: "third" }, parent_tool_use_id: null },
  ], { query });
  assert.deepEqual(userFramesSeen, [1, 2, 3]);
  assert.deepEqual(run.results.map((r) => r.subtype === "success" && r.result), [
    "One.",
    "Two.",
    "Three.",
  ]);
  assert.equal(run.result, run.results[2]);
  assert.deepEqual(mock.session.exchangesMatched(), [0, 1, 2]);
  assert.deepEqual(run.exit, { code: 0, signal: null });
});

Deno.test("runQuery: an error result is the SDK's error, the result and exit code 1", async () => {
  const mock = new MockTransport(new ScenarioBuilder().on("hello").failure("bad_request").build());
  const run = await runQuery(mock, "hello");
  assert.match(run.error?.message ?? "", /Claude Code returned an error result: API Error: 400/);
  assert.equal(run.result?.is_error, true);
  assert.deepEqual(run.exit, { code: 1, signal: null });

  // in streaming mode the SDK does not throw: the error result is a message
  const streamed = await runQuery(
    new MockTransport(
      new ScenarioBuilder().on("a").failure("bad_request").on("b").respond("B.").build(),
    ),
    ["a", "b"],
  );
  assert.equal(streamed.error, undefined);
  assert.deepEqual(streamed.results.map((r) => r.is_error), [true, false]);
  assert.deepEqual(streamed.exit, { code: 0, signal: null });
});

Deno.test("runQuery: a crash is the SDK's error and the exit code", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder().crashAfter(3, 3).on("hello").respond("Hi!").build(),
  );
  const run = await runQuery(mock, "hello");
  assert.match(run.error?.message ?? "", /process exited with code 3/);
  assert.equal(run.result, undefined);
  assert.deepEqual(run.exit, { code: 3, signal: null });

  // a crash in the middle of a multi-turn prompt stops the sending
  const multi = await runQuery(
    new MockTransport(new ScenarioBuilder().crashAfter(7, 2).on("x").repeat().respond("X").build()),
    ["x", "x", "x"],
  );
  assert.equal(multi.results.length, 1);
  assert.deepEqual(multi.exit, { code: 2, signal: null });
  assert.match(multi.error?.message ?? "", /code 2/);
});

Deno.test("startQuery: send, nextResult, interrupt a pending permission, close", async () => {
  let asked!: () => void;
  const askedNow = new Promise<void>((resolve) => (asked = resolve));
  // the app's canUseTool waits for a human: only the interrupt ends the wait
  const canUseTool: CanUseTool = (_tool, _input, { signal }) => {
    asked();
    return new Promise((_, reject) =>
      signal.addEventListener("abort", () => reject(signal.reason))
    );
  };
  const mock = new MockTransport(
    new ScenarioBuilder()
      .on("hello").respond("Hi!")
      .on("deploy").usesBash("make deploy", { permission: "ask" }).respond("Deployed.")
      .build(),
  );
  await using chat = await startQuery(mock, { query, canUseTool });
  chat.send("hello");
  const first = await chat.nextResult();
  assert.equal(first.subtype === "success" && first.result, "Hi!");
  await assert.rejects(
    chat.nextResult(),
    /Nothing is on its way: every message sent has its result/,
  );

  chat.send("deploy");
  const use = await chat.nextMessage((m) => m.type === "assistant");
  assert.equal(use.type === "assistant" && use.message.content[0].type, "tool_use");
  await askedNow;
  await chat.interrupt();
  const second = await chat.nextResult();
  assert.equal(second.subtype, "error_during_execution");
  // the SDK answered the cancelled request with an error (its signal aborted)
  const [cancelled] = mock.permissionDecisions();
  assert.equal(cancelled.toolName, "Bash");
  assert.equal(cancelled.behavior, undefined);
  assert.match(cancelled.error ?? "", /aborted/);

  const run = await chat.close();
  assert.equal(run.results.length, 2);
  // the query ended on an error result: the SDK throws that at the end, the run keeps it
  assert.match(run.error?.message ?? "", /Claude Code returned an error result/);
  assert.deepEqual(run.exit, { code: 1, signal: null });
  assert.equal(await chat.close(), run);
  assert.throws(() => chat.send("more"), /the query is closing/);
});

Deno.test("spies: the app's own canUseTool refuses rm, its PreToolUse hook logs; both recorded", async () => {
  const log: string[] = [];
  const appCanUseTool: CanUseTool = (toolName, input) =>
    Promise.resolve(
      toolName === "Bash" && String(input.command).startsWith("rm ")
        ? { behavior: "deny", message: "The app never runs rm." }
        : { behavior: "allow", updatedInput: input },
    );
  const appHooks: Partial<Record<HookEvent, HookCallbackMatcher[]>> = {
    PreToolUse: [{
      matcher: "Bash",
      hooks: [(input) => {
        if (input.hook_event_name === "PreToolUse") {
          log.push(`Bash ${JSON.stringify(input.tool_input)}`);
        }
        return Promise.resolve({ continue: true });
      }],
    }],
  };
  const permissions = PermissionRecorder.spy(appCanUseTool);
  const hooks = HookRecorder.spy(appHooks);
  const mock = new MockTransport(
    new ScenarioBuilder()
      .on("clean")
      .usesBash("rm -rf build", { permission: "ask" })
      .usesBash("npm test", { permission: "ask", stdout: "4 passing" })
      .respond("Cleaned up; tests pass.")
      .build(),
  );
  const run = await runQuery(mock, "clean up and test", {
    query,
    canUseTool: permissions.canUseTool,
    hooks: hooks.hooks,
  });
  assert.equal(run.error, undefined);
  assert.deepEqual(run.exit, { code: 0, signal: null });

  // the app's own callbacks ran and answered
  assert.deepEqual(log, ['Bash {"command":"rm -rf build"}', 'Bash {"command":"npm test"}']);
  const [denied, passed] = toolResults(run.messages);
  assert.equal(denied.is_error, true);
  assert.equal(denied.content, "The app never runs rm.");
  assert.equal(passed.content, "4 passing");

  // the spies recorded them
  permissions.assertAsked("Bash", 2);
  assert.deepEqual(permissions.decisions().map((d) => d.result?.behavior), ["deny", "allow"]);
  hooks.assertCalled("PreToolUse", 2, { matcher: "Bash" });
  assert.deepEqual(hooks.invocations().map((i) => i.output), [
    { continue: true },
    { continue: true },
  ]);

  // and the mock saw the same answers, each with its request
  const decisions = mock.permissionDecisions();
  assert.deepEqual(
    decisions.map((d) => [d.toolName, d.input.command, d.behavior, d.message ?? null]),
    [
      ["Bash", "rm -rf build", "deny", "The app never runs rm."],
      ["Bash", "npm test", "allow", null],
    ],
  );
  assert.equal(decisions[0].request.subtype, "can_use_tool");
  assert.match(decisions[0].toolUseId, /^toolu_/);
  assert.deepEqual(decisions[1].updatedInput, { command: "npm test" });
  const outputs = mock.hookOutputs();
  assert.deepEqual(outputs.map((o) => [o.event, o.toolName, o.output]), [
    ["PreToolUse", "Bash", { continue: true }],
    ["PreToolUse", "Bash", { continue: true }],
  ]);
  assert.deepEqual(outputs[0].input.tool_input, { command: "rm -rf build" });
  assert.equal(outputs[1].toolUseId, decisions[1].toolUseId);
  assert.equal(mock.clientAnswers().length, 4);
});

Deno.test("mcpResults: an in-process MCP tool's results, each with its call", async () => {
  const calc = calcServer({ divide: true });
  const mock = new MockTransport(
    new ScenarioBuilder()
      .on("math")
      .usesTool("mcp__calc__add", { a: 2, b: 3 })
      .usesTool("mcp__calc__divide", { a: 1, b: 0 })
      .respond("5, and 1 / 0 fails.")
      .build(),
  );
  const run = await runQuery(mock, "do math", {
    query,
    mcpServers: { calc },
    canUseTool: PermissionRecorder.allowAll().canUseTool,
  });
  assert.equal(run.error, undefined);
  const results = mock.mcpResults();
  assert.deepEqual(
    results.map((r) => [r.server, r.method, r.tool, r.arguments, r.result?.content, r.isError]),
    [
      ["calc", "tools/call", "add", { a: 2, b: 3 }, [{ type: "text", text: "5" }], false],
      [
        "calc",
        "tools/call",
        "divide",
        { a: 1, b: 0 },
        [{ type: "text", text: "division by zero" }],
        true,
      ],
    ],
  );
  assert.equal(results[0].subtype, "mcp_message");
  assert.equal(results[0].request.server_name, "calc");
  // MCP tools are asked about first, as the real CLI does
  assert.deepEqual(mock.permissionDecisions().map((d) => [d.toolName, d.behavior]), [
    ["mcp__calc__add", "allow"],
    ["mcp__calc__divide", "allow"],
  ]);
});
