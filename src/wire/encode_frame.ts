/**
 * Encodes a frame (or a raw line) as one stream-json line: what every writer of the
 * engine's stdout uses, with or without a stream.
 *
 * @module
 */

import type { Frame, RawLine } from "./frame.ts";
import { frameJson } from "./_frame_json.ts";

/**
 * Encodes one frame as a stream-json line, newline included: `JSON.stringify(frame)`
 * then `"\n"`. A {@linkcode RawLine} (an object with a string `raw` and no string
 * `type`) is returned verbatim, with `"\n"` appended unless it already ends with one; use
 * it to write malformed output on purpose.
 *
 * @param frame The frame or raw line.
 * @returns The line, ending with `"\n"`.
 * @throws {TypeError} When the frame cannot be encoded as JSON (a cycle, a `BigInt`), or
 * is neither a frame nor a raw line; the message names the frame type.
 *
 * @example Encoding frames and raw lines
 * ```ts
 * import { encodeFrame } from "@x/claude-mock/wire";
 * const line = encodeFrame({ type: "keep_alive" });
 * if (line !== '{"type":"keep_alive"}\n') throw new Error("unexpected line");
 * if (encodeFrame({ raw: "{not json" }) !== "{not json\n") throw new Error("unexpected raw");
 * ```
 */
export function encodeFrame(frame: Frame | RawLine): string {
  return frameJson(frame) + "\n";
}
