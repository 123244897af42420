import assert from "node:assert/strict";
import { TaskList } from "./task_list.ts";

// As the real CLI 2.1.332 ran the conformance case task_tools_state (2.1.328: see below).
Deno.test("TaskList: ids, updates, blockers, unknown ids, deletion, as recorded", () => {
  const tasks = new TaskList();
  const run = (tool: string, input: Record<string, unknown> = {}) => tasks.run(tool, input);
  assert.deepEqual(run("TaskList"), {
    content: "No tasks found",
    isError: false,
    toolUseResult: { tasks: [] },
    permissionDecision: "configAllowed",
  });
  assert.equal(
    run("TaskCreate", { subject: "Build", description: "Run make" }).content,
    "Task #1 created successfully: Build",
  );
  assert.deepEqual(
    run("TaskCreate", { subject: "Test", description: "t", activeForm: "Testing" }).toolUseResult,
    { task: { id: "2", subject: "Test", description: "t" } },
  );
  assert.equal(
    run("TaskUpdate", { taskId: "2", addBlockedBy: ["1"] }).content,
    "Updated task #2 blockedBy",
  );
  assert.equal(
    run("TaskGet", { taskId: "1" }).content,
    "Task #1: Build\nStatus: pending\nDescription: Run make\nBlocks: #2",
  );
  const many = run("TaskUpdate", {
    taskId: "1",
    status: "in_progress",
    metadata: { a: 1 },
    owner: "me",
    subject: "Build it",
  });
  assert.equal(many.content, "Updated task #1 subject, owner, metadata, status");
  assert.deepEqual((many.toolUseResult as { statusChange: unknown }).statusChange, {
    from: "pending",
    to: "in_progress",
  });
  assert.equal(
    run("TaskList").content,
    "#1 [in_progress] Build it (me)\n#2 [pending] Test [blocked by #1]",
  );
  // an unchanged status is no update: the text keeps its trailing space
  assert.equal(
    run("TaskUpdate", { taskId: "1", status: "in_progress" }).content,
    "Updated task #1 ",
  );
  assert.deepEqual(run("TaskGet", { taskId: "9" }).toolUseResult, { task: null });
  assert.deepEqual(run("TaskUpdate", { taskId: "9", status: "completed" }).toolUseResult, {
    success: false,
    taskId: "9",
    updatedFields: [],
    error: "Task not found",
  });
  run("TaskUpdate", { taskId: "1", status: "completed" });
  assert.equal(
    run("TaskGet", { taskId: "2" }).content,
    "Task #2: Test\nStatus: pending\nDescription: t",
  );
  assert.deepEqual(run("TaskUpdate", { taskId: "2", status: "deleted" }).toolUseResult, {
    success: true,
    taskId: "2",
    updatedFields: ["deleted"],
    statusChange: { from: "pending", to: "deleted" },
  });
  assert.equal(run("TaskList").content, "#1 [completed] Build it (me)");
  assert.throws(() => run("TodoWrite"), /'TodoWrite' is not a task tool/);
});

Deno.test("TaskList: before 2.1.332 a completed blocker stays in TaskGet's blockedBy, TaskList leaves it out", () => {
  const tasks = new TaskList({ completedTaskUnblocks: false });
  tasks.run("TaskCreate", { subject: "A", description: "a" });
  tasks.run("TaskCreate", { subject: "B", description: "b" });
  tasks.run("TaskUpdate", { taskId: "2", addBlockedBy: ["1"] });
  tasks.run("TaskUpdate", { taskId: "1", status: "completed" });
  assert.equal(
    tasks.run("TaskGet", { taskId: "2" }).content,
    "Task #2: B\nStatus: pending\nDescription: b\nBlocked by: #1",
  );
  assert.equal(tasks.run("TaskList", {}).content, "#1 [completed] A\n#2 [pending] B");
});
