/**
 * Builders for `stream_event` frames (partial messages, `--include-partial-messages`):
 * the raw Messages API streaming events of one API message, interleaved with that
 * message's `assistant` frames and `system/thinking_tokens` frames exactly as the real
 * CLI writes them.
 *
 * @module
 */

import type { AssistantFrame, StreamEventFrame, Uuid } from "../wire/frame.ts";
import type { BuildContext } from "./build_context.ts";
import type {
  AssistantMessageFrame,
  AssistantUsage,
  BuiltContentBlock,
  ThinkingDisplay,
} from "./assistant.ts";
import { checkCount } from "./_common.ts";
import { estimateTokens, splitChecked, splitToolInput } from "./stream_chunks.ts";
import { thinkingTokens, type ThinkingTokensFrame } from "./thinking_tokens.ts";

/** Why an API message stopped (`message_delta.delta.stop_reason`). */
export type StopReason =
  | "end_turn"
  | "max_tokens"
  | "stop_sequence"
  | "tool_use"
  | "pause_turn"
  | "compaction"
  | "refusal"
  | "model_context_window_exceeded";

/** The API message in a `message_start` event (no `context_management` key, as recorded). */
export type StartMessage = {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: never[];
  stop_reason: null;
  stop_sequence: null;
  usage: AssistantUsage;
};

/** The content block of a `content_block_start` event. */
export type StartContentBlock =
  | { type: "text"; text: "" }
  | { type: "thinking"; thinking: ""; signature: "" }
  | { type: "redacted_thinking"; data: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, never> };

/** The delta of a `content_block_delta` event. */
export type ContentDelta =
  | { type: "text_delta"; text: string }
  | { type: "thinking_delta"; thinking: string }
  | { type: "signature_delta"; signature: string }
  | { type: "input_json_delta"; partial_json: string };

/** The usage of an interrupted stream's closing `message_delta`. */
export type AbortedDeltaUsage = {
  output_tokens_details: { thinking_tokens: number };
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  input_tokens: number;
  iterations: never[];
  output_tokens: number;
  server_tool_use: { web_search_requests: number; web_fetch_requests: number };
  fallback_credit: null;
};

/** One raw Messages API streaming event, as the CLI forwards it. */
export type StreamEvent =
  | { type: "message_start"; message: StartMessage }
  | { type: "content_block_start"; index: number; content_block: StartContentBlock }
  | { type: "content_block_delta"; index: number; delta: ContentDelta }
  | { type: "content_block_stop"; index: number }
  | {
    type: "message_delta";
    delta: { stop_reason: StopReason | null; stop_sequence: string | null };
    usage: { output_tokens: number };
  }
  | {
    type: "message_delta";
    context_management: null;
    delta: { container: null; stop_details: null; stop_reason: null; stop_sequence: null };
    usage: AbortedDeltaUsage;
  }
  | { type: "message_stop" };

/** A `stream_event` frame as these builders make it. */
export interface StreamEventFrameOut extends StreamEventFrame {
  /** The raw API event. */
  event: StreamEvent;
  /** The frame's uuid. */
  uuid: Uuid;
  /** `message_start` only: time to first token in ms. */
  ttft_ms?: number;
  /** `message_start` and thinking start/delta events: how thinking is displayed. */
  thinking_display?: ThinkingDisplay;
  /** The API message id the event belongs to. */
  api_message_id: string;
  /** An interrupted stream's `message_stop`: the blocks that were never streamed. */
  abandoned_blocks?: { api_message_id: string; from_block_index: number };
}

/** A frame of a partial-message sequence. */
export type PartialSequenceFrame =
  | StreamEventFrameOut
  | AssistantMessageFrame
  | ThinkingTokensFrame;

/** Options for {@linkcode streamEvents} and {@linkcode streamEventsIter}. */
export interface StreamEventsOptions {
  /** Target size in characters of text and thinking deltas (default 24; split between words). */
  chunkSize?: number;
  /**
   * Splits a text or thinking block into deltas instead of `chunkSize` (the pieces must
   * join back into the text).
   */
  split?: (text: string, kind: "text" | "thinking") => string[];
  /**
   * Splits a tool use's input into `input_json_delta` fragments instead of the default
   * split between keys and values (the pieces must join back into the input's JSON).
   */
  splitInput?: (input: Record<string, unknown>, toolUseId: string) => string[];
  /** `ttft_ms` on `message_start` (default 10). */
  ttftMs?: number;
  /** `message_delta` stop reason (default `tool_use` when a block is a tool use, else `end_turn`). */
  stopReason?: StopReason;
  /** `message_delta` output tokens (default 25, as recorded). */
  outputTokens?: number;
  /**
   * `thinking_display` (default `updates`; `null` leaves it out, as the real CLI does when the
   * session's thinking is turned off).
   */
  thinkingDisplay?: ThinkingDisplay | null;
  /** Emit `system/thinking_tokens` before each thinking delta, as the CLI does (default true). */
  thinkingTokens?: boolean;
}

/**
 * The full partial-message sequence of ONE API message, lazily: `message_start`, then for
 * each block `content_block_start`, its deltas (`text_delta` chunks; `thinking_delta`
 * chunks each preceded by a `system/thinking_tokens` frame, then `signature_delta`, preceded
 * by one more when the signature raises the estimate (see {@linkcode signatureTokens});
 * `input_json_delta` fragments split between keys and values), then that block's
 * `assistant` frame (the very object passed in), then `content_block_stop`; finally
 * `message_delta` and `message_stop`. Ids are drawn from `ctx.ids` as frames are pulled.
 *
 * @example Streaming a text reply
 * ```ts
 * import { assistantMessage, createBuildContext } from "@x/claude-mock/builders";
 * import { streamEventsIter } from "./stream_events.ts";
 * const ctx = createBuildContext({ seed: 1 });
 * for (const frame of streamEventsIter(ctx, assistantMessage(ctx, "One, two, three."))) {
 *   console.log(frame.type === "stream_event" ? frame.event.type : frame.type);
 * }
 * ```
 */
export function* streamEventsIter(
  ctx: BuildContext,
  message: readonly AssistantFrame[],
  options: StreamEventsOptions = {},
): Generator<PartialSequenceFrame, void, undefined> {
  const frames = checkMessage(message);
  const first = frames[0];
  const apiMessageId = first.message.id;
  const chunkSize = options.chunkSize ?? 24;
  checkCount(chunkSize, "streamEvents()", "options.chunkSize");
  if (chunkSize === 0) throw new RangeError("streamEvents(): options.chunkSize must be at least 1");
  const display = options.thinkingDisplay === null
    ? {}
    : { thinking_display: options.thinkingDisplay ?? "updates" };
  const parent = first.parent_tool_use_id;
  const pieces = (s: string, kind: "text" | "thinking") =>
    splitChecked(s, kind, chunkSize, options.split);
  const event = (
    ev: StreamEvent,
    extra: Partial<StreamEventFrameOut> = {},
  ): StreamEventFrameOut => ({
    type: "stream_event",
    event: ev,
    session_id: ctx.sessionId,
    parent_tool_use_id: parent,
    uuid: ctx.ids.uuid(),
    ...extra,
    api_message_id: apiMessageId,
  });

  yield event(
    {
      type: "message_start",
      message: {
        id: apiMessageId,
        type: "message",
        role: "assistant",
        model: first.message.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...first.message.usage } as AssistantUsage,
      },
    },
    { ttft_ms: options.ttftMs ?? 10, ...display },
  );

  let hasToolUse = false;
  for (let index = 0; index < frames.length; index++) {
    const frame = frames[index];
    const block = frame.message.content[0] as BuiltContentBlock;
    if (block.type === "tool_use") hasToolUse = true;
    yield* blockEvents(block, index, { ctx, event, pieces, display, options });
    yield frame as AssistantMessageFrame;
    yield event({ type: "content_block_stop", index });
  }
  const outputTokens = options.outputTokens ?? 25;
  checkCount(outputTokens, "streamEvents()", "options.outputTokens");
  yield event({
    type: "message_delta",
    delta: {
      stop_reason: options.stopReason ?? (hasToolUse ? "tool_use" : "end_turn"),
      stop_sequence: null,
    },
    usage: { output_tokens: outputTokens },
  });
  yield event({ type: "message_stop" });
}

/** What a block's events are made with: the frame maker, the splitter, the options. */
interface BlockEventsContext {
  ctx: BuildContext;
  event: (ev: StreamEvent, extra?: Partial<StreamEventFrameOut>) => StreamEventFrameOut;
  pieces: (s: string, kind: "text" | "thinking") => string[];
  /** `{thinking_display}`, or nothing when thinking is off. */
  display: { thinking_display?: ThinkingDisplay };
  options: StreamEventsOptions;
}

/** The stream events of one content block: its start, then its deltas. */
function* blockEvents(
  block: BuiltContentBlock,
  index: number,
  { ctx, event, pieces, display, options }: BlockEventsContext,
): Generator<PartialSequenceFrame, void, undefined> {
  switch (block.type) {
    case "text":
      yield event({
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      });
      for (const piece of pieces(block.text, "text")) {
        yield event({
          type: "content_block_delta",
          index,
          delta: { type: "text_delta", text: piece },
        });
      }
      break;
    case "thinking":
      yield* thinkingEvents(block, index, { ctx, event, pieces, display, options });
      break;
    case "redacted_thinking":
      yield event({
        type: "content_block_start",
        index,
        content_block: { type: "redacted_thinking", data: block.data },
      });
      break;
    case "tool_use":
      yield event({
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
      });
      for (const piece of inputPieces(block.input, block.id, options.splitInput)) {
        yield event({
          type: "content_block_delta",
          index,
          delta: { type: "input_json_delta", partial_json: piece },
        });
      }
      break;
  }
}

/** A thinking block's events: its start, each piece (after its token estimate), its signature. */
function* thinkingEvents(
  block: Extract<BuiltContentBlock, { type: "thinking" }>,
  index: number,
  { ctx, event, pieces, display, options }: BlockEventsContext,
): Generator<PartialSequenceFrame, void, undefined> {
  yield event(
    {
      type: "content_block_start",
      index,
      content_block: { type: "thinking", thinking: "", signature: "" },
    },
    display,
  );
  let estimated = 0;
  for (const piece of pieces(block.thinking, "thinking")) {
    if (options.thinkingTokens !== false) {
      const delta = estimateTokens(piece);
      estimated += delta;
      yield thinkingTokens(ctx, { estimatedTokens: estimated, estimatedTokensDelta: delta });
    }
    yield event(
      {
        type: "content_block_delta",
        index,
        delta: { type: "thinking_delta", thinking: piece },
      },
      display,
    );
  }
  // the signature raises the estimate to its own floor (see signatureTokens)
  const floor = signatureTokens(block.signature);
  if (options.thinkingTokens !== false && estimated > 0 && floor > estimated) {
    yield thinkingTokens(ctx, { estimatedTokens: floor, estimatedTokensDelta: floor - estimated });
  }
  yield event({
    type: "content_block_delta",
    index,
    delta: { type: "signature_delta", signature: block.signature },
  });
}

/**
 * The full partial-message sequence of one API message as an array; see
 * {@linkcode streamEventsIter} for the order.
 *
 * @example Thinking, text and a tool use
 * ```ts
 * import {
 *   assistantMessage,
 *   createBuildContext,
 *   streamEvents,
 *   text,
 *   thinking,
 *   toolUse,
 * } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const frames = streamEvents(ctx, assistantMessage(ctx, [
 *   thinking("I should read the notes file first."),
 *   text("Reading the file now."),
 *   toolUse("Read", { file_path: "/home/user/project/notes.txt" }),
 * ]));
 * console.log(frames.at(-2)); // the message_delta, stop_reason "tool_use"
 * ```
 */
export function streamEvents(
  ctx: BuildContext,
  message: readonly AssistantFrame[],
  options: StreamEventsOptions = {},
): PartialSequenceFrame[] {
  return [...streamEventsIter(ctx, message, options)];
}

/** Options for {@linkcode abortedStreamEnd}. */
export interface AbortedStreamEndOptions {
  /** The block being streamed when the interrupt came (default 0); `null` when none was open. */
  openBlockIndex?: number | null;
  /** The first block index never streamed (default: `openBlockIndex + 1`, or 0). */
  abandonedFromIndex?: number;
  /** Output tokens so far (default 1, as recorded). */
  outputTokens?: number;
}

/**
 * The frames that close a stream cut by an interrupt, as the real CLI writes them after the
 * aborted assistant frame and the "[Request interrupted by user]" user frame:
 * `content_block_stop` for the open block, a `message_delta` with null stop fields and the
 * full usage shape, and a `message_stop` carrying `abandoned_blocks`.
 *
 * @example Closing an interrupted stream
 * ```ts
 * import { abortedStreamEnd, assistantMessage, createBuildContext } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const [partial] = assistantMessage(ctx, "Sentence 1 about the sea. ", { aborted: true });
 * const tail = abortedStreamEnd(ctx, partial);
 * console.log(tail.map((f) => f.event.type)); // content_block_stop, message_delta, message_stop
 * ```
 */
export function abortedStreamEnd(
  ctx: BuildContext,
  message: AssistantFrame,
  options: AbortedStreamEndOptions = {},
): StreamEventFrameOut[] {
  const [frame] = checkMessage([message]);
  const apiMessageId = frame.message.id;
  const open = options.openBlockIndex === undefined ? 0 : options.openBlockIndex;
  if (open !== null) checkCount(open, "abortedStreamEnd()", "options.openBlockIndex");
  const from = options.abandonedFromIndex ?? (open === null ? 0 : open + 1);
  checkCount(from, "abortedStreamEnd()", "options.abandonedFromIndex");
  const usage = frame.message.usage;
  const make = (
    ev: StreamEvent,
    extra: Partial<StreamEventFrameOut> = {},
  ): StreamEventFrameOut => ({
    type: "stream_event",
    event: ev,
    session_id: ctx.sessionId,
    parent_tool_use_id: frame.parent_tool_use_id,
    uuid: ctx.ids.uuid(),
    api_message_id: apiMessageId,
    ...extra,
  });
  const out: StreamEventFrameOut[] = [];
  if (open !== null) out.push(make({ type: "content_block_stop", index: open }));
  out.push(make({
    type: "message_delta",
    context_management: null,
    delta: { container: null, stop_details: null, stop_reason: null, stop_sequence: null },
    usage: {
      output_tokens_details: { thinking_tokens: 0 },
      cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
      cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
      input_tokens: usage.input_tokens,
      iterations: [],
      output_tokens: options.outputTokens ?? 1,
      server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
      fallback_credit: null,
    },
  }));
  out.push(make({ type: "message_stop" }, {
    abandoned_blocks: { api_message_id: apiMessageId, from_block_index: from },
  }));
  return out;
}

function checkMessage(message: readonly AssistantFrame[]): readonly AssistantFrame[] {
  if (!Array.isArray(message) || message.length === 0) {
    throw new TypeError(
      "streamEvents(): message must be a non-empty array of the assistant frames of one API message",
    );
  }
  const id = message[0]?.message?.id;
  message.forEach((frame, i) => {
    if (frame?.type !== "assistant" || typeof frame.message !== "object") {
      throw new TypeError(`streamEvents(): frame ${i} is not an assistant frame`);
    }
    if (frame.message.id !== id) {
      throw new RangeError(
        `streamEvents(): frame ${i} belongs to API message ${frame.message.id}, not ${id}; ` +
          "pass the frames of one API message",
      );
    }
    if (!Array.isArray(frame.message.content) || frame.message.content.length !== 1) {
      throw new RangeError(
        `streamEvents(): frame ${i} has ${frame.message.content?.length} content blocks; ` +
          "each assistant frame carries exactly one",
      );
    }
  });
  return message;
}

/**
 * The thinking-token floor the CLI reads from a thinking block's signature when its
 * `signature_delta` arrives: three quarters of the signature's length (rounded), one token per
 * 4 of those, rounded up. When it is above the estimate of the thinking so far (and that is
 * not 0), the CLI reports one more `system/thinking_tokens` frame that raises the estimate to it.
 *
 * @example The floor of a 36-character signature
 * ```ts
 * import { signatureTokens } from "./stream_events.ts";
 * console.log(signatureTokens("sig_jr5tndRMs7t+GLg0vhXy+kFEfeTYlTXH")); // 7
 * ```
 */
export function signatureTokens(signature: string): number {
  return Math.ceil(Math.round(signature.length * 0.75) / 4);
}

/**
 * The `system/thinking_tokens` frames the CLI sends while a thinking block streams, one per
 * thinking delta (the same chunks {@linkcode streamEventsIter} makes), and one more when the
 * block's signature (`options.signature`) raises the estimate (see
 * {@linkcode signatureTokens}). Without partial messages the CLI still sends them, before the
 * thinking block's assistant frame.
 *
 * @example Thinking-token frames for a thinking block
 * ```ts
 * import { createBuildContext } from "@x/claude-mock/builders";
 * import { thinkingTokenFrames } from "./stream_events.ts";
 * const ctx = createBuildContext({ seed: 1 });
 * const frames = thinkingTokenFrames(ctx, "The user wants 17 * 23. 17 * 20 = 340.");
 * console.log(frames.map((f) => f.estimated_tokens));
 * ```
 */
export function thinkingTokenFrames(
  ctx: BuildContext,
  thinking: string,
  options: Pick<StreamEventsOptions, "chunkSize" | "split"> & {
    /** The thinking block's signature (default none: no frame for it). */
    signature?: string;
  } = {},
): ThinkingTokensFrame[] {
  let estimated = 0;
  const frames = splitChecked(thinking, "thinking", options.chunkSize ?? 24, options.split).map(
    (piece) => {
      const delta = estimateTokens(piece);
      estimated += delta;
      return thinkingTokens(ctx, { estimatedTokens: estimated, estimatedTokensDelta: delta });
    },
  );
  const floor = options.signature === undefined ? 0 : signatureTokens(options.signature);
  if (estimated > 0 && floor > estimated) {
    frames.push(
      thinkingTokens(ctx, { estimatedTokens: floor, estimatedTokensDelta: floor - estimated }),
    );
  }
  return frames;
}

function inputPieces(
  input: Record<string, unknown>,
  id: string,
  split: StreamEventsOptions["splitInput"],
): string[] {
  if (!split) return splitToolInput(input);
  const pieces = split(input, id);
  if (!Array.isArray(pieces) || pieces.length === 0 || pieces.some((p) => typeof p !== "string")) {
    throw new TypeError(
      `streamEvents(): options.splitInput must return a non-empty array of strings (tool use ${id})`,
    );
  }
  if (pieces.join("") !== JSON.stringify(input)) {
    throw new RangeError(
      `streamEvents(): options.splitInput returned pieces that do not join back into the input JSON of tool use ${id}`,
    );
  }
  return pieces;
}
