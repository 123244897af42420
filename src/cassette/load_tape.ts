/**
 * Loading a tape from a file path, a `file:` URL or an `http(s):` URL, whole
 * ({@linkcode loadTape}) or entry by entry in bounded memory ({@linkcode readTapeEntries}).
 *
 * @module
 */

import { badUtf8, describeBadUtf8 } from "../wire/_utf8.ts";
import { readChunks } from "../host/_fs.ts";
import { TapeLineParser } from "./parse_tape.ts";
import type { Tape, TapeEntry } from "./tape.ts";

/** Options for {@linkcode loadTape} and {@linkcode readTapeEntries}. */
export interface LoadTapeOptions {
  /** Aborts a download (`http(s):` URLs). */
  signal?: AbortSignal;
}

/** A tape without its entries: what {@linkcode readTapeEntries} returns once it has read them all. */
export type TapeSummary = Omit<Tape, "entries">;

const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;

/** The source name, and the bytes. */
async function open(
  pathOrUrl: string | URL,
  options: LoadTapeOptions,
): Promise<{ source: string; stream: ReadableStream<Uint8Array> }> {
  if (typeof pathOrUrl !== "string" && !(pathOrUrl instanceof URL)) {
    throw new TypeError(
      `Cannot load tape: expected a file path or URL, got ${
        pathOrUrl === null ? "null" : typeof pathOrUrl
      }`,
    );
  }
  const url = pathOrUrl instanceof URL
    ? pathOrUrl
    : URL_LIKE.test(pathOrUrl)
    ? new URL(pathOrUrl)
    : undefined;
  if (url === undefined || url.protocol === "file:") {
    const path = url ? decodeURIComponent(url.pathname) : pathOrUrl as string;
    const source = typeof pathOrUrl === "string" ? pathOrUrl : path;
    if (path === "") throw new TypeError("Cannot load tape: the path is empty");
    try {
      return { source, stream: await readChunks(path) };
    } catch (cause) {
      throw new Error(`Cannot load tape: cannot read ${source} (${messageOf(cause)})`, { cause });
    }
  }
  const source = url.href;
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(
      `Cannot load tape: ${source} is a ${url.protocol} URL; use a path or a file:, http: or https: URL`,
    );
  }
  let response: Response;
  try {
    response = await fetch(url, { signal: options.signal });
  } catch (cause) {
    throw new Error(`Cannot load tape: cannot fetch ${source} (${messageOf(cause)})`, { cause });
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new Error(
      `Cannot load tape: GET ${source} answered ${response.status} ${response.statusText}`.trim(),
    );
  }
  return { source, stream: response.body ?? new Blob([]).stream() };
}

/**
 * Reads a tape entry by entry, line by line, so a tape of any size loads in bounded memory
 * (a snapshot document written over several lines is the exception: it is parsed whole).
 * The generator's return value is the rest of the tape: header, ending, `complete` and
 * `source`. Stopping early (`break`) closes the file.
 *
 * @param pathOrUrl A file path, a `file:` URL, or an `http(s):` URL.
 * @param options `signal` aborts a download.
 * @returns The entries, in order; then the header and the ending.
 * @throws {SyntaxError} A line that is not part of a tape (the message names line and file).
 * @throws {RangeError} See {@linkcode parseTape}.
 * @throws {Error} A file that cannot be read, a URL that does not answer 200.
 *
 * @example Counting the frames of a tape without loading it
 * ```ts
 * import { readTapeEntries } from "@x/claude-mock/cassette";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(
 *   `${dir}/t.jsonl`,
 *   '{"format":"claude-mock-tape","version":1}\n{"t":0,"dir":"cli->sdk","frame":{"type":"result"}}\n',
 * );
 * let frames = 0;
 * for await (const entry of readTapeEntries(`${dir}/t.jsonl`)) if ("frame" in entry) frames++;
 * console.log(frames); // 1
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @example The header and ending, after the entries
 * ```ts
 * import { readTapeEntries } from "@x/claude-mock/cassette";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/t.jsonl`, '{"format":"claude-mock-tape","version":1}\n');
 * const entries = readTapeEntries(new URL(`file://${dir}/t.jsonl`));
 * let next = await entries.next();
 * while (!next.done) next = await entries.next();
 * console.log(next.value.complete); // false (no end line: a cut recording)
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function* readTapeEntries(
  pathOrUrl: string | URL,
  options: LoadTapeOptions = {},
): AsyncGenerator<TapeEntry, TapeSummary, undefined> {
  const { source, stream } = await open(pathOrUrl, options);
  const parser = new TapeLineParser({ source });
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const reader = stream.getReader();
  let ended = false;
  let lines = 0;
  let offset = 0;
  /** Bytes that are not UTF-8: an error naming where, never a silent U+FFFD in a frame. */
  const notUtf8 = (bytes?: Uint8Array): Error => {
    const bad = bytes && badUtf8(bytes);
    const where = bad
      ? describeBadUtf8(bytes, bad, { line: lines + 1, offset })
      : `the file ends in the middle of a UTF-8 character (line ${lines + 1})`;
    return new SyntaxError(`Cannot load tape: it is not UTF-8 text: ${where} (in ${source})`);
  };
  try {
    // the current line's text in pieces, joined once its end comes: a line of any length is
    // read in linear time (appending to one string and searching it from its start was
    // quadratic: a 100 MB line took minutes)
    let pending: string[] = [];
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (cause) {
        throw new Error(`Cannot load tape: reading ${source} failed (${messageOf(cause)})`, {
          cause,
        });
      }
      if (chunk.done) break;
      let text: string;
      try {
        text = decoder.decode(chunk.value, { stream: true });
      } catch {
        throw notUtf8(chunk.value);
      }
      offset += chunk.value.length;
      let start = 0;
      let nl: number;
      while ((nl = text.indexOf("\n", start)) >= 0) {
        pending.push(text.slice(start, nl));
        const line = pending.length === 1 ? pending[0] : pending.join("");
        pending = [];
        lines++;
        yield* parser.push(line);
        start = nl + 1;
      }
      if (start < text.length) pending.push(start === 0 ? text : text.slice(start));
    }
    ended = true;
    try {
      pending.push(decoder.decode());
    } catch {
      throw notUtf8();
    }
    const rest = pending.join("");
    if (rest !== "") yield* parser.push(rest);
    const end = parser.finish();
    yield* end.entries;
    return {
      header: end.header,
      ...(end.ending ? { ending: end.ending } : {}),
      ...(end.complete !== undefined ? { complete: end.complete } : {}),
      source,
    };
  } finally {
    if (!ended) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/**
 * Loads a whole tape from a file or URL, in any format {@linkcode parseTape} reads.
 *
 * @param pathOrUrl A file path, a `file:` URL, or an `http(s):` URL.
 * @param options `signal` aborts a download.
 * @returns The tape, with `source` set to the path or URL.
 * @throws {SyntaxError} A line that is not part of a tape (the message names line and file).
 * @throws {RangeError} See {@linkcode parseTape}.
 * @throws {Error} A file that cannot be read, a URL that does not answer 200.
 *
 * @example Loading a tape file
 * ```ts
 * import { loadTape } from "@x/claude-mock/cassette";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(
 *   `${dir}/hello.jsonl`,
 *   [
 *     '{"format":"claude-mock-tape","version":1}',
 *     '{"t":1,"dir":"cli->sdk","frame":{"type":"result","subtype":"success"}}',
 *     '{"t":2,"end":{"code":0,"signal":null}}',
 *   ].join("\n"),
 * );
 * const tape = await loadTape(`${dir}/hello.jsonl`);
 * console.log(tape.entries.length, tape.complete); // 1 true
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function loadTape(
  pathOrUrl: string | URL,
  options: LoadTapeOptions = {},
): Promise<Tape> {
  const entries: TapeEntry[] = [];
  const reading = readTapeEntries(pathOrUrl, options);
  for (;;) {
    const next = await reading.next();
    if (next.done) {
      const { header, ...rest } = next.value;
      return { header, entries, ...rest };
    }
    entries.push(next.value);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
