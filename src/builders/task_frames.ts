/**
 * Subagent task frames: {@linkcode TaskInfo} and {@linkcode newTask}, and builders for the
 * `system` frames the CLI emits while a subagent runs (`task_started`, `task_progress`,
 * `task_updated`, `task_notification`), each in the real CLI's key order.
 *
 * @module
 */

import type { SystemFrame, Uuid } from "../wire/frame.ts";
import { type BuildContext, DEFAULT_TEMP_DIR } from "./build_context.ts";
import { projectSlug } from "./project_paths.ts";
import { checkCount, checkString, describe } from "./_common.ts";

/** A subagent task, as its `system/task_*` frames identify it. */
export interface TaskInfo {
  /** The task id (also the subagent's `agent_id`), e.g. `a8b0a0e708be712e2`. */
  taskId: string;
  /** The id of this run of the task, e.g. `0mwr0gyb3-aeca1704`. */
  runId: string;
  /** The Agent tool use that started it. */
  toolUseId: string;
  /** The task description. */
  description: string;
  /** The subagent type (default `general-purpose`). */
  subagentType?: string;
  /** The prompt the subagent got. */
  prompt?: string;
  /** Whether it runs in the background (default false). */
  isBackgrounded?: boolean;
  /** Nesting depth (default 1). */
  spawnDepth?: number;
  /** The task of the subagent that started it, for a nested one (`parent_task_id`). */
  parentTaskId?: string;
  /** The task type (default `local_agent`). */
  taskType?: string;
}

/**
 * A new {@linkcode TaskInfo} with ids drawn from the context: a task id like
 * `a8b0a0e708be712e2` and a run id like `0mwr0gyb3-aeca1704`, as recorded.
 *
 * @example A task for an Agent tool use
 * ```ts
 * import { createBuildContext, newTask } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const task = newTask(ctx, { toolUseId: "toolu_01A", description: "Summarize notes file" });
 * console.log(task.taskId.length); // 17
 * ```
 */
export function newTask(
  ctx: BuildContext,
  options: Omit<TaskInfo, "taskId" | "runId"> & { taskId?: string; runId?: string },
): TaskInfo {
  checkString(options?.toolUseId, "newTask()", "options.toolUseId");
  checkString(options.description, "newTask()", "options.description");
  const hex = (n: number) => {
    let out = "";
    while (out.length < n) out += ctx.ids.uuid().replaceAll("-", "");
    return out.slice(0, n);
  };
  const base36 = ctx.ids.shortId().slice(0, 9);
  return {
    ...options,
    taskId: options.taskId ?? "a" + hex(16),
    runId: options.runId ?? `${base36}-${hex(8)}`,
  };
}

/** A `system/task_started` frame. */
export interface TaskStartedFrame extends SystemFrame {
  /** Always `task_started`. */
  subtype: "task_started";
  /** The task id. */
  task_id: string;
  /** The run id. */
  run_id: string;
  /** The Agent tool use id. */
  tool_use_id: string;
  /** The task description. */
  description: string;
  /** The subagent type. */
  subagent_type: string;
  /** Whether it runs in the background. */
  is_backgrounded: boolean;
  /** Nesting depth. */
  spawn_depth: number;
  /** The task of the subagent that started this one (a nested subagent's). */
  parent_task_id?: string;
  /** The task type. */
  task_type: string;
  /** The prompt. */
  prompt?: string;
  /** The frame's uuid. */
  uuid: Uuid;
  /** The session id. */
  session_id: string;
}

/**
 * A `system/task_started` frame: a subagent task began (right after the Agent tool use
 * frame).
 *
 * @example Starting a subagent task
 * ```ts
 * import { createBuildContext, newTask, taskStarted } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const task = newTask(ctx, { toolUseId: "toolu_01A", description: "Summarize", prompt: "Summarize notes.txt" });
 * console.log(taskStarted(ctx, task).subagent_type); // general-purpose
 * ```
 */
export function taskStarted(ctx: BuildContext, task: TaskInfo): TaskStartedFrame {
  checkTask(task, "taskStarted()");
  return {
    type: "system",
    subtype: "task_started",
    task_id: task.taskId,
    run_id: task.runId,
    tool_use_id: task.toolUseId,
    description: task.description,
    subagent_type: task.subagentType ?? "general-purpose",
    is_backgrounded: task.isBackgrounded ?? false,
    spawn_depth: task.spawnDepth ?? 1,
    ...(task.parentTaskId !== undefined ? { parent_task_id: task.parentTaskId } : {}),
    task_type: task.taskType ?? "local_agent",
    ...(task.prompt !== undefined ? { prompt: task.prompt } : {}),
    uuid: ctx.ids.uuid(),
    session_id: ctx.sessionId,
  };
}

/** Task usage so far. */
export interface TaskUsage {
  /** Tokens used. */
  total_tokens: number;
  /** Tool uses. */
  tool_uses: number;
  /** Elapsed time. */
  duration_ms: number;
}

/** A `system/task_progress` frame. */
export interface TaskProgressFrame extends SystemFrame {
  /** Always `task_progress`. */
  subtype: "task_progress";
  /** The task id. */
  task_id: string;
  /** The run id. */
  run_id: string;
  /** The Agent tool use id. */
  tool_use_id: string;
  /** What the task is doing now. */
  description: string;
  /** The subagent type. */
  subagent_type: string;
  /** Usage so far. */
  usage: TaskUsage;
  /** The last tool the subagent used. */
  last_tool_name?: string;
  /** The frame's uuid. */
  uuid: Uuid;
  /** The session id. */
  session_id: string;
}

/** Options for {@linkcode taskProgress}. */
export interface TaskProgressOptions {
  /** What the task is doing now (default: the task description). */
  description?: string;
  /** Usage so far (default: 123 tokens, 1 tool use, 55 ms, as recorded). */
  usage?: Partial<TaskUsage>;
  /** The last tool the subagent used. */
  lastToolName?: string;
}

/**
 * A `system/task_progress` frame (sent when a subagent uses a tool).
 *
 * @example Progress of a subagent
 * ```ts
 * import { createBuildContext, newTask, taskProgress } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const task = newTask(ctx, { toolUseId: "toolu_01A", description: "Summarize" });
 * console.log(taskProgress(ctx, task, { description: "Reading notes.txt", lastToolName: "Read" }).usage);
 * ```
 */
export function taskProgress(
  ctx: BuildContext,
  task: TaskInfo,
  options: TaskProgressOptions = {},
): TaskProgressFrame {
  checkTask(task, "taskProgress()");
  return {
    type: "system",
    subtype: "task_progress",
    task_id: task.taskId,
    run_id: task.runId,
    tool_use_id: task.toolUseId,
    description: options.description ?? task.description,
    subagent_type: task.subagentType ?? "general-purpose",
    usage: taskUsage(
      options.usage,
      { total_tokens: 123, tool_uses: 1, duration_ms: 55 },
      "taskProgress()",
    ),
    ...(options.lastToolName !== undefined ? { last_tool_name: options.lastToolName } : {}),
    uuid: ctx.ids.uuid(),
    session_id: ctx.sessionId,
  };
}

/** The task states of `task_updated` patches. */
export type TaskStatus = "pending" | "running" | "completed" | "failed" | "killed" | "paused";

/** A `system/task_updated` frame. */
export interface TaskUpdatedFrame extends SystemFrame {
  /** Always `task_updated`. */
  subtype: "task_updated";
  /** The task id. */
  task_id: string;
  /** The run id. */
  run_id: string;
  /** The fields that changed. */
  patch: {
    status?: TaskStatus;
    description?: string;
    end_time?: number;
    total_paused_ms?: number;
    error?: string;
    is_backgrounded?: boolean;
  };
  /** The frame's uuid. */
  uuid: Uuid;
  /** The session id. */
  session_id: string;
}

/**
 * A `system/task_updated` frame. The default patch is the one recorded when a subagent
 * finishes: `{status: "completed", end_time: ctx.now()}`.
 *
 * @example A finished task
 * ```ts
 * import { createBuildContext, newTask, taskUpdated } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const task = newTask(ctx, { toolUseId: "toolu_01A", description: "Summarize" });
 * console.log(taskUpdated(ctx, task).patch.status); // completed
 * ```
 */
export function taskUpdated(
  ctx: BuildContext,
  task: TaskInfo,
  options: { patch?: TaskUpdatedFrame["patch"] } = {},
): TaskUpdatedFrame {
  checkTask(task, "taskUpdated()");
  return {
    type: "system",
    subtype: "task_updated",
    task_id: task.taskId,
    run_id: task.runId,
    patch: options.patch ?? { status: "completed", end_time: ctx.now() },
    uuid: ctx.ids.uuid(),
    session_id: ctx.sessionId,
  };
}

/** A `system/task_notification` frame. */
export interface TaskNotificationFrame extends SystemFrame {
  /** Always `task_notification`. */
  subtype: "task_notification";
  /** The task id. */
  task_id: string;
  /** The run id. */
  run_id: string;
  /** The Agent tool use id. */
  tool_use_id: string;
  /** How the task ended. */
  status: "completed" | "failed" | "stopped";
  /** Where the task's output went. */
  output_file: string;
  /** The task's final summary. */
  summary: string;
  /** Final usage. */
  usage: TaskUsage;
  /** The frame's uuid. */
  uuid: Uuid;
  /** The session id. */
  session_id: string;
}

/** Options for {@linkcode taskNotification}. */
export interface TaskNotificationOptions {
  /** How the task ended (default `completed`). */
  status?: "completed" | "failed" | "stopped";
  /** The task's final summary (the subagent's final text). */
  summary: string;
  /**
   * Where the output went (default: the CLI's, `<tempDir>/<project slug>/<session id>/tasks/<task
   * id>.output`).
   */
  outputFile?: string;
  /** Final usage (default: 145 tokens, 1 tool use, 184 ms, as recorded). */
  usage?: Partial<TaskUsage>;
}

/**
 * A `system/task_notification` frame: a subagent task ended (right after its
 * `task_updated`).
 *
 * @example A completed subagent
 * ```ts
 * import { createBuildContext, newTask, taskNotification } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const task = newTask(ctx, { toolUseId: "toolu_01A", description: "Summarize" });
 * console.log(taskNotification(ctx, task, { summary: "Build with make." }).status); // completed
 * ```
 */
export function taskNotification(
  ctx: BuildContext,
  task: TaskInfo,
  options: TaskNotificationOptions,
): TaskNotificationFrame {
  checkTask(task, "taskNotification()");
  checkString(options?.summary, "taskNotification()", "options.summary");
  return {
    type: "system",
    subtype: "task_notification",
    task_id: task.taskId,
    run_id: task.runId,
    tool_use_id: task.toolUseId,
    status: options.status ?? "completed",
    output_file: options.outputFile ?? taskOutputFile(ctx, task.taskId),
    summary: options.summary,
    usage: taskUsage(
      options.usage,
      { total_tokens: 145, tool_uses: 1, duration_ms: 184 },
      "taskNotification()",
    ),
    uuid: ctx.ids.uuid(),
    session_id: ctx.sessionId,
  };
}

function taskUsage(
  given: Partial<TaskUsage> | undefined,
  defaults: TaskUsage,
  where: string,
): TaskUsage {
  const usage = { ...defaults, ...given };
  checkCount(usage.total_tokens, where, "usage.total_tokens");
  checkCount(usage.tool_uses, where, "usage.tool_uses");
  checkCount(usage.duration_ms, where, "usage.duration_ms");
  return {
    total_tokens: usage.total_tokens,
    tool_uses: usage.tool_uses,
    duration_ms: usage.duration_ms,
  };
}

function checkTask(task: TaskInfo, where: string): void {
  if (typeof task !== "object" || task === null) {
    throw new TypeError(
      `${where}: task must be a TaskInfo object (see newTask()), got ${describe(task)}`,
    );
  }
  checkString(task.taskId, where, "task.taskId");
  checkString(task.runId, where, "task.runId");
  checkString(task.toolUseId, where, "task.toolUseId");
  checkString(task.description, where, "task.description");
}

/**
 * Where the CLI keeps a task's output: `<tempDir>/<project slug of the cwd>/<session
 * id>/tasks/<task id>.output`.
 *
 * @example The output file of a task
 * ```ts
 * import { createBuildContext } from "@x/claude-mock/builders";
 * import { taskOutputFile } from "./task_frames.ts";
 * const ctx = createBuildContext({ sessionId: "s1" });
 * console.log(taskOutputFile(ctx, "a1")); // /tmp/claude-0/-home-user-project/s1/tasks/a1.output
 * ```
 */
export function taskOutputFile(ctx: BuildContext, taskId: string): string {
  return `${ctx.tempDir ?? DEFAULT_TEMP_DIR}/${
    projectSlug(ctx.cwd)
  }/${ctx.sessionId}/tasks/${taskId}.output`;
}
