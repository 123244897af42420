import assert from "node:assert/strict";
import { createBuildContext } from "./build_context.ts";
import { bashTool, editTool, genericTool, readTool, taskTool, writeTool } from "./tools.ts";
import type { Frame } from "../wire/frame.ts";
import { editOfUnreadFile } from "./edit_of_unread_file.ts";

Deno.test("readTool numbers lines and honours offset and limit", () => {
  const ctx = createBuildContext();
  const call = readTool(ctx, "/p/f.txt", { content: "a\nb\nc\nd", offset: 2, limit: 2 });
  assert.deepEqual(call.block.input, { file_path: "/p/f.txt", offset: 2, limit: 2 });
  assert.equal(call.result.content, "2\tb\n3\tc");
  assert.deepEqual((call.result.toolUseResult as { file: unknown }).file, {
    filePath: "/p/f.txt",
    content: "b\nc",
    numLines: 2,
    startLine: 2,
    totalLines: 4,
  });
  assert.throws(
    () => readTool(ctx, "/p", { content: 3 as never }),
    /options.content must be a string or null/,
  );
});

Deno.test("writeTool creates or updates with a patch", () => {
  const ctx = createBuildContext();
  const update = writeTool(ctx, "/p/f.txt", { content: "b\n", originalFile: "a\n" });
  assert.equal((update.result.toolUseResult as { type: string }).type, "update");
  assert.deepEqual((update.result.toolUseResult as { structuredPatch: unknown }).structuredPatch, [
    { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ["-a", "+b"] },
  ]);
});

Deno.test("editTool reports missing and ambiguous strings as input errors", () => {
  const ctx = createBuildContext();
  const ambiguous = editTool(ctx, "/p/f.txt", {
    oldString: "a",
    newString: "b",
    originalFile: "a a",
  });
  assert.equal(ambiguous.result.isError, true);
  assert.equal(ambiguous.result.permissionDecision, null);
  assert.match(String(ambiguous.result.content), /^<tool_use_error>Found 2 matches/);
  const all = editTool(ctx, "/p/f.txt", {
    oldString: "a",
    newString: "b",
    originalFile: "a a\n",
    replaceAll: true,
  });
  assert.equal((all.result.toolUseResult as { replaceAll: boolean }).replaceAll, true);
  const implicit = editTool(ctx, "/p/f.txt", { oldString: "x", newString: "y" });
  assert.equal((implicit.result.toolUseResult as { originalFile: string }).originalFile, "x");
  assert.equal(editTool(ctx, "/p", { oldString: "x", newString: "x" }).result.isError, true);
});

Deno.test("bashTool merges output and reports exit codes", () => {
  const ctx = createBuildContext();
  assert.equal(bashTool(ctx, "true").result.content, "(Bash completed with no output)");
  const fail = bashTool(ctx, "false", { exitCode: 1 });
  assert.equal(fail.result.content, "Exit code 1");
  assert.equal(fail.result.toolUseResult, "Error: Exit code 1");
  assert.deepEqual(bashTool(ctx, "x").block.input, { command: "x" });
  assert.throws(
    () => bashTool(ctx, "x", { exitCode: 300 }),
    /exitCode must be an integer 0-255, got 300/,
  );
});

Deno.test("genericTool passes content through and formats errors", () => {
  const ctx = createBuildContext();
  const err = genericTool(ctx, "mcp__calc__div", {
    input: {},
    result: "Division by zero",
    isError: true,
  });
  assert.equal(err.result.toolUseResult, "Error: Division by zero");
  const custom = genericTool(ctx, "X", { input: {}, result: "r", toolUseResult: { k: 1 } });
  assert.deepEqual(custom.result.toolUseResult, { k: 1 });
  assert.throws(
    () => genericTool(ctx, "X", { input: null as never, result: "r" }),
    /options.input must be a plain object/,
  );
});

Deno.test("taskTool frames: task events around the subagent's frames, all under the Agent id", () => {
  const ctx = createBuildContext({ seed: 4 });
  const call = taskTool(ctx, "Check things", {
    prompt: "Run the checks.",
    result: "All good.\nNothing to fix.",
    tools: [
      bashTool(ctx, "make check", { stdout: "ok", description: "Run checks" }),
      readTool(ctx, "/p/a.txt", { content: "x" }),
    ],
  });
  assert.equal(call.block.name, "Agent");
  assert.deepEqual(call.block.input, {
    description: "Check things",
    prompt: "Run the checks.",
    subagent_type: "general-purpose",
    run_in_background: false,
  });
  const frames = call.frames();
  const kinds = frames.map((f: Frame) => f.subtype ?? f.type);
  assert.deepEqual(kinds, [
    "task_started",
    "user",
    "task_progress",
    "assistant",
    "user",
    "task_progress",
    "assistant",
    "user",
    "task_updated",
    "task_notification",
  ]);
  for (const f of frames.filter((f) => f.type !== "system")) {
    assert.equal(f.parent_tool_use_id, call.block.id);
    assert.equal(f.agent_id, call.task.taskId);
  }
  assert.equal(frames[2].description, "Run checks");
  const text = (call.result.content as Array<{ text: string }>)[0].text;
  assert.match(text, /^ {2}<tools-used-before-summary>Bash, Read<\/tools-used-before-summary>/);
  assert.match(text, /\n {2}All good\.\n {2}Nothing to fix\.\nagentId: a[0-9a-f]{16} /);
  assert.equal(
    (call.result.toolUseResult as { toolStats: { bashCount: number } }).toolStats.bashCount,
    1,
  );
  assert.equal(call.result.permissionDecision, "configAllowed");
});

Deno.test("taskTool accepts custom subagent frames and validates its tools", () => {
  const ctx = createBuildContext();
  const call = taskTool(ctx, "d", {
    prompt: "p",
    result: "r",
    subagentFrames: (_ctx, subagent) => [{ type: "custom", agent: subagent.agentId }],
  });
  assert.deepEqual(call.frames().map((f) => f.subtype ?? f.type), [
    "task_started",
    "user",
    "custom",
    "task_updated",
    "task_notification",
  ]);
  assert.throws(
    () => taskTool(ctx, "d", { prompt: "p", result: "r", tools: [{} as never] }),
    /options.tools\[0\] is not a ToolCall/,
  );
});

Deno.test("editOfUnreadFile: no 'state is current' note, contentNotInModelContext last; errors kept", () => {
  const ctx = createBuildContext({ seed: 1 });
  const { result } = editTool(ctx, "/p/a.txt", { oldString: "a", newString: "b" });
  const unread = editOfUnreadFile(result);
  assert.equal(unread.content, "The file /p/a.txt has been updated successfully.");
  assert.deepEqual(Object.keys(unread.toolUseResult as object).at(-1), "contentNotInModelContext");
  const failed = editTool(ctx, "/p/a.txt", { oldString: "zz", newString: "b", originalFile: "a" });
  assert.equal(editOfUnreadFile(failed.result), failed.result);
});

Deno.test("readTool: an empty file, and a part past the end, as the CLI's reminders (files_read_edge)", () => {
  const ctx = createBuildContext({ seed: 1 });
  const empty = readTool(ctx, "/p/empty.txt", { content: "" }).result;
  assert.equal(
    empty.content,
    "<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>",
  );
  assert.deepEqual((empty.toolUseResult as { file: unknown }).file, {
    filePath: "/p/empty.txt",
    content: "",
    numLines: 1,
    startLine: 1,
    totalLines: 1,
  });
  const past = readTool(ctx, "/p/short.txt", { content: "one\ntwo", offset: 5 }).result;
  assert.equal(
    past.content,
    "<system-reminder>Warning: the file exists but is shorter than the provided offset (5). " +
      "The file has 2 lines.</system-reminder>",
  );
  assert.deepEqual((past.toolUseResult as { file: unknown }).file, {
    filePath: "/p/short.txt",
    content: "",
    numLines: 0,
    startLine: 5,
    totalLines: 2,
  });
});
