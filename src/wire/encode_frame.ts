/**
 * Encodes a frame (or a raw line) as one stream-json line: what every writer of the
 * engine's stdout uses, with or without a stream.
 *
 * @module
 */

import { type Frame, isObject, type RawLine } from "./frame.ts";
import { jsonText } from "./_json_text.ts";

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
  if (!isObject(frame)) {
    throw new TypeError(
      `Cannot encode frame: expected an object with a string "type" (or a raw line with a string "raw"), got ${
        describeValue(frame)
      }`,
    );
  }
  const type = frame.type;
  if (typeof type !== "string") {
    const raw = frame.raw;
    if (typeof raw === "string") return raw.endsWith("\n") ? raw : raw + "\n";
    throw new TypeError(
      `Cannot encode frame: expected an object with a string "type" (or a raw line with a string "raw"), got an object whose "type" is ${
        describeValue(type)
      }`,
    );
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(frame);
  } catch (error) {
    // JSON.stringify recurses: a frame nested deeper than the stack allows is encoded
    // without recursion instead (a cycle or a BigInt still fails below)
    json = error instanceof RangeError ? deepJson(frame, type) : failed(type, error);
  }
  if (typeof json !== "string") {
    throw new TypeError(
      `Cannot encode frame of type ${
        JSON.stringify(type)
      }: JSON.stringify returned ${typeof json} (does a toJSON method return undefined?)`,
    );
  }
  return json + "\n";
}

function deepJson(frame: Frame, type: string): string | undefined {
  try {
    return jsonText(frame);
  } catch (error) {
    return failed(type, error);
  }
}

function failed(type: string, cause: unknown): never {
  const detail = cause instanceof Error ? cause.message : String(cause);
  throw new TypeError(`Cannot encode frame of type ${JSON.stringify(type)}: ${detail}`, {
    cause,
  });
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
