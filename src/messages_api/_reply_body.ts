/**
 * The bodies of Messages API answers: a reply as the real API streams it (SSE events) or
 * returns it whole (JSON), chunked and counted as the mock streams the same message step,
 * and the API's error envelope. Internal.
 *
 * @internal
 * @module
 */

import { assistantMessage } from "../builders/assistant.ts";
import type { BuildContext } from "../builders/build_context.ts";
import {
  chunkText,
  splitToolInput,
  type StopReason,
  type StreamEvent,
  streamEventsIter,
  type StreamEventsOptions,
} from "../builders/stream_events.ts";
import type { MessageStep } from "../scenario/step.ts";
import type { AssistantContentBlock } from "../wire/frame.ts";

/** Input tokens every reply reports (as the mock counts each API call). */
export const INPUT_TOKENS = 120;

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
  chunking: Pick<StreamEventsOptions, "chunkSize" | "split" | "splitInput">;
}

/**
 * Output tokens of a message without an explicit count: one per 4 characters of its text,
 * thinking and tool input JSON (the mock's count for the same message step).
 */
export function estimateOutputTokens(blocks: readonly AssistantContentBlock[]): number {
  let chars = 0;
  for (const b of blocks) {
    if (b.type === "text") chars += b.text.length;
    else if (b.type === "thinking") chars += b.thinking.length;
    else if (b.type === "tool_use") chars += JSON.stringify(b.input).length;
  }
  return Math.max(1, Math.ceil(chars / 4));
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
    chunking: step ? chunking(step, blocks, (piece) => replacePaths(piece, from, to)) : {},
  };
}

/** The reply's SSE events, in order (with the `ping` the real API sends after `message_start`). */
export function replyEvents(ctx: BuildContext, reply: Reply): Array<StreamEvent | PingEvent> {
  const frames = assistantMessage(ctx, reply.blocks, {
    messageId: reply.messageId,
    model: reply.model,
    toolUseMeta: false,
  });
  const events: Array<StreamEvent | PingEvent> = [];
  for (
    const frame of streamEventsIter(ctx, frames, {
      ...reply.chunking,
      outputTokens: reply.outputTokens,
      stopReason: reply.stopReason,
      thinkingTokens: false,
    })
  ) {
    if (frame.type !== "stream_event") continue;
    events.push(frame.event as StreamEvent);
    if (frame.event.type === "message_start") events.push({ type: "ping" });
  }
  return events;
}

/** The `ping` event. */
export interface PingEvent {
  /** Event type. */
  type: "ping";
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
      input_tokens: INPUT_TOKENS,
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
export function errorTypeOf(status: number): string {
  switch (status) {
    case 400:
      return "invalid_request_error";
    case 401:
      return "authentication_error";
    case 402:
      return "billing_error";
    case 403:
      return "permission_error";
    case 404:
      return "not_found_error";
    case 413:
      return "request_too_large";
    case 429:
      return "rate_limit_error";
    case 529:
      return "overloaded_error";
    case 504:
      return "timeout_error";
    default:
      return "api_error";
  }
}

/** Replaces `from` with `to` in every string of a value (a copy; `from` empty: the value). */
export function replacePaths<T>(value: T, from: string, to: string): T {
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

/**
 * How a message streams: its chunk size and explicit pieces (the mock's rule for the same
 * step: a block without explicit pieces keeps the default split).
 */
function chunking(
  step: MessageStep,
  blocks: AssistantContentBlock[],
  rewrite: (piece: string) => string,
): Pick<StreamEventsOptions, "chunkSize" | "split" | "splitInput"> {
  const out: Pick<StreamEventsOptions, "chunkSize" | "split" | "splitInput"> = {};
  if (step.chunkSize !== undefined) out.chunkSize = step.chunkSize;
  const size = step.chunkSize ?? 24;
  const chunks = step.chunks;
  if (chunks) {
    const texts = blocks.flatMap((b) =>
      b.type === "text" ? [b.text] : b.type === "thinking" ? [b.thinking] : []
    );
    out.split = (text) => {
      const pieces = chunks[texts.indexOf(text)]?.map(rewrite);
      // pieces that no longer join into the text (a path cut between two of them): the default split
      return pieces && pieces.length > 0 && pieces.join("") === text
        ? pieces
        : chunkText(text, size);
    };
  }
  const inputChunks = step.inputChunks;
  if (inputChunks) {
    const ids = blocks.flatMap((b) => (b.type === "tool_use" ? [b.id] : []));
    out.splitInput = (input, id) => {
      const pieces = inputChunks[ids.indexOf(id)]?.map(rewrite);
      return pieces && pieces.length > 0 && pieces.join("") === JSON.stringify(input)
        ? pieces
        : splitToolInput(input);
    };
  }
  return out;
}
