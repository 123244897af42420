/**
 * Comparing two normalized runs of one scenario: the frames of each direction paired in order
 * by kind (an extra frame shifts nothing after it; how the two directions interleave is a race
 * between the processes, not compared), then, pair by pair, their key sets and values; the
 * exit code and stderr lines; a print run's stdout. Internal.
 *
 * @internal
 * @module
 */

import { alignTapes } from "../cassette/_timeline_diff.ts";
import type { TapeEntry } from "../cassette/tape.ts";
import { frameKind } from "../wire/_kind_of.ts";

/** One difference between the mock's run and the real CLI's. */
export interface Difference {
  /** What differs: a frame only one side has, key sets, a value, the exit, stderr or stdout. */
  type: "missing" | "extra" | "keys" | "value" | "exit" | "stderr" | "stdout";
  /** The frame's kind (`cli->sdk assistant`, `sdk->cli control_response`, …). */
  kind: string;
  /** The frame's number (1-based) among the mock's frames, when the mock has it. */
  mockFrame?: number;
  /** The frame's number (1-based) among the real CLI's frames, when the real CLI has it. */
  realFrame?: number;
  /** The key path inside the frame (`message.content.0.text`). */
  path?: string;
  /** The mock's value (or, for `keys`, the keys only the mock has). */
  mock?: unknown;
  /** The real CLI's value (or, for `keys`, the keys only the real CLI has). */
  real?: unknown;
  /** The name of the exception that explains it, if one does. */
  explainedBy?: string;
}

/** A run's comparable parts, normalized. */
export interface ComparableRun {
  /** Frames of both directions in order (entries of a tape). */
  entries: TapeEntry[];
  /** The exit code (`null` when it never exited). */
  exitCode: number | null;
  /** stderr lines (normalized), empty ones dropped. */
  stderr: string[];
  /** Print mode: stdout as text (text format), else undefined. */
  stdout?: string;
}

/** The kind of a frame entry, as frames are paired. */
export function kindOf(entry: TapeEntry): string {
  if (!("frame" in entry)) return `${entry.dir} ${"raw" in entry ? "raw" : "stderr"}`;
  return `${entry.dir} ${frameKind(entry.frame as Record<string, unknown>, { nested: true })}`;
}

/**
 * The frames of two runs paired direction by direction: each pipe is ordered, but how the
 * two interleave is a race between two processes that neither observes (the app reads only
 * the CLI's pipe, the CLI only the app's): the CLI's `idle` after a result and the app's next
 * prompt come in either order. Rows in the order of the frames (indices into `left` and
 * `right`, -1 where one side has no such frame).
 */
function alignByDirection(left: TapeEntry[], right: TapeEntry[]): Array<{
  a: number;
  b: number;
  mark: string;
}> {
  const rows: Array<{ a: number; b: number; mark: string; at: number }> = [];
  for (const dir of ["cli->sdk", "sdk->cli"]) {
    const li = left.flatMap((e, i) => (e.dir === dir ? [i] : []));
    const ri = right.flatMap((e, i) => (e.dir === dir ? [i] : []));
    let last = 0;
    for (const row of alignTapes(li.map((i) => left[i]), ri.map((i) => right[i]))) {
      const a = row.a < 0 ? -1 : li[row.a];
      const b = row.b < 0 ? -1 : ri[row.b];
      // a frame only one side has sits where that side has it
      last = a >= 0 ? a : b >= 0 ? Math.max(last, b) : last;
      rows.push({ a, b, mark: row.mark, at: last });
    }
  }
  return rows.sort((x, y) => x.at - y.at || (x.a >= 0 ? 0 : 1) - (y.a >= 0 ? 0 : 1));
}

/** Every difference between `mock` and `real` (frames first, in order). */
export function compareRuns(mock: ComparableRun, real: ComparableRun): Difference[] {
  const out: Difference[] = [];
  const left = mock.entries.filter((e) => "frame" in e || "raw" in e);
  const right = real.entries.filter((e) => "frame" in e || "raw" in e);
  for (const row of alignByDirection(left, right)) {
    if (row.b < 0) {
      out.push({ type: "extra", kind: kindOf(left[row.a]), mockFrame: row.a + 1 });
    } else if (row.a < 0) {
      out.push({ type: "missing", kind: kindOf(right[row.b]), realFrame: row.b + 1 });
    } else if (row.mark !== "same") {
      const a = left[row.a];
      const b = right[row.b];
      const where = { kind: kindOf(b), mockFrame: row.a + 1, realFrame: row.b + 1 };
      if (kindOf(a) !== kindOf(b)) {
        // a result paired with a result of another subtype: the subtype is the news
        out.push({ type: "value", ...where, path: "subtype", mock: kindOf(a), real: kindOf(b) });
      }
      const av = "frame" in a ? a.frame : (a as { raw: string }).raw;
      const bv = "frame" in b ? b.frame : (b as { raw: string }).raw;
      diffValues(av, bv, "", (d) => out.push({ ...where, ...d }));
    }
  }
  if (mock.exitCode !== real.exitCode) {
    out.push({ type: "exit", kind: "exit", mock: mock.exitCode, real: real.exitCode });
  }
  const mockErr = mock.stderr.join("\n");
  const realErr = real.stderr.join("\n");
  if (mockErr !== realErr) {
    out.push({ type: "stderr", kind: "stderr", mock: mockErr, real: realErr });
  }
  if (mock.stdout !== real.stdout) {
    out.push({ type: "stdout", kind: "stdout", mock: mock.stdout, real: real.stdout });
  }
  return out;
}

type Partial = Pick<Difference, "type" | "path" | "mock" | "real">;

function diffValues(a: unknown, b: unknown, path: string, report: (d: Partial) => void): void {
  if (Object.is(a, b)) return;
  // the same amount summed in another order (costs): equal to the last bits of a double
  if (
    typeof a === "number" && typeof b === "number" && Number.isFinite(a) && Number.isFinite(b) &&
    Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b))
  ) return;
  const kind = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
  if (kind(a) !== kind(b)) {
    return report({ type: "value", path: path || "(frame)", mock: a, real: b });
  }
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) {
      return report({
        type: "value",
        path: `${path || "(frame)"}.length`,
        mock: a.length,
        real: bb.length,
      });
    }
    a.forEach((v, i) => diffValues(v, bb[i], join(path, String(i)), report));
    return;
  }
  if (typeof a === "object" && a !== null) {
    const ao = a as Record<string, unknown>;
    const bo = b as Record<string, unknown>;
    const onlyMock = Object.keys(ao).filter((k) => !(k in bo));
    const onlyReal = Object.keys(bo).filter((k) => !(k in ao));
    if (onlyMock.length || onlyReal.length) {
      report({ type: "keys", path: path || "(frame)", mock: onlyMock, real: onlyReal });
    }
    for (const key of Object.keys(ao)) {
      if (key in bo) diffValues(ao[key], bo[key], join(path, key), report);
    }
    return;
  }
  report({ type: "value", path: path || "(frame)", mock: a, real: b });
}

function join(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}
