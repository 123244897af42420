import assert from "node:assert/strict";
import { createBuildContext } from "./build_context.ts";
import {
  canUseToolRequest,
  controlError,
  controlRequest,
  controlSuccess,
  initializeResponse,
  mcpToolCallRequest,
} from "./control.ts";

Deno.test("controlRequest uses a uuid request id unless given", () => {
  const ctx = createBuildContext();
  const frame = controlRequest(ctx, { subtype: "can_use_tool" });
  assert.match(frame.request_id, /^[0-9a-f-]{36}$/);
  assert.equal(
    controlRequest(ctx, { subtype: "interrupt" }, { requestId: "abc" }).request_id,
    "abc",
  );
  assert.throws(
    () => controlRequest(ctx, {} as never),
    /request must be an object with a string subtype/,
  );
});

Deno.test("controlSuccess and controlError build both response kinds", () => {
  assert.deepEqual(controlSuccess("r"), {
    type: "control_response",
    response: { subtype: "success", request_id: "r" },
  });
  assert.deepEqual(Object.keys(controlSuccess("r", {}, { pending: true }).response), [
    "subtype",
    "request_id",
    "response",
    "pending_permission_requests",
    "pending_user_dialog_requests",
  ]);
  assert.deepEqual(controlError("r", "Model 'x' not found").response, {
    subtype: "error",
    request_id: "r",
    error: "Model 'x' not found",
  });
  assert.throws(() => controlError("r", undefined as never), /the error message must be a string/);
});

Deno.test("initializeResponse is deterministic and reports the context", () => {
  const a = initializeResponse(createBuildContext({ seed: 1, permissionMode: "plan" }));
  const b = initializeResponse(createBuildContext({ seed: 1, permissionMode: "plan" }));
  assert.equal(a.pid, b.pid);
  assert.equal(a.current_permission_mode, "plan");
  assert.equal(initializeResponse(createBuildContext(), { pid: 77 }).pid, 77);
  assert.throws(
    () => initializeResponse(createBuildContext(), { pid: 0 }),
    /pid must be a positive integer/,
  );
});

Deno.test("canUseToolRequest derives display name, description and suggestions", () => {
  const ctx = createBuildContext({ cliVersion: "2.1.328" });
  const read = canUseToolRequest(ctx, {
    type: "tool_use",
    id: "t",
    name: "Read",
    input: { file_path: "/home/user/project/src/b.txt" },
  });
  // as recorded: relative inside the cwd, nothing suggested for a read
  assert.equal(read.request.description, "src/b.txt");
  assert.equal(read.request.permission_suggestions, undefined);
  assert.equal(read.request.server_policy_ask_only, true);
  // from 2.1.331 a file tool asked without a rule says nothing of the server policy
  const newer = canUseToolRequest(createBuildContext({ cliVersion: "2.1.331" }), {
    type: "tool_use",
    id: "t",
    name: "Read",
    input: { file_path: "/home/user/project/src/b.txt" },
  });
  assert.equal("server_policy_ask_only" in newer.request, false);
  const outside = canUseToolRequest(ctx, {
    type: "tool_use",
    id: "t",
    name: "Read",
    input: { file_path: "/etc/hostname" },
  });
  // outside it: the absolute path, and a session rule for its directory (r2_cut_read_outside)
  assert.equal(outside.request.description, "/etc/hostname");
  assert.deepEqual(outside.request.permission_suggestions, [
    {
      type: "addRules",
      rules: [{ toolName: "Read", ruleContent: "//etc/**" }],
      behavior: "allow",
      destination: "session",
    },
  ]);
  const write = canUseToolRequest(ctx, {
    type: "tool_use",
    id: "t",
    name: "Write",
    input: { file_path: "/home/user/project/new.txt", content: "x" },
  });
  assert.deepEqual(write.request.permission_suggestions, [
    { type: "setMode", mode: "acceptEdits", destination: "session" },
  ]);
  const byRule = canUseToolRequest(ctx, {
    type: "tool_use",
    id: "t",
    name: "Bash",
    input: { command: "echo hi" },
  }, { decisionReasonType: "rule", decisionReasonRuleSource: "flagSettings" });
  assert.equal(byRule.request.permission_suggestions, undefined);
  assert.equal(byRule.request.server_policy_ask_only, false);
  const mcp = canUseToolRequest(ctx, {
    type: "tool_use",
    id: "t",
    name: "mcp__calc__add",
    input: {},
  });
  assert.equal(mcp.request.display_name, "Add");
  assert.deepEqual(mcp.request.mcp_server, { name: "calc", source: "sdk" });
  assert.equal(mcp.request.server_policy_ask_only, true);
  const ask = canUseToolRequest(ctx, {
    type: "tool_use",
    id: "t",
    name: "AskUserQuestion",
    input: {},
  }, {
    requiresUserInteraction: true,
    description: null,
  });
  assert.equal(ask.request.requires_user_interaction, true);
  // as recorded (cp_ask_user_question): after tool_use_id
  assert.deepEqual(Object.keys(ask.request).slice(-2), [
    "tool_use_id",
    "requires_user_interaction",
  ]);
  assert.throws(
    () => canUseToolRequest(ctx, { type: "text" } as never),
    /expected a tool_use block/,
  );
});

Deno.test("mcpToolCallRequest refuses tools that are not MCP tools", () => {
  const ctx = createBuildContext();
  assert.throws(
    () => mcpToolCallRequest(ctx, { type: "tool_use", id: "t", name: "Read", input: {} }),
    /tool "Read" is not an MCP tool/,
  );
});

Deno.test("canUseToolRequest: when the permission mode asks, the request says nothing of the server policy", () => {
  const ctx = createBuildContext({ cliVersion: "2.1.328" });
  const write = canUseToolRequest(ctx, {
    type: "tool_use",
    id: "t",
    name: "Write",
    input: { file_path: "/home/user/project/out.txt", content: "written\n" },
  }, { decisionReasonType: "mode", permissionSuggestions: null });
  // as the real CLI 2.1.328 asks in plan mode before an edit
  assert.equal("server_policy_ask_only" in write.request, false);
  assert.equal(write.request.decision_reason_type, "mode");
  assert.equal("permission_suggestions" in write.request, false);
});
