import assert from "node:assert/strict";
import { createBuildContext } from "./build_context.ts";
import {
  apiRetry,
  permissionModeOf,
  sessionStateChanged,
  systemInit,
  systemStatus,
} from "./system.ts";
import { compactBoundary } from "./compact_boundary.ts";
import { thinkingTokens } from "./thinking_tokens.ts";
import {
  newTask,
  taskNotification,
  taskProgress,
  taskStarted,
  taskUpdated,
} from "./task_frames.ts";

Deno.test("systemInit reports the context and options", () => {
  const ctx = createBuildContext({
    seed: 2,
    model: "claude-sonnet-5-5",
    permissionMode: "plan",
    cwd: "/srv/app",
  });
  const init = systemInit(ctx, {
    tools: ["Read"],
    apiKeySource: "none",
    extra: { view_mode: "focus", more: true },
  });
  assert.equal(init.model, "claude-sonnet-5-5");
  assert.equal(init.permissionMode, "plan");
  assert.equal(init.cwd, "/srv/app");
  assert.equal(init.original_cwd, "/srv/app");
  assert.equal(init.memory_paths.auto, "/home/user/.claude/projects/-srv-app/memory/");
  assert.deepEqual(init.tools, ["Read"]);
  assert.equal(init.apiKeySource, "none");
  assert.equal(init.view_mode, "focus");
  assert.equal(Object.keys(init).at(-1), "more");
  assert.equal(systemInit(ctx, { permissionMode: "acceptEdits" }).permissionMode, "acceptEdits");
});

Deno.test("systemInit rejects an unknown permission mode, naming where it came from", () => {
  const ctx = createBuildContext({ permissionMode: "yolo" });
  assert.throws(
    () => systemInit(ctx),
    /systemInit\(\): ctx.permissionMode: unknown permission mode "yolo"/,
  );
  assert.throws(() => permissionModeOf("x", "here"), RangeError);
});

Deno.test("sessionStateChanged validates the state", () => {
  const ctx = createBuildContext();
  assert.equal(sessionStateChanged(ctx, "requires_action").sdk_host_only, true);
  assert.throws(
    () => sessionStateChanged(ctx, "busy" as never),
    /state must be running, idle or requires_action, got "busy"/,
  );
});

Deno.test("systemStatus key orders follow the recordings", () => {
  const ctx = createBuildContext();
  assert.deepEqual(Object.keys(systemStatus(ctx, "requesting")), [
    "type",
    "subtype",
    "status",
    "session_id",
    "uuid",
  ]);
  assert.deepEqual(Object.keys(systemStatus(ctx, null, { permissionMode: "plan" })), [
    "type",
    "subtype",
    "status",
    "permissionMode",
    "uuid",
    "session_id",
  ]);
  assert.deepEqual(
    Object.keys(systemStatus(ctx, null, { compactResult: "failed", compactError: "too big" })),
    [
      "type",
      "subtype",
      "status",
      "compact_result",
      "compact_error",
      "session_id",
      "uuid",
    ],
  );
  assert.throws(() => systemStatus(ctx, "thinking" as never), RangeError);
});

Deno.test("compactBoundary and apiRetry fill defaults and validate numbers", () => {
  const ctx = createBuildContext();
  const boundary = compactBoundary(ctx, { trigger: "auto", preTokens: 1000 });
  assert.deepEqual(boundary.compact_metadata, {
    trigger: "auto",
    pre_tokens: 1000,
    post_tokens: 2547,
    cumulative_dropped_tokens: 0,
    duration_ms: 27,
  });
  assert.throws(
    () => compactBoundary(ctx, { preTokens: -1 }),
    /pre_tokens must be a non-negative integer/,
  );
  assert.equal(apiRetry(ctx, { attempt: 3 }).retry_delay_ms, 2000);
  assert.equal(apiRetry(ctx, { attempt: 1, errorStatus: 429 }).error, "rate_limit");
  assert.equal(apiRetry(ctx, { attempt: 1, errorStatus: null }).error, "unknown");
  assert.throws(
    () => apiRetry(ctx, { attempt: 1.5 }),
    /options.attempt must be a non-negative integer, got 1.5/,
  );
});

Deno.test("thinkingTokens validates its counts", () => {
  const ctx = createBuildContext();
  assert.equal(
    thinkingTokens(ctx, { estimatedTokens: 3, estimatedTokensDelta: 3 }).estimated_tokens,
    3,
  );
  assert.throws(
    () => thinkingTokens(ctx, { estimatedTokens: -3, estimatedTokensDelta: 3 }),
    RangeError,
  );
});

Deno.test("newTask draws ids in the recorded formats", () => {
  const ctx = createBuildContext({ seed: 9 });
  const task = newTask(ctx, { toolUseId: "toolu_1", description: "Summarize" });
  assert.match(task.taskId, /^a[0-9a-f]{16}$/);
  assert.match(task.runId, /^[0-9a-z]{9}-[0-9a-f]{8}$/);
  assert.throws(
    () => newTask(ctx, { toolUseId: 1 as never, description: "x" }),
    /options.toolUseId must be a string/,
  );
});

Deno.test("taskStarted, taskProgress, taskUpdated and taskNotification carry the task ids", () => {
  const ctx = createBuildContext({ seed: 9, clock: { now: () => 1795302022748 } });
  const task = newTask(ctx, {
    toolUseId: "toolu_1",
    description: "Summarize",
    subagentType: "Explore",
  });
  const frames = [
    taskStarted(ctx, task),
    taskProgress(ctx, task, { usage: { tool_uses: 4 } }),
    taskUpdated(ctx, task),
    taskNotification(ctx, task, { summary: "done", status: "failed" }),
  ];
  for (const frame of frames) {
    assert.equal(frame.task_id, task.taskId);
    assert.equal(frame.run_id, task.runId);
  }
  assert.equal(frames[0].subagent_type, "Explore");
  assert.equal(frames[0].prompt, undefined);
  assert.deepEqual(frames[1].usage, { total_tokens: 123, tool_uses: 4, duration_ms: 55 });
  assert.deepEqual(frames[2].patch, { status: "completed", end_time: 1795302022748 });
  assert.equal(frames[3].status, "failed");
  assert.throws(() => taskStarted(ctx, null as never), /task must be a TaskInfo object/);
  assert.throws(() => taskNotification(ctx, task, {} as never), /options.summary must be a string/);
});
