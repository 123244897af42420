/**
 * The NDJSON line encoder: frames (and raw lines) in, UTF-8 stream-json lines out.
 *
 * @module
 */

import type { Frame, RawLine } from "./frame.ts";
import { encodeFrame } from "./encode_frame.ts";

export { encodeFrame } from "./encode_frame.ts";

const utf8 = new TextEncoder();

/**
 * A `TransformStream` from frames to UTF-8 NDJSON bytes, one chunk per frame, for
 * writing what a `claude` process writes on stdout. Each frame is encoded with
 * {@linkcode encodeFrame}; a frame that cannot be encoded errors the stream with that
 * `TypeError`.
 *
 * @example Encoding a stream
 * ```ts
 * import { NdjsonEncodeStream } from "@x/claude-mock/wire";
 * const frames = ReadableStream.from([{ type: "keep_alive" }, { raw: "garbage" }]);
 * const output = frames.pipeThrough(new NdjsonEncodeStream()).pipeThrough(new TextDecoderStream());
 * const text = (await Array.fromAsync(output)).join("");
 * if (text !== '{"type":"keep_alive"}\ngarbage\n') throw new Error("unexpected output");
 * ```
 */
export class NdjsonEncodeStream extends TransformStream<Frame | RawLine, Uint8Array> {
  /** Creates the encoder. */
  constructor() {
    super({
      transform: (frame, controller) => controller.enqueue(utf8.encode(encodeFrame(frame))),
    });
  }
}
