/**
 * Secrets split across a message's stream deltas: `sk-ant-api03-abc` in one `text_delta` and
 * the rest in the next is no secret frame by frame. The deltas of each content block (per
 * direction, thread and message) are joined, the secret detectors run on the joined text, and
 * a match that spans pieces is written back into them: the first piece gets the placeholder,
 * the others lose their part, so the pieces still join to the scrubbed text. Internal.
 *
 * @module
 */

import type { Detector } from "./_detector.ts";
import { isFrameEntry, type TapeEntry } from "./tape.ts";

/** Where a delta's text lives in its frame. */
const DELTA_FIELDS: Record<string, string> = {
  text_delta: "text",
  thinking_delta: "thinking",
  input_json_delta: "partial_json",
};

interface Piece {
  /** The entry's index in the tape. */
  index: number;
  /** The delta's field. */
  field: string;
  /** Its text. */
  text: string;
}

/** A secret that spans pieces: where, and the lines it spans. */
export interface SplitSecret {
  /** The detector that found it. */
  detector: Detector;
  /** The tape lines of the first and last piece. */
  lines: [number, number];
}

/**
 * The block streams of `entries`: for each content block of each streamed message, its
 * deltas in order.
 */
function blockStreams(entries: readonly TapeEntry[]): Piece[][] {
  const streams = new Map<string, Piece[]>();
  const messages = new Map<string, number>();
  entries.forEach((entry, index) => {
    if (!isFrameEntry(entry)) return;
    const frame = entry.frame as Record<string, unknown>;
    if (frame.type !== "stream_event") return;
    const event = frame.event as Record<string, unknown> | undefined;
    const thread = `${entry.dir}|${String(frame.parent_tool_use_id ?? "")}`;
    if (event?.type === "message_start") messages.set(thread, (messages.get(thread) ?? 0) + 1);
    if (event?.type !== "content_block_delta") return;
    const delta = event.delta as Record<string, unknown> | undefined;
    const field = DELTA_FIELDS[String(delta?.type)];
    const text = field ? delta?.[field] : undefined;
    if (typeof text !== "string") return;
    const key = `${thread}|${messages.get(thread) ?? 0}|${String(event.index)}`;
    let stream = streams.get(key);
    if (!stream) streams.set(key, stream = []);
    stream.push({ index, field, text });
  });
  return [...streams.values()].filter((s) => s.length > 1);
}

/** The secrets that span two or more pieces of a stream, and the stream's pieces rewritten. */
function splitMatches(
  stream: Piece[],
  detectors: readonly Detector[],
): { found: Detector[]; pieces: string[] } {
  let pieces = stream.map((p) => p.text);
  const found: Detector[] = [];
  for (const d of detectors) {
    const joined = pieces.join("");
    d.pattern.lastIndex = 0;
    const matches = [...joined.matchAll(d.pattern)];
    if (matches.length === 0) continue;
    const starts: number[] = [];
    let at = 0;
    for (const p of pieces) {
      starts.push(at);
      at += p.length;
    }
    const pieceAt = (offset: number) => {
      let i = starts.length - 1;
      while (i > 0 && starts[i] > offset) i--;
      return i;
    };
    // from the last match back, so earlier offsets stay right
    const next = [...pieces];
    let spanned = false;
    for (const m of matches.reverse()) {
      const start = m.index!;
      const end = start + m[0].length;
      const first = pieceAt(start);
      const last = pieceAt(end - 1);
      if (first === last) continue; // inside one piece: the frame's own scrub sees it
      const once = new RegExp(d.pattern.source, d.pattern.flags.replace("g", ""));
      const replaced = m[0].replace(once, d.replace as string);
      if (replaced === m[0]) continue;
      spanned = true;
      next[first] = next[first].slice(0, start - starts[first]) + replaced;
      for (let i = first + 1; i < last; i++) next[i] = "";
      next[last] = next[last].slice(end - starts[last]);
    }
    if (spanned) {
      found.push(d);
      pieces = next;
    }
  }
  return { found, pieces };
}

/** The secrets in `entries` that span stream deltas (for lint). */
export function findSplitSecrets(
  entries: readonly TapeEntry[],
  detectors: readonly Detector[],
): SplitSecret[] {
  const out: SplitSecret[] = [];
  for (const stream of blockStreams(entries)) {
    const { found } = splitMatches(stream, detectors);
    const lines: [number, number] = [
      entries[stream[0].index].line,
      entries[stream.at(-1)!.index].line,
    ];
    for (const detector of found) out.push({ detector, lines });
  }
  return out;
}

/** `entries` with secrets that span stream deltas replaced in their pieces (for scrub). */
export function scrubSplitSecrets(
  entries: TapeEntry[],
  detectors: readonly Detector[],
): TapeEntry[] {
  const out = [...entries];
  for (const stream of blockStreams(entries)) {
    const { found, pieces } = splitMatches(stream, detectors);
    if (found.length === 0) continue;
    stream.forEach((piece, i) => {
      if (pieces[i] === piece.text) return;
      const entry = out[piece.index] as TapeEntry & { frame: Record<string, unknown> };
      const event = entry.frame.event as Record<string, unknown>;
      const delta = event.delta as Record<string, unknown>;
      out[piece.index] = {
        ...entry,
        frame: {
          ...entry.frame,
          event: { ...event, delta: { ...delta, [piece.field]: pieces[i] } },
        },
      } as TapeEntry;
    });
  }
  return out;
}
