/**
 * Reading a tape from text, in any of the formats recordings come in (told apart by their
 * content, never by a file name), and writing one back in this library's format.
 *
 * - this library's tapes: a header line (`{"format":"claude-mock-tape","version":1,…}`; the
 *   first recordings have `version` but no `format`), then `{t, dir, frame}`,
 *   `{t, dir, raw}`, `{t, dir: "stderr", text}` lines and an optional final
 *   `{t, end: {code, signal}}` line;
 * - claude-agent-cassette tapes (`{"dir":"write","data":"<json text>"}` for what the SDK
 *   wrote, `{"dir":"read","frame":{…}}` for what it read) and its frames files (one
 *   CLI→SDK frame per line, no envelope);
 * - the Rust SDK testing spec's snapshot: one JSON document
 *   `{version, recorded_at, sdk_version, cli_version, options, messages: [{offset_ms,
 *   direction: "Sent" | "Received", content}]}`.
 *
 * @module
 */

import { MAX_NESTING_TEXT, nestedBeyond, NESTING_WHY } from "../wire/_nesting.ts";
import { type Frame, isObject } from "../wire/frame.ts";
import { keepFrameText } from "./_frame_texts.ts";
import {
  type Tape,
  TAPE_FORMAT,
  TAPE_VERSION,
  type TapeDirection,
  type TapeEnding,
  type TapeEntry,
  type TapeHeader,
} from "./tape.ts";

/** Options for {@linkcode parseTape} and {@linkcode TapeLineParser}. */
export interface ParseTapeOptions {
  /** Where the text came from (a path or URL), named in error messages and kept in `source`. */
  source?: string;
}

/** What a {@linkcode TapeLineParser} knows once every line was given: all but the entries. */
export interface TapeLinesEnd {
  /** The header (made up for formats that have none, with `converted_from`). */
  header: TapeHeader;
  /** How the process ended, when the tape says. */
  ending?: TapeEnding;
  /** See {@linkcode Tape.complete}. */
  complete?: boolean;
  /** Entries only known at the end (a snapshot document is parsed whole); usually empty. */
  entries: TapeEntry[];
}

/** `converted_from` of claude-agent-cassette tapes. */
const CASSETTE = "claude-agent-cassette";
/** `converted_from` of claude-agent-cassette frames files. */
const CASSETTE_FRAMES = "claude-agent-cassette/frames";
/** `converted_from` of Rust SDK snapshots. */
const RUST_SNAPSHOT = "rust-sdk-snapshot";

type Kind = "tape" | "cassette" | "frames" | "snapshot" | "document";
type ErrorClass = SyntaxErrorConstructor | RangeErrorConstructor;

/**
 * The line-by-line reader behind {@linkcode parseTape} and `readTapeEntries`: give it each
 * line (without its newline) with `push`, which returns the entries that line holds, then
 * call `finish`. The first non-blank line decides the format. Memory stays bounded by the
 * longest line, except for a snapshot document spread over several lines, which is kept
 * until `finish` parses it whole.
 *
 * @example Reading lines one by one
 * ```ts
 * import { TapeLineParser } from "./parse_tape.ts";
 * const parser = new TapeLineParser({ source: "inline" });
 * parser.push('{"format":"claude-mock-tape","version":1}');
 * const [entry] = parser.push('{"t":3,"dir":"cli->sdk","frame":{"type":"result"}}');
 * parser.push('{"t":4,"end":{"code":0,"signal":null}}');
 * const end = parser.finish();
 * console.log(entry.line, end.complete, end.ending?.code); // 2 true 0
 * ```
 */
export class TapeLineParser {
  #source?: string;
  #line = 0;
  #kind?: Kind;
  #header?: TapeHeader;
  #ending?: TapeEnding;
  #endLine = 0;
  #blankLine = 0;
  #document: string[] = [];
  #documentLine = 0;
  #finished = false;

  /** A parser for one tape; `options.source` is named in its errors. */
  constructor(options: ParseTapeOptions = {}) {
    this.#source = options.source;
  }

  /** Reads the next line (without its line ending); returns the entries it holds. */
  push(text: string): TapeEntry[] {
    if (this.#finished) throw new TypeError("Cannot read a tape line: the parser has finished");
    const line = ++this.#line;
    if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (this.#kind === "document") {
      this.#document.push(text);
      return [];
    }
    if (text.trim() === "") {
      if (this.#kind === "tape" && this.#blankLine === 0) this.#blankLine = line;
      return [];
    }
    if (this.#kind === undefined) return this.#detect(text, line);
    if (this.#kind === "snapshot") {
      throw this.#error(SyntaxError, line, "comes after the snapshot document on line 1");
    }
    const value = this.#json(text, line);
    if (this.#kind === "tape") return this.#tapeLine(value, line, text);
    if (this.#kind === "cassette") return this.#cassetteLine(value, line);
    return [this.#frameLine(value, line)];
  }

  /** Ends the reading: the header, the ending, whether the tape is complete. */
  finish(): TapeLinesEnd {
    this.#finished = true;
    let entries: TapeEntry[] = [];
    if (this.#kind === "document") {
      let value: unknown;
      try {
        value = JSON.parse(this.#document.join("\n"));
      } catch (cause) {
        throw this.#error(SyntaxError, this.#documentLine, `is not JSON (${messageOf(cause)})`);
      }
      this.#nesting(value, this.#documentLine);
      if (!isSnapshot(value)) {
        throw this.#error(
          SyntaxError,
          this.#documentLine,
          "starts a JSON document that is not a snapshot (no messages array)",
        );
      }
      entries = this.#snapshot(value as Record<string, unknown>);
    }
    if (this.#kind === undefined || !this.#header) {
      throw new SyntaxError(`Cannot load tape: it is empty${this.#where()}`);
    }
    const header = this.#header;
    const ending = this.#ending;
    let complete: boolean | undefined;
    if (ending) complete = true;
    else if (
      typeof header.format === "string" && header.converted_from === undefined &&
      header.ending_recorded !== false
    ) {
      complete = false;
    }
    return {
      header,
      ...(ending ? { ending } : {}),
      ...(complete !== undefined ? { complete } : {}),
      entries,
    };
  }

  #detect(text: string, line: number): TapeEntry[] {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (cause) {
      const trimmed = text.trim();
      if (trimmed.startsWith("{") && !trimmed.endsWith("}")) {
        // the first line of a JSON document written over several lines (a snapshot)
        this.#kind = "document";
        this.#documentLine = line;
        this.#document.push(text);
        return [];
      }
      throw this.#error(SyntaxError, line, `is not JSON (${messageOf(cause)})`);
    }
    this.#nesting(value, line);
    if (!isObject(value)) throw this.#error(SyntaxError, line, "is not a JSON object");
    if (isSnapshot(value)) {
      this.#kind = "snapshot";
      return this.#snapshot(value);
    }
    if (has(value, "dir") && !has(value, "t")) {
      this.#kind = "cassette";
      this.#header = { version: TAPE_VERSION, converted_from: CASSETTE };
      return this.#cassetteLine(value, line);
    }
    if (typeof value.type === "string" && !has(value, "dir")) {
      this.#kind = "frames";
      this.#header = { version: TAPE_VERSION, converted_from: CASSETTE_FRAMES };
      return [this.#frameLine(value, line)];
    }
    if ((has(value, "version") || has(value, "format")) && !has(value, "dir") && !has(value, "t")) {
      this.#kind = "tape";
      this.#header = this.#checkHeader(value, line);
      return [];
    }
    if (has(value, "dir")) {
      throw this.#error(
        SyntaxError,
        line,
        `is an entry, but a tape starts with a header line ({"format":"${TAPE_FORMAT}","version":${TAPE_VERSION}})`,
      );
    }
    throw this.#error(
      SyntaxError,
      line,
      "is not a tape header, a cassette entry, a frame or a snapshot document",
    );
  }

  #checkHeader(value: Record<string, unknown>, line: number): TapeHeader {
    if (value.format !== undefined && value.format !== TAPE_FORMAT) {
      throw this.#error(
        SyntaxError,
        line,
        `is a header of an unknown format ${
          JSON.stringify(value.format)
        } (expected "${TAPE_FORMAT}")`,
      );
    }
    const version = value.version;
    if (typeof version !== "number" || !Number.isInteger(version) || version < 1) {
      throw this.#error(
        SyntaxError,
        line,
        `is a header without a valid version (got ${JSON.stringify(version)})`,
      );
    }
    if (version > TAPE_VERSION) {
      throw this.#error(
        RangeError,
        line,
        `is a header of version ${version}, newer than this library reads (${TAPE_VERSION})`,
      );
    }
    return value as TapeHeader;
  }

  #tapeLine(value: unknown, line: number, text = ""): TapeEntry[] {
    if (this.#blankLine !== 0) {
      throw this.#error(SyntaxError, this.#blankLine, "is blank, in the middle of the tape");
    }
    if (this.#endLine !== 0) {
      throw this.#error(SyntaxError, line, `comes after the end line (line ${this.#endLine})`);
    }
    if (!isObject(value)) throw this.#error(SyntaxError, line, "is not a JSON object");
    const t = this.#time(value.t, line);
    if ("end" in value) {
      const end = value.end;
      if (!isObject(end)) throw this.#error(SyntaxError, line, "has an end that is not an object");
      const { code, signal } = end;
      if (code !== null && (typeof code !== "number" || !Number.isInteger(code))) {
        throw this.#error(SyntaxError, line, "has an end without an integer or null code");
      }
      if (signal !== null && typeof signal !== "string") {
        throw this.#error(SyntaxError, line, "has an end without a string or null signal");
      }
      this.#ending = { t, code, signal };
      this.#endLine = line;
      return [];
    }
    const dir = value.dir;
    if (dir === undefined) throw this.#error(SyntaxError, line, "has no dir");
    if (dir === "stderr") {
      if (typeof value.text !== "string") {
        throw this.#error(SyntaxError, line, "is a stderr entry without a text string");
      }
      return [{ t, dir, text: value.text, line }];
    }
    if (dir !== "sdk->cli" && dir !== "cli->sdk") {
      throw this.#error(
        RangeError,
        line,
        `has an unknown dir ${JSON.stringify(dir)} (expected "sdk->cli", "cli->sdk" or "stderr")`,
      );
    }
    if ("frame" in value) {
      if (!isObject(value.frame)) {
        throw this.#error(SyntaxError, line, "has a frame that is not a JSON object");
      }
      keepFrameText(value, text);
      return [{ t, dir, frame: value.frame as Frame, line }];
    }
    if (typeof value.raw === "string") return [{ t, dir, raw: value.raw, line }];
    throw this.#error(SyntaxError, line, "has neither a frame nor a raw string");
  }

  #cassetteLine(value: unknown, line: number): TapeEntry[] {
    if (!isObject(value)) throw this.#error(SyntaxError, line, "is not a JSON object");
    if (value.dir === "read") {
      if (!isObject(value.frame)) {
        throw this.#error(SyntaxError, line, "is a read entry without a frame object");
      }
      return [{ t: 0, dir: "cli->sdk", frame: value.frame as Frame, line }];
    }
    if (value.dir === "write") {
      if (typeof value.data !== "string") {
        throw this.#error(SyntaxError, line, "is a write entry without a data string");
      }
      // what the SDK wrote in one call: one or more stream-json lines
      return value.data.split("\n").filter((text) => text.trim() !== "").map((text) =>
        wireLineEntry(text.endsWith("\r") ? text.slice(0, -1) : text, "sdk->cli", { t: 0, line })
      );
    }
    throw this.#error(
      RangeError,
      line,
      `has an unknown dir ${JSON.stringify(value.dir)} (expected "read" or "write")`,
    );
  }

  #frameLine(value: unknown, line: number): TapeEntry {
    if (!isObject(value) || typeof value.type !== "string") {
      throw this.#error(SyntaxError, line, "is not a frame (a JSON object with a string type)");
    }
    return { t: 0, dir: "cli->sdk", frame: value as Frame, line };
  }

  #snapshot(doc: Record<string, unknown>): TapeEntry[] {
    const { messages, version, ...rest } = doc;
    const header: TapeHeader = { version: TAPE_VERSION, converted_from: RUST_SNAPSHOT };
    for (const [key, v] of Object.entries(rest)) {
      if (key !== "format" && key !== "converted_from") header[key] = v;
    }
    if (version !== undefined) header.snapshot_version = version;
    this.#header = header;
    const entries: TapeEntry[] = [];
    (messages as unknown[]).forEach((message, i) => {
      const where = `messages[${i}]`;
      if (!isObject(message)) throw this.#docError(SyntaxError, where, "is not an object");
      const t = message.offset_ms;
      if (typeof t !== "number") throw this.#docError(SyntaxError, where, "has no offset_ms");
      if (!Number.isFinite(t) || t < 0) {
        throw this.#docError(RangeError, where, `has an offset_ms out of range (${t})`);
      }
      const direction = message.direction;
      if (direction !== "Sent" && direction !== "Received") {
        throw this.#docError(
          RangeError,
          where,
          `has an unknown direction ${JSON.stringify(direction)} (expected "Sent" or "Received")`,
        );
      }
      const dir: TapeDirection = direction === "Sent" ? "sdk->cli" : "cli->sdk";
      const content = message.content;
      if (isObject(content)) entries.push({ t, dir, frame: content as Frame, line: 0 });
      else if (typeof content === "string") {
        const text = content.endsWith("\n") ? content.slice(0, -1) : content;
        entries.push(wireLineEntry(text, dir, { t, line: 0 }));
      } else {
        throw this.#docError(
          SyntaxError,
          where,
          "has a content that is neither an object nor text",
        );
      }
    });
    return entries;
  }

  #time(t: unknown, line: number): number {
    if (typeof t !== "number") throw this.#error(SyntaxError, line, "has no time (t)");
    if (!Number.isFinite(t) || t < 0) {
      throw this.#error(RangeError, line, `has a time out of range (t: ${t})`);
    }
    return t;
  }

  #json(text: string, line: number): unknown {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (cause) {
      throw this.#error(SyntaxError, line, `is not JSON (${messageOf(cause)})`);
    }
    this.#nesting(value, line);
    return value;
  }

  /** Refuses a line nested deeper than the product's limit, naming where. */
  #nesting(value: unknown, line: number): void {
    const at = nestedBeyond(value);
    const deep = `nests deeper than ${MAX_NESTING_TEXT} levels at '${at}' (${NESTING_WHY})`;
    if (at !== undefined) throw this.#error(RangeError, line, deep);
  }

  #where(): string {
    return this.#source !== undefined ? ` (in ${this.#source})` : "";
  }

  #error(Class: ErrorClass, line: number, what: string): Error {
    return new Class(`Cannot load tape: line ${line} ${what}${this.#where()}`);
  }

  #docError(Class: ErrorClass, where: string, what: string): Error {
    return new Class(`Cannot load tape: snapshot ${where} ${what}${this.#where()}`);
  }
}

/** Whether a JSON value is a Rust SDK snapshot document. */
function isSnapshot(value: unknown): boolean {
  return isObject(value) && Array.isArray(value.messages) && !has(value, "dir");
}

function has(value: Record<string, unknown>, key: string): boolean {
  return Object.hasOwn(value, key);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Reads a tape from text: this library's format, a claude-agent-cassette tape or frames
 * file, or a Rust SDK snapshot document, detected from the content. Converted formats get
 * a header with `converted_from` (`"claude-agent-cassette"`,
 * `"claude-agent-cassette/frames"`, `"rust-sdk-snapshot"`) and times of 0 when they have
 * none. `complete` is `true` when the tape has its end line, `false` when a tape whose
 * header names the format lacks it (a cut recording), and `undefined` otherwise (the first
 * tapes, without `format`; converted ones; a header saying `"ending_recorded": false`).
 *
 * @param text The tape's text.
 * @param options `source`: the path or URL it came from, for messages.
 * @returns The tape.
 * @throws {SyntaxError} A line that is not JSON or not an entry, a missing time or header,
 * a blank line in the middle; the message names the line and the source.
 * @throws {RangeError} A header of a newer version, an unknown `dir`, a negative time.
 *
 * @example Reading this library's format
 * ```ts
 * import { parseTape } from "@x/claude-mock/cassette";
 * const tape = parseTape([
 *   '{"format":"claude-mock-tape","version":1,"cli_version":"2.1.328"}',
 *   '{"t":0,"dir":"sdk->cli","frame":{"type":"user","message":{"role":"user","content":"hi"}}}',
 *   '{"t":9,"dir":"cli->sdk","frame":{"type":"result","subtype":"success"}}',
 *   '{"t":10,"end":{"code":0,"signal":null}}',
 *   "",
 * ].join("\n"));
 * console.log(tape.entries.length, tape.ending?.code, tape.complete); // 2 0 true
 * ```
 *
 * @example Reading a claude-agent-cassette tape
 * ```ts
 * import { parseTape } from "@x/claude-mock/cassette";
 * const tape = parseTape([
 *   '{"dir": "write", "data": "{\\"type\\": \\"user\\", \\"message\\": {\\"role\\": \\"user\\", \\"content\\": \\"hi\\"}}"}',
 *   '{"dir": "read", "frame": {"type": "result", "subtype": "success"}}',
 * ].join("\n"));
 * console.log(tape.header.converted_from, tape.entries.map((e) => e.dir).join(" ")); // claude-agent-cassette sdk->cli cli->sdk
 * ```
 *
 * @example A line that is not JSON
 * ```ts
 * import { parseTape } from "@x/claude-mock/cassette";
 * try {
 *   parseTape('{"version":1}\n{"t":0,"dir":"cli->sdk","frame":{"type":"x"}}\nnot json', {
 *     source: "hello.jsonl",
 *   });
 * } catch (error) {
 *   console.log((error as SyntaxError).message.startsWith("Cannot load tape: line 3 is not JSON")); // true
 * }
 * ```
 */
export function parseTape(text: string, options: ParseTapeOptions = {}): Tape {
  if (typeof text !== "string") {
    throw new TypeError(
      `Cannot load tape: parseTape needs the tape's text, got ${
        text === null ? "null" : typeof text
      }${options?.source ? ` (in ${options.source})` : ""}`,
    );
  }
  const parser = new TapeLineParser(options);
  const entries: TapeEntry[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf("\n", start);
    const line = nl < 0 ? text.slice(start) : text.slice(start, nl);
    // the text after the last newline is a line only when it is not empty
    if (nl >= 0 || line !== "") {
      for (const entry of parser.push(line)) entries.push(entry);
    }
    if (nl < 0) break;
    start = nl + 1;
  }
  const end = parser.finish();
  for (const entry of end.entries) entries.push(entry);
  return {
    header: end.header,
    entries,
    ...(end.ending ? { ending: end.ending } : {}),
    ...(end.complete !== undefined ? { complete: end.complete } : {}),
    ...(options.source !== undefined ? { source: options.source } : {}),
  };
}

/**
 * A line that crossed the wire as an entry: a frame when it is a JSON object nested at most
 * 1,000 levels deep (as a tape is read), else the raw text as written.
 *
 * @example A frame and a raw line
 * ```ts
 * import { wireLineEntry } from "./parse_tape.ts";
 * console.log("frame" in wireLineEntry('{"type":"result"}', "cli->sdk", { t: 1, line: 0 })); // true
 * console.log(wireLineEntry("oops", "cli->sdk", { t: 1, line: 0 }).dir); // cli->sdk
 * ```
 */
export function wireLineEntry(
  text: string,
  dir: TapeDirection,
  at: { t: number; line: number },
): TapeEntry {
  if (text.trimStart().startsWith("{")) {
    try {
      const value = JSON.parse(text);
      // a frame nested deeper than the tape reader takes is kept as written, as a raw line
      if (isObject(value) && nestedBeyond(value) === undefined) {
        return { t: at.t, dir, frame: value as Frame, line: at.line };
      }
    } catch {
      // not JSON: kept as written
    }
  }
  return { t: at.t, dir, raw: text, line: at.line };
}

/**
 * One entry as its tape line (this library's format, without the newline).
 *
 * @example An entry's line
 * ```ts
 * import { tapeEntryLine } from "./parse_tape.ts";
 * console.log(tapeEntryLine({ t: 1, dir: "stderr", text: "warn\n", line: 0 })); // {"t":1,"dir":"stderr","text":"warn\n"}
 * ```
 */
export function tapeEntryLine(entry: TapeEntry): string {
  if ("frame" in entry) return JSON.stringify({ t: entry.t, dir: entry.dir, frame: entry.frame });
  if ("raw" in entry) return JSON.stringify({ t: entry.t, dir: entry.dir, raw: entry.raw });
  return JSON.stringify({ t: entry.t, dir: entry.dir, text: entry.text });
}

/**
 * A tape's header as its first line: `format` and `version` first (this library's).
 *
 * @example A header line
 * ```ts
 * import { tapeHeaderLine } from "./parse_tape.ts";
 * console.log(tapeHeaderLine({ version: 1, scenario: "hello" })); // {"format":"claude-mock-tape","version":1,"scenario":"hello"}
 * ```
 */
export function tapeHeaderLine(header: TapeHeader): string {
  const { format: _format, version: _version, ...rest } = header;
  return JSON.stringify({ format: TAPE_FORMAT, version: TAPE_VERSION, ...rest });
}

/** The header a tape is written with: `ending_recorded: false` when its ending is unknown. */
function headerToWrite(tape: Tape): TapeHeader {
  const unknownEnding = !tape.ending && tape.complete === undefined &&
    tape.header.converted_from === undefined;
  return unknownEnding ? { ...tape.header, ending_recorded: false } : tape.header;
}

/**
 * A tape's end line.
 *
 * @example An end line
 * ```ts
 * import { tapeEndLine } from "./parse_tape.ts";
 * console.log(tapeEndLine({ t: 5, code: 0, signal: null })); // {"t":5,"end":{"code":0,"signal":null}}
 * ```
 */
export function tapeEndLine(ending: TapeEnding): string {
  return JSON.stringify({ t: ending.t, end: { code: ending.code, signal: ending.signal } });
}

/**
 * Writes a tape in this library's format: the header (with `format` and `version` first),
 * one line per entry, the end line when the tape has an ending, and a final newline.
 * `parseTape(serializeTape(tape))` gives the tape back: entries get the line numbers of the
 * new text, and the header gains `format` (and `"ending_recorded": false` when the tape
 * never said how the process ended, so it does not read back as a cut recording).
 *
 * @param tape The tape.
 * @returns Its JSONL text.
 *
 * @example Writing a tape and reading it back
 * ```ts
 * import { parseTape, serializeTape } from "@x/claude-mock/cassette";
 * const tape = parseTape('{"format":"claude-mock-tape","version":1}\n{"t":4,"dir":"cli->sdk","raw":"oops"}\n');
 * const text = serializeTape(tape);
 * console.log(text.split("\n")[0]); // {"format":"claude-mock-tape","version":1}
 * console.log(parseTape(text).entries[0].line); // 2
 * ```
 */
export function serializeTape(tape: Tape): string {
  const lines = [tapeHeaderLine(headerToWrite(tape))];
  for (const entry of tape.entries) lines.push(tapeEntryLine(entry));
  if (tape.ending) lines.push(tapeEndLine(tape.ending));
  return lines.join("\n") + "\n";
}
