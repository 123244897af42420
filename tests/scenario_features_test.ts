// What a scenario can say without dropping to raw frames (several tool uses in one
// message, explicit stream chunks, originalFile, output tokens, the Stop hooks before an
// explicit result, --max-turns after tool results, the API error text in the result,
// exchanges answering n times), each checked through the real SDK.
import assert from "node:assert/strict";
import type { SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { HookRecorder, MockTransport, PermissionRecorder, ScenarioBuilder } from "../mod.ts";
import { runQuery } from "./_sdk.ts";

type Loose = Record<string, unknown>;
const result = (messages: SDKMessage[]) => messages.at(-1) as unknown as Loose;

Deno.test("usesTogether: two tool uses in one message, each asked after its own frame", async () => {
  const permissions = PermissionRecorder.allowAll();
  const mock = new MockTransport(
    new ScenarioBuilder().on("compare").usesTogether(
      (tools) =>
        tools.usesBash("ls", { stdout: "a b" })
          .usesBash("rm -rf build", { ifDenied: "I will not delete it." }),
      { say: "Checking two things.", outputTokens: 42 },
    ).respond("Done comparing.").build(),
    { recordSent: true },
  );
  const { messages, error } = await runQuery(mock, "compare", {
    canUseTool: permissions.canUseTool,
  });
  assert.equal(error, undefined);
  const assistants = messages.filter((m) => m.type === "assistant") as unknown as Array<
    { message: { id: string; content: Array<{ type: string; name?: string }> } }
  >;
  const first = assistants.slice(0, 3);
  assert.deepEqual(first.map((a) => a.message.content[0].type), ["text", "tool_use", "tool_use"]);
  assert.equal(new Set(first.map((a) => a.message.id)).size, 1, "one API message");
  // ls is read-only (runs without asking); rm is asked
  permissions.assertAsked("Bash", 1);
  const sent = mock.session.sent();
  const asked = sent.findIndex((f) => f.type === "control_request");
  const secondUse = sent.findIndex((f, i) =>
    f.type === "assistant" && i > 0 &&
    (f.message as { content: Array<{ type: string }> }).content[0].type === "tool_use" &&
    sent.slice(0, i).filter((g) => g.type === "assistant").length === 2
  );
  assert.ok(asked > secondUse, "the permission question follows the second tool use's frame");
  const toolResults = messages.filter((m) => m.type === "user" && "tool_use_result" in m);
  assert.equal(toolResults.length, 2);
  assert.equal(result(messages).result, "Done comparing.");
  // the message's 42 output tokens, plus ceil(15 / 4) estimated for "Done comparing."
  assert.equal((result(messages).usage as { output_tokens: number }).output_tokens, 46);
});

Deno.test("usesTogether: a denied tool use takes its own ifDenied branch", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder().on("go").usesTogether((tools) =>
      tools.usesRead("/home/user/project/a.txt", { content: "a" })
        .usesBash("rm -rf /", { permission: "deny", ifDenied: "Refused the dangerous one." })
    ).respond("never reached").build(),
  );
  const { messages } = await runQuery(mock, "go");
  assert.equal(result(messages).result, "Refused the dangerous one.");
  assert.equal((result(messages).permission_denials as unknown[]).length, 1);
});

Deno.test("explicit stream chunks for text and tool input", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder().on("hi")
      .respond("Hello world, friend.", { chunks: [["Hel", "lo world", ", friend."]] })
      .usesBash("echo hi", { inputChunks: ['{"command"', ':"echo hi"}'] })
      .respond("Done.", { chunkSize: 2 })
      .build(),
  );
  const { messages } = await runQuery(mock, "hi", { includePartialMessages: true });
  const deltas = messages.flatMap((m) =>
    m.type === "stream_event" && m.event.type === "content_block_delta" ? [m.event.delta] : []
  ) as Array<{ type: string; text?: string; partial_json?: string }>;
  const texts = deltas.filter((d) => d.type === "text_delta").map((d) => d.text);
  assert.deepEqual(texts.slice(0, 3), ["Hel", "lo world", ", friend."]);
  assert.deepEqual(texts.slice(3), ["Do", "ne", "."]);
  assert.deepEqual(
    deltas.filter((d) => d.type === "input_json_delta").map((d) => d.partial_json),
    ['{"command"', ':"echo hi"}'],
  );
});

Deno.test("chunks that do not join back into the text are refused when the builder runs", () => {
  assert.throws(
    () =>
      new ScenarioBuilder({ name: "c" }).on("x").respond("abc", { chunks: [["a", 5 as never]] }),
    /'exchanges\[0\]\.steps\[0\]\.chunks\[0\]\[1\]'/,
  );
  assert.throws(
    () => new ScenarioBuilder().on("x").usesBash("ls", { chunkSize: 0 }),
    /options\.chunkSize \(an integer >= 1\), got 0/,
  );
});

Deno.test("usesEdit with originalFile reports it in the tool result", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder().on("fix").usesEdit("/home/user/project/a.ts", {
      oldString: "let x = 1;",
      newString: "const x = 1;",
      originalFile: "// header\nlet x = 1;\nexport { x };\n",
    }).respond("Fixed.").build(),
  );
  const { messages } = await runQuery(mock, "fix", { permissionMode: "acceptEdits" });
  const edit = messages.find((m) => m.type === "user" && "tool_use_result" in m) as unknown as {
    tool_use_result: { originalFile: string; structuredPatch: Array<{ oldStart: number }> };
  };
  assert.equal(edit.tool_use_result.originalFile, "// header\nlet x = 1;\nexport { x };\n");
  assert.equal(edit.tool_use_result.structuredPatch[0].oldStart, 1);
});

Deno.test("thenResult runs the Stop hooks first, as the end of the steps does", async () => {
  const hooks = new HookRecorder().on("Stop");
  const mock = new MockTransport(
    new ScenarioBuilder().on("hi").respond("Hello.").thenResult().build(),
  );
  const { messages } = await runQuery(mock, "hi", { hooks: hooks.hooks });
  hooks.assertCalled("Stop", 1);
  assert.equal(result(messages).result, "Hello.");
});

Deno.test("--max-turns after tool results ends with error_max_turns, no unreachable reply needed", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder().on("read").usesRead("/home/user/project/a.txt", { content: "a" })
      .build(),
  );
  const { messages, error } = await runQuery(mock, "read", { maxTurns: 1 });
  const last = result(messages);
  assert.equal(last.subtype, "error_max_turns");
  assert.equal(last.num_turns, 2);
  assert.match(String(error), /Reached maximum number of turns \(1\)/);
});

Deno.test("apiError: the result carries the CLI's error text, so the SDK's error names the cause", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder().on("x").respond("Working on it.").apiError(500, { message: "boom" })
      .build(),
  );
  const { messages, error } = await runQuery(mock, "x");
  const last = result(messages);
  assert.equal(last.is_error, true);
  assert.match(String(last.result), /^API Error: 500 boom/);
  assert.match(String(error), /API Error: 500 boom/);
});

Deno.test("times(n): an exchange answers up to n messages, then the next one answers", async () => {
  const scenario = new ScenarioBuilder().on("ping").times(2).respond("pong")
    .on("ping").respond("last pong").build();
  const { Session } = await import("../session.ts");
  const session = new Session(scenario);
  const writer = session.writable.getWriter();
  for (let i = 0; i < 3; i++) {
    await writer.write(
      JSON.stringify({ type: "user", message: { role: "user", content: "ping" } }) + "\n",
    );
  }
  await writer.close();
  const text = await new Response(session.readable).text();
  const results = text.trim().split("\n").map((l) => JSON.parse(l)).filter((f) =>
    f.type === "result"
  ).map((f) => f.result);
  assert.deepEqual(results, ["pong", "pong", "last pong"]);
  assert.throws(
    () => new ScenarioBuilder().on("x").times(0),
    /maxMatches' must be an integer >= 1/,
  );
});
