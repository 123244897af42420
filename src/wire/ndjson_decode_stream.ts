/**
 * The NDJSON line decoder: bytes or text in, one {@linkcode DecodedLine} per non-blank
 * line out.
 *
 * @module
 */

import { type DecodedLine, DEFAULT_MAX_LINE_LENGTH, LineSplitter } from "./line_splitter.ts";

export { type DecodedLine, type LineSink, LineSplitter, parseFrameLine } from "./line_splitter.ts";

/** Options for {@linkcode NdjsonDecodeStream}. */
export interface NdjsonDecodeStreamOptions {
  /**
   * The longest line accepted, in UTF-16 code units, not counting the line ending.
   * A longer line becomes an error value; the decoder stops buffering it as soon as it
   * is known to be too long and skips to the next newline. Defaults to 16 MiB
   * (16,777,216); `Infinity` turns the limit off.
   */
  maxLineLength?: number;
}

/**
 * A `TransformStream` from NDJSON (bytes or text) to {@linkcode DecodedLine}s, for
 * reading what a `claude` process (or an SDK) writes.
 *
 * Lines are split like `@std/streams`' `TextLineStream`: on `"\n"`, dropping one `"\r"`
 * before it, flushing a last line without newline, across any chunk boundaries. Bytes
 * are decoded as UTF-8 with a streaming decoder (a character split across chunks is
 * fine; invalid bytes become U+FFFD) and a byte order mark at the very start is dropped.
 * Blank lines (only spaces, tabs and carriage returns) are skipped but counted in line
 * numbers. A bad line (not JSON, not an object with a string `type`, too long) comes out
 * as an `{ ok: false }` value; the stream itself never errors on bad content.
 *
 * @example Decoding a stream
 * ```ts
 * import { NdjsonDecodeStream } from "@x/claude-mock/wire";
 * const input = ReadableStream.from(['{"type":"system","subtype":"init"}\r\n', "oops\n"]);
 * const lines = await Array.fromAsync(input.pipeThrough(new NdjsonDecodeStream()));
 * if (!lines[0].ok || lines[0].frame.type !== "system") throw new Error("expected a frame");
 * if (lines[1].ok || lines[1].line !== 2) throw new Error("expected an error on line 2");
 * ```
 */
export class NdjsonDecodeStream extends TransformStream<string | Uint8Array, DecodedLine> {
  /**
   * Creates a decoder.
   *
   * @param options The line length limit.
   * @throws {RangeError} When `maxLineLength` is not a positive integer or `Infinity`.
   */
  constructor(options: NdjsonDecodeStreamOptions = {}) {
    const maxLineLength = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
    if (!(maxLineLength === Infinity || (Number.isInteger(maxLineLength) && maxLineLength > 0))) {
      throw new RangeError(
        `Cannot create NdjsonDecodeStream: maxLineLength must be a positive integer or Infinity, got ${maxLineLength}`,
      );
    }
    const splitter = new LineSplitter(maxLineLength);
    super({
      transform: (chunk, controller) => splitter.push(chunk, controller),
      flush: (controller) => splitter.end(controller),
    });
  }
}
