/**
 * Builders for `assistant` frames: content block helpers and
 * {@linkcode assistantMessage}, which splits one API message into one frame per content
 * block the way the real CLI streams it, plus {@linkcode apiErrorMessage}, the synthetic
 * assistant frame the CLI writes when the API answers with an error.
 *
 * @module
 */

import { apiModelName } from "./model_catalog.ts";
import type {
  AssistantContentBlock,
  AssistantFrame,
  AssistantMessageBody,
  MessageUsage,
  RedactedThinkingBlock,
  TextBlock,
  ThinkingBlock,
  ToolUseBlock,
  Uuid,
} from "../wire/frame.ts";
import type { BuildContext } from "./build_context.ts";
import { checkString, checkSubagent, describe, timestampOf } from "./_common.ts";
import type { SubagentInfo } from "./subagent.ts";
import { DEFAULT_INPUT_TOKENS } from "./usage.ts";

/** A text block as the CLI writes it: no `citations` key. */
export interface PlainTextBlock extends TextBlock {
  /** Never present on the wire (the recordings never carry citations). */
  citations?: undefined;
}

/** A `tool_use` block whose id may still be missing (filled in by {@linkcode assistantMessage}). */
export interface ToolUseInput {
  /** Block type. */
  type: "tool_use";
  /** The tool use id; drawn from the context's ids when absent. */
  id?: string;
  /** The tool name. */
  name: string;
  /** The tool input. */
  input: Record<string, unknown>;
}

/** What {@linkcode assistantMessage} accepts as content blocks. */
export type AssistantContentInput = AssistantContentBlock | ToolUseInput;

/** A content block of a built assistant frame. */
export type BuiltContentBlock =
  | PlainTextBlock
  | ThinkingBlock
  | RedactedThinkingBlock
  | ToolUseBlock;

/** The usage of an assistant frame (the `message_start` usage of its API message). */
export interface AssistantUsage extends MessageUsage {
  /** Input tokens. */
  input_tokens: number;
  /** Tokens written to the prompt cache. */
  cache_creation_input_tokens: number;
  /** Tokens read from the prompt cache. */
  cache_read_input_tokens: number;
  /** Output tokens so far (1 at message start). */
  output_tokens: number;
  /** Service tier. */
  service_tier: "standard" | "priority" | "batch";
}

/** The API message inside a built assistant frame. */
export interface AssistantMessageBodyOut extends AssistantMessageBody {
  /** The one content block this frame delivers. */
  content: BuiltContentBlock[];
  /** Always `null` on streamed frames. */
  stop_reason: null;
  /** Always `null` on streamed frames. */
  stop_sequence: null;
  /** The usage from `message_start`. */
  usage: AssistantUsage;
  /** Always `null`. */
  context_management: null;
}

/** The `tool_use_meta` entry the CLI adds to an assistant frame carrying an MCP tool use. */
export interface ToolUseMeta {
  /** The tool use id. */
  id: string;
  /** The tool's display name (e.g. `Add`). */
  display_name: string;
  /**
   * The MCP server's display name (absent, as the real CLI writes it, when the session has
   * no such server).
   */
  server_display_name?: string;
  /** The tool name on the server (without the `mcp__server__` prefix; absent likewise). */
  tool_name?: string;
}

/** How thinking is shown (`thinking_display`); the recordings always show `updates`. */
export type ThinkingDisplay = string;

/** An `assistant` frame as {@linkcode assistantMessage} builds it: one block of one API message. */
export interface AssistantMessageFrame extends AssistantFrame {
  /** The API message with its one block. */
  message: AssistantMessageBodyOut;
  /** Subagent frames: the subagent's id. */
  agent_id?: string;
  /** The frame's uuid. */
  uuid: Uuid;
  /** When the frame was written. */
  timestamp: string;
  /** The API request id. */
  request_id: string;
  /** Thinking frames: how long the thinking block took, in ms. */
  thinking_duration_ms?: number;
  /** Thinking frames: how thinking is displayed. */
  thinking_display?: ThinkingDisplay;
  /** MCP tool use frames: the tool's display metadata. */
  tool_use_meta?: ToolUseMeta[];
  /** Set when an interrupt cut the message short. */
  aborted?: true;
  /** Subagent frames: the subagent type. */
  subagent_type?: string;
  /** Subagent frames: the task description. */
  task_description?: string;
}

/** Options for {@linkcode assistantMessage}. */
export interface AssistantMessageOptions {
  /** The API message id (default: drawn from the context's ids). */
  messageId?: string;
  /** The API request id (default: drawn from the context's ids). */
  requestId?: string;
  /** The parent tool use id (default `null`, or the subagent's when `subagent` is given). */
  parentToolUseId?: string | null;
  /** Marks the frames as a subagent's (adds `agent_id`, `subagent_type`, `task_description`). */
  subagent?: SubagentInfo;
  /** The model (default `ctx.model`). */
  model?: string;
  /** Usage fields to override (default: 120 input tokens, 1 output token, as recorded). */
  usage?: Partial<AssistantUsage>;
  /** Thinking frames: `thinking_duration_ms` (default: about one ms per 4 characters). */
  thinkingDurationMs?: number;
  /**
   * Thinking frames: `thinking_display` (default `updates`; `null` leaves it out, as the real
   * CLI does when the session's thinking is turned off).
   */
  thinkingDisplay?: ThinkingDisplay | null;
  /**
   * MCP tool uses: `tool_use_meta` (default: derived from `mcp__server__tool` names;
   * `false` leaves it out).
   */
  toolUseMeta?: false | ((block: ToolUseBlock) => ToolUseMeta | undefined);
  /** Adds `aborted: true` (a message cut short by an interrupt). */
  aborted?: boolean;
  /** Extra top-level fields for every frame (they override built ones, keeping their place). */
  extra?: Record<string, unknown>;
}

/**
 * A `text` content block.
 *
 * @example A text block
 * ```ts
 * import { text } from "@x/claude-mock/builders";
 * console.log(text("Hello!")); // { type: "text", text: "Hello!" }
 * ```
 */
export function text(s: string): PlainTextBlock {
  checkString(s, "text()", "the text");
  return { type: "text", text: s };
}

/**
 * A `thinking` content block. The default signature is derived from the text, so the
 * same thinking gets the same signature (`sig_` and 32 base64 characters, as recorded).
 *
 * @example A thinking block
 * ```ts
 * import { thinking } from "@x/claude-mock/builders";
 * const block = thinking("17 * 23 = 391");
 * console.log(block.signature.startsWith("sig_")); // true
 * ```
 */
export function thinking(s: string, options: { signature?: string } = {}): ThinkingBlock {
  checkString(s, "thinking()", "the thinking text");
  return { type: "thinking", thinking: s, signature: options.signature ?? signatureOf(s) };
}

/**
 * A `tool_use` content block. Without `options.id` the id is drawn from the context's ids
 * when the block goes through {@linkcode assistantMessage}; read it back from the frame.
 *
 * @example A tool use block
 * ```ts
 * import { toolUse } from "@x/claude-mock/builders";
 * const block = toolUse("Read", { file_path: "/home/user/project/notes.txt" }, { id: "toolu_01A" });
 * console.log(block.id); // toolu_01A
 * ```
 */
export function toolUse(
  name: string,
  input: Record<string, unknown>,
  options: { id?: string } = {},
): ToolUseInput {
  checkString(name, "toolUse()", "the tool name");
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new TypeError(
      `toolUse("${name}"): the input must be a plain object, got ${describe(input)}`,
    );
  }
  const block: ToolUseInput = { type: "tool_use", name, input };
  if (options.id !== undefined) {
    checkString(options.id, `toolUse("${name}")`, "options.id");
    return { type: "tool_use", id: options.id, name, input };
  }
  return block;
}

/**
 * The `assistant` frames of one API message: one frame per content block, all sharing the
 * message id and request id, each with `stop_reason: null` and the `message_start` usage,
 * as the real CLI streams them. Thinking frames carry `thinking_duration_ms` and
 * `thinking_display`; MCP tool uses carry `tool_use_meta`.
 *
 * @example A text reply
 * ```ts
 * import { assistantMessage, createBuildContext } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const [frame] = assistantMessage(ctx, "Hello! How can I help you today?");
 * console.log(frame.message.content[0]); // { type: "text", text: "Hello! ..." }
 * ```
 *
 * @example Text then a tool use: two frames, one message id
 * ```ts
 * import { assistantMessage, createBuildContext, text, toolUse } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const frames = assistantMessage(ctx, [
 *   text("I'll read the file."),
 *   toolUse("Read", { file_path: "/home/user/project/notes.txt" }),
 * ]);
 * console.log(frames.length, frames[0].message.id === frames[1].message.id); // 2 true
 * ```
 */
export function assistantMessage(
  ctx: BuildContext,
  content: AssistantContentInput | readonly AssistantContentInput[] | string,
  options: AssistantMessageOptions = {},
): AssistantMessageFrame[] {
  const blocks: readonly AssistantContentInput[] = typeof content === "string"
    ? [text(content)]
    : Array.isArray(content)
    ? content
    : [content as AssistantContentInput];
  if (blocks.length === 0) {
    throw new RangeError(
      "assistantMessage(): the message has no content blocks; give at least one",
    );
  }
  if (options.subagent) checkSubagent(options.subagent, "assistantMessage()");
  const messageId = options.messageId ?? ctx.ids.messageId();
  const requestId = options.requestId ?? ctx.ids.requestId();
  const model = options.model ?? apiModelName(ctx.model);
  const parent = options.parentToolUseId !== undefined
    ? options.parentToolUseId
    : options.subagent?.parentToolUseId ?? null;
  const built = blocks.map((block, i) => normalizeBlock(ctx, block, i));
  return built.map((block) => {
    const usage: AssistantUsage = {
      input_tokens: DEFAULT_INPUT_TOKENS,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 1,
      service_tier: "standard",
      ...options.usage,
    };
    const frame: AssistantMessageFrame = {
      type: "assistant",
      message: {
        id: messageId,
        type: "message",
        role: "assistant",
        model,
        content: [block],
        stop_reason: null,
        stop_sequence: null,
        usage,
        context_management: null,
      },
      parent_tool_use_id: parent,
      ...(options.subagent ? { agent_id: options.subagent.agentId } : {}),
      session_id: ctx.sessionId,
      uuid: ctx.ids.uuid(),
      timestamp: timestampOf(ctx),
      request_id: requestId,
    };
    if (block.type === "thinking") {
      frame.thinking_duration_ms = options.thinkingDurationMs ??
        Math.max(1, Math.ceil(block.thinking.length / 4));
      if (options.thinkingDisplay !== null) {
        frame.thinking_display = options.thinkingDisplay ?? "updates";
      }
    }
    if (block.type === "tool_use" && options.toolUseMeta !== false) {
      const meta = (options.toolUseMeta ?? mcpToolUseMeta)(block);
      if (meta) frame.tool_use_meta = [meta];
    }
    if (options.aborted) frame.aborted = true;
    if (options.subagent) {
      frame.subagent_type = options.subagent.subagentType;
      frame.task_description = options.subagent.taskDescription;
    }
    return options.extra ? { ...frame, ...options.extra } : frame;
  });
}

/**
 * The default `tool_use_meta` for an MCP tool use (`mcp__<server>__<tool>`): display name
 * = the tool name with its first letter upper-cased (the recording shows `add` → `Add`).
 * Other tools get none.
 *
 * @example MCP tool metadata
 * ```ts
 * import { mcpToolUseMeta } from "./assistant.ts";
 * const meta = mcpToolUseMeta({ type: "tool_use", id: "toolu_01", name: "mcp__calc__add", input: {} });
 * console.log(meta?.display_name); // Add
 * ```
 */
export function mcpToolUseMeta(block: ToolUseBlock): Required<ToolUseMeta> | undefined {
  const match = /^mcp__(.+?)__(.+)$/.exec(block.name);
  if (!match) return undefined;
  const [, server, tool] = match;
  return {
    id: block.id,
    display_name: tool.charAt(0).toUpperCase() + tool.slice(1),
    server_display_name: server,
    tool_name: tool,
  };
}

function normalizeBlock(
  ctx: BuildContext,
  block: AssistantContentInput,
  index: number,
): BuiltContentBlock {
  const where = `assistantMessage(): content block ${index}`;
  if (typeof block !== "object" || block === null) {
    throw new TypeError(`${where} must be an object, got ${describe(block)}`);
  }
  switch (block.type) {
    case "text":
      checkString(block.text, where, "text");
      return { type: "text", text: block.text };
    case "thinking":
      checkString(block.thinking, where, "thinking");
      checkString(block.signature, where, "signature");
      return { type: "thinking", thinking: block.thinking, signature: block.signature };
    case "redacted_thinking":
      checkString(block.data, where, "data");
      return { type: "redacted_thinking", data: block.data };
    case "tool_use": {
      checkString(block.name, where, "name");
      if (typeof block.input !== "object" || block.input === null || Array.isArray(block.input)) {
        throw new TypeError(`${where} (tool_use "${block.name}"): input must be a plain object`);
      }
      const id = block.id ?? ctx.ids.toolUseId();
      checkString(id, where, "id");
      return { type: "tool_use", id, name: block.name, input: block.input };
    }
    default:
      throw new TypeError(
        `${where} has unknown type ${describe((block as { type?: unknown }).type)}; ` +
          `expected text, thinking, redacted_thinking or tool_use`,
      );
  }
}

/** A deterministic `sig_…` signature for a thinking text (FNV-1a based, not secret). */
function signatureOf(s: string): string {
  const bytes = new Uint8Array(24);
  const data = new TextEncoder().encode(s);
  for (let lane = 0; lane < 6; lane++) {
    let h = (0x811c9dc5 ^ Math.imul(lane + 1, 0x9e3779b1)) >>> 0;
    for (const b of data) h = Math.imul(h ^ b, 0x01000193) >>> 0;
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
    for (let k = 0; k < 4; k++) bytes[lane * 4 + k] = (h >>> (k * 8)) & 0xff;
  }
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return "sig_" + btoa(binary);
}
