/**
 * The fake binary's stdout: the engine's stream-json lines as the output format asks.
 * `stream-json` (and duplex mode) writes each line as it comes; `json` and `text` keep the
 * result and print it once the run is over, in the real CLI's shapes. Counts the lines
 * for `CLAUDE_MOCK_CRASH_AFTER` and keeps them for the transcript. Internal.
 *
 * @module
 */

import { LineBuffer } from "./_stdio.ts";

/** How stdout is written. */
export interface PrintOutputOptions {
  /** `stream-json` writes lines as they come; `json` and `text` print the result at the end. */
  format: string;
  /** Keep `session_state_changed` frames (the SDK asks for them). */
  keepState: boolean;
  /** The process dies once it has written this many lines (`Infinity`: never). */
  crashAfter: number;
  /** Writes to stdout. */
  write: (chunk: Uint8Array) => Promise<void>;
  /** Called once when the crash point is reached (the caller kills the session). */
  onCrash: () => void;
}

const encoder = new TextEncoder();

/** The binary's stdout for one run: {@linkcode PrintOutput.push} is the session's `output`. */
export class PrintOutput {
  /** The lines written (or, for `json` and `text`, seen), in order. */
  readonly written: string[] = [];
  #options: PrintOutputOptions;
  #lines = new LineBuffer();
  #result?: Record<string, unknown>;
  #crashed = false;
  /** The last line handed to `write` (writes complete in call order): what `finish` waits for. */
  #lastWrite: Promise<unknown> = Promise.resolve();

  /** Output for one run. */
  constructor(options: PrintOutputOptions) {
    this.#options = options;
  }

  /** Whether the crash point was reached. */
  get crashed(): boolean {
    return this.#crashed;
  }

  /** Takes a chunk of the engine's stdout; resolves once what it wrote was handed on. */
  push = (chunk: Uint8Array): Promise<void> | undefined => {
    let writing: Promise<void> | undefined;
    for (const line of this.#lines.push(chunk)) writing = this.#line(line) ?? writing;
    return writing;
  };

  /**
   * Ends the run: a last unterminated line, then the result for `json` and `text`; resolves
   * once every line is written (a crash too dies only once its lines are out).
   */
  async finish(): Promise<void> {
    for (const line of this.#lines.end()) await this.#line(line);
    // the session may have moved on (or been killed at the crash point) before they were out
    await this.#lastWrite.catch(() => {});
    const result = this.#result;
    if (this.#crashed || !result) return;
    const { format, write } = this.#options;
    if (format === "json") {
      const { model_usage_since_last_result: _, ...json } = result;
      await write(encoder.encode(`${JSON.stringify(json)}\n`));
    } else if (format !== "stream-json") {
      await write(encoder.encode(`${textOf(result)}\n`));
    }
  }

  #line(line: string): Promise<void> | undefined {
    const options = this.#options;
    if (this.#crashed) return;
    if (!options.keepState && line.includes('"subtype":"session_state_changed"')) return;
    this.written.push(line);
    let writing: Promise<void> | undefined;
    if (options.format === "stream-json") {
      writing = options.write(encoder.encode(`${line}\n`));
      this.#lastWrite = writing;
    } else if (line.startsWith('{"') && line.includes('"type":"result"')) {
      try {
        const frame = JSON.parse(line);
        if (frame.type === "result") this.#result = frame;
      } catch {
        // a malformed line the scenario wrote on purpose: not a result
      }
    }
    if (this.written.length >= options.crashAfter) {
      this.#crashed = true;
      options.onCrash();
    }
    return writing;
  }
}

/** What `--output-format text` prints for a result (the real CLI's texts). */
function textOf(result: Record<string, unknown>): string {
  const errors = Array.isArray(result.errors) ? result.errors.map(String) : [];
  switch (result.subtype) {
    case "success":
      return String(result.result ?? "");
    case "error_max_turns": {
      const n = /\((\d+)\)/.exec(errors[0] ?? "")?.[1] ?? "";
      return `Error: Reached max turns (${n})`;
    }
    default:
      return `Error: ${errors.join("\n") || String(result.subtype)}`;
  }
}
