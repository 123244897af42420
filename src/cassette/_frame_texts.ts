/**
 * Internal: the text each frame had in its tape, kept when a tape is parsed so a replay can
 * write the recorded bytes; such frames are frozen, so the text always matches the frame.
 *
 * @module
 */

import type { Frame } from "../wire/frame.ts";

/** Each parsed frame's text as the tape has it (a replay writes these bytes as recorded). */
const FRAME_TEXTS = new WeakMap<object, string>();
/** `{"t":…,"dir":"…","frame":` as this library (and the first recorder) writes entries. */
const ENTRY_PREFIX =
  /^\{"t":-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?,"dir":"(?:sdk->cli|cli->sdk)","frame":/;

/**
 * Keeps the frame's own text when the line is exactly `{"t","dir","frame"}` in that order:
 * then the text between `"frame":` and the closing brace is the frame's JSON as written.
 */
export function keepFrameText(value: Record<string, unknown>, text: string): void {
  if (text === "" || !text.endsWith("}")) return;
  const keys = Object.keys(value);
  if (keys.length !== 3 || keys[0] !== "t" || keys[1] !== "dir" || keys[2] !== "frame") return;
  const prefix = ENTRY_PREFIX.exec(text);
  if (prefix === null) return;
  // frozen, so the kept text can never disagree with the frame
  deepFreeze(value.frame);
  FRAME_TEXTS.set(value.frame as object, text.slice(prefix[0].length, -1));
}

function deepFreeze(value: unknown): void {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const key in value) deepFreeze((value as Record<string, unknown>)[key]);
}

/**
 * Internal: the JSON text a parsed frame had in its tape, when it was kept (such frames are
 * frozen: they cannot change after parsing); `undefined` otherwise.
 */
export function recordedFrameText(frame: Frame): string | undefined {
  return FRAME_TEXTS.get(frame);
}
