/**
 * The replay of one tape as a process: stdout gives the tape's CLI frames in order; each
 * frame the tape says the app sent is a sync point, checked against what the app really
 * writes on stdin, with the SDK's live request ids put where the tape had the recorded ones.
 *
 * @module
 */

import type { ExitStatus } from "../session/engine.ts";
import { realMicrotask, realTimeout } from "../timing/real_time.ts";
import { promptText } from "../scenario/prompt_text.ts";
import { jsonEqual } from "../wire/_canonical_json.ts";
import type { Frame } from "../wire/frame.ts";
import { CassetteMismatchError } from "./cassette_mismatch_error.ts";
import { recordedFrameText } from "./_frame_texts.ts";
import type { Tape, TapeEntry, TapeFrameEntry, TapeRawEntry } from "./tape.ts";

/**
 * How a tape is replayed:
 * - `inert`: the CLI's requests to the app (permission, hook, MCP) are not sent; the app's
 *   answers in the tape are skipped;
 * - `stub`: they are sent, and the answers (from the player's stubs) are checked;
 * - `verify`: they are sent, and the app's own answers are checked against the tape.
 */
export type ReplayMode = "inert" | "stub" | "verify";

/** Requests the SDK answers from its own state: answered from the tape wherever they come. */
const READ_ONLY = new Set([
  "mcp_status",
  "get_context_usage",
  "get_settings",
  "supported_commands",
  "supported_models",
  "supported_agents",
  "account_info",
]);

/** Options of a replay. */
export interface ReplayOptions {
  /** How CLI→SDK requests are handled. */
  mode: ReplayMode;
  /** How long to wait for the app at a sync point before failing (real ms). */
  waitMs: number;
  /** Called with each stderr entry's text as it is reached. */
  onStderr?: (text: string) => void;
  /** The ending to use when the tape does not record one. */
  ending?: { code: number | null; signal: string | null };
}

const encoder = new TextEncoder();
/** The answer to an `initialize` a tape did not record. */
const UNRECORDED_INIT = {
  commands: [],
  agents: [],
  output_style: "default",
  available_output_styles: ["default"],
  models: [],
  account: {},
};

/** One replay of a tape: a process body for `MockProcess`, and what happened. */
export class Replay {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array | string>;
  readonly exited: Promise<ExitStatus>;
  /** Mismatches, in the order they happened (the first one ended the replay). */
  readonly mismatches: CassetteMismatchError[] = [];
  /** What the app wrote, parsed, in order. */
  readonly received: Frame[] = [];
  #tape: Tape;
  #options: ReplayOptions;
  #pos = 0;
  #out!: ReadableStreamDefaultController<Uint8Array>;
  #queue: Frame[] = [];
  #answers = new Map<string, Frame>();
  #skipped = new Set<string>();
  #sentRequests = new Set<string>();
  #ids = new Map<string, string>();
  #stdinClosed = false;
  #closed = false;
  #resolveExit!: (status: ExitStatus) => void;
  #cancelWait?: () => void;
  #waitingAt = -1;
  #partial = "";
  #decoder = new TextDecoder();
  #paused = false;
  #recordsInitialize: boolean;
  #outputOnly: boolean;
  #pauseListeners = new Set<() => void>();

  constructor(tape: Tape, options: ReplayOptions) {
    this.#tape = tape;
    this.#options = options;
    this.exited = new Promise((resolve) => (this.#resolveExit = resolve));
    const fromApp = tape.entries.filter((e) => e.dir === "sdk->cli");
    this.#outputOnly = fromApp.length === 0;
    this.#recordsInitialize = fromApp.some((e) =>
      "frame" in e && requestSubtype(e.frame) === "initialize"
    );
    this.readable = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#out = controller;
      },
      cancel: () => {
        this.#stdinClosed = true;
      },
    });
    this.writable = new WritableStream<Uint8Array | string>({
      write: (chunk) => this.#onChunk(chunk),
      close: () => this.#onStdinEnd(),
      abort: () => this.#onStdinEnd(),
    });
    realMicrotask(() => this.#pump());
  }

  /** Whether the replay has ended. */
  get closed(): boolean {
    return this.#closed;
  }

  /** How many tape entries were reached. */
  get position(): number {
    return this.#pos;
  }

  /** Ends the replay like a signal. */
  kill(signal = "SIGTERM"): void {
    this.#finish({ code: null, signal });
  }

  #onChunk(chunk: Uint8Array | string): void {
    if (this.#closed) return;
    this.#partial += typeof chunk === "string"
      ? chunk
      : this.#decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = this.#partial.indexOf("\n")) >= 0) {
      const line = this.#partial.slice(0, newline).trim();
      this.#partial = this.#partial.slice(newline + 1);
      if (line !== "") this.#onLine(line);
    }
    this.#pump();
  }

  #onStdinEnd(): void {
    const rest = this.#partial.trim();
    this.#partial = "";
    if (rest !== "") this.#onLine(rest);
    this.#stdinClosed = true;
    this.#pump();
  }

  #onLine(line: string): void {
    let frame: Frame;
    try {
      frame = JSON.parse(line);
    } catch {
      this.#fail({
        reason: "the app wrote a line that is not JSON",
        line: this.#lineAt(this.#pos),
        actual: line,
      });
      return;
    }
    this.received.push(frame);
    if (requestSubtype(frame) === "initialize" && !this.#recordsInitialize) {
      // a tape of another format (or output only) has no handshake: answer it, unchecked
      this.#emit({
        type: "control_response",
        response: { subtype: "success", request_id: requestIdOf(frame), response: UNRECORDED_INIT },
      } as Frame);
      return;
    }
    if (this.#outputOnly) return; // a frames file: what the app sends is not recorded
    if (frame.type === "control_response") {
      const id = requestIdOf(frame);
      if (id !== undefined && this.#skipped.has(id)) return;
      if (id === undefined || !this.#sentRequests.has(id)) {
        this.#fail({
          reason: `the app answered a request the replay never sent (${id ?? "no request_id"})`,
          line: this.#lineAt(this.#pos),
          actual: frame,
        });
        return;
      }
      this.#answers.set(id, frame);
      return;
    }
    const subtype = requestSubtype(frame);
    if (subtype !== undefined && READ_ONLY.has(subtype) && !this.#nextExpects(frame)) {
      if (this.#answerReadOnly(frame)) return;
    }
    this.#queue.push(frame);
  }

  /** Whether the next expected app frame is a request like `frame`. */
  #nextExpects(frame: Frame): boolean {
    const entry = this.#nextAppEntry();
    return entry !== undefined && "frame" in entry &&
      requestSubtype(entry.frame) === requestSubtype(frame);
  }

  #nextAppEntry(): TapeEntry | undefined {
    for (let i = this.#pos; i < this.#tape.entries.length; i++) {
      const entry = this.#tape.entries[i];
      if (entry.dir !== "sdk->cli") continue;
      if ("frame" in entry && entry.frame.type === "control_response") continue;
      return entry;
    }
    return undefined;
  }

  /** A read-only request out of place: answered from the same request elsewhere in the tape. */
  #answerReadOnly(frame: Frame): boolean {
    const entries = this.#tape.entries;
    const request = JSON.stringify((frame as { request?: unknown }).request);
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i];
      if (entry.dir !== "sdk->cli" || !("frame" in entry)) continue;
      if (JSON.stringify((entry.frame as { request?: unknown }).request) !== request) continue;
      const recorded = requestIdOf(entry.frame);
      const answer = entries.find((e) =>
        e.dir === "cli->sdk" && "frame" in e && e.frame.type === "control_response" &&
        requestIdOf(e.frame) === recorded
      );
      if (!answer || !("frame" in answer)) return false;
      this.#emit(withRequestId(answer.frame, requestIdOf(frame)!));
      return true;
    }
    return false;
  }

  #pump(): void {
    const entries = this.#tape.entries;
    this.#paused = false;
    try {
      this.#step(entries);
    } finally {
      if (this.#paused || this.#closed) {
        for (const listener of [...this.#pauseListeners]) listener();
      }
    }
  }

  /**
   * Resolves when the replay waits for the app at entry `minPos` or later (with that entry,
   * or `undefined` at the end of the tape), or with `null` once it has ended.
   */
  pausedAt(minPos: number): Promise<{ pos: number; entry: TapeEntry | undefined } | null> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.#closed) {
          this.#pauseListeners.delete(check);
          resolve(null);
        } else if (this.#paused && this.#pos >= minPos) {
          this.#pauseListeners.delete(check);
          resolve({ pos: this.#pos, entry: this.#tape.entries[this.#pos] });
        }
      };
      this.#pauseListeners.add(check);
      check();
    });
  }

  #step(entries: TapeEntry[]): void {
    while (!this.#closed) {
      const entry = entries[this.#pos];
      if (entry === undefined) {
        this.#atEnd();
        return;
      }
      if (entry.dir === "stderr") this.#options.onStderr?.(entry.text);
      else if (entry.dir === "cli->sdk") this.#playCli(entry);
      else if (!this.#takeApp(entry)) return;
      this.#pos++;
    }
  }

  /**
   * Plays a line the CLI sent: as recorded, an answer with the live request id of the request
   * it answers; in inert mode, none of the CLI's requests (nor their cancellations).
   */
  #playCli(entry: TapeFrameEntry | TapeRawEntry): void {
    if (!("frame" in entry)) {
      this.#emitLine(entry.raw);
      return;
    }
    const frame = entry.frame;
    if (this.#options.mode === "inert") {
      if (isCliRequest(frame)) {
        const id = requestIdOf(frame);
        if (id !== undefined) this.#skipped.add(id);
        return;
      }
      if (frame.type === "control_cancel_request") return;
    }
    if (isCliRequest(frame)) {
      const id = requestIdOf(frame);
      if (id !== undefined) this.#sentRequests.add(id);
    }
    const recorded = frame.type === "control_response" ? requestIdOf(frame) : undefined;
    const live = recorded !== undefined ? this.#ids.get(recorded) : undefined;
    if (live !== undefined) this.#emit(withRequestId(frame, live));
    else {
      // the text the tape has for it (a parsed, frozen frame), else the frame serialized
      this.#emitLine(recordedFrameText(frame) ?? JSON.stringify(frame));
    }
  }

  /**
   * Takes the app's next frame where the tape has one from the app: `true` when it is the
   * tape's, `false` when the replay waits for it or has failed.
   */
  #takeApp(entry: TapeFrameEntry | TapeRawEntry): boolean {
    if (!("frame" in entry)) {
      this.#fail({ reason: "the tape has a non-JSON line from the app", line: entry.line });
      return false;
    }
    const expected = entry.frame;
    if (expected.type === "control_response") return this.#takeAnswer(expected, entry.line);
    const actual = this.#queue.shift();
    if (actual === undefined) {
      if (this.#stdinClosed) {
        this.#fail({
          reason: `the app closed its input; the tape expected ${describe(expected)}`,
          line: entry.line,
          expected,
        });
      } else this.#wait();
      return false;
    }
    const reason = this.#differs(expected, actual);
    if (reason !== undefined) {
      this.#fail({ reason, line: entry.line, expected, actual });
      return false;
    }
    const recorded = expected.type === "control_request" ? requestIdOf(expected) : undefined;
    const live = requestIdOf(actual);
    if (recorded !== undefined && live !== undefined) this.#ids.set(recorded, live);
    return true;
  }

  /** Takes the app's answer to a request of the CLI, as `#takeApp` takes a frame. */
  #takeAnswer(expected: Frame, line: number): boolean {
    const id = requestIdOf(expected);
    if (id !== undefined && this.#skipped.has(id)) return true;
    const answer = id !== undefined ? this.#answers.get(id) : undefined;
    if (answer === undefined) {
      if (this.#stdinClosed) {
        this.#fail({
          reason: "the app closed its input before answering the CLI's request",
          line,
          expected,
        });
      } else this.#wait();
      return false;
    }
    this.#answers.delete(id!);
    if (!sameAnswer(expected, answer)) {
      this.#fail({ reason: "the app answered differently", line, expected, actual: answer });
      return false;
    }
    return true;
  }

  /** Why the app's frame is not the tape's (undefined when it is). */
  #differs(expected: Frame, actual: Frame): string | undefined {
    if (expected.type !== actual.type) {
      return `the app sent ${describe(actual)}; the tape expected ${describe(expected)}`;
    }
    if (expected.type === "user" && this.#tape.header.converted_from !== undefined) {
      // other formats keep the prompt in their own shape: the prompt text is compared
      return promptOf(expected) === promptOf(actual) ? undefined : "the app sent another prompt";
    }
    if (expected.type === "user") {
      const e = {
        message: expected.message,
        parent_tool_use_id: expected.parent_tool_use_id ?? null,
      };
      const a = { message: actual.message, parent_tool_use_id: actual.parent_tool_use_id ?? null };
      return jsonEqual(e, a) ? undefined : "the app sent another user message";
    }
    if (expected.type === "control_request") {
      const e = (expected as { request?: Record<string, unknown> }).request ?? {};
      const a = (actual as { request?: Record<string, unknown> }).request ?? {};
      if (e.subtype !== a.subtype) {
        return `the app sent ${describe(actual)}; the tape expected ${describe(expected)}`;
      }
      // An inert replay sends none of the app's callbacks: its initialize is not checked.
      if (e.subtype === "initialize" && this.#options.mode === "inert") return undefined;
      return jsonEqual(e, a) ? undefined : `the app sent another ${String(e.subtype)} request`;
    }
    const { request_id: _e, ...e } = expected as Record<string, unknown>;
    const { request_id: _a, ...a } = actual as Record<string, unknown>;
    return jsonEqual(e, a) ? undefined : `the app sent another ${describe(expected)}`;
  }

  #atEnd(): void {
    if (this.#queue.length > 0) {
      this.#fail({
        reason: "the app sent more than the tape has",
        line: 0,
        actual: this.#queue[0],
      });
      return;
    }
    const tape = this.#tape;
    if (tape.complete === false) {
      this.#fail({ reason: "the tape was cut short here (the recording did not finish)", line: 0 });
      return;
    }
    // A format that records no ending (the real-wire recorder's): a turn the app started and
    // that has no result was cut short, unless the caller says how the process ended.
    const unfinished = tape.ending === undefined && this.#options.ending === undefined
      ? unfinishedTurn(tape)
      : undefined;
    if (unfinished !== undefined) {
      this.#fail({
        reason:
          "the tape ends inside a turn: the app's message here has no result after it (the recording was cut short)",
        line: unfinished,
      });
      return;
    }
    const ending = tape.ending ?? this.#options.ending ?? endingOf(tape);
    // A process that failed exits on its own; one that succeeded waits for its input to end.
    if (ending.code === 0 && ending.signal === null && !this.#stdinClosed) {
      this.#wait();
      return;
    }
    this.#finish({ code: ending.code, signal: ending.signal });
  }

  #wait(): void {
    this.#paused = true;
    if (this.#waitingAt === this.#pos && this.#cancelWait) return;
    this.#cancelWait?.();
    this.#waitingAt = this.#pos;
    const at = this.#pos;
    this.#cancelWait = realTimeout(() => {
      this.#cancelWait = undefined;
      if (this.#closed || this.#pos !== at) return;
      const entry = this.#tape.entries[at];
      if (entry === undefined) {
        // A successful tape waits for the app to close its input, as the CLI does.
        this.#finish({ code: 0, signal: null });
        return;
      }
      this.#fail({
        reason: `the app did not send ${
          "frame" in entry ? describe(entry.frame) : "the next line"
        } within ${this.#options.waitMs} ms`,
        line: entry.line,
        expected: "frame" in entry ? entry.frame : undefined,
      });
    }, this.#options.waitMs);
  }

  #fail(m: { reason: string; line: number; expected?: unknown; actual?: unknown }): void {
    const error = new CassetteMismatchError({ ...m, source: this.#tape.source });
    this.mismatches.push(error);
    this.#options.onStderr?.(`${error.message}\n`);
    this.#finish({ code: 1, signal: null });
  }

  #emit(frame: Frame): void {
    this.#emitLine(JSON.stringify(frame));
  }

  #emitLine(line: string): void {
    if (this.#closed) return;
    try {
      this.#out.enqueue(encoder.encode(`${line}\n`));
    } catch {
      // the app stopped reading
    }
  }

  #finish(status: ExitStatus): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#cancelWait?.();
    this.#cancelWait = undefined;
    try {
      this.#out.close();
    } catch {
      // already closed or cancelled
    }
    this.#resolveExit(status);
    for (const listener of [...this.#pauseListeners]) listener();
  }

  #lineAt(pos: number): number {
    return this.#tape.entries[pos]?.line ?? 0;
  }
}

/**
 * The line of the app's last `user` message when no `result` follows it (a turn the tape
 * never finishes), else `undefined`.
 */
function unfinishedTurn(tape: Tape): number | undefined {
  for (let i = tape.entries.length - 1; i >= 0; i--) {
    const entry = tape.entries[i];
    if (!("frame" in entry)) continue;
    if (entry.dir === "cli->sdk" && entry.frame.type === "result") return undefined;
    if (entry.dir === "sdk->cli" && entry.frame.type === "user") return entry.line;
  }
  return undefined;
}

/** The ending of a tape that does not record one: exit 1 exactly when the last result is an error. */
function endingOf(tape: Tape): { code: number; signal: null } {
  for (let i = tape.entries.length - 1; i >= 0; i--) {
    const entry = tape.entries[i];
    if (entry.dir === "cli->sdk" && "frame" in entry && entry.frame.type === "result") {
      return { code: entry.frame.is_error === true ? 1 : 0, signal: null };
    }
  }
  return { code: 0, signal: null };
}

function isCliRequest(frame: Frame): boolean {
  return frame.type === "control_request";
}

function requestIdOf(frame: Frame): string | undefined {
  const direct = (frame as { request_id?: unknown }).request_id;
  if (typeof direct === "string") return direct;
  const nested = (frame as { response?: { request_id?: unknown } }).response?.request_id;
  return typeof nested === "string" ? nested : undefined;
}

function requestSubtype(frame: Frame): string | undefined {
  if (frame.type !== "control_request") return undefined;
  const subtype = (frame as { request?: { subtype?: unknown } }).request?.subtype;
  return typeof subtype === "string" ? subtype : undefined;
}

function withRequestId(frame: Frame, id: string): Frame {
  const response = (frame as { response?: Record<string, unknown> }).response;
  return { ...frame, response: { ...response, request_id: id } } as Frame;
}

function sameAnswer(expected: Frame, actual: Frame): boolean {
  const strip = (f: Frame) => {
    const { request_id: _id, ...rest } = (f as { response?: Record<string, unknown> }).response ??
      {};
    return rest;
  };
  return jsonEqual(strip(expected), strip(actual));
}

function describe(frame: Frame): string {
  const a = (word: string) => `${/^[aeiou]/i.test(word) ? "an" : "a"} ${word}`;
  if (frame.type === "control_request") {
    return a(`${String(requestSubtype(frame) ?? "control")} request`);
  }
  if (frame.type === "control_response") return "an answer to the CLI's request";
  if (frame.type === "user") return "a user message";
  return a(`${frame.type} frame`);
}

/** A user frame's prompt text, also in shapes of other formats (`content` beside `type`). */
function promptOf(frame: Frame): string {
  if (frame.message === undefined && typeof frame.content === "string") return frame.content;
  return promptText(frame);
}
