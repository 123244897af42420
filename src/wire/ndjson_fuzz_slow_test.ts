/**
 * Property test for {@linkcode NdjsonDecodeStream}: over 100,000 random and mutated lines,
 * joined with "\n" or "\r\n", cut at random chunk boundaries, must each come out exactly
 * as an independent oracle (per-line UTF-8 decoding, then `JSON.parse`) says.
 *
 * Seeded, so a failure reproduces; the message names the seed, the batch and the line.
 */

import assert from "node:assert/strict";
import { isObject } from "./frame.ts";
import { type DecodedLine, NdjsonDecodeStream } from "./ndjson_decode_stream.ts";
import { WireError } from "./wire_error.ts";
import { type Prng, randomSeeded } from "../random/pcg32.ts";

const SEED = 20250601n;
const utf8 = new TextEncoder();

/** Mirrors the decoder's limit on `raw` for over-long lines. */
const OVERLONG_RAW_LENGTH = 1024;

type Expected =
  | { kind: "skip" }
  | { kind: "ok"; raw: string; value: unknown; original?: unknown }
  | { kind: "json" | "shape" | "long"; raw: string };

interface Batch {
  name: string;
  lines: number;
  input: "bytes" | "text";
  /** Chunk sizes: "mixed", "small" or "whole". */
  chunks: "mixed" | "small" | "whole";
  maxLineLength?: number;
}

const BATCHES: Batch[] = [
  { name: "bytes, mixed chunks", lines: 26_000, input: "bytes", chunks: "mixed" },
  {
    name: "bytes, small chunks, maxLineLength 700",
    lines: 18_000,
    input: "bytes",
    chunks: "small",
    maxLineLength: 700,
  },
  { name: "text, mixed chunks", lines: 22_000, input: "text", chunks: "mixed" },
  {
    name: "bytes, maxLineLength 3000",
    lines: 18_000,
    input: "bytes",
    chunks: "mixed",
    maxLineLength: 3000,
  },
  { name: "bytes, one chunk", lines: 20_000, input: "bytes", chunks: "whole" },
];

class Gen {
  constructor(readonly next: Prng) {}
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

const ALPHABET = [
  ..."abcdefghijklmnopqrstuvwxyz ABCXYZ0123456789",
  ..."{}[]:,\"\\/'",
  "\u0000",
  "\t",
  "\n",
  "\r",
  "\u001b",
  "\u00e9",
  "\u00a0",
  "\u20ac",
  "\u4e2d",
  "\u2028",
  "\ufeff",
  "\ufffd",
  "\ud800",
  "\udfff",
  "\u{1f600}",
  "\u{10ffff}",
];

function randomString(g: Gen, max = 24): string {
  let s = "";
  for (let n = g.int(max); n > 0; n--) s += g.pick(ALPHABET);
  return s;
}

function randomNumber(g: Gen): number {
  switch (g.int(4)) {
    case 0:
      return g.int(1000);
    case 1:
      return g.int(2 ** 31) - 2 ** 30;
    case 2:
      return (g.next() - 0.5) * 1e6;
    default:
      return g.next() * 1e-300;
  }
}

function randomValue(g: Gen, depth: number): unknown {
  switch (depth > 2 ? g.int(4) : g.int(6)) {
    case 0:
      return randomString(g);
    case 1:
      return randomNumber(g);
    case 2:
      return g.pick([true, false, null]);
    case 3:
      return randomString(g, 6);
    case 4: {
      const items = [];
      for (let n = g.int(4); n > 0; n--) items.push(randomValue(g, depth + 1));
      return items;
    }
    default: {
      const object: Record<string, unknown> = {};
      for (let n = g.int(4); n > 0; n--) object[randomString(g, 8)] = randomValue(g, depth + 1);
      return object;
    }
  }
}

const FRAME_TYPES = [
  "assistant",
  "user",
  "system",
  "result",
  "stream_event",
  "control_request",
  "control_response",
  "keep_alive",
];

function randomFrame(g: Gen): Record<string, unknown> {
  const type = g.chance(0.9) ? g.pick(FRAME_TYPES) : randomString(g, 10);
  const frame: Record<string, unknown> = { type };
  switch (type) {
    case "assistant":
      frame.message = {
        id: `msg_${g.int(1e9)}`,
        role: "assistant",
        content: [{ type: "text", text: randomString(g, 60) }],
        usage: { input_tokens: g.int(5000), output_tokens: g.int(500) },
      };
      frame.parent_tool_use_id = null;
      break;
    case "user":
      frame.message = { role: "user", content: randomString(g, 40) };
      break;
    case "system":
      frame.subtype = g.pick(["init", "status", "task_started"]);
      break;
    case "result":
      frame.subtype = "success";
      frame.is_error = g.chance(0.2);
      frame.duration_ms = g.int(100000);
      frame.total_cost_usd = g.next();
      break;
    case "stream_event":
      frame.event = { type: "content_block_delta", delta: { text: randomString(g, 12) } };
      break;
    case "control_request":
      frame.request_id = randomString(g, 10);
      frame.request = { subtype: "can_use_tool", input: randomValue(g, 1) };
      break;
  }
  for (let n = g.int(3); n > 0; n--) frame[randomString(g, 8)] = randomValue(g, 1);
  frame.session_id = "3f1c-" + g.int(1e6);
  return frame;
}

function concatBytes(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

function insertAt(bytes: Uint8Array, at: number, insert: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(bytes.length + insert.length);
  out.set(bytes.subarray(0, at));
  out.set(insert, at);
  out.set(bytes.subarray(at), at + insert.length);
  return out;
}

function whitespace(g: Gen, huge: boolean): string {
  const n = huge ? 1000 + g.int(30_000) : g.int(6);
  return (g.pick([" ", "\t", "\r", " \t"]) as string).repeat(n);
}

const BAD_UTF8 = [[0xff], [0xfe], [0xc0, 0xaf], [0x80], [0xe2, 0x82], [0xed, 0xa0, 0x80], [
  0xf4,
  0x90,
  0x80,
  0x80,
], [0xf0, 0x9f]];

/** One line's bytes (no "\n" inside) and, for an unmutated frame, the frame itself. */
function randomLine(
  g: Gen,
  maxLineLength: number | undefined,
): { bytes: Uint8Array; original?: unknown } {
  const frame = randomFrame(g);
  const json = () => utf8.encode(JSON.stringify(frame));
  const roll = maxLineLength !== undefined && g.chance(0.04) ? 99 : g.int(100);
  if (roll < 34) return { bytes: json(), original: frame };
  if (roll < 39) {
    const huge = g.chance(0.02);
    const text = whitespace(g, huge) + JSON.stringify(frame) + whitespace(g, huge && g.chance(0.5));
    return { bytes: utf8.encode(text), original: frame };
  }
  if (roll < 44) return { bytes: new Uint8Array(0) };
  if (roll < 48) return { bytes: utf8.encode(whitespace(g, g.chance(0.02))) };
  if (roll < 56) {
    const bytes = json();
    return { bytes: bytes.subarray(0, g.int(bytes.length)) };
  }
  if (roll < 64) {
    const bytes = json();
    for (let n = 1 + g.int(3); n > 0; n--) bytes[g.int(bytes.length)] ^= 1 + g.int(255);
    return { bytes };
  }
  if (roll < 72) {
    const bytes = json();
    const insert = utf8.encode(g.pick(['"', "{", "}", "[", "]", ",", ":", "\\", "'", "\u0000"]));
    return { bytes: insertAt(bytes, g.int(bytes.length + 1), insert) };
  }
  if (roll < 75) {
    const bytes = json();
    const at = g.int(bytes.length);
    return { bytes: concatBytes([bytes.subarray(0, at), bytes.subarray(at + 1)]) };
  }
  if (roll < 82) {
    const value = g.pick([
      () => [frame],
      () => randomNumber(g),
      () => randomString(g),
      () => g.pick([true, false, null]),
      () => [],
    ])();
    return { bytes: utf8.encode(JSON.stringify(value)) };
  }
  if (roll < 86) {
    const copy: Record<string, unknown> = { ...frame };
    if (g.chance(0.5)) delete copy.type;
    else copy.type = g.pick([1, null, ["a"], { t: 1 }, true]);
    return { bytes: utf8.encode(JSON.stringify(copy)) };
  }
  if (roll < 92) {
    // Invalid UTF-8, often inside a string (still a frame, with U+FFFD).
    const bytes = json();
    return { bytes: insertAt(bytes, g.int(bytes.length + 1), g.pick(BAD_UTF8)) };
  }
  if (roll < 94) return { bytes: concatBytes([json(), json()]) };
  if (roll < 96) {
    const prefix = g.pick(["\u00a0", "\ufeff", "\u2028", "\u000b", "\u000c"]);
    return { bytes: utf8.encode(prefix + JSON.stringify(frame)) };
  }
  if (roll < 99) {
    const bytes = new Uint8Array(1 + g.int(40));
    for (let i = 0; i < bytes.length; i++) bytes[i] = g.int(256);
    return { bytes };
  }
  // Long lines: around the limit when there is one, else just long.
  const target = maxLineLength === undefined
    ? 2000 + g.int(20_000)
    : g.chance(0.7)
    ? maxLineLength - 2 + g.int(5)
    : maxLineLength * (1 + g.int(40));
  const base = JSON.stringify({ ...frame, pad: "" });
  const padded = { ...frame, pad: "p".repeat(Math.max(0, target - base.length)) };
  return { bytes: utf8.encode(JSON.stringify(padded)), original: padded };
}

function isBlank(raw: string): boolean {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c !== " " && c !== "\t" && c !== "\r") return false;
  }
  return true;
}

/** What the decoder must say about one line, computed without the decoder's code. */
function oracle(
  bytes: Uint8Array,
  options: { first: boolean; ending: "\n" | "\r\n" | ""; maxLineLength: number },
): Expected {
  let text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  if (options.first && text.startsWith("\ufeff")) text = text.slice(1);
  const raw = options.ending === "\n" && text.endsWith("\r") ? text.slice(0, -1) : text;
  if (raw.length > options.maxLineLength) {
    return { kind: "long", raw: raw.slice(0, OVERLONG_RAW_LENGTH) };
  }
  if (isBlank(raw)) return { kind: "skip" };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { kind: "json", raw };
  }
  if (isObject(value) && typeof value.type === "string") return { kind: "ok", raw, value };
  return { kind: "shape", raw };
}

function chunkSize(g: Gen, mode: Batch["chunks"], total: number): number {
  if (mode === "whole") return total;
  if (mode === "small") return 1 + g.int(g.chance(0.3) ? 4 : 64);
  const r = g.int(10);
  return 1 + g.int(r === 0 ? 4 : r < 5 ? 512 : 16_384);
}

async function runBatch(g: Gen, batch: Batch): Promise<number> {
  const maxLineLength = batch.maxLineLength ?? 16 * 1024 * 1024;
  const parts: Uint8Array[] = [];
  const expected: Array<{ line: number; expect: Expected; original?: unknown }> = [];
  const crlf = utf8.encode("\r\n");
  const lf = utf8.encode("\n");
  for (let i = 0; i < batch.lines; i++) {
    let { bytes, original } = randomLine(g, batch.maxLineLength);
    if (i === 0 && g.chance(0.5)) bytes = insertAt(bytes, 0, [0xef, 0xbb, 0xbf]); // a BOM
    for (let j = 0; j < bytes.length; j++) if (bytes[j] === 0x0a) bytes[j] = 0x20;
    const last = i === batch.lines - 1;
    const ending = last && g.chance(0.5) ? "" : g.chance(0.5) ? "\r\n" : "\n";
    parts.push(bytes);
    if (ending !== "") parts.push(ending === "\n" ? lf : crlf);
    const expect = oracle(bytes, { first: i === 0, ending, maxLineLength });
    if (expect.kind !== "skip") expected.push({ line: i + 1, expect, original });
  }
  const all = concatBytes(parts);
  const chunks: Array<string | Uint8Array> = [];
  if (batch.input === "bytes") {
    for (let at = 0; at < all.length;) {
      const size = chunkSize(g, batch.chunks, all.length);
      chunks.push(all.slice(at, at + size));
      at += size;
    }
  } else {
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(all);
    for (let at = 0; at < text.length;) {
      const size = chunkSize(g, batch.chunks, text.length);
      chunks.push(text.slice(at, at + size));
      at += size;
    }
  }

  const decoder = new NdjsonDecodeStream(
    batch.maxLineLength === undefined ? {} : { maxLineLength: batch.maxLineLength },
  );
  const actual: DecodedLine[] = await Array.fromAsync(
    ReadableStream.from(chunks).pipeThrough(decoder),
  );

  const where = (line: number) => `seed ${SEED}, batch "${batch.name}", line ${line}`;
  for (let i = 0; i < Math.min(actual.length, expected.length); i++) {
    const got = actual[i];
    const { line, expect, original } = expected[i];
    assert.equal(got.line, line, `${where(line)}: decoder reported line ${got.line}`);
    if (expect.kind === "skip") throw new Error("unreachable");
    assert.equal(got.raw, expect.raw, `${where(line)}: raw`);
    if (expect.kind === "ok") {
      if (!got.ok) assert.fail(`${where(line)}: expected a frame, got ${got.error.message}`);
      assert.deepEqual(got.frame, expect.value, `${where(line)}: frame`);
      if (original !== undefined) assert.deepEqual(got.frame, original, `${where(line)}: original`);
    } else {
      if (got.ok) assert.fail(`${where(line)}: expected a ${expect.kind} error, got a frame`);
      assert(got.error instanceof WireError, `${where(line)}: error class`);
      assert.equal(got.error.line, line, `${where(line)}: error line`);
      const reason = got.error.reason;
      const matches = expect.kind === "json"
        ? reason.startsWith("not valid JSON (")
        : expect.kind === "shape"
        ? reason.startsWith('expected a JSON object with a string "type", got ')
        : reason === `line is longer than maxLineLength (${maxLineLength} characters)`;
      assert(matches, `${where(line)}: expected a ${expect.kind} error, got: ${reason}`);
      assert(got.error.message.includes(`line ${line}:`), `${where(line)}: message`);
    }
  }
  assert.equal(actual.length, expected.length, `seed ${SEED}, batch "${batch.name}": count`);
  return expected.length;
}

Deno.test("NdjsonDecodeStream matches the oracle on 100,000+ random and mutated lines", async () => {
  const g = new Gen(randomSeeded(SEED));
  let lines = 0;
  let reported = 0;
  for (const batch of BATCHES) {
    reported += await runBatch(g, batch);
    lines += batch.lines;
  }
  assert(lines >= 100_000, `only ${lines} lines`);
  assert(reported > lines / 2, `only ${reported} of ${lines} lines were not blank`);
});
