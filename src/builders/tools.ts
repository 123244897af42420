/**
 * Tool call helpers: a realistic `tool_use` block plus the result the real CLI reports for
 * it (the `tool_result` content the model sees and the structured `tool_use_result`),
 * for Read, Write, Edit, Bash, any other tool, and subagents (the `Agent` tool, which
 * `system/init` lists as `Task`), whose helper also makes the frames the CLI emits while
 * the subagent runs.
 *
 * Texts and shapes come from recordings of the real CLI 2.1.328.
 *
 * @module
 */

import type { Frame, ToolUseBlock } from "../wire/frame.ts";
import type { BuildContext } from "./build_context.ts";
import { checkCount, checkString, describe } from "./_common.ts";
import { newTask, type TaskInfo } from "./task_frames.ts";
import type { SubagentInfo } from "./subagent.ts";
import { structuredPatch } from "./structured_patch.ts";
import { notebookRead } from "./notebook_read.ts";
import type { PermissionDecisionName, ToolResultContent } from "./user.ts";
import { AGENT_RUN, agentResult, type AgentRun, agentRunFrames } from "./_agent_run.ts";
import { estimateOutputTokens } from "./_api_stream.ts";
import { DEFAULT_INPUT_TOKENS } from "./usage.ts";

/** What the CLI reports for a tool call; spread it into {@linkcode toolResult}'s options. */
export interface ToolCallResult {
  /** The `tool_result` content the model sees. */
  content: ToolResultContent;
  /** Whether the tool failed. */
  isError: boolean;
  /** The structured result (`tool_use_result`). */
  toolUseResult: unknown;
  /** Bash results carry `is_error: false` explicitly. */
  explicitIsError?: boolean;
  /**
   * How the CLI decided when it does not ask the SDK (`configAllowed` for the Agent tool,
   * `null` for input validation errors, which carry no `tool_result_meta`). Absent: the
   * engine decides (`userAllowed` after a `can_use_tool`, `modeAllowed`, ...).
   */
  permissionDecision?: PermissionDecisionName | null;
}

/** A tool use block and the CLI's result for it. */
export interface ToolCall {
  /** The `tool_use` block (its id drawn from the context unless given). */
  block: ToolUseBlock;
  /** The result. */
  result: ToolCallResult;
}

/** Commands the CLI expects no output from (`noOutputExpected`). */
const SILENT_COMMANDS = new Set([
  "touch",
  "mkdir",
  "rm",
  "rmdir",
  "mv",
  "cp",
  "chmod",
  "chown",
  "ln",
  "cd",
  "export",
]);

/** What an Edit or Write result adds when the session knows the file. Internal. */
export const FRESH_NOTE: string =
  "(file state is current in your context — no need to Read it back)";

/** Options for {@linkcode readTool}. */
export interface ReadToolOptions {
  /** The file's content; `null` when the file does not exist. */
  content: string | null;
  /** First line to read (1-based; adds `offset` to the input). */
  offset?: number;
  /** How many lines to read (adds `limit` to the input). */
  limit?: number;
  /** The tool use id (default: drawn from the context). */
  id?: string;
}

/**
 * A Read call: input `{file_path}`; the result is the file with line numbers
 * (`1\tline`), `tool_use_result: {type: "text", file: {filePath, content, numLines,
 * startLine, totalLines}}`, as recorded. A missing file (`content: null`) gives the CLI's
 * "File does not exist" error.
 *
 * @example Reading a file
 * ```ts
 * import { createBuildContext, readTool } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const call = readTool(ctx, "/home/user/project/notes.txt", { content: "Project notes\n" });
 * console.log(call.result.content); // "1\tProject notes\n2\t"
 * ```
 */
export function readTool(ctx: BuildContext, filePath: string, options: ReadToolOptions): ToolCall {
  checkString(filePath, "readTool()", "the file path");
  if (options?.content !== null && typeof options?.content !== "string") {
    throw new TypeError(`readTool("${filePath}"): options.content must be a string or null`);
  }
  const input: Record<string, unknown> = { file_path: filePath };
  for (const key of ["offset", "limit"] as const) {
    if (options[key] === undefined) continue;
    checkCount(options[key], `readTool("${filePath}")`, `options.${key}`);
    input[key] = options[key];
  }
  const block = toolBlock(ctx, "Read", input, options.id);
  if (options.content === null) {
    const message = `File does not exist. Note: your current working directory is ${ctx.cwd}.`;
    return {
      block,
      result: { content: message, isError: true, toolUseResult: `Error: ${message}` },
    };
  }
  // a notebook is read as its cells (2.1.332)
  const notebook = filePath.endsWith(".ipynb") ? notebookRead(filePath, options.content) : null;
  if (notebook) return { block, result: notebook };
  const all = options.content.split("\n");
  const startLine = Math.max(1, options.offset ?? 1);
  const selected = all.slice(
    startLine - 1,
    options.limit !== undefined ? startLine - 1 + options.limit : undefined,
  );
  // an empty file, and a part past the end, are said in a reminder (2.1.328 to 2.1.332)
  const content = options.content === ""
    ? warning("the contents are empty")
    : selected.length === 0
    ? warning(
      `is shorter than the provided offset (${startLine}). The file has ${all.length} lines`,
    )
    : selected.map((line, i) => `${startLine + i}\t${line}`).join("\n");
  return {
    block,
    result: {
      content,
      isError: false,
      toolUseResult: {
        type: "text",
        file: {
          filePath,
          content: selected.join("\n"),
          numLines: selected.length,
          startLine,
          totalLines: all.length,
        },
      },
    },
  };
}

/** A Read's warning about the file, as the CLI words it. */
function warning(what: string): string {
  return `<system-reminder>Warning: the file exists but ${what}.</system-reminder>`;
}

/** Options for {@linkcode writeTool}. */
export interface WriteToolOptions {
  /** The new content. */
  content: string;
  /** The file's previous content; absent or `null` when the file is created. */
  originalFile?: string | null;
  /** The tool use id (default: drawn from the context). */
  id?: string;
}

/**
 * A Write call: input `{file_path, content}`; the result says the file was created or
 * updated, with `tool_use_result: {type: "create" | "update", filePath, content,
 * structuredPatch, originalFile, userModified}`, as recorded.
 *
 * @example Creating a file
 * ```ts
 * import { createBuildContext, writeTool } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const call = writeTool(ctx, "/home/user/project/new.txt", { content: "hello\n" });
 * console.log(call.result.content); // File created successfully at: /home/user/project/new.txt (…)
 * ```
 */
export function writeTool(
  ctx: BuildContext,
  filePath: string,
  options: WriteToolOptions,
): ToolCall {
  checkString(filePath, "writeTool()", "the file path");
  checkString(options?.content, `writeTool("${filePath}")`, "options.content");
  const block = toolBlock(
    ctx,
    "Write",
    { file_path: filePath, content: options.content },
    options.id,
  );
  const original = options.originalFile ?? null;
  if (original === null) {
    return {
      block,
      result: {
        content: `File created successfully at: ${filePath} ${FRESH_NOTE}`,
        isError: false,
        toolUseResult: {
          type: "create",
          filePath,
          content: options.content,
          structuredPatch: [],
          originalFile: null,
          userModified: false,
        },
      },
    };
  }
  checkString(original, `writeTool("${filePath}")`, "options.originalFile");
  return {
    block,
    result: {
      content: `The file ${filePath} has been updated successfully. ${FRESH_NOTE}`,
      isError: false,
      toolUseResult: {
        type: "update",
        filePath,
        content: options.content,
        structuredPatch: structuredPatch(original, options.content),
        originalFile: original,
        userModified: false,
      },
    },
  };
}

/** Options for {@linkcode editTool}. */
export interface EditToolOptions {
  /** The text to replace. */
  oldString: string;
  /** The replacement. */
  newString: string;
  /** Replace every occurrence (`replace_all`, default false). */
  replaceAll?: boolean;
  /**
   * The file's content before the edit, to compute the patch and detect a missing or
   * ambiguous `oldString`. Default: a file holding exactly `oldString`.
   */
  originalFile?: string;
  /** The tool use id (default: drawn from the context). */
  id?: string;
}

/**
 * An Edit call: input `{replace_all, file_path, old_string, new_string}` (the CLI puts the
 * `replace_all` default first in the assistant frame); the result
 * says the file was updated, with `tool_use_result: {filePath, oldString, newString,
 * originalFile, structuredPatch, userModified, replaceAll}`, as recorded. When
 * `oldString` is not in `originalFile` the result is the CLI's `<tool_use_error>` (an input
 * validation error: no `tool_result_meta`).
 *
 * @example Editing a file
 * ```ts
 * import { createBuildContext, editTool } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const call = editTool(ctx, "/home/user/project/notes.txt", {
 *   oldString: "make",
 *   newString: "ninja",
 *   originalFile: "The build uses make.\n",
 * });
 * console.log(call.result.content);
 * ```
 */
export function editTool(ctx: BuildContext, filePath: string, options: EditToolOptions): ToolCall {
  const where = `editTool("${filePath}")`;
  checkString(filePath, "editTool()", "the file path");
  checkString(options?.oldString, where, "options.oldString");
  checkString(options.newString, where, "options.newString");
  // The CLI fills in the schema default: replace_all comes first, false unless given (x_tools).
  const input: Record<string, unknown> = {
    replace_all: options.replaceAll ?? false,
    file_path: filePath,
    old_string: options.oldString,
    new_string: options.newString,
  };
  const block = toolBlock(ctx, "Edit", input, options.id);
  const original = options.originalFile ?? options.oldString;
  checkString(original, where, "options.originalFile");
  const count = original.split(options.oldString).length - 1;
  const fail = (message: string): ToolCall => ({
    block,
    result: {
      content: `<tool_use_error>${message}</tool_use_error>`,
      isError: true,
      toolUseResult: `Error: ${message}`,
      permissionDecision: null,
    },
  });
  if (options.oldString === options.newString) {
    return fail("No changes to make: old_string and new_string are exactly the same.");
  }
  if (count === 0) {
    return fail(`String to replace not found in file.\nString: ${options.oldString}`);
  }
  if (count > 1 && !options.replaceAll) {
    // recorded: conformance case files_edit_invalid (2.1.328, 2.1.332)
    return fail(
      `Found ${count} matches of the string to replace, but replace_all is false. To replace all ` +
        "occurrences, set replace_all to true. To replace only one occurrence, please provide more " +
        `context to uniquely identify the instance.\nString: ${options.oldString}`,
    );
  }
  const updated = options.replaceAll
    ? original.split(options.oldString).join(options.newString)
    : original.replace(options.oldString, () => options.newString);
  return {
    block,
    result: {
      content: options.replaceAll
        ? `The file ${filePath} has been updated. All occurrences were successfully replaced. ${FRESH_NOTE}`
        : `The file ${filePath} has been updated successfully. ${FRESH_NOTE}`,
      isError: false,
      toolUseResult: {
        filePath,
        oldString: options.oldString,
        newString: options.newString,
        originalFile: original,
        structuredPatch: structuredPatch(original, updated),
        userModified: false,
        replaceAll: options.replaceAll ?? false,
      },
    },
  };
}

/** Options for {@linkcode bashTool}. */
export interface BashToolOptions {
  /** What the command printed on stdout. */
  stdout?: string;
  /** What it printed on stderr (the CLI reports it merged into stdout). */
  stderr?: string;
  /** The exit code (default 0). */
  exitCode?: number;
  /** The `description` input the model gives (default: none). */
  description?: string;
  /** The tool use id (default: drawn from the context). */
  id?: string;
}

/**
 * A Bash call: input `{command[, description]}`. Output is stdout then stderr, trailing
 * newlines trimmed, as the CLI merges them. Exit code 0: the block has `is_error: false`
 * and `tool_use_result: {stdout, stderr: "", interrupted, isImage, noOutputExpected}`;
 * another code: `Exit code N\n<output>` with `is_error: true` and
 * `tool_use_result: "Error: Exit code N\n<output>"`, as recorded.
 *
 * @example A command that prints
 * ```ts
 * import { bashTool, createBuildContext } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const call = bashTool(ctx, "echo hi", { stdout: "hi\n", description: "Say hi" });
 * console.log(call.result.content); // hi
 * ```
 */
export function bashTool(
  ctx: BuildContext,
  command: string,
  options: BashToolOptions = {},
): ToolCall {
  checkString(command, "bashTool()", "the command");
  const exitCode = options.exitCode ?? 0;
  if (!Number.isInteger(exitCode) || exitCode < 0 || exitCode > 255) {
    throw new RangeError(
      `bashTool("${command}"): exitCode must be an integer 0-255, got ${describe(exitCode)}`,
    );
  }
  const input: Record<string, unknown> = { command };
  if (options.description !== undefined) input.description = options.description;
  const block = toolBlock(ctx, "Bash", input, options.id);
  const output = [options.stdout ?? "", options.stderr ?? ""]
    .map((s) => s.replace(/\n+$/, ""))
    .filter((s) => s !== "")
    .join("\n");
  if (exitCode !== 0) {
    const message = output === "" ? `Exit code ${exitCode}` : `Exit code ${exitCode}\n${output}`;
    return {
      block,
      result: { content: message, isError: true, toolUseResult: `Error: ${message}` },
    };
  }
  return {
    block,
    result: {
      // "(Bash completed with no output)" is the CLI's text for silent commands (recorded
      // in cp_hook_continue_false), whose tool_use_result says `noOutputExpected: true`.
      content: output === "" ? "(Bash completed with no output)" : output,
      isError: false,
      explicitIsError: true,
      toolUseResult: {
        stdout: output,
        stderr: "",
        interrupted: false,
        isImage: false,
        noOutputExpected: SILENT_COMMANDS.has(command.trim().split(/\s+/)[0]),
      },
    },
  };
}

/** Options for {@linkcode genericTool}. */
export interface GenericToolOptions {
  /** The tool input. */
  input: Record<string, unknown>;
  /** The result content the model sees (text, or blocks as MCP tools return them). */
  result: ToolResultContent;
  /** Whether the tool failed (default false). */
  isError?: boolean;
  /**
   * The structured result (default: the blocks for block content, the text for a
   * success, `"Error: <text>"` for an error, as recorded for MCP tools).
   */
  toolUseResult?: unknown;
  /** The tool use id (default: drawn from the context). */
  id?: string;
}

/**
 * Any other tool call, MCP tools included (`mcp__server__tool`, whose result is the
 * tool's content blocks).
 *
 * @example An MCP tool call
 * ```ts
 * import { createBuildContext, genericTool } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const call = genericTool(ctx, "mcp__calc__add", {
 *   input: { a: 2, b: 3 },
 *   result: [{ type: "text", text: "5" }],
 * });
 * console.log(call.result.toolUseResult); // [{ type: "text", text: "5" }]
 * ```
 */
export function genericTool(
  ctx: BuildContext,
  name: string,
  options: GenericToolOptions,
): ToolCall {
  checkString(name, "genericTool()", "the tool name");
  if (
    typeof options?.input !== "object" || options.input === null || Array.isArray(options.input)
  ) {
    throw new TypeError(`genericTool("${name}"): options.input must be a plain object`);
  }
  if (typeof options.result !== "string" && !Array.isArray(options.result)) {
    throw new TypeError(
      `genericTool("${name}"): options.result must be a string or an array of blocks`,
    );
  }
  const isError = options.isError ?? false;
  const block = toolBlock(ctx, name, options.input, options.id);
  const toolUseResult = "toolUseResult" in options
    ? options.toolUseResult
    : typeof options.result === "string" && isError
    ? `Error: ${options.result}`
    : options.result;
  return { block, result: { content: options.result, isError, toolUseResult } };
}

/** A subagent (Agent tool) call: the block, its final result, and the frames of the run. */
export interface TaskToolCall extends ToolCall {
  /** The task ids (`task_id` = the subagent's `agent_id`, `run_id`). */
  task: TaskInfo;
  /** What the subagent's frames carry (`parent_tool_use_id` = the Agent tool use id). */
  subagent: SubagentInfo;
  /**
   * The frames the CLI emits while the subagent runs, in recorded order, to send between
   * the Agent tool use's assistant frame and its tool result: `system/task_started`, the
   * subagent's prompt (`user`), for each subagent tool call `system/task_progress`, the
   * subagent's `assistant` tool use and its `user` tool result (no `tool_use_result`),
   * then `system/task_updated` and `system/task_notification`. Ids and timestamps are drawn
   * when called (default: from the context `taskTool` got).
   */
  frames(ctx?: BuildContext): Frame[];
}

/** Options for {@linkcode taskTool}. */
export interface TaskToolOptions {
  /** The prompt the subagent gets. */
  prompt: string;
  /** The subagent type (default `general-purpose`). */
  subagentType?: string;
  /** The subagent's final report (the task notification's summary). */
  result: string;
  /** `run_in_background: true`: the call returns at once, the subagent runs on (default false). */
  runInBackground?: boolean;
  /** The tool calls the subagent makes, built with the other helpers (default none). */
  tools?: ToolCall[];
  /**
   * Replaces the frames between the subagent's prompt frame and `task_updated` (default:
   * the progress / tool use / tool result frames of `tools`).
   */
  subagentFrames?: (ctx: BuildContext, subagent: SubagentInfo, task: TaskInfo) => Frame[];
  /**
   * Total subagent tokens: its last API call's input and output (default: 120 in, and the
   * report's output tokens as the Messages API counts them, one per 4 characters).
   */
  totalTokens?: number;
  /** Subagent run time in ms (default 186, as recorded). */
  durationMs?: number;
  /** The task id, also the subagent's `agent_id` (default: drawn from the context). */
  taskId?: string;
  /** The run id (default: drawn from the context). */
  runId?: string;
  /** The tool use id (default: drawn from the context). */
  id?: string;
}

/**
 * A foreground subagent call through the `Agent` tool (the API name; `system/init` lists
 * it as `Task`): input `{description, prompt, subagent_type, run_in_background: false}`;
 * the result is the CLI's hand-back text (the report indented, the agent id, a usage
 * footer) with the recorded `tool_use_result` (`status`, `agentId`, `toolsUsed`,
 * `usage`, `toolStats`, ...), decided by config (`configAllowed`). `frames()` gives what
 * the CLI emits while the subagent runs. A session plays the run as the real CLI does: the
 * subagent's tool uses go through its tool flow (PreToolUse, the permission rules and
 * `can_use_tool` with the subagent's `agent_id`, PostToolUse, PostToolBatch), between the
 * SubagentStart and SubagentStop hooks, each hook input naming `agent_id` and `agent_type`.
 *
 * @example A subagent that reads a file
 * ```ts
 * import { createBuildContext, readTool, taskTool } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const call = taskTool(ctx, "Summarize notes file", {
 *   prompt: "Read notes.txt and summarize it in one sentence.",
 *   result: "The notes say the build uses make.",
 *   tools: [readTool(ctx, "/home/user/project/notes.txt", { content: "The build uses make.\n" })],
 * });
 * console.log(call.block.name, call.frames().length); // Agent 7
 * ```
 */
export function taskTool(
  ctx: BuildContext,
  description: string,
  options: TaskToolOptions,
): TaskToolCall {
  checkString(description, "taskTool()", "the description");
  const where = `taskTool("${description}")`;
  checkString(options?.prompt, where, "options.prompt");
  checkString(options.result, where, "options.result");
  const subagentType = options.subagentType ?? "general-purpose";
  const tools = options.tools ?? [];
  tools.forEach((call, i) => {
    if (call?.block?.type !== "tool_use" || typeof call.result !== "object") {
      throw new TypeError(
        `${where}: options.tools[${i}] is not a ToolCall (use readTool(), bashTool(), ...)`,
      );
    }
  });
  const totalTokens = options.totalTokens ??
    DEFAULT_INPUT_TOKENS + estimateOutputTokens([{ type: "text", text: options.result }]);
  const durationMs = options.durationMs ?? 186;
  checkCount(totalTokens, where, "options.totalTokens");
  checkCount(durationMs, where, "options.durationMs");
  if (options.runInBackground !== undefined && typeof options.runInBackground !== "boolean") {
    throw new TypeError(`${where}: options.runInBackground must be a boolean`);
  }
  const block = toolBlock(ctx, "Agent", {
    description,
    prompt: options.prompt,
    subagent_type: subagentType,
    run_in_background: options.runInBackground === true,
  }, options.id);
  const task = newTask(ctx, {
    toolUseId: block.id,
    description,
    subagentType,
    prompt: options.prompt,
    taskId: options.taskId,
    runId: options.runId,
  });
  const subagent: SubagentInfo = {
    parentToolUseId: block.id,
    agentId: task.taskId,
    subagentType,
    taskDescription: description,
  };
  const run: AgentRun = { task, subagent, subagentType, options, tools, totalTokens, durationMs };
  return {
    block,
    result: agentResult(ctx, run),
    task,
    subagent,
    frames: (frameCtx: BuildContext = ctx): Frame[] => agentRunFrames(frameCtx, run),
    // a session plays the run itself, the subagent's tools through its tool flow
    [AGENT_RUN]: run,
  } as TaskToolCall;
}

function toolBlock(
  ctx: BuildContext,
  name: string,
  input: Record<string, unknown>,
  id: string | undefined,
): ToolUseBlock {
  if (id !== undefined) checkString(id, `${name} tool`, "options.id");
  return { type: "tool_use", id: id ?? ctx.ids.toolUseId(), name, input };
}
