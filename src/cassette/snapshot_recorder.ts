/**
 * Recording a `claude` process's wire as a tape, as a stream adapter: wrap the duplex a
 * client talks through, and both directions are teed into the tape as they pass.
 *
 * @module
 */

import { realNow } from "../timing/real_time.ts";
import { wireLineEntry } from "./parse_tape.ts";
import {
  type Tape,
  TAPE_FORMAT,
  TAPE_VERSION,
  type TapeDirection,
  type TapeEnding,
  type TapeEntry,
  type TapeHeader,
} from "./tape.ts";
import { TapeWriter } from "./tape_writer.ts";
import { kindOf } from "../wire/_kind_of.ts";

/** A process's stdio as Web Streams: its stdout (`readable`) and its stdin (`writable`). */
export interface RecordableDuplex {
  /** stdout: what the CLI writes (stream-json lines). */
  readable: ReadableStream<Uint8Array>;
  /** stdin: what the client writes. */
  writable: WritableStream<Uint8Array | string>;
}

/** Options for {@linkcode SnapshotRecorder}. */
export interface SnapshotRecorderOptions {
  /** Header fields (`recorded_at` defaults to now); with a `TapeWriter` as `out`, its header is used. */
  header?: Partial<TapeHeader>;
  /** Milliseconds, for the entries' times (relative to the recorder's creation). Default: a monotonic real clock. */
  clock?: () => number;
  /** A file to write the tape to as it is recorded (a path or a {@linkcode TapeWriter}); default: memory only. */
  out?: string | TapeWriter;
}

interface LineState {
  decoder: InstanceType<typeof TextDecoder>;
  buffer: string;
}

/**
 * Records one process's wire: `wrap(duplex)` gives the client a duplex whose bytes pass
 * through unchanged while every line of both directions lands in the tape (split on `"\n"`
 * across chunks; a line that is not a JSON object is kept as `raw`). The process's output is
 * read as it comes, as a pipe is, so everything it wrote is recorded even when the client
 * reads slowly or cancels (the cancel then reaches the process, as a closed pipe would).
 * `stderr(text)` and `end(status)` add the rest; `tape()` is the tape so far, in memory;
 * `close()` finishes the file when there is one. Chunks from other transports (Node
 * streams, sockets) can be fed with `record(dir, chunk)` and `flush(dir)`.
 *
 * @example Recording an in-process mock session
 * ```ts
 * import { MockTransport, ScenarioBuilder } from "@x/claude-mock";
 * import { SnapshotRecorder } from "@x/claude-mock/cassette";
 * const mock = new MockTransport(new ScenarioBuilder().on("hello").respond("Hi!").build());
 * const recorder = new SnapshotRecorder({ header: { scenario: "hello" } });
 * const { readable, writable } = recorder.wrap(mock.connect());
 * const writer = writable.getWriter();
 * await writer.write('{"type":"user","session_id":"","message":{"role":"user","content":"hello"},"parent_tool_use_id":null}\n');
 * await writer.close();
 * await new Response(readable).text();
 * const { code, signal } = await mock.exited;
 * recorder.end({ code, signal });
 * const tape = await recorder.close();
 * console.log(tape.entries[0].dir, tape.complete); // sdk->cli true
 * ```
 *
 * @example Recording into a file
 * ```ts
 * import { loadTape, SnapshotRecorder } from "@x/claude-mock/cassette";
 * const dir = await Deno.makeTempDir();
 * const recorder = new SnapshotRecorder({ out: `${dir}/t.jsonl`, clock: () => 0 });
 * recorder.record("cli->sdk", '{"type":"result","subtype":"success"}\n');
 * recorder.stderr("done\n");
 * recorder.end({ code: 0, signal: null });
 * await recorder.close();
 * console.log((await loadTape(`${dir}/t.jsonl`)).entries.length); // 2
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export class SnapshotRecorder {
  /** The tape's header. */
  readonly header: TapeHeader;
  #clock: () => number;
  #start: number;
  #writer?: TapeWriter;
  #firstLine: number;
  #entries: TapeEntry[] = [];
  #lines: Record<TapeDirection, LineState> = {
    "sdk->cli": { decoder: new TextDecoder(), buffer: "" },
    "cli->sdk": { decoder: new TextDecoder(), buffer: "" },
  };
  #ending?: TapeEnding;
  #wrapped = false;
  #closed = false;
  #closing?: Promise<Tape>;
  #error?: unknown;

  /** A recorder; with `out`, the file is created at once. */
  constructor(options: SnapshotRecorderOptions = {}) {
    this.#clock = options.clock ?? (() => Math.floor(realNow()));
    this.#start = this.#clock();
    if (options.out instanceof TapeWriter) {
      if (options.header !== undefined) {
        throw new TypeError(
          "Cannot create a SnapshotRecorder: give the header to its TapeWriter, not to the recorder",
        );
      }
      this.#writer = options.out;
      this.header = options.out.header;
    } else {
      this.header = {
        format: TAPE_FORMAT,
        version: TAPE_VERSION,
        recorded_at: new Date().toISOString(),
        ...options.header,
      };
      if (typeof options.out === "string") {
        this.#writer = new TapeWriter(options.out, { header: this.header });
      } else if (options.out !== undefined) {
        throw new TypeError(
          `Cannot create a SnapshotRecorder: out must be a path or a TapeWriter, got ${
            kindOf(options.out)
          }`,
        );
      }
    }
    this.#firstLine = this.#writer ? Math.max(this.#writer.lines, 1) + 1 : 0;
    this.#writer?.open().catch((error) => (this.#error ??= error));
  }

  /**
   * The duplex the client should use instead of `duplex`: same bytes, recorded. One
   * recorder records one duplex.
   *
   * @throws {TypeError} When this recorder already wraps a duplex.
   */
  wrap(duplex: RecordableDuplex): RecordableDuplex {
    if (this.#wrapped) {
      throw new TypeError(
        "Cannot wrap a second duplex: a SnapshotRecorder records one process; make another recorder",
      );
    }
    this.#wrapped = true;
    return {
      readable: this.#tapReadable(duplex.readable),
      writable: this.#tapWritable(duplex.writable),
    };
  }

  /** Records a chunk that crossed the wire in direction `dir` (complete lines are entries at once). */
  record(dir: TapeDirection, chunk: Uint8Array | string): void {
    if (this.#closed) return;
    const state = this.#state(dir);
    const text = typeof chunk === "string"
      ? state.decoder.decode() + chunk
      : state.decoder.decode(chunk, { stream: true });
    if (!text.includes("\n")) {
      state.buffer += text;
      return;
    }
    const t = this.#now();
    const buffer = state.buffer + text;
    let start = 0;
    let nl: number;
    while ((nl = buffer.indexOf("\n", start)) >= 0) {
      this.#line(dir, buffer.slice(start, nl), t);
      start = nl + 1;
    }
    state.buffer = buffer.slice(start);
  }

  /** Ends direction `dir`'s current line: a last line without its newline is recorded. */
  flush(dir: TapeDirection): void {
    if (this.#closed) return;
    const state = this.#state(dir);
    const rest = state.buffer + state.decoder.decode();
    state.buffer = "";
    if (rest !== "") this.#line(dir, rest, this.#now());
  }

  /**
   * The app closed the process's stdin: its last line is recorded ({@linkcode flush}), and a
   * file's writer learns it (a last prompt still without its result then makes the recording a
   * failed one: the app gave up on it, as a test that throws mid-query does).
   */
  endInput(): void {
    if (this.#closed) return;
    this.flush("sdk->cli");
    this.#writer?.inputEnded();
  }

  /** Records text the process wrote to stderr (as it came: one or more lines, or part of one). */
  stderr(text: string): void {
    if (this.#closed || text === "") return;
    if (typeof text !== "string") {
      throw new TypeError(`Cannot record stderr: expected text, got ${kindOf(text)}`);
    }
    this.#add({ t: this.#now(), dir: "stderr", text, line: 0 });
  }

  /**
   * Records how the process ended (its exit code, or the signal that killed it); the tape is
   * complete from then on.
   *
   * @throws {TypeError} When the ending was already recorded, or the status is not one.
   */
  end(status: { code: number | null; signal: string | null }): void {
    if (this.#ending) {
      throw new TypeError("Cannot record the ending twice: the process already ended on the tape");
    }
    const { code, signal } = status ?? {};
    if (
      (code !== null && !Number.isInteger(code)) || (signal !== null && typeof signal !== "string")
    ) {
      throw new TypeError(
        `Cannot record the ending: expected {code: integer | null, signal: string | null}, got ${
          JSON.stringify(status)
        }`,
      );
    }
    this.#ending = { t: this.#now(), code, signal };
  }

  /** The tape so far (complete once the ending was recorded). */
  tape(): Tape {
    return {
      header: this.header,
      entries: [...this.#entries],
      ...(this.#ending ? { ending: this.#ending } : {}),
      complete: this.#ending !== undefined,
      ...(this.#writer ? { source: this.#writer.savedTo ?? this.#writer.path } : {}),
    };
  }

  /**
   * Stops recording (what arrives later is not recorded), records the lines still open, and
   * finishes the file when there is one (the end line, when `end` was called, and the rename
   * of `<path>.partial`). Resolves with the tape; rejects when the file could not be written
   * (what was written stays in `<path>.partial`). Calling it again returns the same promise.
   */
  close(): Promise<Tape> {
    this.#closing ??= (async () => {
      this.flush("sdk->cli");
      this.flush("cli->sdk");
      this.#closed = true;
      if (this.#writer) {
        await this.#writer.close(this.#ending).catch((error) => (this.#error ??= error));
      }
      if (this.#error !== undefined) throw this.#error;
      return this.tape();
    })();
    return this.#closing;
  }

  #state(dir: TapeDirection): LineState {
    const state = this.#lines[dir];
    if (!state) {
      throw new TypeError(
        `Cannot record: unknown direction ${JSON.stringify(dir)} (expected sdk->cli or cli->sdk)`,
      );
    }
    return state;
  }

  #now(): number {
    return Math.max(0, this.#clock() - this.#start);
  }

  #line(dir: TapeDirection, text: string, t: number): void {
    if (text.trim() === "") return;
    this.#add(wireLineEntry(text, dir, { t, line: 0 }));
  }

  #add(entry: TapeEntry): void {
    if (this.#writer) {
      entry.line = this.#firstLine + this.#entries.length;
      this.#writer.write(entry).catch((error) => (this.#error ??= error));
    }
    this.#entries.push(entry);
  }

  #tapReadable(source: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
    const reader = source.getReader();
    let cancelled = false;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const pump = async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          this.record("cli->sdk", value);
          if (!cancelled) controller.enqueue(value);
        }
        this.flush("cli->sdk");
        if (!cancelled) controller.close();
      } catch (error) {
        this.flush("cli->sdk");
        if (!cancelled) controller.error(error);
      }
    };
    return new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
        pump();
      },
      async cancel(reason) {
        cancelled = true;
        await reader.cancel(reason);
      },
    });
  }

  #tapWritable(sink: WritableStream<Uint8Array | string>): WritableStream<Uint8Array | string> {
    const writer = sink.getWriter();
    return new WritableStream<Uint8Array | string>({
      write: async (chunk) => {
        this.record("sdk->cli", chunk);
        await writer.write(chunk);
      },
      close: async () => {
        this.endInput();
        await writer.close();
      },
      abort: async (reason) => {
        this.endInput();
        await writer.abort(reason);
      },
    });
  }
}
