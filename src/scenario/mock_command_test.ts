import assert from "node:assert/strict";
import { MOCK_COMMAND_NAMES, mockCommand } from "./mock_command.ts";
import { ScenarioBuilder } from "./scenario_builder.ts";

const params = (text: string) => mockCommand.parse(text)?.params;

Deno.test("mockCommand: each builder writes its command with snake_case params, leaving out what was not given", () => {
  assert.equal(
    mockCommand.textResponse("hi"),
    '{"__mock__":{"command":"text_response","params":{"text":"hi"}}}',
  );
  assert.deepEqual(params(mockCommand.thinkingResponse("hm", { agentId: "a" })), {
    thinking: "hm",
    agent_id: "a",
  });
  assert.deepEqual(
    params(mockCommand.toolUse("Read", { file_path: "/a" }, { toolUseId: "t1", agentId: "a" })),
    { tool_name: "Read", tool_input: { file_path: "/a" }, tool_use_id: "t1", agent_id: "a" },
  );
  assert.deepEqual(params(mockCommand.toolResult("t1", { error: "boom" })), {
    tool_use_id: "t1",
    error: "boom",
  });
  assert.deepEqual(
    params(mockCommand.result({ durationMs: 5, cost: 0.1, isError: false, result: "r" })),
    { duration_ms: 5, cost: 0.1, is_error: false, result: "r" },
  );
  assert.equal(mockCommand.result(), '{"__mock__":{"command":"result"}}');
  assert.deepEqual(params(mockCommand.streamDelta(["a", "b"])), { text: ["a", "b"] });
  assert.deepEqual(params(mockCommand.error("x", { code: "overloaded" })), {
    message: "x",
    code: "overloaded",
  });
  assert.deepEqual(
    params(mockCommand.permissionRequest("Bash", { command: "ls" }, { suggestions: ["Bash(ls)"] })),
    { tool_name: "Bash", tool_input: { command: "ls" }, suggestions: ["Bash(ls)"] },
  );
  assert.deepEqual(
    params(mockCommand.askUserQuestion([{ question: "Q?", header: "H", options: ["a"] }])),
    { questions: [{ question: "Q?", header: "H", options: ["a"] }] },
  );
  assert.deepEqual(params(mockCommand.hookRequest("Stop", {}, { toolUseId: "t" })), {
    event: "Stop",
    input: {},
    tool_use_id: "t",
  });
  assert.deepEqual(params(mockCommand.systemInit({ permissionMode: "plan", tools: ["Read"] })), {
    permission_mode: "plan",
    tools: ["Read"],
  });
  assert.deepEqual(params(mockCommand.systemStatus(null)), { status: null });
  assert.deepEqual(params(mockCommand.compactBoundary({ preTokens: 9 })), { pre_tokens: 9 });
  assert.deepEqual(params(mockCommand.scenario("multi_tool", { prompt: "go" })), {
    name: "multi_tool",
    prompt: "go",
  });
  assert.deepEqual(params(mockCommand.delay(3)), { ms: 3 });
  assert.equal(MOCK_COMMAND_NAMES.length, 16);
});

Deno.test("mockCommand.sequence: takes builder texts and command objects; refuses anything else", () => {
  const prompt = mockCommand.sequence([
    mockCommand.delay(1),
    { command: "text_response", params: { text: "x" } },
    { command: "result" },
  ]);
  assert.deepEqual(params(prompt), {
    commands: [
      { command: "delay", params: { ms: 1 } },
      { command: "text_response", params: { text: "x" } },
      { command: "result" },
    ],
  });
  assert.throws(
    () => mockCommand.sequence([mockCommand.delay(1), "hello"]),
    {
      name: "TypeError",
      message:
        `mockCommand.sequence: 'commands[1]' must be a __mock__ command (a text from mockCommand, or a {command, params} object), got "hello"`,
    },
  );
  assert.throws(() => mockCommand.sequence("x" as never), TypeError);
});

Deno.test("mockCommand.scenario: a built scenario goes as its scenario file; a file as it is", () => {
  const built = new ScenarioBuilder({ name: "s" }).on("x").respond("Hi.").build();
  const { $schema, ...rest } = params(mockCommand.scenario(built)) ?? {};
  assert.equal(typeof $schema, "string");
  assert.deepEqual(rest, { name: "s", exchanges: [{ on: "x", steps: [{ say: "Hi." }] }] });
  const file = { exchanges: [{ on: "y", steps: [{ say: "Yo." }] }] };
  assert.deepEqual(params(mockCommand.scenario(file)), file);
  assert.throws(() => mockCommand.scenario(file, { prompt: "y" }), TypeError);
});

Deno.test("mockCommand.parse: a command's object, or undefined for other text", () => {
  assert.deepEqual(mockCommand.parse(' { "__mock__" : {"command":"delay","params":{"ms":1}}}'), {
    command: "delay",
    params: { ms: 1 },
  });
  assert.equal(mockCommand.parse("hello"), undefined);
  assert.equal(mockCommand.parse('{"__mock__": {"command": '), undefined);
  assert.equal(mockCommand.parse('{"__mock__": 1}'), undefined);
  assert.equal(mockCommand.of({ command: "result" }), '{"__mock__":{"command":"result"}}');
});
