/**
 * `CassetteMismatchError`: a replay that went another way than its tape.
 *
 * @module
 */

import { show } from "../wire/_show.ts";

/** What a mismatch carries: where in the tape, what the tape had, what the app did. */
export interface CassetteMismatch {
  /** What diverged, in a sentence. */
  reason: string;
  /** The tape's 1-based line of the expected entry (0 when the tape had nothing there). */
  line: number;
  /** The tape (its path or URL), when known. */
  source?: string;
  /** The frame the tape expected, if any. */
  expected?: unknown;
  /** What the app sent instead, if anything. */
  actual?: unknown;
}

/**
 * A replay diverged from its tape: the app sent another prompt, another control request or
 * another answer; the tape ran out; or the app sent more than the tape has. It carries the
 * expected and the actual frame, the tape line and a readable diff (`message`), and has the
 * `actual`/`expected` fields test runners show.
 *
 * @example Reading a mismatch
 * ```ts
 * import { CassetteMismatchError } from "@x/claude-mock/cassette";
 * const error = new CassetteMismatchError({
 *   reason: "the app sent another prompt",
 *   line: 3,
 *   source: "hello.jsonl",
 *   expected: { type: "user", message: { role: "user", content: "hello" } },
 *   actual: { type: "user", message: { role: "user", content: "bye" } },
 * });
 * console.log(error.message.split("\n")[0]);
 * // Cassette mismatch at hello.jsonl:3: the app sent another prompt
 * ```
 */
export class CassetteMismatchError extends Error {
  /** The tape line of the expected entry (1-based; 0 when the tape had nothing there). */
  readonly line: number;
  /** The tape's path or URL, when known. */
  readonly source?: string;
  /** What the tape expected. */
  readonly expected: unknown;
  /** What the app sent. */
  readonly actual: unknown;
  /** The divergence in a sentence. */
  readonly reason: string;

  /** Builds the error and its message (the reason, the place, and a diff of the frames). */
  constructor(mismatch: CassetteMismatch) {
    super(mismatchMessage(mismatch));
    this.name = "CassetteMismatchError";
    this.line = mismatch.line;
    this.source = mismatch.source;
    this.expected = mismatch.expected;
    this.actual = mismatch.actual;
    this.reason = mismatch.reason;
  }
}

function mismatchMessage(m: CassetteMismatch): string {
  const where = `${m.source ?? "tape"}${m.line > 0 ? `:${m.line}` : ""}`;
  const lines = [`Cassette mismatch at ${where}: ${m.reason}`];
  if (m.expected !== undefined || m.actual !== undefined) {
    lines.push(...frameDiff(m.expected, m.actual));
  }
  if (m.source !== undefined && m.line > 0) {
    lines.push(
      `  (see it: \`deno run -A jsr:@x/claude-mock/cli view ${m.source}\`, then open #line-${m.line})`,
    );
  }
  return lines.join("\n");
}

/**
 * A readable diff of two frames: the paths whose values differ, each with the expected
 * (`-`) and the actual (`+`) value, at most 20 of them.
 */
function frameDiff(expected: unknown, actual: unknown): string[] {
  if (expected === undefined) return [`  + ${showValue(actual)}`];
  if (actual === undefined) return [`  - ${showValue(expected)}`];
  const out: string[] = [];
  walk(expected, actual, "", out);
  const shown = out.slice(0, 40);
  if (out.length > 40) shown.push(`  … ${(out.length - 40) / 2} more differences`);
  return shown.length > 0 ? shown : ["  (the frames are equal)"];
}

function walk(a: unknown, b: unknown, path: string, out: string[]): void {
  if (Object.is(a, b)) return;
  const objects = typeof a === "object" && a !== null && typeof b === "object" && b !== null &&
    Array.isArray(a) === Array.isArray(b);
  if (!objects) {
    out.push(
      `  - ${path || "(frame)"}: ${showValue(a)}`,
      `  + ${path || "(frame)"}: ${showValue(b)}`,
    );
    return;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
  for (const key of keys) {
    // Request ids are the SDK's own, never part of a divergence.
    if (key === "request_id") continue;
    const next = Array.isArray(a) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    walk(ra[key], rb[key], next, out);
  }
}

/** A value of a divergence: a whole line's worth of it, or `(absent)`. */
function showValue(value: unknown): string {
  return value === undefined ? "(absent)" : show(value, { max: 200 });
}
