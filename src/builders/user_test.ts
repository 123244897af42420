import assert from "node:assert/strict";
import { createBuildContext } from "./build_context.ts";
import { toolResult, userPrompt, userText } from "./user.ts";

Deno.test("toolResult defaults tool_use_result and meta as recorded", () => {
  const ctx = createBuildContext();
  const ok = toolResult(ctx, "toolu_1", { content: "fine" });
  assert.deepEqual(ok.message.content, [{
    tool_use_id: "toolu_1",
    type: "tool_result",
    content: "fine",
  }]);
  assert.equal(ok.tool_use_result, "fine");
  assert.deepEqual(ok.tool_result_meta, [{
    id: "toolu_1",
    permission_decision: { decision: "accept", source: "user_temporary" },
  }]);
  const bad = toolResult(ctx, "toolu_1", { content: "boom", isError: true });
  assert.deepEqual(Object.keys(bad.message.content[0] as object), [
    "type",
    "content",
    "is_error",
    "tool_use_id",
  ]);
  assert.equal(bad.tool_use_result, "Error: boom");
  const blocks = toolResult(ctx, "toolu_1", { content: [{ type: "text", text: "5" }] });
  assert.deepEqual(blocks.tool_use_result, [{ type: "text", text: "5" }]);
  const explicit = toolResult(ctx, "toolu_1", { content: "hi", explicitIsError: true });
  assert.deepEqual(Object.keys(explicit.message.content[0] as object), [
    "tool_use_id",
    "type",
    "content",
    "is_error",
  ]);
});

Deno.test("toolResult permission decisions: names, objects, null", () => {
  const ctx = createBuildContext();
  const denied = toolResult(ctx, "t", {
    content: "no",
    isError: true,
    permissionDecision: "userDenied",
  });
  assert.deepEqual(denied.tool_result_meta, [{
    id: "t",
    non_execution_kind: "permission-rule",
    permission_decision: { decision: "reject", source: "user_reject" },
  }]);
  const custom = toolResult(ctx, "t", {
    content: "x",
    permissionDecision: { decision: "accept", source: "classifier" },
  });
  assert.equal(custom.tool_result_meta?.[0].permission_decision.source, "classifier");
  assert.equal(
    toolResult(ctx, "t", { content: "x", permissionDecision: null }).tool_result_meta,
    undefined,
  );
  assert.throws(
    () => toolResult(ctx, "t", { content: "x", permissionDecision: "maybe" as never }),
    /unknown permissionDecision "maybe"; expected one of userAllowed/,
  );
});

Deno.test("toolResult for a subagent leaves out tool_use_result and adds the agent fields", () => {
  const ctx = createBuildContext();
  const subagent = {
    parentToolUseId: "toolu_A",
    agentId: "a1",
    subagentType: "general-purpose",
    taskDescription: "d",
  };
  const frame = toolResult(ctx, "t", { content: "x", subagent, toolUseResult: { ignored: true } });
  assert.equal("tool_use_result" in frame, false);
  assert.equal(frame.parent_tool_use_id, "toolu_A");
  assert.deepEqual(Object.keys(frame), [
    "type",
    "message",
    "parent_tool_use_id",
    "agent_id",
    "session_id",
    "uuid",
    "timestamp",
    "tool_result_meta",
    "subagent_type",
    "task_description",
  ]);
});

Deno.test("toolResult rejects a missing content or id", () => {
  const ctx = createBuildContext();
  assert.throws(
    () => toolResult(ctx, "t", {} as never),
    /options.content must be a string or an array of blocks, got undefined/,
  );
  assert.throws(
    () => toolResult(ctx, 5 as never, { content: "x" }),
    /the tool use id must be a string/,
  );
});

Deno.test("userText has the notice shape and the replay shape", () => {
  const ctx = createBuildContext();
  const notice = userText(ctx, "[Request interrupted by user]");
  assert.deepEqual(Object.keys(notice), [
    "type",
    "message",
    "parent_tool_use_id",
    "session_id",
    "uuid",
    "timestamp",
  ]);
  const replay = userText(ctx, "<local-command-stdout>x</local-command-stdout>", {
    isReplay: true,
  });
  assert.deepEqual(Object.keys(replay), [
    "type",
    "message",
    "session_id",
    "parent_tool_use_id",
    "uuid",
    "timestamp",
    "isReplay",
  ]);
  assert.equal(replay.message.content, "<local-command-stdout>x</local-command-stdout>");
  const summary = userText(ctx, "Summary", { isSynthetic: true });
  assert.equal(summary.isReplay, false);
  assert.equal(summary.isSynthetic, true);
});

Deno.test("userPrompt writes the SDK's prompt shapes", () => {
  assert.deepEqual(userPrompt("hi"), {
    type: "user",
    session_id: "",
    message: { role: "user", content: [{ type: "text", text: "hi" }] },
    parent_tool_use_id: null,
  });
  assert.deepEqual(userPrompt("hi", { streaming: true }), {
    type: "user",
    message: { role: "user", content: "hi" },
    parent_tool_use_id: null,
  });
  assert.throws(() => userPrompt(undefined as never), /the prompt text must be a string/);
});
