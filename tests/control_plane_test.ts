// Integration tests of the control plane: the real Agent SDK's canUseTool, hooks, in-process
// MCP servers and interrupt, exercised by the mock the way the real CLI exercises them.
import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import {
  createSdkMcpServer,
  type HookCallback,
  query,
  type SDKMessage,
  type SDKResultMessage,
  type SDKUserMessage,
  tool,
} from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
import { builtinScenario, MockTransport, ScenarioBuilder, SystemClock } from "../mod.ts";
import { driveFakeTime, gatedPrompt, kinds, runQuery } from "./_sdk.ts";
import { recordedMessageKinds, recordedStates, recordedToolResults } from "./_fidelity.ts";

function resultOf(messages: readonly SDKMessage[]): SDKResultMessage {
  const result = messages.findLast((m) => m.type === "result");
  assert.ok(result, "no result");
  return result as SDKResultMessage;
}

function toolResults(
  messages: readonly SDKMessage[],
): Array<{ content: unknown; is_error?: boolean; tool_use_id: string }> {
  return messages
    .filter((m): m is SDKUserMessage => m.type === "user")
    .flatMap((m) =>
      Array.isArray(m.message.content)
        ? m.message.content.filter((b) => (b as { type: string }).type === "tool_result") as never[]
        : []
    );
}

function requestsTo(mock: MockTransport, subtype: string): Array<Record<string, unknown>> {
  return mock.session.sent().flatMap((f) =>
    f.type === "control_request" && (f.request as { subtype: string }).subtype === subtype
      ? [f.request as Record<string, unknown>]
      : []
  );
}

Deno.test("can_use_tool: allow runs the tool and the SDK sees the real CLI's sequence", async () => {
  const asked: Array<{ tool: string; input: unknown; toolUseID: string }> = [];
  const mock = new MockTransport(
    new ScenarioBuilder().on("clean").usesBash("rm -rf build", { stdout: "" }).respond("Cleaned.")
      .build(),
    { recordSent: true },
  );
  const { messages, error } = await runQuery(mock, "clean the build", {
    canUseTool: (toolName, input, options) => {
      asked.push({ tool: toolName, input, toolUseID: options.toolUseID });
      return Promise.resolve({ behavior: "allow", updatedInput: input });
    },
  });
  assert.equal(error, undefined);
  assert.deepEqual(asked.map((a) => a.tool), ["Bash"]);
  assert.deepEqual(asked[0].input, { command: "rm -rf build" });
  const [request] = requestsTo(mock, "can_use_tool");
  assert.equal(request.tool_name, "Bash");
  assert.equal(request.tool_use_id, asked[0].toolUseID);
  // requires_action before the request, running after the answer (both hidden from the app),
  // as the real CLI wrote them for an allowed Bash (tests/fixtures/real/r2_cut_bash_no_rule)
  const states = mock.session.sent().filter((f) => f.subtype === "session_state_changed").map((f) =>
    f.state
  );
  assert.deepEqual(states, await recordedStates("r2_cut_bash_no_rule"));
  assert.notEqual(toolResults(messages)[0].is_error, true);
  assert.deepEqual(resultOf(messages).permission_denials, []);
  // the SDK launched the CLI with the stdio permission prompt tool: init lists AskUserQuestion
  const init = messages[0] as { tools: string[] };
  assert.ok(init.tools.includes("AskUserQuestion"));
});

Deno.test("can_use_tool: allow with updatedInput runs the tool with the new input", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder().on("read").usesRead("/home/user/project/a.txt", { content: "alpha\n" })
      .respond("Done.").build(),
  );
  const { messages, error } = await runQuery(mock, "read a.txt", {
    canUseTool: (_tool, input) =>
      Promise.resolve({
        behavior: "allow",
        updatedInput: { ...input, file_path: "/home/user/project/b.txt" },
      }),
    settings: { permissions: { ask: ["Read"] } },
  });
  assert.equal(error, undefined);
  const assistant = messages.find((m) =>
    m.type === "assistant" && m.message.content[0].type === "tool_use"
  );
  // the assistant frame keeps the original input...
  assert.deepEqual(
    (assistant as { message: { content: Array<{ input: unknown }> } }).message.content[0].input,
    {
      file_path: "/home/user/project/a.txt",
    },
  );
  // ...the tool ran with the new one
  const user = messages.find((m) => m.type === "user") as SDKUserMessage & {
    tool_use_result: { file: { filePath: string } };
  };
  assert.equal(user.tool_use_result.file.filePath, "/home/user/project/b.txt");
});

Deno.test("can_use_tool: deny gives the error tool_result, a permission denial, and the scenario goes on", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder()
      .on("clean")
      .usesBash("rm -rf build", { ifDenied: "Understood, I won't delete the build directory." })
      .respond("Deleted.")
      .build(),
  );
  const { messages, error } = await runQuery(mock, "clean", {
    canUseTool: () =>
      Promise.resolve({
        behavior: "deny",
        message: "The user does not allow deleting files in this test.",
      }),
  });
  assert.equal(error, undefined);
  const [denied] = toolResults(messages);
  assert.equal(denied.is_error, true);
  assert.equal(denied.content, "The user does not allow deleting files in this test.");
  const result = resultOf(messages);
  assert.equal(result.subtype, "success");
  assert.equal(
    result.subtype === "success" && result.result,
    "Understood, I won't delete the build directory.",
  );
  assert.deepEqual(result.permission_denials.map((d) => [d.tool_name, d.tool_input]), [["Bash", {
    command: "rm -rf build",
  }]]);
});

Deno.test("permissions: bypassPermissions never asks; read-only tools run without asking", async () => {
  let asked = 0;
  const canUseTool =
    () => (asked++, Promise.resolve({ behavior: "allow" as const, updatedInput: {} }));
  const bypass = new MockTransport(
    new ScenarioBuilder().on("x").usesBash("ls").respond("ok").build(),
    // as a user who is not root (as root the CLI refuses to skip permissions)
    { root: false },
  );
  await runQuery(bypass, "x", {
    canUseTool,
    permissionMode: "bypassPermissions",
    allowDangerouslySkipPermissions: true,
  });
  const read = new MockTransport(
    new ScenarioBuilder().on("x").usesRead("/home/user/project/a", { content: "a" }).respond("ok")
      .build(),
  );
  await runQuery(read, "x", { canUseTool });
  assert.equal(asked, 0);
  // acceptEdits runs Write without asking but still asks for Bash
  const edits = new MockTransport(
    new ScenarioBuilder().on("x").usesWrite("/home/user/project/n.txt", { content: "n" }).usesBash(
      "make",
    ).respond("ok").build(),
    { recordSent: true },
  );
  await runQuery(edits, "x", { canUseTool, permissionMode: "acceptEdits" });
  assert.deepEqual(requestsTo(edits, "can_use_tool").map((r) => r.tool_name), ["Bash"]);
  // allowedTools and disallowedTools from the SDK options
  const rules = new MockTransport(
    new ScenarioBuilder().on("x").usesBash("npm test").usesBash("curl evil.example").respond("ok")
      .build(),
    { recordSent: true },
  );
  const { messages } = await runQuery(rules, "x", {
    canUseTool,
    allowedTools: ["Bash(npm test:*)"],
    disallowedTools: ["Bash(curl:*)"],
  });
  assert.equal(requestsTo(rules, "can_use_tool").length, 0);
  assert.deepEqual(resultOf(messages).permission_denials.map((d) => d.tool_input), [{
    command: "curl evil.example",
  }]);
});

Deno.test("hooks: a PreToolUse hook that denies blocks the tool without asking canUseTool", async () => {
  let asked = 0;
  const deny: HookCallback = () =>
    Promise.resolve({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "No shell in tests",
      },
    });
  const mock = new MockTransport(
    new ScenarioBuilder().on("x").usesBash("ls").respond("I could not run it.").build(),
    { recordSent: true },
  );
  const { messages, error } = await runQuery(mock, "x", {
    canUseTool: () => (asked++, Promise.resolve({ behavior: "allow", updatedInput: {} })),
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [deny] }] },
  });
  assert.equal(error, undefined);
  assert.equal(asked, 0);
  assert.equal(requestsTo(mock, "can_use_tool").length, 0);
  const [blocked] = toolResults(messages);
  assert.equal(blocked.is_error, true);
  assert.equal(blocked.content, "PreToolUse:Bash hook error: No shell in tests");
  const result = resultOf(messages);
  assert.equal(result.subtype, "success");
  assert.deepEqual(result.permission_denials.map((d) => d.tool_name), ["Bash"]);
});

Deno.test("hooks: matchers that do not match never fire; PostToolUse, UserPromptSubmit and Stop get the real inputs", async () => {
  const calls: Array<{ event: string; input: Record<string, unknown> }> = [];
  const record =
    (output: Record<string, unknown> = { continue: true }): HookCallback => (input) => {
      calls.push({
        event: input.hook_event_name,
        input: input as unknown as Record<string, unknown>,
      });
      return Promise.resolve(output);
    };
  const mock = new MockTransport(
    new ScenarioBuilder().on("notes").usesRead("/home/user/project/notes.txt", { content: "n\n" })
      .respond("It says n.").build(),
    { recordSent: true },
  );
  const { messages, error } = await runQuery(mock, "show notes", {
    hooks: {
      PreToolUse: [{ matcher: "Bash", hooks: [record()] }],
      PostToolUse: [{
        matcher: "Read",
        hooks: [
          record({
            hookSpecificOutput: {
              hookEventName: "PostToolUse",
              additionalContext: "notes are short",
            },
          }),
        ],
      }],
      UserPromptSubmit: [{ hooks: [record()] }],
      Stop: [{ hooks: [record()] }],
    },
  });
  assert.equal(error, undefined);
  assert.deepEqual(calls.map((c) => c.event), ["UserPromptSubmit", "PostToolUse", "Stop"]);
  assert.equal(calls[0].input.prompt, "show notes");
  assert.equal(calls[1].input.tool_name, "Read");
  assert.deepEqual(calls[1].input.tool_input, { file_path: "/home/user/project/notes.txt" });
  assert.ok(calls[1].input.tool_response, "PostToolUse input has tool_response");
  assert.equal(typeof calls[1].input.duration_ms, "number");
  assert.equal(calls[2].input.last_assistant_message, "It says n.");
  assert.equal(calls[2].input.stop_hook_active, false);
  for (const c of calls) {
    assert.equal(c.input.session_id, messages[0].session_id);
    assert.equal(c.input.cwd, "/home/user/project");
  }
  assert.deepEqual(mock.session.hookContext(), ["notes are short"]);
  // order on the wire: UserPromptSubmit before system/init; PostToolUse before the tool result; Stop before the result
  const order = mock.session.sent().map((f) =>
    f.type === "control_request"
      ? (f.request as { input: { hook_event_name: string } }).input.hook_event_name
      : f.type + (f.subtype ? "/" + f.subtype : "")
  ).filter((k) => k !== "control_response" && !k.startsWith("system/session_state"));
  assert.deepEqual(order, [
    "UserPromptSubmit",
    "system/init",
    "assistant",
    "PostToolUse",
    "user",
    "assistant",
    "Stop",
    "result/success",
  ]);
});

Deno.test("in-process MCP: the SDK's createSdkMcpServer tool runs under test (success and isError)", async () => {
  const seen: Array<{ a: number; b: number }> = [];
  const calc = createSdkMcpServer({
    name: "calc",
    version: "1.0.0",
    tools: [
      tool("add", "Add two numbers", { a: z.number(), b: z.number() }, (args) => {
        seen.push(args);
        return Promise.resolve({ content: [{ type: "text", text: String(args.a + args.b) }] });
      }),
      tool("divide", "Divide", { a: z.number(), b: z.number() }, (args) =>
        Promise.resolve(
          args.b === 0
            ? { content: [{ type: "text", text: "division by zero" }], isError: true }
            : { content: [{ type: "text", text: String(args.a / args.b) }] },
        )),
    ],
  });
  const mock = new MockTransport(
    new ScenarioBuilder()
      .on("math")
      .usesTool("mcp__calc__add", { a: 2, b: 3 })
      .usesTool("mcp__calc__divide", { a: 1, b: 0 })
      .respond("2 + 3 = 5, and 1 / 0 fails.")
      .build(),
    { recordSent: true },
  );
  const { messages, error } = await runQuery(mock, "do math", {
    mcpServers: { calc },
    canUseTool: (_t, input) => Promise.resolve({ behavior: "allow", updatedInput: input }),
  });
  assert.equal(error, undefined);
  assert.deepEqual(seen, [{ a: 2, b: 3 }]);
  const [sum, quotient] = toolResults(messages);
  assert.deepEqual(sum.content, [{ type: "text", text: "5" }]);
  assert.equal(sum.is_error, undefined);
  // an MCP error keeps the tool's text and a deferred tool's error adds its schema: the real
  // CLI's words for the same tool (tests/fixtures/real/cp_mcp_error_deferred), with this
  // tool's text
  const recorded = [...(await recordedToolResults("cp_mcp_error_deferred")).values()][0];
  assert.equal(quotient.content, recorded.replace("Error: division by zero", "division by zero"));
  assert.equal(quotient.is_error, true);
  const calls = requestsTo(mock, "mcp_message");
  assert.equal(calls.length, 2);
  assert.deepEqual((calls[0].message as { params: { name: string } }).params.name, "add");
  // a can_use_tool comes first for each MCP tool, as the real CLI does
  assert.deepEqual(requestsTo(mock, "can_use_tool").map((r) => r.tool_name), [
    "mcp__calc__add",
    "mcp__calc__divide",
  ]);
  const init = messages[0] as {
    mcp_servers: Array<{ name: string; status: string }>;
    tools: string[];
  };
  assert.deepEqual(init.mcp_servers.map((s) => [s.name, s.status]), [["calc", "connected"]]);
  assert.ok(init.tools.includes("mcp__calc__add"));
});

Deno.test("interrupt during a streamed reply: the app sees the real CLI's message types in order", async () => {
  const fake = FakeTimers.install({
    now: Date.UTC(2026, 5, 1),
    toFake: ["setTimeout", "clearTimeout", "Date"],
  });
  try {
    const mock = new MockTransport(
      new ScenarioBuilder({ timing: "slow", seed: 1 })
        .on("essay")
        .respond("Sentence 1 about the sea and its long, slow waves. ".repeat(6))
        .build(),
      { clock: new SystemClock(), recordSent: true },
    );
    const q = query({
      prompt: "Write a very long essay about the sea.",
      options: { spawnClaudeCodeProcess: mock.spawn, includePartialMessages: true },
    });
    const messages: SDKMessage[] = [];
    let thrown: Error | undefined;
    const consume = (async () => {
      try {
        for await (const m of q) {
          messages.push(m);
          if (
            m.type === "stream_event" && m.event.type === "content_block_delta" &&
            messages.filter((x) => x.type === "stream_event").length === 3
          ) {
            await q.interrupt();
          }
        }
      } catch (error) {
        thrown = error as Error;
      }
    })();
    await driveFakeTime(fake, consume);
    const k = kinds(messages);
    const lastDelta = messages.findLastIndex((m) =>
      m.type === "stream_event" && m.event.type === "content_block_delta"
    );
    // the partial assistant message, the notice, the closed stream, the result: what the app
    // got from the real CLI after its last delta (tests/fixtures/real/interrupt)
    const recorded = await recordedMessageKinds("interrupt");
    assert.deepEqual(k.slice(lastDelta + 1), recorded.slice(recorded.indexOf("assistant")));
    const result = resultOf(messages);
    assert.equal(result.is_error, true);
    assert.equal((result as { terminal_reason?: string }).terminal_reason, "aborted_streaming");
    const notice = messages.find((m) => m.type === "user") as SDKUserMessage;
    assert.deepEqual(notice.message.content, [{
      type: "text",
      text: "[Request interrupted by user]",
    }]);
    const events = messages.filter((m) => m.type === "stream_event").map((m) =>
      (m as { event: { type: string } }).event.type
    );
    assert.deepEqual(events.slice(-3), ["content_block_stop", "message_delta", "message_stop"]);
    assert.ok(thrown, "the SDK throws after an interrupted result");
    assert.match(thrown.message, /Claude Code returned an error result/);
    assert.equal((await mock.exited).code, 1);
    assert.deepEqual(mock.session.clientRequests().map((r) => r.subtype), [
      "initialize",
      "interrupt",
    ]);
  } finally {
    fake.uninstall();
  }
});

Deno.test("set_model: the next turn's init and assistant frames report the new model", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder().on("one").respond("First.").on("two").respond("Second.").build(),
  );
  const messages: SDKMessage[] = [];
  const { prompt, next: release } = gatedPrompt(["one", "two"]);
  const q = query({
    prompt,
    options: { spawnClaudeCodeProcess: mock.spawn },
  });
  for await (const m of q) {
    messages.push(m);
    if (m.type === "result" && messages.filter((x) => x.type === "result").length === 1) {
      await q.setModel("sonnet");
      await assert.rejects(q.setModel("gpt-9"), /Model 'gpt-9' not found/);
      release();
    }
  }
  const inits = messages.filter((m) => m.type === "system" && m.subtype === "init") as Array<
    { model: string }
  >;
  assert.deepEqual(inits.map((i) => i.model), ["claude-opus-5-5", "claude-sonnet-5-5"]);
  const assistants = messages.filter((m) => m.type === "assistant") as Array<
    { message: { model: string } }
  >;
  assert.equal(assistants.at(-1)!.message.model, "claude-sonnet-5-5");
  const replay = messages.find((m) => m.type === "user" && "isReplay" in m) as {
    message: { content: string };
  } | undefined;
  assert.equal(
    replay?.message.content,
    "<local-command-stdout>Set model to `sonnet (claude-sonnet-5-5)`</local-command-stdout>",
  );
});

Deno.test("set_permission_mode: later tool uses follow the new mode", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder()
      .on("one").respond("First.")
      .on("two").usesWrite("/home/user/project/x.txt", { content: "x" }).respond("Written.")
      .build(),
    { recordSent: true },
  );
  let asked = 0;
  const { prompt, next: release } = gatedPrompt(["one", "two"]);
  const q = query({
    prompt,
    options: {
      spawnClaudeCodeProcess: mock.spawn,
      canUseTool: (
        _t,
        input,
      ) => (asked++, Promise.resolve({ behavior: "allow", updatedInput: input })),
    },
  });
  const statuses: unknown[] = [];
  for await (const m of q) {
    if (m.type === "system" && m.subtype === "status") {
      statuses.push((m as { permissionMode?: string }).permissionMode);
    }
    if (m.type === "result" && !statuses.includes("acceptEdits")) {
      await q.setPermissionMode("acceptEdits");
      release();
    }
  }
  assert.equal(asked, 0);
  assert.ok(statuses.includes("acceptEdits"));
  const init = mock.session.sent().filter((f) => f.subtype === "init").at(-1)!;
  assert.equal(init.permissionMode, "acceptEdits");
});

Deno.test("an unanswered can_use_tool fails the turn after the real-time limit, naming the request", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder({ name: "stuck" }).on("x").usesBash("make").respond("never").build(),
    { controlTimeoutMs: 40 },
  );
  const { messages, error } = await runQuery(mock, "x", {
    canUseTool: (_t, _i, { signal }) =>
      new Promise((_, reject) =>
        signal.addEventListener("abort", () => reject(new Error("aborted")))
      ),
  });
  const result = resultOf(messages);
  assert.equal(result.subtype, "error_during_execution");
  assert.match(
    (result as { errors: string[] }).errors[0],
    /the client did not answer control request 'can_use_tool' \(request_id [0-9a-f-]+\) within 40 ms of real time/,
  );
  assert.ok(error);
});

Deno.test("a malformed can_use_tool answer is an error naming the field", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder().on("x").usesBash("make").respond("never").build(),
  );
  const { messages } = await runQuery(mock, "x", {
    // deno-lint-ignore no-explicit-any
    canUseTool: () => Promise.resolve({ behavior: "maybe" } as any),
  });
  const result = resultOf(messages) as { errors?: string[] };
  assert.match(result.errors?.[0] ?? "", /'response.behavior'|behavior/);
});

Deno.test("read-only control requests: mcp_status, get_context_usage, set_max_thinking_tokens", async () => {
  const calc = createSdkMcpServer({
    name: "calc",
    version: "1.0.0",
    tools: [
      tool("add", "Add", { a: z.number(), b: z.number() }, () => Promise.resolve({ content: [] })),
    ],
  });
  const mock = new MockTransport(new ScenarioBuilder().on("hi").respond("Hi.").build());
  const { prompt, next: release } = gatedPrompt(["hi"], { holdOpen: true });
  const q = query({
    prompt,
    options: { spawnClaudeCodeProcess: mock.spawn, mcpServers: { calc } },
  });
  let status: unknown, usage: Record<string, unknown> | undefined;
  for await (const m of q) {
    if (m.type === "result") {
      status = await q.mcpServerStatus();
      usage = await q.getContextUsage() as unknown as Record<string, unknown>;
      await q.setMaxThinkingTokens(1000);
      release();
    }
  }
  assert.deepEqual(
    (status as Array<{ name: string; status: string }>).map((s) => [s.name, s.status]),
    [["calc", "connected"]],
  );
  assert.equal(usage?.model, "claude-opus-5-5");
  assert.equal(typeof usage?.totalTokens, "number");
  assert.deepEqual(
    mock.session.clientRequests().map((r) => r.subtype),
    ["initialize", "mcp_status", "get_context_usage", "set_max_thinking_tokens"],
  );
});

Deno.test("an unknown control subtype from the SDK gets an error response, never silence", async () => {
  const mock = new MockTransport(new ScenarioBuilder().on("hi").respond("Hi.").build());
  const { prompt, next: release } = gatedPrompt(["hi"], { holdOpen: true });
  const q = query({
    prompt,
    options: { spawnClaudeCodeProcess: mock.spawn },
  });
  // `request` is the SDK's untyped way to send any control request.
  const raw = q as unknown as { request(body: { subtype: string }): Promise<unknown> };
  let rejection: unknown;
  for await (const m of q) {
    if (m.type === "result") {
      rejection = await raw.request({ subtype: "no_such_subtype" }).then(() => undefined, (e) => e);
      release();
    }
  }
  assert.match(String(rejection), /Unsupported control request subtype: no_such_subtype/);
  const [record] = mock.session.clientRequests().filter((r) => r.subtype === "no_such_subtype");
  assert.deepEqual(record.answer, {
    success: false,
    error: "Unsupported control request subtype: no_such_subtype",
  });
});

Deno.test("hooks: the callbacks of one event are asked together and read as they answer (the last denial's reason; ask over allow)", async () => {
  // as the real CLI 2.1.332 (FINDINGS_gaps.md): every matching hook is asked at once; the
  // first callback answers only once the second has, so asked one after the other it would
  // never answer
  let secondAnswered: () => void = () => {};
  const answered = new Promise<void>((resolve) => (secondAnswered = resolve));
  const denyWith = (reason: string) => ({
    hookSpecificOutput: {
      hookEventName: "PreToolUse" as const,
      permissionDecision: "deny" as const,
      permissionDecisionReason: reason,
    },
  });
  const first: HookCallback = async () => (await answered, denyWith("first says no"));
  const second: HookCallback = () => {
    queueMicrotask(secondAnswered);
    return Promise.resolve(denyWith("second says no"));
  };
  const mock = new MockTransport(
    new ScenarioBuilder().on("x").usesBash("ls").respond("I could not run it.").build(),
  );
  const { messages, error } = await runQuery(mock, "x", {
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [first, second] }] },
  });
  assert.equal(error, undefined);
  assert.equal(toolResults(messages)[0].content, "PreToolUse:Bash hook error: first says no");

  // ask wins over allow whichever answers last
  let asked = 0;
  const decide = (decision: "allow" | "ask"): HookCallback => () =>
    Promise.resolve({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: decision },
    });
  const again = new MockTransport(
    new ScenarioBuilder().on("x").usesRead("/tmp/a.txt", { content: "a" }).respond("Read.")
      .build(),
  );
  await runQuery(again, "x", {
    canUseTool: (
      _n,
      input,
    ) => (asked++, Promise.resolve({ behavior: "allow", updatedInput: input })),
    hooks: { PreToolUse: [{ hooks: [decide("ask"), decide("allow")] }] },
  });
  assert.equal(asked, 1);
});

/**
 * Two hook callbacks where the first answers only once the second has: asked one after the
 * other they would never answer; asked together both do.
 */
function dependentCallbacks(
  firstOutput: Awaited<ReturnType<HookCallback>>,
  secondOutput: Awaited<ReturnType<HookCallback>>,
): [HookCallback, HookCallback] {
  let secondAnswered: () => void = () => {};
  const answered = new Promise<void>((resolve) => (secondAnswered = resolve));
  return [
    async () => (await answered, firstOutput),
    () => {
      queueMicrotask(secondAnswered);
      return Promise.resolve(secondOutput);
    },
  ];
}

Deno.test("hooks: PermissionRequest callbacks are asked together; the first to decide decides (FINDINGS_hooks.md)", async () => {
  const decision = (behavior: "allow" | "deny", message?: string) => ({
    hookSpecificOutput: {
      hookEventName: "PermissionRequest" as const,
      decision: { behavior, ...(message !== undefined ? { message } : {}) },
    },
  });
  const mock = new MockTransport(
    new ScenarioBuilder().on("x").usesBash("touch out.txt").respond("Not touched.").build(),
  );
  const { messages, error } = await runQuery(mock, "x", {
    hooks: {
      PermissionRequest: [{
        hooks: dependentCallbacks(decision("allow"), decision("deny", "second says no")),
      }],
    },
  });
  assert.equal(error, undefined);
  const [denied] = toolResults(messages);
  assert.equal(denied.content, "second says no");
  assert.equal(denied.is_error, true);
  assert.deepEqual(
    mock.hookOutputs().map((h) => h.event),
    ["PermissionRequest", "PermissionRequest"],
  );
});

Deno.test("hooks: /compact's PreCompact, SessionStart and PostCompact callbacks are asked together, each event's", async () => {
  const mock = new MockTransport(builtinScenario("compaction_event"));
  const { prompt, next } = gatedPrompt(["hello", "/compact"]);
  const events = ["PreCompact", "SessionStart", "PostCompact"] as const;
  const messages: SDKMessage[] = [];
  for await (
    const m of query({
      prompt,
      options: {
        spawnClaudeCodeProcess: mock.spawn,
        hooks: Object.fromEntries(
          events.map((e) => [e, [{ hooks: dependentCallbacks({}, {}) }]]),
        ),
      },
    })
  ) {
    messages.push(m);
    if (m.type === "result") next();
  }
  assert.deepEqual(
    mock.hookOutputs().map((h) => h.event),
    ["PreCompact", "PreCompact", "SessionStart", "SessionStart", "PostCompact", "PostCompact"],
  );
  const listing = messages.findLast((m) => m.type === "user" && "isReplay" in m) as {
    message: { content: string };
  };
  assert.equal(
    listing.message.content,
    "<local-command-stdout>Compacted PreCompact [callback] completed successfully\n" +
      "PreCompact [callback] completed successfully\n" +
      "PostCompact [callback] completed successfully\n" +
      "PostCompact [callback] completed successfully</local-command-stdout>",
  );
  assert.equal(resultOf(messages).subtype, "success");
});

Deno.test("hooks: InstructionsLoaded once per session for the project's CLAUDE.md, before the first UserPromptSubmit (hooks_survey/hooks_all_instructions)", async () => {
  const project = await Deno.makeTempDir({ prefix: "claude-mock-instructions-" });
  try {
    await Deno.writeTextFile(`${project}/CLAUDE.md`, "# Project notes\n\nAlways be brief.\n");
    const mock = new MockTransport(
      new ScenarioBuilder().on("one").respond("First.").on("two").respond("Second.").build(),
    );
    const { prompt, next } = gatedPrompt(["one", "two"]);
    const events = ["InstructionsLoaded", "UserPromptSubmit"] as const;
    for await (
      const m of query({
        prompt,
        options: {
          cwd: project,
          spawnClaudeCodeProcess: mock.spawn,
          hooks: Object.fromEntries(
            events.map((e) => [e, [{ hooks: [() => Promise.resolve({})] }]]),
          ),
        },
      })
    ) if (m.type === "result") next();
    const outputs = mock.hookOutputs();
    assert.deepEqual(outputs.map((h) => h.event), [
      "InstructionsLoaded",
      "UserPromptSubmit",
      "UserPromptSubmit",
    ]);
    const { session_id: _s, transcript_path: _t, ...input } = outputs[0].input;
    // as the real CLI 2.1.328 to 2.1.332: no prompt id, permission mode or effort
    assert.deepEqual(input, {
      cwd: "/home/user/project",
      hook_event_name: "InstructionsLoaded",
      file_path: "/home/user/project/CLAUDE.md",
      memory_type: "Project",
      load_reason: "session_start",
    });
  } finally {
    await Deno.remove(project, { recursive: true });
  }

  // no CLAUDE.md: not called
  const empty = await Deno.makeTempDir({ prefix: "claude-mock-instructions-" });
  try {
    const plain = new MockTransport(new ScenarioBuilder().on("x").respond("Hi.").build());
    await runQuery(plain, "x", {
      cwd: empty,
      hooks: { InstructionsLoaded: [{ hooks: [() => Promise.resolve({})] }] },
    });
    assert.deepEqual(plain.hookOutputs(), []);
  } finally {
    await Deno.remove(empty, { recursive: true });
  }
});
