/**
 * One reply as the Messages API streams it, and what the real CLI counts for it: the
 * output tokens of a reply without an explicit count, the SSE events of a reply, where a
 * broken stream breaks and what the CLI bills for the part it got. The scenario-driven
 * Messages API serves replies with these, and the mock accounts for the same replies with
 * them, so both sides count one way. Internal: not part of the public API.
 *
 * @internal
 * @module
 */

import type { AssistantContentBlock } from "../wire/frame.ts";
import { assistantMessage } from "./assistant.ts";
import { createBuildContext } from "./build_context.ts";
import {
  type StopReason,
  type StreamEvent,
  streamEventsIter,
  type StreamEventsOptions,
} from "./stream_events.ts";
import { type ApiCallUsage, DEFAULT_INPUT_TOKENS } from "./usage.ts";

/** The output tokens the API's `message_start` reports before any content (as the real API). */
const START_OUTPUT_TOKENS = 1;

/**
 * Output tokens of a reply without an explicit count: one per 4 characters of its text,
 * thinking and tool input JSON, at least 1.
 *
 * @example A greeting
 * ```ts
 * import { estimateOutputTokens } from "./_api_stream.ts";
 * console.log(estimateOutputTokens([{ type: "text", text: "Hello! How can I help you today?" }])); // 8
 * ```
 *
 * @internal
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

/** The `ping` event the API sends after `message_start`. */
export interface PingEvent {
  /** Event type. */
  type: "ping";
}

/** One SSE event of a streamed reply. */
export type ApiStreamEvent = StreamEvent | PingEvent;

/** How a reply streams and what it reports. */
export interface ApiStreamOptions
  extends Pick<StreamEventsOptions, "chunkSize" | "split" | "splitInput"> {
  /** The API message id (default: drawn). */
  messageId?: string;
  /** The model the reply names (default the builders' default). */
  model?: string;
  /** The output tokens `message_delta` reports. */
  outputTokens: number;
  /** Why it stopped (default `tool_use` with a tool use, else `end_turn`). */
  stopReason?: StopReason;
}

/**
 * The SSE events of one reply, in order: `message_start` (input 120, output
 * {@linkcode START_OUTPUT_TOKENS}), `ping`, each block's start, deltas and stop,
 * `message_delta` with the output tokens, `message_stop`.
 *
 * @example A short reply
 * ```ts
 * import { apiStreamEvents } from "./_api_stream.ts";
 * const events = apiStreamEvents([{ type: "text", text: "Hi" }], { outputTokens: 1 });
 * console.log(events.map((e) => e.type).join(" "));
 * // message_start ping content_block_start content_block_delta content_block_stop message_delta message_stop
 * ```
 *
 * @internal
 */
export function apiStreamEvents(
  blocks: readonly AssistantContentBlock[],
  options: ApiStreamOptions,
): ApiStreamEvent[] {
  const ctx = createBuildContext({ seed: 1 });
  const frames = assistantMessage(ctx, [...blocks], {
    ...(options.messageId !== undefined ? { messageId: options.messageId } : {}),
    ...(options.model !== undefined ? { model: options.model } : {}),
    toolUseMeta: false,
  });
  const events: ApiStreamEvent[] = [];
  for (
    const frame of streamEventsIter(ctx, frames, {
      ...(options.chunkSize !== undefined ? { chunkSize: options.chunkSize } : {}),
      ...(options.split ? { split: options.split } : {}),
      ...(options.splitInput ? { splitInput: options.splitInput } : {}),
      outputTokens: options.outputTokens,
      ...(options.stopReason ? { stopReason: options.stopReason } : {}),
      thinkingTokens: false,
    })
  ) {
    if (frame.type !== "stream_event") continue;
    events.push(frame.event as StreamEvent);
    if (frame.event.type === "message_start") events.push({ type: "ping" });
  }
  return events;
}

/** How a stream breaks: cut (ends early), reset mid-stream, or a line that is not JSON. */
export type StreamBreak = "cut" | "reset" | "malformed";

/**
 * Where a broken stream breaks: at its first delta (`message_start`, `ping` and the first
 * block's start come whole, as recorded). A cut or reset stream sends that delta and stops;
 * a malformed one sends a line that is not JSON in its place.
 *
 * @example The first delta of a text reply
 * ```ts
 * import { apiStreamEvents, breakIndex } from "./_api_stream.ts";
 * console.log(breakIndex(apiStreamEvents([{ type: "text", text: "Hi" }], { outputTokens: 1 }))); // 3
 * ```
 *
 * @internal
 */
export function breakIndex(events: readonly ApiStreamEvent[]): number {
  const first = events.findIndex((e) => e.type === "content_block_delta");
  return first >= 0 ? first : Math.min(2, events.length - 1);
}

/**
 * What the real CLI counts for a stream that broke (recorded against this server, CLI
 * 2.1.328 to 2.1.332): the turn's usage takes the `message_start` usage (input, and the
 * output it reports); the cost (`modelUsage`, `total_cost_usd`) bills the output the CLI
 * estimates from what streamed: the characters of the text, thinking and tool input deltas it
 * got and the names of the tools it saw start, one token per 3, at least what
 * `message_start` reported.
 *
 * @example A reset after the first delta of a greeting
 * ```ts
 * import { apiStreamEvents, brokenStreamUsage } from "./_api_stream.ts";
 * const events = apiStreamEvents(
 *   [{ type: "text", text: "Hello! How can I help you today?" }],
 *   { outputTokens: 25 },
 * );
 * console.log(brokenStreamUsage(events, "reset"));
 * // { inputTokens: 120, outputTokens: 1, billedOutputTokens: 7 }
 * ```
 *
 * @internal
 */
export function brokenStreamUsage(
  events: readonly ApiStreamEvent[],
  how: StreamBreak,
): Required<Pick<ApiCallUsage, "inputTokens" | "outputTokens" | "billedOutputTokens">> {
  const at = breakIndex(events);
  const got = how === "malformed" ? events.slice(0, at) : events.slice(0, at + 1);
  let inputTokens = DEFAULT_INPUT_TOKENS;
  let outputTokens = START_OUTPUT_TOKENS;
  let chars = 0;
  for (const event of got) {
    if (event.type === "message_start") {
      inputTokens = event.message.usage.input_tokens;
      outputTokens = event.message.usage.output_tokens;
    } else if (event.type === "content_block_start" && event.content_block.type === "tool_use") {
      chars += event.content_block.name.length;
    } else if (event.type === "content_block_delta") {
      const delta = event.delta;
      if (delta.type === "text_delta") chars += delta.text.length;
      else if (delta.type === "thinking_delta") chars += delta.thinking.length;
      else if (delta.type === "input_json_delta") chars += delta.partial_json.length;
    }
  }
  return {
    inputTokens,
    outputTokens,
    billedOutputTokens: Math.max(outputTokens, Math.round(chars / 3)),
  };
}
