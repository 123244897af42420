/**
 * Where a streaming message is: which block is open and what text it has shown so far (what an
 * interrupt's tail reports), read from the stream events as they go out. Internal.
 *
 * @module
 */

import type { Frame } from "../wire/frame.ts";
import type { StreamProgress } from "./turn_state.ts";

/** Moves `progress` past `frame`, just written. */
export function trackProgress(progress: StreamProgress, frame: Frame): void {
  if (frame.type !== "stream_event") return;
  const event = frame.event as {
    type: string;
    index?: number;
    delta?: { type: string; text?: string };
  };
  if (event.type === "content_block_start") {
    progress.blockIndex = event.index ?? progress.blockIndex + 1;
    progress.text = "";
  } else if (event.type === "content_block_delta" && event.delta?.type === "text_delta") {
    progress.text += event.delta.text ?? "";
  } else if (event.type === "content_block_stop") {
    progress.blockIndex = -1;
    progress.text = "";
  }
}

/** Whether `frame` is a `message_stop` stream event. */
export function isMessageStop(frame: Frame): boolean {
  return frame.type === "stream_event" &&
    (frame.event as { type?: string } | undefined)?.type === "message_stop";
}

/** Whether `frame` is the `content_block_stop` of block `index`. */
export function isBlockStop(frame: Frame, index: number): boolean {
  if (frame.type !== "stream_event") return false;
  const event = frame.event as { type?: string; index?: number };
  return event.type === "content_block_stop" && event.index === index;
}
