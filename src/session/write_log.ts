/**
 * The log of everything the client (the SDK) wrote to the mock's stdin.
 *
 * @module
 */

import type { WireError } from "../wire/wire_error.ts";
import type { Frame } from "../wire/frame.ts";
import { AssertionError } from "./assertion_error.ts";

/** One line the client wrote. */
export interface WriteEntry {
  /** 0-based index in the log. */
  index: number;
  /** When it arrived, on the session clock (ms since the epoch). */
  at: number;
  /** The line as written (without its newline). */
  raw: string;
  /** The parsed frame, when the line was a valid frame. */
  frame?: Frame;
  /** Why the line is not a valid frame. */
  error?: WireError;
}

/**
 * The lines a client wrote, parsed and raw, with timestamps, and assertions over them.
 *
 * @example Asserting on writes
 * ```ts
 * import { WriteLog } from "@x/claude-mock/session";
 * const log = new WriteLog();
 * log.add({ raw: '{"type":"user"}', frame: { type: "user" } }, 0);
 * log.assertWrote(/"user"/);
 * console.log(log.frames().length); // 1
 * ```
 */
export class WriteLog {
  #entries: WriteEntry[] = [];
  #listeners = new Set<(entry: WriteEntry) => void>();

  /**
   * Adds a line; returns its entry. The entry is kept before any listener runs, and a
   * listener that throws neither loses the line nor stops the others: its error is
   * re-thrown on its own, outside the caller.
   */
  add(line: { raw: string; frame?: Frame; error?: WireError }, at: number): WriteEntry {
    const entry: WriteEntry = { index: this.#entries.length, at, ...line };
    this.#entries.push(entry);
    if (this.#listeners.size === 0) return entry;
    for (const listener of [...this.#listeners]) {
      try {
        listener(entry);
      } catch (error) {
        Promise.reject(error);
      }
    }
    return entry;
  }

  /** Calls `listener` for every entry added from now on; returns an unsubscribe function. */
  subscribe(listener: (entry: WriteEntry) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Every entry, in order (a copy). */
  entries(): WriteEntry[] {
    return [...this.#entries];
  }

  /** Every parsed frame, in order. */
  frames(): Frame[] {
    return this.#entries.flatMap((e) => (e.frame ? [e.frame] : []));
  }

  /** The number of entries. */
  get size(): number {
    return this.#entries.length;
  }

  /**
   * Asserts that some raw line contains `pattern` (a string) or matches it (a RegExp);
   * returns the first matching entry.
   */
  assertWrote(pattern: string | RegExp): WriteEntry {
    const found = this.#entries.find((e) => matches(e.raw, pattern));
    if (!found) {
      throw new AssertionError(
        `Expected the client to write a line ${
          typeof pattern === "string"
            ? `containing ${JSON.stringify(pattern)}`
            : `matching ${pattern}`
        }, but it did not.\n${this.describe()}`,
      );
    }
    return found;
  }

  /** Asserts that some parsed frame satisfies `predicate`; returns the first. */
  assertWroteJson(predicate: (frame: Frame) => boolean, description = "the predicate"): Frame {
    const found = this.#entries.find((e) => e.frame !== undefined && predicate(e.frame));
    if (!found) {
      throw new AssertionError(
        `Expected the client to write a frame satisfying ${description}, but none did.\n${this.describe()}`,
      );
    }
    return found.frame!;
  }

  /** A listing of what was written, for error messages. */
  describe(limit = 20): string {
    if (this.#entries.length === 0) return "The client wrote nothing.";
    const shown = this.#entries.slice(-limit).map((e) =>
      `  #${e.index} ${e.error ? "(invalid) " : ""}${truncate(e.raw, 160)}`
    );
    const more = this.#entries.length > limit
      ? `  (${this.#entries.length - limit} earlier)\n`
      : "";
    return `The client wrote ${this.#entries.length} line(s):\n${more}${shown.join("\n")}`;
  }
}

function matches(raw: string, pattern: string | RegExp): boolean {
  if (typeof pattern === "string") return raw.includes(pattern);
  pattern.lastIndex = 0;
  return pattern.test(raw);
}

function truncate(s: string, n: number): string {
  return s.length > n ? s.slice(0, n) + "…" : s;
}
