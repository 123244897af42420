/**
 * Structural types for the stream-json frames the Claude Code CLI and the Agent SDK
 * exchange. They mirror the shapes of the SDK's `SDKMessage` members and control types
 * as the real CLI 2.1.x writes them (in its recordings), loosely enough that frames this
 * library does not know pass through untouched: every frame is an object with a
 * string `type`, and every known frame type allows extra fields.
 *
 * @module
 */

/** A JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** A UUID string in the template form the SDK types use (`crypto.UUID`). */
export type Uuid = `${string}-${string}-${string}-${string}-${string}`;

/**
 * Any frame on the wire: a JSON object with a string `type`. Frames of unknown type are
 * carried as they are.
 *
 * @example Narrowing a frame
 * ```ts
 * import type { Frame } from "@x/claude-mock/wire";
 * const frame: Frame = { type: "keep_alive" };
 * if (frame.type === "keep_alive") console.log("ping");
 * ```
 */
export interface Frame {
  /** The frame type (`assistant`, `user`, `result`, `system`, `control_request`, ...). */
  type: string;
  /** Any other field. */
  [key: string]: unknown;
}

/** Token usage as the CLI reports it on an assistant message. */
export interface MessageUsage {
  /** Input tokens. */
  input_tokens: number;
  /** Tokens written to the prompt cache. */
  cache_creation_input_tokens: number | null;
  /** Tokens read from the prompt cache. */
  cache_read_input_tokens: number | null;
  /** Output tokens. */
  output_tokens: number;
  /** Service tier. */
  service_tier: "standard" | "priority" | "batch" | null;
  /** Any other usage field. */
  [key: string]: unknown;
}

/** A `text` content block. */
export interface TextBlock {
  /** Block type. */
  type: "text";
  /** The text. */
  text: string;
  /** Citations, when present. */
  citations?: unknown[] | null;
}

/** A `thinking` content block with its signature. */
export interface ThinkingBlock {
  /** Block type. */
  type: "thinking";
  /** The thinking text. */
  thinking: string;
  /** The signature that lets the block be sent back to the API. */
  signature: string;
}

/** A `redacted_thinking` content block. */
export interface RedactedThinkingBlock {
  /** Block type. */
  type: "redacted_thinking";
  /** Opaque data. */
  data: string;
}

/** A `tool_use` content block. */
export interface ToolUseBlock {
  /** Block type. */
  type: "tool_use";
  /** The tool use id (`toolu_…`). */
  id: string;
  /** The tool name (`Read`, `Bash`, `mcp__server__tool`, ...). */
  name: string;
  /** The tool input. */
  input: Record<string, unknown>;
}

/** A content block in an assistant message. */
export type AssistantContentBlock =
  | TextBlock
  | ThinkingBlock
  | RedactedThinkingBlock
  | ToolUseBlock;

/** The API message inside an `assistant` frame. */
export interface AssistantMessageBody {
  /** The API message id (`msg_…`), shared by every frame of one API response. */
  id: string;
  /** Always `message`. */
  type: "message";
  /** Always `assistant`. */
  role: "assistant";
  /** The model that answered. */
  model: string;
  /** The content: one block per frame, as the CLI streams them. */
  content: AssistantContentBlock[];
  /** `null` on every streamed frame. */
  stop_reason: string | null;
  /** `null` unless a stop sequence ended the message. */
  stop_sequence: string | null;
  /** Usage from `message_start`. */
  usage: MessageUsage;
  /** Context management info (`null`). */
  context_management: unknown;
  /** Any other field. */
  [key: string]: unknown;
}

/** An `assistant` frame: one content block of an API response. */
export interface AssistantFrame extends Frame {
  /** Frame type. */
  type: "assistant";
  /** The API message. */
  message: AssistantMessageBody;
  /** The Task tool use id for subagent frames, else `null`. */
  parent_tool_use_id: string | null;
  /** The session id. */
  session_id: string;
  /** The frame's uuid. */
  uuid: Uuid;
  /** When the frame was written (ISO 8601). */
  timestamp?: string;
  /** The API request id (`req_…`). */
  request_id?: string;
}

/** A `tool_result` content block in a user frame. */
export interface ToolResultBlock {
  /** Block type. */
  type: "tool_result";
  /** The tool use this answers. */
  tool_use_id: string;
  /** The result, as text or blocks. */
  content: string | Array<Record<string, unknown>>;
  /** `true` when the tool failed or was denied. */
  is_error?: boolean;
}

/** A `user` frame: a prompt (SDK to CLI) or tool results and notices (CLI to SDK). */
export interface UserFrame extends Frame {
  /** Frame type. */
  type: "user";
  /** The user message. */
  message: {
    role: "user";
    content: string | Array<Record<string, unknown>>;
    [key: string]: unknown;
  };
  /** The Task tool use id for subagent frames, else `null`. */
  parent_tool_use_id: string | null;
  /** The session id (empty in the SDK's first prompt). */
  session_id: string;
  /** The frame's uuid (CLI frames). */
  uuid?: Uuid;
  /** When the frame was written (CLI frames). */
  timestamp?: string;
  /** The structured tool result (CLI tool result frames). */
  tool_use_result?: unknown;
}

/** A `system` frame (`init`, `status`, `session_state_changed`, `task_started`, ...). */
export interface SystemFrame extends Frame {
  /** Frame type. */
  type: "system";
  /** The system event. */
  subtype: string;
}

/** A `stream_event` frame: one raw Messages API streaming event. */
export interface StreamEventFrame extends Frame {
  /** Frame type. */
  type: "stream_event";
  /** The raw API event (`message_start`, `content_block_delta`, ...). */
  event: { type: string; [key: string]: unknown };
  /** The Task tool use id for subagent frames, else `null`. */
  parent_tool_use_id: string | null;
  /** The session id. */
  session_id: string;
  /** The frame's uuid. */
  uuid: Uuid;
}

/** A `result` frame that ends a turn. */
export interface ResultFrame extends Frame {
  /** Frame type. */
  type: "result";
  /** `success`, `error_during_execution`, `error_max_turns`, ... */
  subtype: string;
  /** Whether the turn failed. */
  is_error: boolean;
  /** Wall time of the turn in ms. */
  duration_ms: number;
  /** Time spent in API calls in ms. */
  duration_api_ms: number;
  /** Number of API round trips in the turn. */
  num_turns: number;
  /** The final text (success results). */
  result?: string;
  /** Error texts (error results). */
  errors?: string[];
  /** The session id. */
  session_id: string;
  /** Cost in USD. */
  total_cost_usd: number;
  /** Aggregated usage. */
  usage: Record<string, unknown>;
  /** Usage per model. */
  modelUsage: Record<string, unknown>;
  /** Tool uses that were denied. */
  permission_denials: Array<{ tool_name: string; tool_use_id: string; tool_input: unknown }>;
  /** The frame's uuid. */
  uuid: Uuid;
}

/** A `control_request` frame, in either direction. */
export interface ControlRequestFrame extends Frame {
  /** Frame type. */
  type: "control_request";
  /** The request id (short random string from the SDK, a uuid from the CLI). */
  request_id: string;
  /** The request. */
  request: { subtype: string; [key: string]: unknown };
}

/** The body of a `control_response` frame. */
export type ControlResponseBody =
  | { subtype: "success"; request_id: string; response?: Record<string, unknown> }
  | { subtype: "error"; request_id: string; error: string; [key: string]: unknown };

/** A `control_response` frame, in either direction. */
export interface ControlResponseFrame extends Frame {
  /** Frame type. */
  type: "control_response";
  /** The response. */
  response: ControlResponseBody;
}

/**
 * A line to write verbatim (used on purpose to send malformed output). Anything else the
 * encoder receives is a {@linkcode Frame} and is written as one JSON line.
 */
export interface RawLine {
  /** The text to write; a trailing newline is added when missing. */
  raw: string;
}

/** Whether `value` is a plain object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
