/**
 * Aligning two tapes for the timeline's diff view: entries paired in order by what they are
 * (direction, type, subtype), so one extra frame shifts nothing after it; each pair marked
 * the same, the same but for ids and times, different, or present on one side only.
 * Internal to `timelineHtml`.
 *
 * @module
 */

import type { TapeEntry } from "./tape.ts";

/** How a pair compares. */
export type DiffMark = "same" | "ids" | "diff" | "left" | "right";

/** One aligned pair: indexes into each tape's entries (`-1` where a side has none). */
export interface DiffRow {
  /** The entry of the first tape, or -1. */
  a: number;
  /** The entry of the second tape, or -1. */
  b: number;
  /** How they compare. */
  mark: DiffMark;
}

/** Above this many cells the alignment pairs entries by position instead of by LCS. */
const MAX_CELLS = 4_000_000;

/** Fields whose values change from one recording to the next. */
const VOLATILE_KEYS = new Set([
  "uuid",
  "session_id",
  "request_id",
  "timestamp",
  "duration_ms",
  "duration_api_ms",
  "total_cost_usd",
  "api_message_id",
  "thinking_duration_ms",
  "pid",
]);
/** String values that are ids: UUIDs and the API's `msg_…`, `toolu_…`, `req_…` ids. */
const ID_VALUE =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(msg|toolu|srvtoolu|req)_[0-9A-Za-z]+)$/;

/** What an entry is, for alignment. */
function keyOf(entry: TapeEntry): string {
  if (entry.dir === "stderr") return "stderr";
  if (!("frame" in entry)) return `${entry.dir}|raw`;
  const f = entry.frame as Record<string, unknown>;
  const sub = (o: unknown) =>
    typeof o === "object" && o !== null ? (o as Record<string, unknown>).subtype : undefined;
  // a result stays paired with a result whatever its subtype: that difference is the news
  const detail = f.type === "result" ? "" : f.subtype ?? sub(f.request) ?? sub(f.response) ??
    (f.event as { type?: unknown } | undefined)?.type ?? "";
  return `${entry.dir}|${f.type}|${detail}`;
}

/** JSON with sorted keys; with `loose`, volatile fields and id values are blanked. */
function canonical(value: unknown, loose: boolean): string {
  return JSON.stringify(value, function (this: unknown, key: string, v: unknown) {
    if (loose && key !== "" && !Array.isArray(this) && VOLATILE_KEYS.has(key)) return "*";
    if (loose && typeof v === "string" && ID_VALUE.test(v)) return "*id*";
    if (typeof v === "object" && v !== null && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
    }
    return v;
  });
}

function payload(entry: TapeEntry): unknown {
  if (entry.dir === "stderr") return { stderr: entry.text };
  return "frame" in entry
    ? { dir: entry.dir, frame: entry.frame }
    : { dir: entry.dir, raw: entry.raw };
}

function compare(a: TapeEntry, b: TapeEntry): DiffMark {
  const pa = payload(a);
  const pb = payload(b);
  if (canonical(pa, false) === canonical(pb, false)) return "same";
  return canonical(pa, true) === canonical(pb, true) ? "ids" : "diff";
}

/** Aligns the entries of two tapes in order. */
export function alignTapes(left: TapeEntry[], right: TapeEntry[]): DiffRow[] {
  const n = left.length;
  const m = right.length;
  const rows: DiffRow[] = [];
  const pair = (a: number, b: number) => rows.push({ a, b, mark: compare(left[a], right[b]) });
  if ((n + 1) * (m + 1) > MAX_CELLS) {
    for (let i = 0; i < Math.max(n, m); i++) {
      if (i < n && i < m) pair(i, i);
      else if (i < n) rows.push({ a: i, b: -1, mark: "left" });
      else rows.push({ a: -1, b: i, mark: "right" });
    }
    return rows;
  }
  const ka = left.map(keyOf);
  const kb = right.map(keyOf);
  // lcs[i * (m + 1) + j]: the longest common run of keys of left[i..] and right[j..]
  const lcs = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * (m + 1) + j] = ka[i] === kb[j]
        ? lcs[(i + 1) * (m + 1) + j + 1] + 1
        : Math.max(lcs[(i + 1) * (m + 1) + j], lcs[i * (m + 1) + j + 1]);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && ka[i] === kb[j]) pair(i++, j++);
    else if (j >= m || (i < n && lcs[(i + 1) * (m + 1) + j] >= lcs[i * (m + 1) + j + 1])) {
      rows.push({ a: i++, b: -1, mark: "left" });
    } else rows.push({ a: -1, b: j++, mark: "right" });
  }
  return rows;
}
