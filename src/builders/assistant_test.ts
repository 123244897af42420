import assert from "node:assert/strict";
import { createBuildContext } from "./build_context.ts";
import { assistantMessage, mcpToolUseMeta, text, thinking, toolUse } from "./assistant.ts";

Deno.test("text, thinking and toolUse build blocks in the wire key order", () => {
  assert.deepEqual(Object.keys(text("a")), ["type", "text"]);
  assert.deepEqual(Object.keys(thinking("a")), ["type", "thinking", "signature"]);
  assert.deepEqual(Object.keys(toolUse("Read", {}, { id: "toolu_1" })), [
    "type",
    "id",
    "name",
    "input",
  ]);
  assert.equal(toolUse("Read", {}).id, undefined);
});

Deno.test("thinking signatures are deterministic, distinct and shaped like the recordings'", () => {
  const a = thinking("I should read the notes file first.").signature;
  assert.equal(a, thinking("I should read the notes file first.").signature);
  assert.notEqual(a, thinking("something else").signature);
  assert.match(a, /^sig_[A-Za-z0-9+/]{32}$/);
  assert.equal(thinking("x", { signature: "sig_given" }).signature, "sig_given");
});

Deno.test("text, thinking and toolUse reject bad input with a clear error", () => {
  assert.throws(() => text(42 as unknown as string), /text\(\): the text must be a string, got 42/);
  assert.throws(() => thinking(null as unknown as string), TypeError);
  assert.throws(
    () => toolUse("Read", [] as unknown as Record<string, unknown>),
    /input must be a plain object/,
  );
});

Deno.test("assistantMessage makes one frame per block sharing message and request ids", () => {
  const ctx = createBuildContext({ seed: 3 });
  const frames = assistantMessage(ctx, [
    thinking("hmm"),
    text("Reading."),
    toolUse("Read", { file_path: "/a" }),
  ]);
  assert.equal(frames.length, 3);
  const ids = new Set(frames.map((f) => f.message.id));
  const requests = new Set(frames.map((f) => f.request_id));
  assert.equal(ids.size, 1);
  assert.equal(requests.size, 1);
  assert.equal(new Set(frames.map((f) => f.uuid)).size, 3);
  for (const frame of frames) {
    assert.equal(frame.message.content.length, 1);
    assert.equal(frame.message.stop_reason, null);
    assert.equal(frame.session_id, ctx.sessionId);
    assert.equal(frame.timestamp, "2026-01-01T00:00:00.000Z");
  }
  assert.equal(frames[0].thinking_display, "updates");
  assert.equal(frames[1].thinking_display, undefined);
  const block = frames[2].message.content[0];
  assert.equal(block.type, "tool_use");
  assert.match(block.type === "tool_use" ? block.id : "", /^toolu_01\w{22}$/);
});

Deno.test("assistantMessage accepts a string, a block or an array, and honours options", () => {
  const ctx = createBuildContext({ seed: 3 });
  const [frame] = assistantMessage(ctx, "hi", {
    messageId: "msg_01X",
    requestId: "req_01X",
    model: "claude-sonnet-5-5",
    usage: { input_tokens: 7 },
    parentToolUseId: "toolu_parent",
  });
  assert.equal(frame.message.id, "msg_01X");
  assert.equal(frame.request_id, "req_01X");
  assert.equal(frame.message.model, "claude-sonnet-5-5");
  assert.equal(frame.message.usage.input_tokens, 7);
  assert.equal(frame.message.usage.output_tokens, 1);
  assert.equal(frame.parent_tool_use_id, "toolu_parent");
  assert.equal(assistantMessage(ctx, text("a")).length, 1);
});

Deno.test("assistantMessage places subagent and extra fields like the CLI", () => {
  const ctx = createBuildContext({ seed: 3 });
  const subagent = {
    parentToolUseId: "toolu_A",
    agentId: "a1",
    subagentType: "general-purpose",
    taskDescription: "d",
  };
  const [frame] = assistantMessage(ctx, "x", {
    subagent,
    extra: { request_id: "req_override", custom: 1 },
  });
  assert.deepEqual(Object.keys(frame), [
    "type",
    "message",
    "parent_tool_use_id",
    "agent_id",
    "session_id",
    "uuid",
    "timestamp",
    "request_id",
    "subagent_type",
    "task_description",
    "custom",
  ]);
  assert.equal(frame.parent_tool_use_id, "toolu_A");
  assert.equal(frame.request_id, "req_override");
});

Deno.test("assistantMessage rejects empty content, unknown blocks and bad subagents", () => {
  const ctx = createBuildContext();
  assert.throws(() => assistantMessage(ctx, []), RangeError);
  assert.throws(
    () => assistantMessage(ctx, [{ type: "image" } as never]),
    /content block 0 has unknown type "image"/,
  );
  assert.throws(
    () =>
      assistantMessage(ctx, "x", {
        subagent: { parentToolUseId: "", agentId: "a", subagentType: "t", taskDescription: "d" },
      }),
    /subagent.parentToolUseId must be a non-empty string/,
  );
});

Deno.test("mcpToolUseMeta describes MCP tools only", () => {
  assert.deepEqual(
    mcpToolUseMeta({ type: "tool_use", id: "t", name: "mcp__my_server__do_it", input: {} }),
    {
      id: "t",
      display_name: "Do_it",
      server_display_name: "my_server",
      tool_name: "do_it",
    },
  );
  assert.equal(mcpToolUseMeta({ type: "tool_use", id: "t", name: "Read", input: {} }), undefined);
  const ctx = createBuildContext();
  const [frame] = assistantMessage(ctx, toolUse("mcp__calc__add", {}), { toolUseMeta: false });
  assert.equal(frame.tool_use_meta, undefined);
});
