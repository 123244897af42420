/**
 * The fake binary's standard streams as three functions: read a chunk of stdin, write to
 * stdout, write to stderr. The binary's own process hands it the host's file handles
 * (`_main.ts`), so print mode never makes a Web Stream (on Deno the first one loads the
 * streams implementation, about 5 ms of start-up); `runCli` adapts the Web Streams it is
 * given. Internal.
 *
 * @module
 */

import { realTimeout } from "../timing/real_time.ts";

/** Standard input, output and error, as functions. */
export interface Stdio {
  /** The next chunk of stdin, or `null` at its end. */
  read(): Promise<Uint8Array | null>;
  /** Gives up on stdin: a read in progress may be dropped. */
  cancelRead(): void;
  /** Writes to stdout, in call order; rejects when its reader went away. */
  write(chunk: Uint8Array): Promise<void>;
  /** Writes to stderr, in call order. */
  writeErr(chunk: Uint8Array): Promise<void>;
  /** Arms the timer that gives up on a silent stdin; returns its canceller (default: `realTimeout`). */
  quietTimer?: (fn: () => void, ms: number) => () => void;
}

/** {@linkcode Stdio} over Web Streams; `close` closes stdout and stderr and cancels stdin. */
export function streamStdio(
  streams: {
    stdin: ReadableStream<Uint8Array>;
    stdout: WritableStream<Uint8Array>;
    stderr: WritableStream<Uint8Array>;
  },
): Stdio & { close(): Promise<void> } {
  const out = streams.stdout.getWriter();
  const err = streams.stderr.getWriter();
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return {
    async read() {
      reader ??= streams.stdin.getReader();
      const { done, value } = await reader.read();
      return done ? null : value;
    },
    cancelRead: () => void reader?.cancel().catch(() => {}),
    write: (chunk) => out.write(chunk),
    writeErr: (chunk) => err.write(chunk),
    async close() {
      await out.close().catch(() => {});
      await err.close().catch(() => {});
      // as a process that exits closes its stdin: a read still pending ends, the writer sees it
      await reader?.cancel().catch(() => {});
    },
  };
}

/** Stdin as a stream, read on demand (a subcommand takes streams). */
export function readableOf(stdio: Stdio): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = await stdio.read();
      if (chunk === null) controller.close();
      else controller.enqueue(chunk);
    },
    cancel: () => stdio.cancelRead(),
  }, { highWaterMark: 0 });
}

/** A writable over one of the write functions (a subcommand takes streams). */
export function writableOf(
  write: (chunk: Uint8Array) => Promise<void>,
): WritableStream<Uint8Array> {
  return new WritableStream<Uint8Array>({ write: (chunk) => write(chunk) });
}

/** The warning the real CLI prints when piped stdin stays silent for 3 s. */
const QUIET_WARNING =
  "Warning: no stdin data received in 3s, proceeding without it. If piping from a slow command, redirect stdin explicitly: < /dev/null to skip, or wait longer.\n";

/**
 * All of stdin as text. A stdin that may stall (a pipe or a socket) and stays empty for 3 s
 * is given up on with the real CLI's warning on stderr; a file or `/dev/null` ends by itself
 * and is read without a timer (arming one costs start-up time on Deno).
 */
export async function readAllStdin(
  stdio: Stdio,
  options: {
    /** Whether stdin may stay open without data (a pipe or a socket). */
    mayStall: boolean;
    /**
     * Stops reading once the text is longer than this many characters (the rest is not
     * read: memory stays bounded); the text returned is then longer than `maxChars`.
     */
    maxChars?: number;
  },
): Promise<string> {
  const max = options.maxChars ?? Infinity;
  const decoder = new TextDecoder();
  let cancel = () => {};
  const timer = stdio.quietTimer ?? realTimeout;
  const quiet = options.mayStall
    ? new Promise<"quiet">((resolve) => {
      cancel = timer(() => resolve("quiet"), 3000);
    })
    : undefined;
  try {
    const first = quiet ? await Promise.race([stdio.read(), quiet]) : await stdio.read();
    cancel();
    if (first === "quiet") {
      await stdio.writeErr(new TextEncoder().encode(QUIET_WARNING));
      stdio.cancelRead();
      return "";
    }
    if (first === null) return "";
    let text = decoder.decode(first, { stream: true });
    for (let chunk; text.length <= max && (chunk = await stdio.read()) !== null;) {
      text += decoder.decode(chunk, { stream: true });
    }
    if (text.length > max) {
      stdio.cancelRead();
      return text;
    }
    return text + decoder.decode();
  } finally {
    cancel();
  }
}

/** Splits bytes into lines (without their newlines; empty lines dropped), across chunks. */
export class LineBuffer {
  #decoder = new TextDecoder();
  #rest = "";

  /** The lines `chunk` completes. */
  push(chunk: Uint8Array): string[] {
    const text = this.#rest + this.#decoder.decode(chunk, { stream: true });
    const parts = text.split("\n");
    this.#rest = parts.pop()!;
    return parts.filter((line) => line !== "");
  }

  /** The last line, when the bytes did not end with a newline. */
  end(): string[] {
    const rest = this.#rest + this.#decoder.decode();
    this.#rest = "";
    return rest === "" ? [] : [rest];
  }
}

/**
 * Writes all of each chunk, in call order; after a failure every write fails. Chunks handed
 * over while a write is in flight go out together in the next write (one system call for a
 * burst of lines).
 */
export function serialWriter(
  file: { write(data: Uint8Array): Promise<number> },
): (chunk: Uint8Array) => Promise<void> {
  let queued: Uint8Array[] = [];
  let next: Promise<void> | undefined;
  let failure: { error: unknown } | undefined;
  const writeAll = async (bytes: Uint8Array) => {
    for (let at = 0; at < bytes.length;) at += await file.write(bytes.subarray(at));
  };
  const flush = async (): Promise<void> => {
    const chunks = queued;
    queued = [];
    next = undefined;
    if (failure) throw failure.error;
    try {
      await writeAll(chunks.length === 1 ? chunks[0] : concat(chunks));
    } catch (error) {
      failure = { error };
      throw error;
    }
  };
  let last: Promise<void> = Promise.resolve();
  return (chunk) => {
    queued.push(chunk);
    // the chunks queued before `last` settles share one write
    next ??= last.then(flush, flush);
    last = next;
    return next;
  };
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}
