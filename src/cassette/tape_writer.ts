/**
 * Writing a tape file as the recording goes: line by line into `<path>.partial`, renamed to
 * `<path>` once the tape is closed (a failed run kept beside a tape already there).
 *
 * @module
 */

import {
  checkExpectedExit,
  failedTapePath,
  PromptTracker,
  recordingFailure,
} from "./_failed_recording.ts";
import {
  errorCode,
  type FileSink,
  fileTime,
  mkdirp,
  openNewFile,
  removeFile,
  renameFile,
} from "../host/_fs.ts";
import { isObject } from "../wire/frame.ts";
import { tapeEndLine, tapeEntryLine, tapeHeaderLine } from "./parse_tape.ts";
import {
  TAPE_FORMAT,
  TAPE_VERSION,
  type TapeEnding,
  type TapeEntry,
  type TapeFrameEntry,
  type TapeHeader,
  type TapeRawEntry,
  type TapeStderrEntry,
} from "./tape.ts";

/** An entry to write: a {@linkcode TapeEntry} whose `line` may be left out (it is not written). */
export type TapeEntryInit =
  & (Omit<TapeFrameEntry, "line"> | Omit<TapeRawEntry, "line"> | Omit<TapeStderrEntry, "line">)
  & { line?: number };

/** Options for {@linkcode TapeWriter}. */
export interface TapeWriterOptions {
  /** Header fields (`format` and `version` are always this library's). */
  header?: Partial<TapeHeader>;
  /**
   * The exit code of a run that succeeded (default 0): a tape ending otherwise (another code,
   * a signal, no ending) is a failed recording, which never replaces a tape at `path`.
   */
  expectedExit?: number;
}

const encoder = new TextEncoder();

/**
 * Writes one tape file atomically. The header goes into `<path>.partial` when the writer
 * opens (on `open()` or the first `write`), each entry is appended as its own write as soon
 * as it comes, in order, so a crash leaves every entry written so far (such a partial file
 * loads with `complete: false`). `close(ending)` writes the end line, flushes the file to
 * disk and renames it to `<path>`, replacing an older tape there when the run succeeded (the
 * CLI answered the app's last prompt and exited by itself with `expectedExit`, default 0). A
 * failed run (another exit code, a signal, no ending, a last prompt without its result) never
 * replaces a tape already at `<path>`: it is kept beside it as
 * `<name>.failed.jsonl` ({@linkcode TapeWriter.failedPath}), and {@linkcode TapeWriter.savedTo}
 * and {@linkcode TapeWriter.keptFailed} say so. Missing folders are made.
 * Writers of different paths never share anything; a second writer of the same path fails
 * to open, since its `.partial` exists.
 *
 * @example Recording a tape file
 * ```ts
 * import { loadTape, TapeWriter } from "@x/claude-mock/cassette";
 * const dir = await Deno.makeTempDir();
 * const writer = new TapeWriter(`${dir}/run.jsonl`, { header: { scenario: "hello" } });
 * await writer.write({ t: 0, dir: "sdk->cli", frame: { type: "user" } });
 * await writer.write({ t: 7, dir: "cli->sdk", frame: { type: "result" } });
 * await writer.close({ t: 8, code: 0, signal: null });
 * const tape = await loadTape(`${dir}/run.jsonl`);
 * console.log(tape.header.scenario, tape.entries.length, tape.complete); // hello 2 true
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @example What a crash leaves: the partial file, loadable
 * ```ts
 * import { loadTape, TapeWriter } from "@x/claude-mock/cassette";
 * const dir = await Deno.makeTempDir();
 * const writer = new TapeWriter(`${dir}/run.jsonl`);
 * await writer.write({ t: 0, dir: "cli->sdk", frame: { type: "system", subtype: "init" } });
 * const cut = await loadTape(writer.partialPath);
 * console.log(cut.entries.length, cut.complete); // 1 false
 * await writer.abort();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export class TapeWriter {
  /** Where the finished tape goes. */
  readonly path: string;
  /** Where it is written until it is closed (`<path>.partial`). */
  readonly partialPath: string;
  /** Where a failed run is kept when a tape is already at `path` (`<name>.failed.jsonl`). */
  readonly failedPath: string;
  /** The header written first. */
  readonly header: TapeHeader;
  #expectedExit: number;
  #savedTo?: string;
  #failure?: string;
  #prompts = new PromptTracker();
  #sink?: Promise<FileSink>;
  #queue: Promise<void> = Promise.resolve();
  #error?: unknown;
  #closing?: Promise<void>;
  #lines = 0;

  /** A writer for `path`; nothing is written before `open()` or the first `write`. */
  constructor(path: string, options: TapeWriterOptions = {}) {
    if (typeof path !== "string" || path === "") {
      throw new TypeError(`Cannot write a tape: the path must be a non-empty string, got ${path}`);
    }
    this.path = path;
    this.partialPath = `${path}.partial`;
    this.failedPath = failedTapePath(path);
    this.#expectedExit = checkExpectedExit(options.expectedExit, `Cannot write tape ${path}`);
    const { format: _f, version: _v, ...rest } = options.header ?? {};
    this.header = { format: TAPE_FORMAT, version: TAPE_VERSION, ...rest };
  }

  /** How many lines were written so far (the header counts). */
  get lines(): number {
    return this.#lines;
  }

  /** Where the tape went once `close()` resolved: `path`, or `failedPath` (see `keptFailed`). */
  get savedTo(): string | undefined {
    return this.#savedTo;
  }

  /**
   * Why the run failed, when it was kept at `failedPath` because a tape was already at `path`
   * (left as it was); `undefined` otherwise.
   */
  get keptFailed(): string | undefined {
    return this.#savedTo === this.failedPath ? this.#failure : undefined;
  }

  /**
   * Why the run failed, once `close()` resolved (`undefined`: it succeeded, or is not closed):
   * another exit code than `expectedExit`, a signal, no ending, or a last prompt without its
   * result (the app closed stdin before it came, or the CLI exited without it).
   */
  get failure(): string | undefined {
    return this.#failure;
  }

  /**
   * The app closed the CLI's stdin (`SnapshotRecorder` and `recordingSpawn` say so): when its
   * last prompt has no result yet, the run is a failed one (the app gave up on it).
   */
  inputEnded(): void {
    this.#prompts.inputEnded();
  }

  /** Whether `close()` (or `abort()`) was called. */
  get closed(): boolean {
    return this.#closing !== undefined;
  }

  /** Creates `<path>.partial` and writes the header (once; later calls wait for it). */
  open(): Promise<void> {
    this.#sink ??= this.#open();
    return this.#sink.then(() => {});
  }

  /**
   * Appends an entry; resolves once its line reached the file. Entries are written in the
   * order of the calls.
   *
   * @throws {TypeError} After `close()`, or for an entry that is not one.
   * @throws {RangeError} An entry whose time is negative or not finite.
   */
  write(entry: TapeEntryInit): Promise<void> {
    if (this.#closing) {
      return Promise.reject(
        new TypeError(`Cannot write to tape ${this.path}: the writer is closed`),
      );
    }
    let line: string;
    try {
      line = tapeEntryLine(this.#check(entry));
    } catch (error) {
      return Promise.reject(error);
    }
    this.#prompts.see(entry as { dir: string; frame?: unknown });
    return this.#enqueue(line);
  }

  /**
   * Finishes the tape: the end line (when `ending` is given; without it the tape loads with
   * `complete: false`), a flush to disk, and the rename of `<path>.partial` to `<path>`; or,
   * for a failed run (see {@linkcode recordingFailure}) when a tape is already at `<path>`, to
   * `failedPath`, the tape at `<path>` left as it was. Calling it again returns the same promise.
   */
  close(ending?: TapeEnding): Promise<void> {
    if (this.#closing) return this.#closing;
    let end: string | undefined;
    try {
      if (ending !== undefined) end = tapeEndLine(checkEnding(ending, this.path));
    } catch (error) {
      return Promise.reject(error);
    }
    const lastWrite = end === undefined ? this.#enqueue(undefined) : this.#enqueue(end);
    this.#closing = (async () => {
      let failure: unknown;
      await lastWrite.catch((error) => (failure = error));
      const sink = await this.#sink!.catch(() => undefined);
      if (sink) {
        if (failure === undefined) await sink.sync().catch((error) => (failure = error));
        await sink.close().catch((error) => (failure ??= error));
      }
      if (failure !== undefined) throw failure;
      this.#failure = recordingFailure({
        ending,
        expectedExit: this.#expectedExit,
        unanswered: this.#prompts.unanswered,
        abandoned: this.#prompts.abandoned,
      });
      // a failed run never replaces a tape already there: it is kept beside it
      const to = this.#failure !== undefined && (await fileTime(this.path)) !== undefined
        ? this.failedPath
        : this.path;
      try {
        await renameFile(this.partialPath, to);
      } catch (cause) {
        throw new Error(
          `Cannot finish tape ${this.path}: renaming ${this.partialPath} to ${to} failed (${
            messageOf(cause)
          })`,
          { cause },
        );
      }
      this.#savedTo = to;
    })();
    return this.#closing;
  }

  /** Gives the recording up: closes the file and removes `<path>.partial`. */
  abort(): Promise<void> {
    if (this.#closing) return this.#closing.catch(() => {});
    this.#closing = (async () => {
      await this.#queue.catch(() => {});
      const sink = this.#sink ? await this.#sink.catch(() => undefined) : undefined;
      if (sink) {
        await sink.close().catch(() => {});
        await removeFile(this.partialPath).catch(() => {});
      }
    })();
    return this.#closing;
  }

  async #open(): Promise<FileSink> {
    const slash = Math.max(this.path.lastIndexOf("/"), this.path.lastIndexOf("\\"));
    let sink: FileSink;
    if (slash > 0) {
      const folder = this.path.slice(0, slash);
      try {
        await mkdirp(folder);
      } catch (cause) {
        // (EEXIST here is a file where a folder should be, not another recording)
        throw new Error(
          `Cannot write tape ${this.path}: cannot make its folder ${folder} (${messageOf(cause)})`,
          { cause },
        );
      }
    }
    try {
      sink = await openNewFile(this.partialPath);
    } catch (cause) {
      const why = errorCode(cause) === "EEXIST"
        ? `${this.partialPath} already exists (another recording to this path is running, or an earlier one was cut short: remove it)`
        : `cannot create ${this.partialPath} (${messageOf(cause)})`;
      throw new Error(`Cannot write tape ${this.path}: ${why}`, { cause });
    }
    try {
      await sink.write(encoder.encode(`${tapeHeaderLine(this.header)}\n`));
      this.#lines = 1;
    } catch (cause) {
      await sink.close().catch(() => {});
      throw new Error(`Cannot write tape ${this.path}: ${messageOf(cause)}`, { cause });
    }
    return sink;
  }

  /** Queues one line (`undefined`: nothing, just the wait for the ones before). */
  #enqueue(line: string | undefined): Promise<void> {
    this.#sink ??= this.#open();
    const sink = this.#sink;
    const next = this.#queue.then(async () => {
      if (this.#error !== undefined) throw this.#error;
      const file = await sink;
      if (line === undefined) return;
      try {
        await file.write(encoder.encode(`${line}\n`));
        this.#lines++;
      } catch (cause) {
        throw new Error(`Cannot write tape ${this.path}: ${messageOf(cause)}`, { cause });
      }
    }).catch((error) => {
      this.#error ??= error;
      throw error;
    });
    this.#queue = next.catch(() => {});
    return next;
  }

  #check(entry: TapeEntryInit): TapeEntry {
    const where = `Cannot write a tape entry to ${this.path}`;
    if (!isObject(entry)) throw new TypeError(`${where}: the entry is not an object`);
    const { t, dir } = entry as { t: unknown; dir: unknown };
    if (typeof t !== "number") throw new TypeError(`${where}: its time (t) is not a number`);
    if (!Number.isFinite(t) || t < 0) throw new RangeError(`${where}: its time is ${t}`);
    if (dir === "stderr") {
      if (typeof (entry as { text?: unknown }).text !== "string") {
        throw new TypeError(`${where}: a stderr entry needs a text string`);
      }
    } else if (dir === "sdk->cli" || dir === "cli->sdk") {
      const { frame, raw } = entry as { frame?: unknown; raw?: unknown };
      if (!isObject(frame) && typeof raw !== "string") {
        throw new TypeError(`${where}: it needs a frame object or a raw string`);
      }
    } else {
      throw new TypeError(
        `${where}: unknown dir ${JSON.stringify(dir)} (expected sdk->cli, cli->sdk or stderr)`,
      );
    }
    return entry as TapeEntry;
  }
}

function checkEnding(ending: TapeEnding, path: string): TapeEnding {
  const where = `Cannot end tape ${path}`;
  if (!isObject(ending)) throw new TypeError(`${where}: the ending is not an object`);
  if (typeof ending.t !== "number" || !Number.isFinite(ending.t) || ending.t < 0) {
    throw new RangeError(`${where}: its time is ${ending.t}`);
  }
  if (ending.code !== null && !Number.isInteger(ending.code)) {
    throw new TypeError(`${where}: its code must be an integer or null, got ${ending.code}`);
  }
  if (ending.signal !== null && typeof ending.signal !== "string") {
    throw new TypeError(`${where}: its signal must be a string or null`);
  }
  return ending;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
