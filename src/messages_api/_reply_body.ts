/**
 * The bodies of Messages API answers: a reply as the real API streams it (SSE events) or
 * returns it whole (JSON), chunked and counted as the mock streams the same message step,
 * and the API's error envelope. Internal.
 *
 * @internal
 * @module
 */

import {
  type ApiStreamEvent,
  apiStreamEvents,
  estimateOutputTokens,
} from "../builders/_api_stream.ts";
import type { BuildContext } from "../builders/build_context.ts";
import type { StopReason } from "../builders/stream_events.ts";
import { DEFAULT_INPUT_TOKENS } from "../builders/usage.ts";
import { type ReplyChunking, replyChunking } from "../scenario/_reply_chunking.ts";
import { apiErrorType } from "../scenario/named_failures.ts";
import type { MessageStep } from "../scenario/step.ts";
import type { AssistantContentBlock } from "../wire/frame.ts";

/** A reply ready to be sent. */
export interface Reply {
  /** The content blocks. */
  blocks: AssistantContentBlock[];
  /** The API message id. */
  messageId: string;
  /** The model it reports. */
  model: string;
  /** Output tokens. */
  outputTokens: number;
  /** Why it stopped. */
  stopReason: StopReason;
  /** How its text, thinking and tool input stream. */
  chunking: ReplyChunking;
}

/** A reply for a message step's evaluated blocks. */
export function replyFor(
  ctx: BuildContext,
  blocks: AssistantContentBlock[],
  options: {
    step?: MessageStep;
    model: string;
    stopReason?: StopReason;
    /** The scenario's working directory and the one the CLI runs in. */
    paths?: { from: string; to: string };
  },
): Reply {
  const step = options.step;
  const from = options.paths?.from ?? "";
  const to = options.paths?.to ?? "";
  // counted on the scenario's own content, as the mock counts it: the CLI's cwd is longer or
  // shorter than the scenario's, and the count must not depend on where the CLI runs
  const outputTokens = step?.outputTokens ?? estimateOutputTokens(blocks);
  blocks = replacePaths(blocks, from, to);
  return {
    blocks,
    messageId: step?.messageId ?? ctx.ids.messageId(),
    model: options.model,
    outputTokens,
    stopReason: options.stopReason ??
      (blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn"),
    chunking: step ? replyChunking(step, blocks, (piece) => replacePaths(piece, from, to)) : {},
  };
}

/** The reply's SSE events, in order (with the `ping` the real API sends after `message_start`). */
export function replyEvents(reply: Reply): ApiStreamEvent[] {
  return apiStreamEvents(reply.blocks, {
    ...reply.chunking,
    messageId: reply.messageId,
    model: reply.model,
    outputTokens: reply.outputTokens,
    stopReason: reply.stopReason,
  });
}

/** The reply as one JSON message (a call with `stream: false`). */
export function replyMessage(reply: Reply): Record<string, unknown> {
  return {
    id: reply.messageId,
    type: "message",
    role: "assistant",
    model: reply.model,
    content: reply.blocks,
    stop_reason: reply.stopReason,
    stop_sequence: null,
    usage: {
      input_tokens: DEFAULT_INPUT_TOKENS,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: reply.outputTokens,
      service_tier: "standard",
    },
  };
}

/** One SSE event as the API writes it. */
export function sseEvent(event: { type: string }): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** The API's error envelope. */
export function errorBody(type: string, message: string, requestId?: string): string {
  return JSON.stringify({
    type: "error",
    error: { type, message },
    ...(requestId ? { request_id: requestId } : {}),
  });
}

/** The error type the API gives each status. */
export const errorTypeOf: (status: number) => string = apiErrorType;

/** Replaces `from` with `to` in every string of a value (a copy; `from` empty: the value). */
function replacePaths<T>(value: T, from: string, to: string): T {
  if (from === "" || from === to) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return v.split(from).join(to);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    }
    return v;
  };
  return walk(value) as T;
}
