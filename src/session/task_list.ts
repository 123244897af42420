/**
 * The session's task list: the task tools (`TaskCreate`, `TaskGet`, `TaskList`,
 * `TaskUpdate`) a session on an older model has, run as the real CLI runs them (2.1.328 to
 * 2.1.332): ids from 1, blockers, the texts and `tool_use_result`s it writes.
 *
 * @module
 */

import type { ToolCallResult } from "../builders/tools.ts";

/** The task tools the session runs itself. */
export const TASK_TOOL_NAMES: ReadonlySet<string> = new Set([
  "TaskCreate",
  "TaskGet",
  "TaskList",
  "TaskUpdate",
]);

interface Task {
  id: string;
  subject: string;
  description: string;
  activeForm?: string;
  status: string;
  owner?: string;
  metadata?: Record<string, unknown>;
  blocks: string[];
  blockedBy: string[];
}

/** The fields an update can change, in the order the CLI lists them in `updatedFields`. */
const FIELDS = ["subject", "description", "activeForm", "owner", "metadata", "status"] as const;

const str = (value: unknown): string | undefined => typeof value === "string" ? value : undefined;
const ids = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

/**
 * A session's tasks, changed and shown by the task tools.
 *
 * @example Creating and listing tasks
 * ```ts
 * import { TaskList } from "./task_list.ts";
 * const tasks = new TaskList();
 * console.log(tasks.run("TaskCreate", { subject: "Build", description: "Run make" }).content);
 * // Task #1 created successfully: Build
 * console.log(tasks.run("TaskList", {}).content); // #1 [pending] Build
 * ```
 */
export class TaskList {
  #tasks = new Map<string, Task>();
  #next = 1;
  #unblocksOnCompletion: boolean;

  /**
   * `completedTaskUnblocks`: a task marked completed is taken off the others' `blockedBy`
   * (the CLI's `completedTaskUnblocks` fact, 2.1.332); else only `TaskList` leaves it out.
   */
  constructor(options: { completedTaskUnblocks?: boolean } = {}) {
    this.#unblocksOnCompletion = options.completedTaskUnblocks ?? true;
  }

  /** Runs a task tool on the list: its result as the real CLI writes it. */
  run(tool: string, input: Record<string, unknown>): ToolCallResult {
    switch (tool) {
      case "TaskCreate":
        return this.#create(input);
      case "TaskGet":
        return this.#get(input);
      case "TaskList":
        return this.#list();
      case "TaskUpdate":
        return this.#update(input);
      default:
        throw new RangeError(`TaskList.run(): '${tool}' is not a task tool`);
    }
  }

  #create(input: Record<string, unknown>): ToolCallResult {
    const task: Task = {
      id: String(this.#next++),
      subject: str(input.subject) ?? "",
      description: str(input.description) ?? "",
      status: "pending",
      blocks: [],
      blockedBy: [],
    };
    if (str(input.activeForm) !== undefined) task.activeForm = str(input.activeForm);
    if (isRecord(input.metadata)) task.metadata = input.metadata;
    this.#tasks.set(task.id, task);
    return done(`Task #${task.id} created successfully: ${task.subject}`, {
      task: { id: task.id, subject: task.subject, description: task.description },
    });
  }

  #get(input: Record<string, unknown>): ToolCallResult {
    const task = this.#tasks.get(String(input.taskId));
    if (task === undefined) return done("Task not found", { task: null });
    const lines = [
      `Task #${task.id}: ${task.subject}`,
      `Status: ${task.status}`,
      `Description: ${task.description}`,
      ...(task.blockedBy.length > 0 ? [`Blocked by: ${hashes(task.blockedBy)}`] : []),
      ...(task.blocks.length > 0 ? [`Blocks: ${hashes(task.blocks)}`] : []),
    ];
    return done(lines.join("\n"), {
      task: {
        id: task.id,
        subject: task.subject,
        description: task.description,
        status: task.status,
        blocks: [...task.blocks],
        blockedBy: [...task.blockedBy],
      },
    });
  }

  #list(): ToolCallResult {
    const tasks = [...this.#tasks.values()].map((task) => ({
      id: task.id,
      subject: task.subject,
      status: task.status,
      ...(task.owner !== undefined ? { owner: task.owner } : {}),
      // a blocker that is done no longer blocks
      blockedBy: task.blockedBy.filter((id) => this.#tasks.get(id)?.status !== "completed"),
    }));
    if (tasks.length === 0) return done("No tasks found", { tasks: [] });
    const lines = tasks.map((t) =>
      `#${t.id} [${t.status}] ${t.subject}${t.owner !== undefined ? ` (${t.owner})` : ""}${
        t.blockedBy.length > 0 ? ` [blocked by ${hashes(t.blockedBy)}]` : ""
      }`
    );
    return done(lines.join("\n"), { tasks });
  }

  /** The task `id` blocks no other any more (done, or deleted). */
  #unblock(id: string): void {
    for (const other of this.#tasks.values()) {
      other.blockedBy = other.blockedBy.filter((blocker) => blocker !== id);
    }
  }

  #update(input: Record<string, unknown>): ToolCallResult {
    const taskId = String(input.taskId);
    const task = this.#tasks.get(taskId);
    if (task === undefined) {
      return done("Task not found", {
        success: false,
        taskId,
        updatedFields: [],
        error: "Task not found",
      });
    }
    if (input.status === "deleted") {
      this.#tasks.delete(taskId);
      for (const other of this.#tasks.values()) {
        other.blocks = other.blocks.filter((id) => id !== taskId);
      }
      this.#unblock(taskId);
      return done(`Updated task #${taskId} deleted`, {
        success: true,
        taskId,
        updatedFields: ["deleted"],
        statusChange: { from: task.status, to: "deleted" },
      });
    }
    const updated: string[] = [];
    let statusChange: { from: string; to: string } | undefined;
    for (const field of FIELDS) {
      const value = input[field];
      if (value === undefined) continue;
      if (field === "metadata") {
        if (!isRecord(value)) continue;
        task.metadata = { ...task.metadata, ...value };
      } else {
        if (typeof value !== "string" || task[field] === value) continue;
        if (field === "status") statusChange = { from: task.status, to: value };
        task[field] = value;
        // a task done no longer blocks the others (2.1.332)
        if (field === "status" && value === "completed" && this.#unblocksOnCompletion) {
          this.#unblock(taskId);
        }
      }
      updated.push(field);
    }
    const link = (from: Task, list: "blocks" | "blockedBy", added: string[]) => {
      const fresh = added.filter((id) => id !== from.id && !from[list].includes(id));
      from[list].push(...fresh);
      for (const id of fresh) {
        const other = this.#tasks.get(id);
        const back = list === "blocks" ? "blockedBy" : "blocks";
        if (other && !other[back].includes(from.id)) other[back].push(from.id);
      }
      return fresh.length > 0;
    };
    if (link(task, "blocks", ids(input.addBlocks))) updated.push("blocks");
    if (link(task, "blockedBy", ids(input.addBlockedBy))) updated.push("blockedBy");
    return done(`Updated task #${taskId} ${updated.join(", ")}`, {
      success: true,
      taskId,
      updatedFields: updated,
      ...(statusChange ? { statusChange } : {}),
    });
  }
}

function hashes(list: readonly string[]): string {
  return list.map((id) => `#${id}`).join(", ");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A task tool's result: allowed by configuration, as the real CLI runs them unasked. */
function done(content: string, toolUseResult: unknown): ToolCallResult {
  return { content, isError: false, toolUseResult, permissionDecision: "configAllowed" };
}
