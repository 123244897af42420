import assert from "node:assert/strict";
import { encodeLine, lineBytes } from "./_line_slab.ts";

const encoder = new TextEncoder();

Deno.test("encodeLine: the bytes TextEncoder gives, for any text, across slab boundaries", () => {
  const texts = [
    "",
    '{"type":"keep_alive"}\n',
    "héllo wörld ✓ 😀\n",
    "x".repeat(8191),
    "x".repeat(32767),
    "x".repeat(32766),
    "x".repeat(32765),
    "x".repeat(32769),
    "é".repeat(20000),
    "x".repeat(8192),
    "x".repeat(8193),
    "é".repeat(5000),
    "😀".repeat(3000),
    "\u0000\uffff\ud800 lone surrogate\n",
  ];
  const lines: Array<[Uint8Array, string]> = [];
  // enough lines to fill several slabs, ASCII and not, so some do not fit where they start
  for (let i = 0; i < 400; i++) {
    const text = texts[i % texts.length] + i;
    // every third with its newline added as a byte: the bytes of `text + "\n"`
    if (i % 3 === 0) lines.push([encodeLine(text, true), text + "\n"]);
    else lines.push([encodeLine(text), text]);
  }
  // every view still holds its own line: no range was handed out twice
  for (const [bytes, text] of lines) assert.deepEqual(bytes, encoder.encode(text));
});

Deno.test("lineBytes: zeroed ranges that never overlap, small and large", () => {
  const ranges = [3, 100, 9000, 5000, 30000, 40000, 1].flatMap((n) => [n, n]).map((n) =>
    lineBytes(n)
  );
  for (const r of ranges) assert.ok(r.every((b) => b === 0));
  ranges.forEach((r, i) => r.fill(i + 1));
  ranges.forEach((r, i) => assert.ok(r.every((b) => b === i + 1), `range ${i} was overwritten`));
});
