/**
 * A frame's stream-json line without its final newline: what {@linkcode encodeFrame} writes
 * before the `"\n"`, for writers that add the newline as a byte (no concatenated string to
 * flatten before encoding). Internal.
 *
 * @module
 */

import { type Frame, isObject, type RawLine } from "./frame.ts";
import { jsonText } from "./_json_text.ts";

/**
 * `JSON.stringify(frame)`, or a raw line's text without one final `"\n"`; throws as
 * `encodeFrame` does (a `TypeError` naming the frame type).
 */
export function frameJson(frame: Frame | RawLine): string {
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
    if (typeof raw === "string") return raw.endsWith("\n") ? raw.slice(0, -1) : raw;
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
  return json;
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
