/**
 * Builders for `user` frames: tool results and notices the CLI writes
 * ({@linkcode toolResult}, {@linkcode userText}) and the prompt frame the SDK writes
 * ({@linkcode userPrompt}).
 *
 * @module
 */

import type { Frame, UserFrame, Uuid } from "../wire/frame.ts";
import type { BuildContext } from "./build_context.ts";
import { checkString, checkSubagent, describe, timestampOf } from "./_common.ts";
import type { SubagentInfo } from "./subagent.ts";

/** A text block inside a user message or a tool result. */
export type UserTextBlock = { type: "text"; text: string };

/** An image block inside a tool result. */
export type UserImageBlock = {
  type: "image";
  source: {
    type: "base64";
    media_type: "image/jpeg" | "image/png" | "image/gif" | "image/webp";
    data: string;
  };
};

/** The content of a tool result: text, or text and image blocks. */
export type ToolResultContent = string | Array<UserTextBlock | UserImageBlock>;

/** A `tool_result` block as the CLI writes it (the wire `ToolResultBlock` with typed content). */
export type ToolResultBlockOut = {
  type: "tool_result";
  tool_use_id: string;
  content: ToolResultContent;
  is_error?: boolean;
};

/** How a tool use was allowed or refused (`tool_result_meta[].permission_decision`). */
export interface PermissionDecision {
  /** `accept` or `reject`. */
  decision: "accept" | "reject";
  /** Who decided (`user_temporary`, `user_reject`, `hook`, `config`, ...). */
  source: string;
  /** Why, when the CLI says (`hook`, `mode`, `subcommandResults`, ...). */
  reason_type?: string;
}

/**
 * Named permission decisions seen in the recordings:
 * - `userAllowed`: the SDK's `canUseTool` allowed it (`accept`, `user_temporary`);
 * - `userDenied`: `canUseTool` denied it (`reject`, `user_reject`, plus
 *   `non_execution_kind: "permission-rule"`);
 * - `hookAllowed`: a PreToolUse hook allowed it (`accept`, `hook`, reason `hook`);
 * - `modeAllowed`: the permission mode allowed it (`accept`, `config`, reason `mode`);
 * - `readOnlyAllowed`: a read-only Bash command was allowed (`accept`, `config`,
 *   reason `subcommandResults`);
 * - `ruleAllowed`: an allow rule (`allowedTools`, settings) allowed it (`accept`, `config`,
 *   reason `rule`);
 * - `configAllowed`: allowed by configuration, no reason given (the Agent tool).
 */
export type PermissionDecisionName =
  | "userAllowed"
  | "userDenied"
  | "hookAllowed"
  | "modeAllowed"
  | "readOnlyAllowed"
  | "ruleAllowed"
  | "configAllowed";

/** One `tool_result_meta` entry. */
export interface ToolResultMeta {
  /** The tool use id. */
  id: string;
  /** Why the tool did not run (denials). */
  non_execution_kind?: string;
  /** How the use was decided. */
  permission_decision: PermissionDecision;
}

/** A `user` frame carrying tool results or a notice, as the CLI writes it. */
export interface CliUserFrame extends UserFrame {
  /** The user message. */
  message: {
    role: "user";
    content: string | Array<ToolResultBlockOut | UserTextBlock>;
  };
  /** Subagent frames: the subagent's id. */
  agent_id?: string;
  /** The frame's uuid. */
  uuid: Uuid;
  /** When the frame was written. */
  timestamp: string;
  /** The structured result of the tool (main-thread tool results). */
  tool_use_result?: unknown;
  /** How each tool use was decided. */
  tool_result_meta?: ToolResultMeta[];
  /** Replayed notices (`<local-command-stdout>`…): `true`. */
  isReplay?: boolean;
  /** Messages the CLI made up itself (the compaction summary). */
  isSynthetic?: boolean;
  /** Subagent frames: the subagent type. */
  subagent_type?: string;
  /** Subagent frames: the task description. */
  task_description?: string;
}

/** Options for {@linkcode toolResult}. */
export interface ToolResultOptions {
  /** The result content the model sees. */
  content: ToolResultContent;
  /** Whether the tool failed or was refused (default false). */
  isError?: boolean;
  /**
   * The structured result (`tool_use_result`). Default: the content for blocks, the
   * content for a success string, `"Error: <content>"` for an error string, as recorded.
   * Left out of subagent frames (the CLI does not send it there).
   */
  toolUseResult?: unknown;
  /** Writes `is_error: false` explicitly, as the CLI does for Bash results (default false). */
  explicitIsError?: boolean;
  /** The parent tool use id (default `null`, or the subagent's). */
  parentToolUseId?: string | null;
  /** Marks the frame as a subagent's. */
  subagent?: SubagentInfo;
  /**
   * How the tool use was decided (`tool_result_meta`): a name, an explicit decision, or
   * `null` for no meta (the CLI sends none for input validation errors). Default
   * `userAllowed`; pass `userDenied` for a denial.
   */
  permissionDecision?: PermissionDecisionName | PermissionDecision | null;
  /** `non_execution_kind` of the meta (default `permission-rule` for `userDenied`). */
  nonExecutionKind?: string;
  /** Extra top-level fields (they override built ones, keeping their place). */
  extra?: Record<string, unknown>;
}

const DECISIONS: Record<PermissionDecisionName, PermissionDecision> = {
  userAllowed: { decision: "accept", source: "user_temporary" },
  userDenied: { decision: "reject", source: "user_reject" },
  hookAllowed: { decision: "accept", source: "hook", reason_type: "hook" },
  modeAllowed: { decision: "accept", source: "config", reason_type: "mode" },
  readOnlyAllowed: { decision: "accept", source: "config", reason_type: "subcommandResults" },
  ruleAllowed: { decision: "accept", source: "config", reason_type: "rule" },
  configAllowed: { decision: "accept", source: "config" },
};

/**
 * The `user` frame carrying one tool result, with `tool_use_result` and
 * `tool_result_meta` as the real CLI writes them. A success block is
 * `{tool_use_id, type, content}`; an error block is `{type, content, is_error: true,
 * tool_use_id}` (the CLI's two key orders).
 *
 * @example A denied Bash command
 * ```ts
 * import { createBuildContext, toolResult } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const frame = toolResult(ctx, "toolu_01BashRm", {
 *   content: "The user does not allow deleting files in this test.",
 *   isError: true,
 *   permissionDecision: "userDenied",
 * });
 * console.log(frame.tool_use_result); // Error: The user does not allow deleting files in this test.
 * ```
 */
export function toolResult(
  ctx: BuildContext,
  toolUseId: string,
  options: ToolResultOptions,
): CliUserFrame {
  checkString(toolUseId, "toolResult()", "the tool use id");
  if (typeof options !== "object" || options === null) {
    throw new TypeError(`toolResult("${toolUseId}"): options with a content are required`);
  }
  const content = options.content;
  if (typeof content !== "string" && !Array.isArray(content)) {
    throw new TypeError(
      `toolResult("${toolUseId}"): options.content must be a string or an array of blocks, got ${
        describe(content)
      }`,
    );
  }
  if (options.subagent) checkSubagent(options.subagent, `toolResult("${toolUseId}")`);
  const isError = options.isError ?? false;
  const block: ToolResultBlockOut = isError
    ? { type: "tool_result", content, is_error: true, tool_use_id: toolUseId }
    : options.explicitIsError
    ? { tool_use_id: toolUseId, type: "tool_result", content, is_error: false }
    : { tool_use_id: toolUseId, type: "tool_result", content };
  const frame: CliUserFrame = {
    type: "user",
    message: { role: "user", content: [block] },
    parent_tool_use_id: parentOf(options),
    ...(options.subagent ? { agent_id: options.subagent.agentId } : {}),
    session_id: ctx.sessionId,
    uuid: ctx.ids.uuid(),
    timestamp: timestampOf(ctx),
  };
  // a subagent's result carries it only when it is an error (2.1.328, 2.1.332: a denied or
  // missing tool's), as the main agent's
  if (!options.subagent || isError) {
    frame.tool_use_result = "toolUseResult" in options
      ? options.toolUseResult
      : typeof content === "string"
      ? (isError ? `Error: ${content}` : content)
      : content;
  }
  const decision = options.permissionDecision === undefined
    ? "userAllowed"
    : options.permissionDecision;
  if (decision !== null) {
    const permission = typeof decision === "string" ? DECISIONS[decision] : decision;
    if (!permission || typeof permission.decision !== "string") {
      throw new RangeError(
        `toolResult("${toolUseId}"): unknown permissionDecision ${
          describe(decision)
        }; expected one of ${Object.keys(DECISIONS).join(", ")}, an object or null`,
      );
    }
    const kind = options.nonExecutionKind ??
      (decision === "userDenied" ? "permission-rule" : undefined);
    frame.tool_result_meta = [{
      id: toolUseId,
      ...(kind !== undefined ? { non_execution_kind: kind } : {}),
      permission_decision: { ...permission },
    }];
  }
  if (options.subagent) {
    frame.subagent_type = options.subagent.subagentType;
    frame.task_description = options.subagent.taskDescription;
  }
  return options.extra ? { ...frame, ...options.extra } : frame;
}

/** Options for {@linkcode userText}. */
export interface UserTextOptions {
  /**
   * Makes a replayed notice (`set_model`'s `<local-command-stdout>…`): the content is a
   * plain string and the frame ends with `isReplay`. `false` with `isSynthetic` makes the
   * compaction summary frame.
   */
  isReplay?: boolean;
  /** Marks a message the CLI made up (the compaction summary); implies the replay shape. */
  isSynthetic?: boolean;
  /** The parent tool use id (default `null`, or the subagent's). */
  parentToolUseId?: string | null;
  /** Marks the frame as a subagent's (the subagent's prompt frame). */
  subagent?: SubagentInfo;
}

/**
 * A `user` frame with a text the CLI writes itself: "[Request interrupted by user]" after
 * an interrupt, a subagent's prompt (with `subagent`), or, with `isReplay`, a replayed
 * local command output such as `<local-command-stdout>Set model to …</local-command-stdout>`.
 *
 * @example The interrupt notice
 * ```ts
 * import { createBuildContext, userText } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const frame = userText(ctx, "[Request interrupted by user]");
 * console.log(frame.message.content); // [{ type: "text", text: "[Request interrupted by user]" }]
 * ```
 *
 * @example A replayed local command output
 * ```ts
 * import { createBuildContext, userText } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const frame = userText(ctx, "<local-command-stdout>Set model to `sonnet`</local-command-stdout>", {
 *   isReplay: true,
 * });
 * console.log(frame.isReplay); // true
 * ```
 */
export function userText(
  ctx: BuildContext,
  text: string,
  options: UserTextOptions = {},
): CliUserFrame {
  checkString(text, "userText()", "the text");
  if (options.subagent) checkSubagent(options.subagent, "userText()");
  if (options.isReplay !== undefined || options.isSynthetic !== undefined) {
    // Recorded replay shape: type, message (string content), session_id, parent_tool_use_id,
    // uuid, timestamp, isReplay[, isSynthetic].
    return {
      type: "user",
      message: { role: "user", content: text },
      session_id: ctx.sessionId,
      parent_tool_use_id: parentOf(options),
      uuid: ctx.ids.uuid(),
      timestamp: timestampOf(ctx),
      isReplay: options.isReplay ?? false,
      ...(options.isSynthetic !== undefined ? { isSynthetic: options.isSynthetic } : {}),
    };
  }
  const frame: CliUserFrame = {
    type: "user",
    message: { role: "user", content: [{ type: "text", text }] },
    parent_tool_use_id: parentOf(options),
    ...(options.subagent ? { agent_id: options.subagent.agentId } : {}),
    session_id: ctx.sessionId,
    uuid: ctx.ids.uuid(),
    timestamp: timestampOf(ctx),
  };
  if (options.subagent) {
    frame.subagent_type = options.subagent.subagentType;
    frame.task_description = options.subagent.taskDescription;
  }
  return frame;
}

/** The `user` frame the SDK writes for a prompt. */
export interface UserPromptFrame extends Frame {
  /** Frame type. */
  type: "user";
  /** `""` for a string prompt; absent in messages an app yields itself. */
  session_id?: string;
  /** The prompt. */
  message: { role: "user"; content: string | UserTextBlock[] };
  /** Always `null`. */
  parent_tool_use_id: null;
}

/**
 * The `user` frame the SDK writes for a prompt. By default the shape `query({prompt:
 * "…"})` writes: `{type, session_id: "", message: {role, content: [{type: "text", text}]},
 * parent_tool_use_id: null}`. With `streaming: true`, the shape of a message an app
 * yields from a streaming-input iterable: string content and no `session_id`.
 *
 * @example The frame of a string prompt
 * ```ts
 * import { userPrompt } from "@x/claude-mock/builders";
 * console.log(JSON.stringify(userPrompt("hello")));
 * ```
 */
export function userPrompt(
  text: string,
  options: { streaming?: boolean; sessionId?: string } = {},
): UserPromptFrame {
  checkString(text, "userPrompt()", "the prompt text");
  if (options.streaming) {
    return {
      type: "user",
      ...(options.sessionId !== undefined ? { session_id: options.sessionId } : {}),
      message: { role: "user", content: text },
      parent_tool_use_id: null,
    };
  }
  return {
    type: "user",
    session_id: options.sessionId ?? "",
    message: { role: "user", content: [{ type: "text", text }] },
    parent_tool_use_id: null,
  };
}

function parentOf(
  options: { parentToolUseId?: string | null; subagent?: SubagentInfo },
): string | null {
  if (options.parentToolUseId !== undefined) return options.parentToolUseId;
  return options.subagent?.parentToolUseId ?? null;
}
