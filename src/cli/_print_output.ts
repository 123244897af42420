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
  /**
   * Writes to stdout. A write that fails is a reader that went away (`| head -1`): as the
   * real CLI, the run goes on to its end without stdout, and its transcript is kept whole.
   */
  write: (chunk: Uint8Array) => Promise<void>;
  /** Called once when the crash point is reached (the caller kills the session). */
  onCrash: () => void;
  /**
   * A turn that ends while background tasks run has its result written with the next one (the
   * notification turn's), with the session's figures as they are then: the real CLI 2.1.332
   * with a prompt given as text (not with `--input-format stream-json`).
   */
  holdForBackground?: boolean;
}

const encoder = new TextEncoder();

/** The binary's stdout for one run: {@linkcode PrintOutput.push} is the session's `output`. */
export class PrintOutput {
  /** The lines written (or, for `json` and `text`, seen), in order. */
  readonly written: string[] = [];
  #options: PrintOutputOptions;
  #lines = new LineBuffer();
  #result?: Record<string, unknown>;
  /** Background tasks running now (the last `background_tasks_changed`). */
  #background = 0;
  /** Results written while background tasks ran: held until the run's next result. */
  #held: { line: string; frame?: Record<string, unknown> }[] = [];
  #crashed = false;
  /** Writes handed to stdout that have not completed yet. */
  #inFlight = 0;
  #drained?: () => void;

  #stdoutGone = false;

  /** Output for one run. */
  constructor(options: PrintOutputOptions) {
    this.#options = options;
  }

  /** Whether stdout's reader went away (a write failed). */
  get stdoutGone(): boolean {
    return this.#stdoutGone;
  }

  /** Writes to stdout, unless its reader went away; a failed write is never an error here. */
  #write(chunk: Uint8Array): Promise<void> | undefined {
    if (this.#stdoutGone) return undefined;
    return this.#options.write(chunk).catch(() => {
      this.#stdoutGone = true;
    });
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
   * once every line handed to stdout was written (a process that exits before then loses
   * them: a crash after n lines must have written n).
   */
  async finish(): Promise<void> {
    for (const line of this.#lines.end()) await this.#line(line);
    await this.#flushed();
    // results still held (no later result came): written as they are
    const held = this.#result === undefined ? this.#held.pop() : undefined;
    if (held && this.#options.format === "stream-json") {
      for (const h of [...this.#held.splice(0), held]) {
        await this.#write(encoder.encode(`${h.line}\n`));
      }
    } else if (held) this.#result = held.frame;
    const result = this.#result;
    if (this.#crashed || !result) return;
    const { format } = this.#options;
    if (format === "json") {
      const { model_usage_since_last_result: _, ...json } = result;
      await this.#write(encoder.encode(`${JSON.stringify(json)}\n`));
    } else if (format !== "stream-json") {
      // a turn's result held for its background tasks is printed before the last (2.1.332)
      const held = this.#held.flatMap((h) => h.frame ? [textOf(h.frame)] : []);
      await this.#write(encoder.encode([...held, textOf(result)].join("\n")));
    }
  }

  #line(line: string): Promise<void> | undefined {
    const options = this.#options;
    if (this.#crashed) return;
    if (!options.keepState && line.includes('"subtype":"session_state_changed"')) return;
    this.written.push(line);
    let writing: Promise<void> | undefined;
    const frame = line.startsWith('{"') &&
        (line.includes('"type":"result"') || line.includes('"background_tasks_changed"'))
      ? parsed(line)
      : undefined;
    if (frame?.type === "system" && frame.subtype === "background_tasks_changed") {
      this.#background = Array.isArray(frame.tasks) ? frame.tasks.length : 0;
    }
    const result = frame?.type === "result" ? frame : undefined;
    if (result && this.#background === 0 && this.#held.length > 0) settle(this.#held, result);
    if (result && this.#background > 0 && options.holdForBackground) {
      // as the real CLI 2.1.332 in print mode: a turn that ends while background tasks run has
      // its result written with the next one (the notification turn's)
      this.#held.push({ line, frame: result });
    } else if (options.format === "stream-json") {
      const lines = result && this.#held.length > 0
        ? [...this.#held.splice(0).map((h) => JSON.stringify(h.frame)), JSON.stringify(result)]
        : [line];
      for (const out of lines) {
        const write = this.#write(encoder.encode(`${out}\n`));
        if (write) writing = this.#track(write);
      }
    } else if (result) this.#result = result;
    if (this.written.length >= options.crashAfter) {
      this.#crashed = true;
      options.onCrash();
    }
    return writing;
  }

  /** Counts a write until it completes (or fails: a reader that went away). */
  #track(writing: Promise<void>): Promise<void> {
    this.#inFlight++;
    const settled = () => {
      if (--this.#inFlight === 0) this.#drained?.();
    };
    writing.then(settled, settled);
    return writing;
  }

  /** Resolves once no write is in flight. */
  #flushed(): Promise<void> | undefined {
    if (this.#inFlight === 0) return undefined;
    return new Promise<void>((resolve) => {
      this.#drained = () => {
        this.#drained = undefined;
        resolve();
      };
    });
  }
}

/** Fields of a `modelUsage` entry that add up from call to call. */
const ADDITIVE = new Set([
  "inputTokens",
  "outputTokens",
  "cacheReadInputTokens",
  "cacheCreationInputTokens",
  "webSearchRequests",
  "costUSD",
  "thinkingTokens",
  "cacheCreationEphemeral5mInputTokens",
  "cacheCreationEphemeral1hInputTokens",
]);

type Usage = Record<string, Record<string, unknown>>;

/**
 * Held results as the real CLI writes them when it writes them (2.1.332, print mode): the
 * session's cost, `modelUsage` and `subagent_stats` as they are now; the first held result's
 * `model_usage_since_last_result` takes in what came since, and the results after it have none.
 */
function settle(held: { frame?: Record<string, unknown> }[], last: Record<string, unknown>): void {
  const frames = [...held.flatMap((h) => h.frame ? [h.frame] : []), last];
  let since: Usage = {};
  for (const frame of frames) {
    since = addUsage(since, (frame.model_usage_since_last_result ?? {}) as Usage);
  }
  frames.forEach((frame, i) => {
    frame.total_cost_usd = last.total_cost_usd;
    frame.modelUsage = last.modelUsage;
    frame.subagent_stats = last.subagent_stats;
    if ("model_usage_since_last_result" in frame) {
      frame.model_usage_since_last_result = i === 0 ? since : {};
    }
  });
}

/** Two `modelUsage` maps added model by model. */
function addUsage(a: Usage, b: Usage): Usage {
  const out: Usage = {};
  for (const model of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const x = a[model] ?? {};
    const y = b[model] ?? {};
    const entry: Record<string, unknown> = { ...x, ...y };
    for (const key of ADDITIVE) {
      if (typeof x[key] === "number" && typeof y[key] === "number") {
        entry[key] = (x[key] as number) + (y[key] as number);
      }
    }
    out[model] = entry;
  }
  return out;
}

/** A line's frame, or `undefined` (a malformed line the scenario wrote on purpose). */
function parsed(line: string): Record<string, unknown> | undefined {
  try {
    const frame = JSON.parse(line);
    return frame && typeof frame === "object" ? frame : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What `--output-format text` prints for a result (the real CLI's texts): a success's text and a
 * newline; an error's line with no newline after it (conformance limit_max_turns,
 * limit_max_budget against CLI 2.1.328 and 2.1.332).
 */
function textOf(result: Record<string, unknown>): string {
  const errors = Array.isArray(result.errors) ? result.errors.map(String) : [];
  // an interrupted turn (SIGINT), whose errors are only the CLI's diagnostic: the real CLI
  // prints these two words
  if (result.subtype === "error_during_execution" && errors[0]?.startsWith("[ede_diagnostic]")) {
    return "Execution error";
  }
  switch (result.subtype) {
    case "success":
      return `${String(result.result ?? "")}\n`;
    case "error_max_turns": {
      const n = /\((\d+)\)/.exec(errors[0] ?? "")?.[1];
      return `Error: Reached max turns${n === undefined ? "" : ` (${n})`}`;
    }
    case "error_max_budget_usd": {
      const usd = /\(\$([^)]*)\)/.exec(errors[0] ?? "")?.[1];
      return `Error: Exceeded USD budget${usd === undefined ? "" : ` (${usd})`}`;
    }
    default:
      return `Error: ${errors.join("\n") || String(result.subtype)}`;
  }
}
