/**
 * How a reply is cut into stream pieces, as the API streams it: text and thinking into deltas
 * of about a chunk's size (after whitespace), a tool input into fragments between its keys and
 * values, and the CLI's thinking-token estimate of a piece.
 *
 * @module
 */

import { describe } from "./_common.ts";

/** Splits text or thinking into pieces that join back into it (`StreamEventsOptions.split`). */
export type SplitText = (text: string, kind: "text" | "thinking") => string[];

/**
 * Splits text into deltas of about `chunkSize` characters, breaking after whitespace
 * (each piece keeps its trailing space, as the API streams it); a word longer than
 * `chunkSize` is cut. Joining the pieces gives the text back.
 *
 * @example Chunking text
 * ```ts
 * import { chunkText } from "./stream_chunks.ts";
 * console.log(chunkText("One, two, three, four, five.", 10)); // ["One, two, ", "three, ", "four, ", "five."]
 * ```
 */
export function chunkText(s: string, chunkSize: number): string[] {
  if (typeof s !== "string") {
    throw new TypeError(`chunkText(): text must be a string, got ${describe(s)}`);
  }
  if (!Number.isInteger(chunkSize) || chunkSize < 1) {
    throw new RangeError(`chunkText(): chunkSize must be a positive integer, got ${chunkSize}`);
  }
  if (s === "") return [""];
  const out: string[] = [];
  let current = "";
  let currentLength = 0;
  for (const word of s.split(/(?<=\s)/)) {
    const chars = [...word];
    if (currentLength > 0 && currentLength + chars.length > chunkSize) {
      out.push(current);
      current = "";
      currentLength = 0;
    }
    if (chars.length > chunkSize) {
      for (let i = 0; i < chars.length; i += chunkSize) {
        const piece = chars.slice(i, i + chunkSize);
        if (i + chunkSize < chars.length) out.push(piece.join(""));
        else [current, currentLength] = [piece.join(""), piece.length];
      }
    } else {
      current += word;
      currentLength += chars.length;
    }
  }
  if (current !== "") out.push(current);
  return out;
}

/**
 * The thinking-token estimate the CLI reports for a thinking delta: one token per 4
 * characters, rounded up (matches every `system/thinking_tokens` frame recorded).
 *
 * @example Estimating thinking tokens
 * ```ts
 * import { estimateTokens } from "./stream_chunks.ts";
 * console.log(estimateTokens("I should read the ")); // 5
 * ```
 */
export function estimateTokens(s: string): number {
  return Math.ceil(s.length / 4);
}

/**
 * Splits a tool input into `input_json_delta` fragments between top-level keys and values
 * (`{"key":` then `value,` ...), never inside a string, as in the recordings. Joining the
 * fragments gives `JSON.stringify(input)`.
 *
 * @example Tool input fragments
 * ```ts
 * import { splitToolInput } from "./stream_chunks.ts";
 * console.log(splitToolInput({ file_path: "/a.txt" })); // ['{"file_path":', '"/a.txt"}']
 * ```
 */
export function splitToolInput(input: Record<string, unknown>): string[] {
  const keys = Object.keys(input);
  if (keys.length === 0) return ["{}"];
  const out: string[] = [];
  keys.forEach((key, i) => {
    out.push((i === 0 ? "{" : "") + JSON.stringify(key) + ":");
    out.push(JSON.stringify(input[key]) + (i === keys.length - 1 ? "}" : ","));
  });
  return out;
}

/** `chunkText`, or `split` checked: non-empty strings that join back into `s`. */
export function splitChecked(
  s: string,
  kind: "text" | "thinking",
  chunkSize: number,
  split: SplitText | undefined,
): string[] {
  if (!split) return chunkText(s, chunkSize);
  const pieces = split(s, kind);
  if (!Array.isArray(pieces) || pieces.length === 0 || pieces.some((p) => typeof p !== "string")) {
    throw new TypeError(`streamEvents(): options.split must return a non-empty array of strings`);
  }
  if (pieces.join("") !== s) {
    throw new RangeError(
      `streamEvents(): options.split returned pieces that do not join back into the ${kind} text`,
    );
  }
  return pieces;
}
