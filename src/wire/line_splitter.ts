/**
 * Splits NDJSON (bytes or text) into lines and decodes each into a {@linkcode DecodedLine}:
 * the state machine behind `NdjsonDecodeStream`, usable without a stream (the
 * engine feeds it directly, so a process that never touches Web Streams never loads them).
 *
 * @module
 */

import { type Frame, isObject } from "./frame.ts";
import { WireError } from "./wire_error.ts";

/** The default line length limit (`NdjsonDecodeStreamOptions.maxLineLength`): 16 MiB of characters. */
export const DEFAULT_MAX_LINE_LENGTH: number = 16 * 1024 * 1024;

/** How much of an over-long line {@linkcode DecodedLine} `raw` keeps. */
const OVERLONG_RAW_LENGTH = 1024;
/** What the decoder keeps of a line it skips: one more, for a "\r" that may be dropped. */
const HEAD_LENGTH = OVERLONG_RAW_LENGTH + 1;

const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const OPEN_BRACE = 0x7b;
const BOM = 0xfeff;

/**
 * One decoded stream-json line: a frame, or the error that says why the line is not one.
 * `line` is the 1-based line number in the stream (blank lines count) and `raw` is the
 * line's text without its line ending (for a line over the length limit, only its first
 * 1024 characters).
 *
 * @example Handling both outcomes
 * ```ts
 * import { type DecodedLine, parseFrameLine } from "@x/claude-mock/wire";
 * const decoded: DecodedLine = parseFrameLine('{"type":"keep_alive"}', 1);
 * if (decoded.ok) console.log(decoded.frame.type);
 * else console.error(decoded.error.message);
 * ```
 */
export type DecodedLine =
  | { ok: true; frame: Frame; line: number; raw: string }
  | { ok: false; error: WireError; line: number; raw: string };

/**
 * Decodes one stream-json line into a frame: the line must be valid JSON whose value is
 * an object with a string `type`. Never throws; a bad line gives `{ ok: false }` with a
 * {@linkcode WireError} naming `line`. Blank lines are not frames either: the stream
 * skips them before calling this.
 *
 * @param raw The line, without its line ending.
 * @param line The 1-based line number, for the error message.
 * @returns The frame, or the error.
 *
 * @example Parsing a good and a bad line
 * ```ts
 * import { parseFrameLine } from "@x/claude-mock/wire";
 * const good = parseFrameLine('{"type":"result","subtype":"success"}', 1);
 * if (!good.ok || good.frame.type !== "result") throw new Error("expected a frame");
 * const bad = parseFrameLine("[1,2]", 2);
 * if (bad.ok || bad.error.line !== 2) throw new Error("expected an error");
 * console.log(bad.error.message);
 * // Cannot decode stream-json line 2: expected a JSON object with a string "type", got array near "[1,2]"
 * ```
 */
export function parseFrameLine(raw: string, line: number): DecodedLine {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    const error = new WireError(`not valid JSON (${detail})`, { line, raw, cause });
    return { ok: false, error, line, raw };
  }
  if (isObject(value) && typeof value.type === "string") {
    return { ok: true, frame: value as Frame, line, raw };
  }
  const error = new WireError(
    `expected a JSON object with a string "type", got ${describeNonFrame(value)}`,
    { line, raw },
  );
  return { ok: false, error, line, raw };
}

/** Where a {@linkcode LineSplitter} puts each decoded line. */
export type LineSink = { enqueue(line: DecodedLine): void };
type Sink = LineSink;

/**
 * The state of one decoder: the partial line, the UTF-8 decoder, the line count. The
 * engine drives it directly (no stream in between); not re-exported by the entry point.
 *
 * @internal
 */
export class LineSplitter {
  readonly #max: number;
  readonly #decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  /** Whether the decoder may hold the start of a multi-byte character. */
  #decoding = false;
  /** Whether no text has been seen yet (for the byte order mark). */
  #atStart = true;
  /** The pieces of the current, unfinished line. */
  #parts: string[] = [];
  #partsLength = 0;
  /** Whether the current line is over the limit and being skipped. */
  #skipping = false;
  /** The start of the line being skipped (one character more than `raw` keeps). */
  #skippedHead = "";
  /** The length of the line being skipped so far. */
  #skippedLength = 0;
  /** Whether the last character skipped was a "\r". */
  #skippedLastCR = false;
  /** How many lines have ended so far. */
  #lines = 0;

  /** A splitter for lines of at most `max` characters. */
  constructor(max: number = DEFAULT_MAX_LINE_LENGTH) {
    this.#max = max;
  }

  /** Splits a chunk; complete lines go to `sink`. */
  push(chunk: string | Uint8Array, sink: Sink): void {
    let text: string;
    if (typeof chunk === "string") {
      text = chunk;
      if (this.#decoding) {
        // Bytes before this text ended mid-character: finish them first.
        this.#decoding = false;
        text = this.#decoder.decode() + text;
      }
    } else if (ArrayBuffer.isView(chunk) || (chunk as unknown) instanceof ArrayBuffer) {
      text = this.#decoder.decode(chunk, { stream: true });
      this.#decoding = true;
    } else {
      throw new TypeError(
        `Cannot decode NDJSON chunk: expected a string or a Uint8Array, got ${
          describeValue(chunk)
        }`,
      );
    }
    if (text.length === 0) return;
    if (this.#atStart) {
      this.#atStart = false;
      if (text.charCodeAt(0) === BOM) text = text.slice(1);
    }
    this.#split(text, sink);
  }

  /** Ends the input: a last line without a newline goes to `sink`. */
  end(sink: Sink): void {
    if (this.#decoding) {
      this.#decoding = false;
      const tail = this.#decoder.decode();
      if (tail.length > 0) {
        this.#atStart = false;
        this.#split(tail, sink);
      }
    }
    if (this.#skipping) {
      this.#endSkipped(sink, false);
    } else if (this.#partsLength > 0) {
      // Like TextLineStream, the last line keeps a trailing "\r" (JSON ignores it).
      const raw = this.#parts.length === 1 ? this.#parts[0] : this.#parts.join("");
      this.#parts = [];
      this.#partsLength = 0;
      this.#emit(raw, sink);
    }
  }

  #split(text: string, sink: Sink): void {
    let start = 0;
    let lf = text.indexOf("\n");
    while (lf !== -1) {
      if (this.#skipping) {
        this.#skip(text, start, lf);
        this.#endSkipped(sink, true);
      } else if (this.#partsLength === 0) {
        // Fast path: the whole line is in this chunk.
        const end = lf > start && text.charCodeAt(lf - 1) === CR ? lf - 1 : lf;
        this.#emit(text.slice(start, end), sink);
      } else {
        if (this.#partsLength + (lf - start) > this.#max + 1) {
          this.#startSkipping(text, start, lf);
          this.#endSkipped(sink, true);
        } else {
          this.#parts.push(text.slice(start, lf));
          let raw = this.#parts.join("");
          this.#parts = [];
          this.#partsLength = 0;
          if (raw.charCodeAt(raw.length - 1) === CR) raw = raw.slice(0, -1);
          this.#emit(raw, sink);
        }
      }
      start = lf + 1;
      lf = text.indexOf("\n", start);
    }
    if (this.#skipping) {
      this.#skip(text, start, text.length);
    } else if (start < text.length) {
      // One more character than the limit may still be a "\r" before the newline.
      if (this.#partsLength + (text.length - start) > this.#max + 1) {
        this.#startSkipping(text, start, text.length);
      } else {
        this.#parts.push(start === 0 ? text : text.slice(start));
        this.#partsLength += text.length - start;
      }
    }
  }

  /** Starts skipping the current line: its parts so far, then `text` from `start` to `end`. */
  #startSkipping(text: string, start: number, end: number): void {
    let head = "";
    let lastCR = false;
    for (const part of this.#parts) {
      if (head.length < HEAD_LENGTH) head += part.slice(0, HEAD_LENGTH - head.length);
      if (part.length > 0) lastCR = part.charCodeAt(part.length - 1) === CR;
    }
    this.#skippedHead = head;
    this.#skippedLength = this.#partsLength;
    this.#skippedLastCR = lastCR;
    this.#parts = [];
    this.#partsLength = 0;
    this.#skipping = true;
    this.#skip(text, start, end);
  }

  /** Skips `text` from `start` to `end`, keeping only what the head still needs. */
  #skip(text: string, start: number, end: number): void {
    if (end === start) return;
    const head = this.#skippedHead;
    if (head.length < HEAD_LENGTH) {
      this.#skippedHead = head +
        text.slice(start, Math.min(end, start + HEAD_LENGTH - head.length));
    }
    this.#skippedLength += end - start;
    this.#skippedLastCR = text.charCodeAt(end - 1) === CR;
  }

  /** Ends the skipped line; `atNewline` is false when the stream ended instead. */
  #endSkipped(sink: Sink, atNewline: boolean): void {
    const line = ++this.#lines;
    const length = this.#skippedLength - (atNewline && this.#skippedLastCR ? 1 : 0);
    const raw = this.#skippedHead.slice(0, Math.min(length, OVERLONG_RAW_LENGTH));
    this.#skippedHead = "";
    this.#skippedLength = 0;
    this.#skippedLastCR = false;
    this.#skipping = false;
    sink.enqueue(overlong(raw, line, this.#max));
  }

  #emit(raw: string, sink: Sink): void {
    const line = ++this.#lines;
    const length = raw.length;
    if (length === 0) return;
    if (length > this.#max) {
      sink.enqueue(overlong(raw.slice(0, OVERLONG_RAW_LENGTH), line, this.#max));
      return;
    }
    const first = raw.charCodeAt(0);
    if (first !== OPEN_BRACE && isBlankFrom(raw, first)) return;
    sink.enqueue(parseFrameLine(raw, line));
  }
}

/** Whether `raw`, whose first character code is `first`, holds only spaces, tabs and CRs. */
function isBlankFrom(raw: string, first: number): boolean {
  if (first !== SPACE && first !== TAB && first !== CR) return false;
  for (let i = 1; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c !== SPACE && c !== TAB && c !== CR) return false;
  }
  return true;
}

function overlong(raw: string, line: number, max: number): DecodedLine {
  const error = new WireError(
    `line is longer than maxLineLength (${max} characters)`,
    { line, raw },
  );
  return { ok: false, error, line, raw };
}

function describeNonFrame(value: unknown): string {
  if (isObject(value)) {
    return "type" in value
      ? `an object whose "type" is not a string but ${describeValue(value.type)}`
      : `an object without "type"`;
  }
  return describeValue(value);
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
