// `__mock__` commands with the real SDK, in-process: every command (the frames the app gets,
// permissions, hooks, subagents, interrupts), errors, sessions without a scenario, determinism.
// Fidelity to the real CLI and the fake binary: mock_commands_cli_test.ts.
import assert from "node:assert/strict";
import {
  type CanUseTool,
  type HookCallback,
  type Options,
  query,
  type SDKAssistantMessage,
  type SDKMessage,
} from "@anthropic-ai/claude-agent-sdk";
import { mockCommand, MockTransport } from "../mod.ts";
import { kinds, promptStream, runQuery } from "./_sdk.ts";

const allow: CanUseTool = (_tool, input) =>
  Promise.resolve({ behavior: "allow", updatedInput: input });

/** Runs one prompt through a fresh command-driven mock (no scenario). */
function run(prompt: string, options: Omit<Options, "spawnClaudeCodeProcess"> = {}) {
  return runQuery(new MockTransport(), prompt, options);
}

function resultOf(messages: SDKMessage[]) {
  const result = messages.find((m) => m.type === "result");
  assert.ok(result, "a result");
  return result as SDKMessage & Record<string, unknown>;
}

function assistantBlocks(messages: SDKMessage[], parent: string | null = null) {
  return messages.flatMap((m) =>
    m.type === "assistant" && m.parent_tool_use_id === parent ? m.message.content : []
  );
}

Deno.test("__mock__ text_response: the app gets the text and a success result", async () => {
  const { messages, error } = await run(mockCommand.textResponse("Hi from a command!"));
  assert.equal(error, undefined);
  assert.deepEqual(kinds(messages), ["system/init", "assistant", "result/success"]);
  assert.deepEqual(assistantBlocks(messages), [{ type: "text", text: "Hi from a command!" }]);
  assert.equal(resultOf(messages).result, "Hi from a command!");
});

Deno.test("__mock__ thinking_response joins the next text in one API message", async () => {
  const { messages } = await run(mockCommand.sequence([
    mockCommand.thinkingResponse("17 * 23 = 391."),
    mockCommand.textResponse("391."),
  ]));
  const assistants = messages.filter((m) => m.type === "assistant");
  assert.deepEqual(assistants.map((m) => m.message.content[0].type), ["thinking", "text"]);
  assert.equal(assistants[0].message.id, assistants[1].message.id);
  assert.equal(resultOf(messages).result, "391.");
  // alone, it is a message of its own
  const alone = await run(mockCommand.thinkingResponse("Hmm."));
  assert.deepEqual(assistantBlocks(alone.messages).map((b) => b.type), ["thinking"]);
});

Deno.test("__mock__ tool_use and tool_result: checked by the permission rules, run, answered", async () => {
  const asked: string[] = [];
  const { messages } = await run(
    mockCommand.sequence([
      mockCommand.toolUse("Read", { file_path: "/home/user/project/a.txt" }, {
        toolUseId: "toolu_read",
      }),
      mockCommand.toolResult("toolu_read", { result: "alpha\nbeta\n" }),
      mockCommand.toolUse("Bash", { command: "rm -rf build" }, { toolUseId: "toolu_rm" }),
      mockCommand.toolResult("toolu_rm", { error: "rm: cannot remove" }),
      mockCommand.textResponse("Read it; rm failed."),
    ]),
    {
      canUseTool: (tool, input) => {
        asked.push(tool);
        return allow(tool, input, {} as never);
      },
    },
  );
  assert.deepEqual(asked, ["Bash"], "Read is allowed by the default mode, Bash is asked");
  const results = messages.flatMap((m) =>
    m.type === "user" && Array.isArray(m.message.content) ? m.message.content : []
  ) as Array<{ tool_use_id: string; content: unknown; is_error?: boolean }>;
  assert.deepEqual(results.map((r) => [r.tool_use_id, r.is_error ?? false]), [
    ["toolu_read", false],
    ["toolu_rm", true],
  ]);
  assert.equal(results[0].content, "1\talpha\n2\tbeta\n3\t");
  assert.equal(results[1].content, "rm: cannot remove");
  const read = messages.find((m) => m.type === "user" && m.tool_use_result) as {
    tool_use_result: { file: { content: string } };
  };
  assert.equal(read.tool_use_result.file.content, "alpha\nbeta\n");
  assert.equal(resultOf(messages).num_turns, 3);
});

Deno.test("__mock__ stream_delta: one text_delta per piece with partial messages on", async () => {
  const { messages } = await run(mockCommand.streamDelta(["Hel", "lo ", "world."]), {
    includePartialMessages: true,
  });
  const deltas = messages.flatMap((m) =>
    m.type === "stream_event" && m.event.type === "content_block_delta" &&
      m.event.delta.type === "text_delta"
      ? [m.event.delta.text]
      : []
  );
  assert.deepEqual(deltas, ["Hel", "lo ", "world."]);
  assert.deepEqual(assistantBlocks(messages), [{ type: "text", text: "Hello world." }]);
  // without partial messages, as the real CLI: the assistant message only
  const plain = await run(mockCommand.streamDelta("Hi."));
  assert.deepEqual(kinds(plain.messages), ["system/init", "assistant", "result/success"]);
});

Deno.test("__mock__ result: cost, duration, text and errors of the result frame", async () => {
  const { messages } = await run(mockCommand.sequence([
    mockCommand.textResponse("Working."),
    mockCommand.delay(1500),
    mockCommand.result({ cost: 0.25, durationMs: 4321, result: "All done." }),
  ]));
  const result = resultOf(messages);
  assert.equal(result.total_cost_usd, 0.25);
  assert.equal(result.duration_ms, 4321);
  assert.equal(result.result, "All done.");
  const failed = await run(mockCommand.result({ isError: true, result: "It broke." }));
  assert.equal(resultOf(failed.messages).subtype, "error_during_execution");
  assert.deepEqual(resultOf(failed.messages).errors, ["It broke."]);
  assert.match(failed.error?.message ?? "", /error/i, "the SDK throws after an error result");
});

Deno.test("__mock__ delay: waits on the session clock (no real time)", async () => {
  const { messages } = await run(mockCommand.sequence([
    mockCommand.delay(60_000),
    mockCommand.textResponse("A minute later."),
  ]));
  assert.ok((resultOf(messages).duration_ms as number) >= 60_000);
});

Deno.test("__mock__ error: an error result, an API error, a named failure", async () => {
  const plain = await run(mockCommand.error("The backend is down."));
  assert.equal(resultOf(plain.messages).subtype, "error_during_execution");
  assert.deepEqual(resultOf(plain.messages).errors, ["The backend is down."]);
  assert.ok(plain.error, "the SDK throws");
  const api = await run(mockCommand.error("Internal failure", { code: 500 }));
  const synthetic = api.messages.find((m) => m.type === "assistant");
  assert.equal((synthetic as { error?: string } | undefined)?.error, "server_error");
  assert.equal(resultOf(api.messages).is_error, true);
  assert.equal(resultOf(api.messages).api_error_status, 500);
  const named = await run(mockCommand.error("Overloaded", { code: "overloaded" }), {
    env: { CLAUDE_CODE_MAX_RETRIES: "2" },
  });
  assert.deepEqual(
    named.messages.filter((m) => m.type === "system" && m.subtype === "api_retry").length,
    2,
  );
  // after its retries, outside a sandbox, as the real CLI words it (failures/v3xx_*_nosandbox)
  assert.match(String(resultOf(named.messages).result), /^API Error: Repeated 529 Overloaded/);
});

Deno.test("__mock__ permission_request: the app's canUseTool is asked with the suggestions; its answer is honoured", async () => {
  const seen: Array<{ tool: string; suggestions: unknown; agentID?: string }> = [];
  const canUseTool: CanUseTool = (tool, input, options) => {
    seen.push({ tool, suggestions: options.suggestions, agentID: options.agentID });
    return Promise.resolve(
      tool === "Write"
        ? { behavior: "deny", message: "Not in tests." }
        : { behavior: "allow", updatedInput: { ...input, file_path: "/home/user/project/b.txt" } },
    );
  };
  const { messages } = await run(
    mockCommand.sequence([
      mockCommand.permissionRequest("Read", { file_path: "/home/user/project/a.txt" }, {
        suggestions: ["Read(/home/user/project/*)"],
        toolUseId: "toolu_r",
      }),
      mockCommand.toolResult("toolu_r", { result: "bee" }),
      mockCommand.permissionRequest("Write", { file_path: "/tmp/x", content: "x" }),
      mockCommand.textResponse("One allowed, one denied."),
    ]),
    { canUseTool },
  );
  assert.deepEqual(seen.map((s) => s.tool), ["Read", "Write"]);
  assert.deepEqual(seen[0].suggestions, [{
    type: "addRules",
    rules: [{ toolName: "Read", ruleContent: "/home/user/project/*" }],
    behavior: "allow",
    destination: "localSettings",
  }]);
  const users = messages.filter((m) => m.type === "user") as unknown as Array<
    {
      message: { content: Array<{ content: unknown; is_error?: boolean }> };
      tool_use_result: unknown;
    }
  >;
  assert.equal(users[0].message.content[0].content, "1\tbee");
  assert.equal(
    (users[0].tool_use_result as { file: { filePath: string } }).file.filePath,
    "/home/user/project/b.txt",
    "the tool ran with the app's updatedInput",
  );
  assert.deepEqual(users[1].message.content[0].is_error, true);
  assert.equal(users[1].message.content[0].content, "Not in tests.");
  const result = resultOf(messages);
  assert.deepEqual(
    (result.permission_denials as Array<{ tool_name: string }>).map((d) => d.tool_name),
    ["Write"],
  );
  // without a canUseTool the real CLI cannot ask: the tool is denied
  const unasked = await run(mockCommand.permissionRequest("Bash", { command: "ls" }));
  assert.equal(
    (resultOf(unasked.messages).permission_denials as unknown[]).length,
    1,
  );
});

Deno.test("__mock__ permission_request from a subagent: an interrupt while it is pending rejects the tool", async () => {
  const mock = new MockTransport(undefined, { recordSent: true });
  const ref = {} as { q: ReturnType<typeof query> };
  const q = query({
    prompt: mockCommand.sequence([
      mockCommand.permissionRequest("Bash", { command: "make deploy" }, { agentId: "deployer" }),
      mockCommand.textResponse("never"),
    ]),
    options: {
      spawnClaudeCodeProcess: mock.spawn,
      canUseTool: (_tool, _input, { signal }) => {
        queueMicrotask(() => ref.q.interrupt());
        return new Promise((_, reject) =>
          signal.addEventListener("abort", () => reject(new Error("canUseTool aborted")))
        );
      },
    },
  });
  ref.q = q;
  const { messages, error } = await collect(q);
  assert.ok(mock.session.sent().some((f) => f.type === "control_cancel_request"));
  const result = resultOf(messages);
  assert.equal(result.terminal_reason, "aborted_tools");
  assert.deepEqual(
    (result.permission_denials as Array<{ tool_name: string }>).map((d) => d.tool_name),
    ["Bash"],
  );
  assert.equal(
    assistantBlocks(messages).some((b) => (b as { text?: string }).text === "never"),
    false,
  );
  assert.ok(error, "the SDK throws after the aborted result");
  assert.equal((await mock.exited).code, 1);
});

Deno.test("__mock__ ask_user_question: the app's answers become the tool result", async () => {
  const { messages } = await run(
    mockCommand.sequence([
      mockCommand.askUserQuestion([{
        question: "Which library?",
        header: "Library",
        options: ["date-fns", { label: "luxon", description: "Luxon" }],
      }]),
      mockCommand.textResponse("We will use date-fns."),
    ]),
    {
      canUseTool: (_tool, input) =>
        Promise.resolve({
          behavior: "allow",
          updatedInput: { ...input, answers: { "Which library?": "date-fns" } },
        }),
    },
  );
  const user = messages.find((m) => m.type === "user") as unknown as {
    message: { content: Array<{ content: string }> };
  };
  assert.equal(
    user.message.content[0].content,
    'Your questions have been answered: "Which library?"="date-fns". You can now continue with these answers in mind.',
  );
});

Deno.test("__mock__ hook_request: a hook_callback to the app's hook; additionalContext kept, continue:false ends the turn", async () => {
  const inputs: Array<Record<string, unknown>> = [];
  const toolUseIds: Array<string | undefined> = [];
  const hook: HookCallback = (input, toolUseId) => {
    inputs.push(input as unknown as Record<string, unknown>);
    toolUseIds.push(toolUseId);
    return Promise.resolve({
      hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "noted" },
    });
  };
  const mock = new MockTransport();
  const { messages } = await runQuery(
    mock,
    mockCommand.sequence([
      mockCommand.hookRequest(
        "PostToolUse",
        { tool_name: "Read", tool_input: { file_path: "/a" } },
        {
          toolUseId: "toolu_x",
        },
      ),
      mockCommand.textResponse("Hooked."),
    ]),
    { hooks: { PostToolUse: [{ matcher: "Read", hooks: [hook] }] } },
  );
  assert.equal(inputs.length, 1);
  assert.equal(inputs[0].hook_event_name, "PostToolUse");
  assert.equal(inputs[0].tool_name, "Read");
  assert.deepEqual(toolUseIds, ["toolu_x"]);
  assert.deepEqual(mock.session.hookContext(), ["noted"]);
  assert.equal(resultOf(messages).result, "Hooked.");
  // a hook that stops
  const stopped = await run(
    mockCommand.sequence([
      mockCommand.hookRequest("Notification", { message: "hi", notification_type: "idle" }),
      mockCommand.textResponse("never written"),
    ]),
    {
      hooks: {
        Notification: [{ hooks: [() => Promise.resolve({ continue: false, stopReason: "halt" })] }],
      },
    },
  );
  assert.equal(stopped.messages.some((m) => m.type === "assistant"), false);
  assert.equal(resultOf(stopped.messages).terminal_reason, "hook_stopped");
  // no hook registered for the event: an error naming it
  const none = await run(mockCommand.hookRequest("PreCompact", { trigger: "manual" }));
  assert.match(
    String((resultOf(none.messages).errors as string[])[0]),
    /^__mock__ hook_request: the app registered no hook for 'PreCompact'/,
  );
});

Deno.test("__mock__ system_init, system_status, compact_boundary: system frames as the CLI writes them", async () => {
  const { messages } = await run(mockCommand.sequence([
    mockCommand.systemInit({ model: "claude-sonnet-5-5", permissionMode: "plan", cwd: "/srv/app" }),
    mockCommand.systemStatus("compacting"),
    mockCommand.delay(100),
    mockCommand.compactBoundary({ trigger: "auto", preTokens: 150000 }),
    mockCommand.systemStatus(null),
  ]));
  assert.deepEqual(kinds(messages), [
    "system/init",
    "system/init",
    "system/status",
    "system/compact_boundary",
    "system/status",
    "result/success",
  ]);
  const init = messages[1] as Record<string, unknown>;
  assert.deepEqual([init.model, init.permissionMode, init.cwd], [
    "claude-sonnet-5-5",
    "plan",
    "/srv/app",
  ]);
  assert.equal((messages[2] as { status: string }).status, "compacting");
  const boundary = messages[3] as { compact_metadata: { trigger: string; pre_tokens: number } };
  assert.deepEqual([boundary.compact_metadata.trigger, boundary.compact_metadata.pre_tokens], [
    "auto",
    150000,
  ]);
});

Deno.test("__mock__ scenario: a predefined scenario by name, and an inline scenario file", async () => {
  const named = await run(mockCommand.scenario("simple_conversation", { prompt: "hello" }));
  assert.equal(resultOf(named.messages).result, "Hello! How can I help you today?");
  const permitted = await run(mockCommand.scenario("tool_with_permission"), { canUseTool: allow });
  assert.equal(resultOf(permitted.messages).result, "Done.");
  const inline = await run(
    mockCommand.scenario({
      exchanges: [{ on: "x", steps: [{ say: "Inline first." }, { say: "Inline second." }] }],
    }),
  );
  assert.deepEqual(assistantBlocks(inline.messages).map((b) => (b as { text: string }).text), [
    "Inline first.",
    "Inline second.",
  ]);
  const unknown = await run(mockCommand.scenario("simple_conversations"));
  assert.match(
    String((resultOf(unknown.messages).errors as string[])[0]),
    /^__mock__ scenario: 'params.name' is not a predefined scenario: Unknown builtin scenario 'simple_conversations'/,
  );
});

Deno.test("__mock__ agent_id: a subagent's frames inside an Agent tool use, with the task frames", async () => {
  const seen: Array<string | undefined> = [];
  const { messages } = await run(
    mockCommand.sequence([
      mockCommand.textResponse("I'll delegate this."),
      mockCommand.thinkingResponse("Reading first.", { agentId: "explorer" }),
      mockCommand.toolUse("Read", { file_path: "/home/user/project/notes.txt" }, {
        agentId: "explorer",
        toolUseId: "toolu_sub",
      }),
      mockCommand.toolResult("toolu_sub", { result: "make\n" }),
      mockCommand.permissionRequest("Bash", { command: "make" }, { agentId: "explorer" }),
      mockCommand.textResponse("The build uses make.", { agentId: "explorer" }),
      mockCommand.textResponse("Summary: make."),
    ]),
    {
      canUseTool: (tool, input, options) => {
        seen.push(options.agentID);
        return allow(tool, input, options);
      },
    },
  );
  assert.deepEqual(seen, ["explorer"], "the subagent's permission request carries its agent_id");
  const agentUse = assistantBlocks(messages).find((b) => b.type === "tool_use") as {
    id: string;
    name: string;
  };
  assert.equal(agentUse.name, "Agent");
  const mainMessages = messages.filter((m): m is SDKAssistantMessage =>
    m.type === "assistant" && !m.parent_tool_use_id
  );
  assert.equal(
    mainMessages[0].message.id,
    mainMessages[1].message.id,
    "what the main thread said before the subagent is in the Agent tool use's message",
  );
  const sub = messages.filter((m) =>
    "parent_tool_use_id" in m && m.parent_tool_use_id === agentUse.id
  );
  assert.ok(sub.length >= 6);
  for (const m of sub) assert.equal((m as { agent_id?: string }).agent_id, "explorer");
  const subKinds = messages.map((m) =>
    `${m.type}${"subtype" in m ? `/${m.subtype}` : ""}${
      "parent_tool_use_id" in m && m.parent_tool_use_id ? "@sub" : ""
    }`
  );
  assert.deepEqual(subKinds, [
    "system/init",
    "assistant",
    "assistant",
    "system/task_started",
    "user@sub",
    "system/task_progress",
    "assistant@sub",
    "assistant@sub",
    "user@sub",
    "system/task_progress",
    "assistant@sub",
    "user@sub",
    "assistant@sub",
    "system/task_updated",
    "system/task_notification",
    "user",
    "assistant",
    "result/success",
  ]);
  const notification = messages.find((m) =>
    m.type === "system" && m.subtype === "task_notification"
  ) as { summary: string; task_id: string };
  assert.deepEqual([notification.task_id, notification.summary], [
    "explorer",
    "The build uses make.",
  ]);
  assert.equal(resultOf(messages).result, "Summary: make.");
});

Deno.test("__mock__ errors: bad JSON, unknown commands and bad params end the turn with an error result naming them", async () => {
  const cases: Array<[string, RegExp]> = [
    [
      '{"__mock__": {"command": "text_response", "params": {"text": 42}}}',
      /^__mock__ text_response: 'params\.text' must be a string, got the number 42$/,
    ],
    [
      '{"__mock__": {"command": "text_resp',
      /^__mock__: the prompt starts with \{"__mock__" but is not valid JSON: /,
    ],
    [
      '{"__mock__": {"command": "dance"}}',
      /^__mock__: unknown command "dance" at 'command'; the commands are text_response, /,
    ],
    [
      mockCommand.sequence([mockCommand.delay(1), {
        command: "text_response",
        params: { text: "" },
      }]),
      /^__mock__ text_response: 'params\.commands\[1\]\.params\.text' must be a non-empty string$/,
    ],
    [
      mockCommand.sequence([mockCommand.result(), mockCommand.textResponse("late")]),
      /^__mock__ result: 'params\.commands\[0\]' ends the turn, so it must be the last command/,
    ],
    [
      '{"__mock__": {"command": "delay", "params": {"ms": -5}}}',
      /^__mock__ delay: 'params\.ms' must be a finite number >= 0, got -5$/,
    ],
    [
      '{"__mock__": {"command": "tool_result", "params": {"tool_use_id": "toolu_nope"}}}',
      /^__mock__ tool_result: 'params\.tool_use_id' names no tool use before it/,
    ],
    ['{"__mock__": {"command": "text_response"}, "extra": 1}', /^__mock__: unexpected key 'extra'/],
  ];
  for (const [prompt, expected] of cases) {
    const { messages, error } = await run(prompt);
    assert.deepEqual(kinds(messages), ["system/init", "result/error_during_execution"], prompt);
    const errors = resultOf(messages).errors as string[];
    assert.match(errors[0], expected);
    assert.ok(error, "the SDK throws after the error result");
  }
});

Deno.test("__mock__ without a scenario: plain prompts get the unmatched error; commands drive several turns", async () => {
  const plain = await run("hello there");
  assert.match(
    String((resultOf(plain.messages).errors as string[])[0]),
    /no exchange of scenario matched user message "hello there".*the scenario has no exchanges/,
  );
  let seen = 0;
  let notify = () => {};
  const resultSeen = () => new Promise<void>((resolve) => (notify = resolve));
  const messages: SDKMessage[] = [];
  const mock = new MockTransport();
  for await (
    const m of query({
      prompt: promptStream([
        mockCommand.textResponse("First."),
        mockCommand.textResponse("Second."),
      ], resultSeen),
      options: { spawnClaudeCodeProcess: mock.spawn },
    })
  ) {
    messages.push(m);
    if (m.type === "result" && ++seen) notify();
    if (seen === 2) break;
  }
  assert.deepEqual(
    messages.filter((m) => m.type === "result").map((m) => (m as { result: string }).result),
    ["First.", "Second."],
  );
  await mock.close();
});

Deno.test("__mock__ commands are deterministic: the same seed gives the same frames", async () => {
  const prompt = mockCommand.sequence([
    mockCommand.textResponse("a"),
    mockCommand.textResponse("b", { agentId: "x" }),
    mockCommand.toolUse("Glob", { pattern: "*.ts" }),
  ]);
  const frames = async () => {
    const mock = new MockTransport(undefined, { seed: 5, recordSent: true });
    await runQuery(mock, prompt);
    // the SDK's own request ids are random: its initialize answer is left out
    return mock.session.sent().filter((f) => f.type !== "control_response");
  };
  assert.deepEqual(await frames(), await frames());
});

async function collect(q: AsyncIterable<SDKMessage>) {
  const messages: SDKMessage[] = [];
  try {
    for await (const m of q) messages.push(m);
    return { messages, error: undefined as Error | undefined };
  } catch (error) {
    return { messages, error: error as Error };
  }
}
