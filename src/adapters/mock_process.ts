/**
 * A Node-style process object over a session's Web Streams: what the Agent SDK's
 * `spawnClaudeCodeProcess` option expects back.
 *
 * @module
 */

import { EventEmitter } from "node:events";
import { Readable, Writable } from "node:stream";
import type { ExitStatus, Session } from "../session/session.ts";
import { realMicrotask } from "../timing/real_time.ts";

/** The options the SDK passes to `spawnClaudeCodeProcess` (its `SpawnOptions`). */
export interface SpawnOptionsLike {
  /** The command the SDK would run. */
  command: string;
  /** Its arguments (`--output-format stream-json --verbose …`). */
  args: string[];
  /** Working directory. */
  cwd?: string;
  /** Environment. */
  env: Record<string, string | undefined>;
  /** Aborted by the SDK after its graceful-close grace period. */
  signal: AbortSignal;
}

/**
 * What a {@linkcode MockProcess} runs: a duplex of Web Streams with an exit. A
 * {@linkcode Session} is one; a tape player is another.
 */
export interface ProcessBody {
  /** stdout. */
  readonly readable: ReadableStream<Uint8Array>;
  /** stdin. */
  readonly writable: WritableStream<Uint8Array | string>;
  /** Resolves with the exit status once stdout has been written. */
  readonly exited: Promise<ExitStatus>;
  /** Whether it has ended. */
  readonly closed: boolean;
  /** Ends it like a signal. */
  kill(signal?: string): void;
}

/** A listener for a process's `exit` event. */
export type ExitListener = (code: number | null, signal: NodeJS.Signals | null) => void;
/** A listener for a process's `error` event. */
export type ErrorListener = (error: Error) => void;

/**
 * A `SpawnedProcess` backed by a {@linkcode Session}: `stdin` and `stdout` are Node
 * streams over the session's Web Streams, `exit` fires with the session's exit code
 * once its stdout has been written, and `kill()` ends it like a signal.
 *
 * @example Wrapping a session
 * ```ts
 * import { ScenarioBuilder } from "@x/claude-mock";
 * import { MockProcess, Session } from "@x/claude-mock/session";
 * const session = new Session(new ScenarioBuilder().build());
 * const child = new MockProcess(session);
 * child.once("exit", (code) => console.log("exit", code)); // exit 0
 * child.stdout.resume();
 * child.stdin.end();
 * await session.exited;
 * ```
 */
export class MockProcess<B extends ProcessBody = Session> {
  /** The process's stdin (the SDK writes here). */
  readonly stdin!: Writable;
  /** The process's stdout (the SDK reads here). */
  readonly stdout!: Readable;
  /** The process's stderr (the SDK's `stderr` option reads here), when it was given one. */
  readonly stderr?: Readable;
  /** The session (or other body) behind it. */
  readonly session: B;
  #events = new EventEmitter();
  #killed = false;
  #exitCode: number | null = null;
  #signalCode: NodeJS.Signals | null = null;

  /**
   * Wraps `session`; `signal` (the SDK's forwarded abort) kills it when aborted; `stderr` is
   * the stream the session's stderr lines are pushed into (ended when it exits). `stdio`:
   * streams already wired to the session (what `MockTransport.spawn` makes with
   * {@linkcode directStdio}), used instead of adapting its Web Streams.
   */
  constructor(
    session: B,
    options: {
      signal?: AbortSignal;
      stderr?: Readable;
      stdio?: { stdin: Writable; stdout: Readable };
    } = {},
  ) {
    this.session = session;
    if (options.stderr) {
      const stderr = options.stderr;
      this.stderr = stderr;
      session.exited.then(() => stderr.push(null));
    }
    if (options.stdio) {
      this.stdin = options.stdio.stdin;
      this.stdout = options.stdio.stdout;
      this.#watch(session, options.signal);
      return;
    }
    const writer = session.writable.getWriter();
    writer.closed.catch(() => {});
    this.stdin = new Writable({
      decodeStrings: false,
      write(chunk, _encoding, done) {
        writer.write(chunk).then(() => done(), (error) => done(error));
      },
      final(done) {
        writer.close().then(() => done(), () => done());
      },
      destroy(error, done) {
        writer.abort(error ?? undefined).catch(() => {});
        done(error);
      },
    });
    const reader = session.readable.getReader();
    let reading = false;
    this.stdout = new Readable({
      read() {
        if (reading) return;
        reading = true;
        const pump = (): void => {
          reader.read().then(({ done, value }) => {
            if (done) {
              reading = false;
              this.push(null);
              return;
            }
            if (this.push(value)) pump();
            else reading = false;
          }, (error) => {
            reading = false;
            this.destroy(error);
          });
        };
        pump();
      },
      destroy(error, done) {
        reader.cancel(error ?? undefined).catch(() => {});
        done(error);
      },
    });
    this.#watch(session, options.signal);
  }

  #watch(session: B, signal: AbortSignal | undefined): void {
    // A write after exit fails the Node stream: report it like a real pipe would (EPIPE),
    // never as an uncaught exception.
    this.stdin.on("error", () => {});
    if (signal) {
      const onAbort = () => this.kill("SIGTERM");
      if (signal.aborted) onAbort();
      else {
        signal.addEventListener("abort", onAbort, { once: true });
        session.exited.then(() => signal.removeEventListener("abort", onAbort));
      }
    }
    session.exited.then((status) => this.#onExit(status));
  }

  /** Whether `kill()` was called. */
  get killed(): boolean {
    return this.#killed;
  }

  /** The exit code once exited, else `null`. */
  get exitCode(): number | null {
    return this.#exitCode;
  }

  /** The signal that ended the process, else `null`. */
  get signalCode(): NodeJS.Signals | null {
    return this.#signalCode;
  }

  /** Ends the process like a signal (default `SIGTERM`). */
  kill(signal: NodeJS.Signals = "SIGTERM"): boolean {
    if (this.session.closed) return false;
    this.#killed = true;
    this.session.kill(signal);
    return true;
  }

  /** Adds a listener for `exit` or `error`. */
  on(event: "exit", listener: ExitListener): this;
  /** Adds a listener for `error`. */
  on(event: "error", listener: ErrorListener): this;
  on(event: string, listener: (...args: never[]) => void): this {
    this.#events.on(event, listener as (...args: unknown[]) => void);
    return this;
  }

  /** Adds a one-time listener for `exit` or `error`. */
  once(event: "exit", listener: ExitListener): this;
  /** Adds a one-time listener for `error`. */
  once(event: "error", listener: ErrorListener): this;
  once(event: string, listener: (...args: never[]) => void): this {
    this.#events.once(event, listener as (...args: unknown[]) => void);
    return this;
  }

  /** Removes a listener. */
  off(event: "exit", listener: ExitListener): this;
  /** Removes an `error` listener. */
  off(event: "error", listener: ErrorListener): this;
  off(event: string, listener: (...args: never[]) => void): this {
    this.#events.off(event, listener as (...args: unknown[]) => void);
    return this;
  }

  #onExit(status: ExitStatus): void {
    this.#exitCode = status.code;
    this.#signalCode = status.signal as NodeJS.Signals | null;
    this.#events.emit("exit", status.code, this.#signalCode);
  }
}

/**
 * Node streams wired straight to a session, with no Web Stream between: `output` is the
 * session's `output` function (each line is pushed to `stdout`; a full buffer holds the
 * session back until the reader takes more), and `attach` makes the `stdin` that writes into
 * the session and ends `stdout` once the session has exited. A reader that destroys `stdout`
 * is a broken pipe. What `MockTransport.spawn` runs the SDK's process on. Internal.
 */
export function directStdio(): {
  output: (line: Uint8Array) => void | Promise<void>;
  attach: (
    session: ProcessBody & { write(chunk: Uint8Array | string): void; endInput(): void },
  ) => {
    stdin: Writable;
    stdout: Readable;
  };
} {
  let waiting: Array<() => void> = [];
  let gone = false;
  const early: Uint8Array[] = [];
  let stdout: Readable | undefined;
  const output = (line: Uint8Array): void | Promise<void> => {
    if (gone) throw new Error("EPIPE: the reader went away");
    if (!stdout) {
      early.push(line);
      return;
    }
    if (stdout.push(line)) return;
    return new Promise<void>((resolve, reject) => {
      waiting.push(() => (gone ? reject(new Error("EPIPE: the reader went away")) : resolve()));
    });
  };
  const wake = () => {
    if (waiting.length === 0) return;
    const woken = waiting;
    waiting = [];
    for (const w of woken) w();
  };
  const attach = (
    session: ProcessBody & { write(chunk: Uint8Array | string): void; endInput(): void },
  ) => {
    stdout = new Readable({
      read: wake,
      destroy(error, done) {
        gone = true;
        wake();
        done(error);
      },
    });
    for (const line of early.splice(0)) stdout.push(line);
    session.exited.then(() => {
      if (!gone) stdout!.push(null);
    });
    const stdin = new Writable({
      decodeStrings: false,
      // taken on a later microtask, as through a stream: a client that writes while it reads
      // our output is never handled in the middle of that output
      write(chunk, _encoding, done) {
        realMicrotask(() => {
          try {
            session.write(chunk);
            done();
          } catch (error) {
            done(error as Error);
          }
        });
      },
      final(done) {
        realMicrotask(() => {
          session.endInput();
          done();
        });
      },
      destroy(error, done) {
        session.endInput();
        done(error);
      },
    });
    return { stdin, stdout };
  };
  return { output, attach };
}
