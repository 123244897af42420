/**
 * The tape: a recording of one `claude` process's wire, both directions, with times.
 *
 * On disk a tape is JSONL: a header line, then one line per frame
 * (`{"t": ms, "dir": "sdk->cli" | "cli->sdk", "frame": {…}}`, or `"raw": "…"` for a line
 * that was not JSON), `{"t", "dir": "stderr", "text"}` for what the process wrote to
 * stderr, and a last `{"t", "end": {"code", "signal"}}` line saying how the process ended.
 * A tape without that last line was cut short (a crash of the recorder): it loads with
 * `complete: false` and every frame written before the cut.
 *
 * @module
 */

import type { Frame } from "../wire/frame.ts";

/** The format name in a tape's header. */
export const TAPE_FORMAT = "claude-mock-tape";
/** The format version this library writes (and the highest it reads). */
export const TAPE_VERSION = 1;

/** Which way a frame went: from the SDK (the app) to the CLI, or back. */
export type TapeDirection = "sdk->cli" | "cli->sdk";

/** A tape's first line: what was recorded, when, with what. */
export interface TapeHeader {
  /** `"claude-mock-tape"`; absent in tapes made by the first versions. */
  format?: string;
  /** Format version (1). */
  version: number;
  /** When the recording started (ISO 8601). */
  recorded_at?: string;
  /** The CLI's version (`claude --version`, without the suffix). */
  cli_version?: string;
  /** The SDK's version, when an SDK drove the CLI. */
  sdk_version?: string;
  /** The CLI's arguments. */
  args?: string[];
  /** The scenario or test the tape was recorded for. */
  scenario?: string;
  /** The test that recorded it. */
  test?: string;
  /** Where it came from when converted from another format (`claude-agent-cassette`, …). */
  converted_from?: string;
  /** Any other field a recorder kept (options, prompt, cwd placeholders, …). */
  [key: string]: unknown;
}

/** One frame on the wire. */
export interface TapeFrameEntry {
  /** Milliseconds since the recording started. */
  t: number;
  /** Which way it went. */
  dir: TapeDirection;
  /**
   * The frame, parsed. Frames `parseTape` reads from this library's tapes are frozen (a replay
   * writes their bytes as recorded): copy one to change it.
   */
  frame: Frame;
  /** 1-based line in the tape file (0 when built in memory). */
  line: number;
}

/** A line on the wire that was not a JSON object (kept as written, without its newline). */
export interface TapeRawEntry {
  /** Milliseconds since the recording started. */
  t: number;
  /** Which way it went. */
  dir: TapeDirection;
  /** The line as written. */
  raw: string;
  /** 1-based line in the tape file (0 when built in memory). */
  line: number;
}

/** Text the process wrote to stderr. */
export interface TapeStderrEntry {
  /** Milliseconds since the recording started. */
  t: number;
  /** `"stderr"`. */
  dir: "stderr";
  /** The text (one or more lines). */
  text: string;
  /** 1-based line in the tape file (0 when built in memory). */
  line: number;
}

/** One entry of a tape, in the order it happened. */
export type TapeEntry = TapeFrameEntry | TapeRawEntry | TapeStderrEntry;

/** How the recorded process ended. */
export interface TapeEnding {
  /** Milliseconds since the recording started. */
  t: number;
  /** Exit code, `null` when a signal ended it. */
  code: number | null;
  /** The signal that ended it (`"SIGTERM"`, …), or `null`. */
  signal: string | null;
}

/** A loaded tape. */
export interface Tape {
  /** The header. */
  header: TapeHeader;
  /** The entries, in recorded order. */
  entries: TapeEntry[];
  /** How the process ended; absent when the tape does not say. */
  ending?: TapeEnding;
  /**
   * `false` when a tape in this library's format has no ending line (the recording was cut
   * short); `true` when it has one; `undefined` for formats that never record the ending.
   */
  complete?: boolean;
  /** Where it was loaded from (a path or URL), for messages. */
  source?: string;
}

/** Whether an entry is a parsed frame. */
export function isFrameEntry(entry: TapeEntry): entry is TapeFrameEntry {
  return "frame" in entry;
}

/**
 * Throws a `TypeError` starting with `what` (such as "Cannot scrub tape") unless `tape` has a
 * header object and an entries array: a value that is no tape is named, never read blindly.
 * Internal. @internal
 */
export function requireTape(tape: unknown, what: string): asserts tape is Tape {
  const t = tape as Partial<Tape> | null;
  const problem = t === null || typeof t !== "object"
    ? `got ${t === null ? "null" : Array.isArray(t) ? "an array" : typeof t}`
    : t.header === null || typeof t.header !== "object"
    ? "got an object without a header object"
    : !Array.isArray(t.entries)
    ? "got an object without an entries array"
    : undefined;
  if (problem !== undefined) {
    throw new TypeError(`${what}: expected a tape (what loadTape or parseTape gives), ${problem}`);
  }
}
