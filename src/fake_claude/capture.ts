/**
 * Reading what the fake binary captured (`--capture <file>` / `CLAUDE_MOCK_CAPTURE`): one
 * JSON line per invocation, and assertions over them for tests.
 *
 * @module
 */

import { errorCode, readText } from "../host/_fs.ts";
import { AssertionError } from "../session/assertion_error.ts";

/** One run of the fake binary, as captured. */
export interface CapturedInvocation {
  /** Its invocation number (1 for the first run in the state folder). */
  seq: number;
  /** When it started (ISO 8601). */
  time: string;
  /** Its arguments. */
  argv: string[];
  /** Its working directory. */
  cwd: string;
  /** The environment that matters (`CLAUDE_*`, `ANTHROPIC_BASE_URL`, `API_TIMEOUT_MS`, ...). */
  env: Record<string, string>;
  /** The prompts it got (print mode: one; duplex: each user frame's). */
  prompts: string[];
  /** What piped stdin carried (print mode). */
  stdin?: string;
  /** The session id it used. */
  sessionId: string;
  /** For each turn, the index of the exchange that answered (-1: none). */
  exchanges: number[];
  /** How many lines it wrote to stdout. */
  frames: number;
  /** Its exit code (143 after SIGTERM). */
  exitCode: number;
  /** How long it ran, in ms. */
  durationMs: number;
}

/** The invocations of a capture file, with assertions. */
export class CaptureLog {
  /** The invocations, in the order they finished. */
  readonly entries: readonly CapturedInvocation[];

  /** Wraps parsed entries. */
  constructor(entries: readonly CapturedInvocation[]) {
    this.entries = [...entries].sort((a, b) => a.seq - b.seq);
  }

  /** The invocations whose prompts contain `text` (or match the RegExp). */
  findByPrompt(text: string | RegExp): CapturedInvocation[] {
    return this.entries.filter((e) =>
      e.prompts.some((p) => typeof text === "string" ? p.includes(text) : text.test(p))
    );
  }

  /** Asserts how many times the binary ran (at least once without `times`). */
  assertInvoked(times?: number): void {
    const n = this.entries.length;
    if (times === undefined ? n === 0 : n !== times) {
      throw new AssertionError(
        `Expected the fake claude to run ${times ?? "at least once"} time(s), it ran ${n} time(s)${
          n > 0 ? `: ${this.entries.map((e) => JSON.stringify(e.argv)).join(", ")}` : ""
        }`,
      );
    }
  }

  /**
   * Asserts that every invocation (or invocation `seq`) had `flag` on its command line,
   * with `value` when given (`--model sonnet` or `--model=sonnet`).
   */
  assertFlags(flag: string, options: { value?: string; seq?: number } = {}): void {
    const runs = options.seq === undefined
      ? this.entries
      : this.entries.filter((e) => e.seq === options.seq);
    if (runs.length === 0) {
      throw new AssertionError(
        `Expected invocation ${options.seq ?? "any"} of the fake claude, none was captured`,
      );
    }
    for (const run of runs) {
      const values = flagValues(run.argv, flag);
      const ok = values.length > 0 &&
        (options.value === undefined || values.includes(options.value));
      if (!ok) {
        throw new AssertionError(
          `Expected invocation ${run.seq} of the fake claude to have ${flag}${
            options.value !== undefined ? ` ${options.value}` : ""
          }; its arguments were ${JSON.stringify(run.argv)}`,
        );
      }
    }
  }
}

/** The values `flag` had in `argv` (`""` for a flag without one). */
function flagValues(argv: readonly string[], flag: string): string[] {
  const values: string[] = [];
  argv.forEach((arg, i) => {
    if (arg === flag) {
      const next = argv[i + 1];
      values.push(next !== undefined && !next.startsWith("-") ? next : "");
    } else if (arg.startsWith(`${flag}=`)) values.push(arg.slice(flag.length + 1));
  });
  return values;
}

/**
 * Reads a capture file (no file yet: no invocations).
 *
 * @example Reading what the fake claude was asked
 * ```ts
 * import { readCapture } from "@x/claude-mock/cli";
 * const log = await readCapture("/nonexistent/capture.jsonl");
 * console.log(log.entries.length); // 0
 * ```
 */
export async function readCapture(path: string): Promise<CaptureLog> {
  if (typeof path !== "string" || path === "") {
    throw new TypeError(
      `Cannot read the capture: expected the capture file's path, got ${
        path === "" ? "an empty string" : path === null ? "null" : typeof path
      }`,
    );
  }
  let text: string;
  try {
    text = await readText(path);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return new CaptureLog([]);
    throw error;
  }
  const entries = text.split("\n").filter((l) => l.trim() !== "").map((line, i) => {
    try {
      return JSON.parse(line) as CapturedInvocation;
    } catch (error) {
      throw new SyntaxError(
        `Cannot read capture: line ${i + 1} is not JSON (in ${path}): ${(error as Error).message}`,
      );
    }
  });
  return new CaptureLog(entries);
}
