import assert from "node:assert/strict";
import {
  type DecodedLine,
  NdjsonDecodeStream,
  type NdjsonDecodeStreamOptions,
  parseFrameLine,
} from "./ndjson_decode_stream.ts";
import { WireError } from "./wire_error.ts";

const utf8 = new TextEncoder();

function decodeAll(
  chunks: Array<string | Uint8Array>,
  options?: NdjsonDecodeStreamOptions,
): Promise<DecodedLine[]> {
  return Array.fromAsync(ReadableStream.from(chunks).pipeThrough(new NdjsonDecodeStream(options)));
}

/** The outcomes as compact tuples: [line, type] or [line, "error", reason]. */
function summary(lines: DecodedLine[]): unknown[] {
  return lines.map((d) => d.ok ? [d.line, d.frame.type] : [d.line, "error", d.error.reason]);
}

function bytesOneByOne(text: string): Uint8Array[] {
  return Array.from(utf8.encode(text), (b) => Uint8Array.of(b));
}

Deno.test("NdjsonDecodeStream decodes one frame per line with line numbers", async () => {
  const lines = await decodeAll([
    '{"type":"system","subtype":"init"}\n{"type":"assistant","message":{"content":[]}}\n',
  ]);
  assert.deepEqual(lines, [
    {
      ok: true,
      frame: { type: "system", subtype: "init" },
      line: 1,
      raw: '{"type":"system","subtype":"init"}',
    },
    {
      ok: true,
      frame: { type: "assistant", message: { content: [] } },
      line: 2,
      raw: '{"type":"assistant","message":{"content":[]}}',
    },
  ]);
});

Deno.test("NdjsonDecodeStream splits lines across chunks at every boundary", async () => {
  const text = '{"type":"a","x":"h\u00e9llo"}\r\n\n{"type":"b"}\n  \n{"type":"c"}';
  const expected = [[1, "a"], [3, "b"], [5, "c"]];
  for (let i = 0; i <= text.length; i++) {
    for (let j = i; j <= text.length; j += 3) {
      const lines = await decodeAll([text.slice(0, i), text.slice(i, j), text.slice(j)]);
      assert.deepEqual(summary(lines), expected, `split at ${i} and ${j}`);
      assert.equal(lines[0].raw, '{"type":"a","x":"h\u00e9llo"}');
    }
  }
});

Deno.test("NdjsonDecodeStream decodes multi-byte characters split across byte chunks", async () => {
  const text = '{"type":"t","s":"\u00e9\u20ac\u{1f600}\u4e2d"}\n{"type":"u"}';
  const lines = await decodeAll(bytesOneByOne(text));
  assert.deepEqual(summary(lines), [[1, "t"], [2, "u"]]);
  assert.equal(lines[0].ok && lines[0].frame.s, "\u00e9\u20ac\u{1f600}\u4e2d");
});

Deno.test("NdjsonDecodeStream drops one carriage return before a newline", async () => {
  const lines = await decodeAll(['{"type":"a"}\r\n{"type":"b"}\r\r\n{"type":"c"}\r', "\n"]);
  assert.deepEqual(summary(lines), [[1, "a"], [2, "b"], [3, "c"]]);
  assert.deepEqual(lines.map((d) => d.raw), ['{"type":"a"}', '{"type":"b"}\r', '{"type":"c"}']);
});

Deno.test("NdjsonDecodeStream flushes a last line without newline", async () => {
  const lines = await decodeAll(['{"type":"a"}\n{"type":', '"b"}']);
  assert.deepEqual(summary(lines), [[1, "a"], [2, "b"]]);
  // Like TextLineStream, a last line keeps a "\r" that no "\n" follows.
  const crLast = await decodeAll(['{"type":"c"}\r']);
  assert.deepEqual(summary(crLast), [[1, "c"]]);
  assert.equal(crLast[0].raw, '{"type":"c"}\r');
});

Deno.test("NdjsonDecodeStream skips blank lines but counts them", async () => {
  const lines = await decodeAll(["\n", "   \t\r\n\r\n", '\n{"type":"a"}\n\n  \t', "\n"]);
  assert.deepEqual(summary(lines), [[5, "a"]]);
});

Deno.test("NdjsonDecodeStream yields nothing for empty input", async () => {
  assert.deepEqual(await decodeAll([]), []);
  assert.deepEqual(await decodeAll(["", new Uint8Array(0)]), []);
});

Deno.test("NdjsonDecodeStream reports bad lines as values and keeps going", async () => {
  const lines = await decodeAll([
    '{oops\n[1,2]\n42\n"text"\nnull\ntrue\n{"subtype":"x"}\n{"type":7}\n{"type":"ok"}\n\u00a0\n',
  ]);
  assert.deepEqual(
    lines.map((d) => [d.line, d.ok]),
    [
      [1, false],
      [2, false],
      [3, false],
      [4, false],
      [5, false],
      [6, false],
      [7, false],
      [
        8,
        false,
      ],
      [9, true],
      [10, false],
    ],
  );
  const reasons = lines.map((d) => d.ok ? "" : d.error.reason);
  assert.match(reasons[0], /^not valid JSON \(.+\)$/);
  assert.equal(reasons[1], 'expected a JSON object with a string "type", got array');
  assert.equal(reasons[2], 'expected a JSON object with a string "type", got number');
  assert.equal(reasons[3], 'expected a JSON object with a string "type", got string');
  assert.equal(reasons[4], 'expected a JSON object with a string "type", got null');
  assert.equal(reasons[5], 'expected a JSON object with a string "type", got boolean');
  assert.equal(
    reasons[6],
    'expected a JSON object with a string "type", got an object without "type"',
  );
  assert.equal(
    reasons[7],
    'expected a JSON object with a string "type", got an object whose "type" is not a string but number',
  );
  assert.match(reasons[9], /^not valid JSON/);
  const first = lines[0];
  assert(!first.ok);
  assert(first.error instanceof WireError);
  assert.equal(first.error.line, 1);
  assert.equal(first.raw, "{oops");
  assert.match(
    first.error.message,
    /^Cannot decode stream-json line 1: not valid JSON \(.+\) near "\{oops"$/,
  );
  assert(first.error.cause instanceof SyntaxError);
});

Deno.test("NdjsonDecodeStream turns an over-long line into an error and resynchronizes", async () => {
  const long = '{"type":"x","pad":"' + "a".repeat(200) + '"}';
  for (const chunkSize of [1, 7, 64, 1000]) {
    const text = `{"type":"a"}\n${long}\r\n{"type":"b"}\n${long}`;
    const chunks: string[] = [];
    for (let i = 0; i < text.length; i += chunkSize) chunks.push(text.slice(i, i + chunkSize));
    const lines = await decodeAll(chunks, { maxLineLength: 100 });
    const reason = "line is longer than maxLineLength (100 characters)";
    assert.deepEqual(
      summary(lines),
      [[1, "a"], [2, "error", reason], [3, "b"], [4, "error", reason]],
      `chunk size ${chunkSize}`,
    );
    assert.equal(lines[1].raw, long, `chunk size ${chunkSize}`);
    assert.equal(lines[3].raw, long, `chunk size ${chunkSize}`);
  }
});

Deno.test("NdjsonDecodeStream keeps only the start of an over-long line", async () => {
  const chunk = "x".repeat(64 * 1024);
  const chunks = Array.from({ length: 64 }, () => chunk);
  const lines = await decodeAll([...chunks, '\n{"type":"after"}\n'], { maxLineLength: 1000 });
  assert.equal(lines.length, 2);
  assert(!lines[0].ok);
  assert.equal(lines[0].raw, "x".repeat(1024));
  assert.equal(lines[0].error.snippet, "x".repeat(80) + "…");
  assert.deepEqual(summary(lines.slice(1)), [[2, "after"]]);
});

Deno.test("NdjsonDecodeStream accepts a line exactly maxLineLength long", async () => {
  const line = '{"type":"' + "y".repeat(40) + '"}';
  const max = line.length;
  for (const ending of ["\n", "\r\n", ""]) {
    for (const size of [1, 5, max, max + 1]) {
      const text = line + ending;
      const chunks: string[] = [];
      for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
      assert.deepEqual(summary(await decodeAll(chunks, { maxLineLength: max })), [[
        1,
        "y".repeat(40),
      ]]);
      const over = await decodeAll(chunks, { maxLineLength: max - 1 });
      assert.equal(over.length, 1);
      assert(!over[0].ok, `ending ${JSON.stringify(ending)}, chunk size ${size}`);
    }
  }
});

Deno.test("NdjsonDecodeStream rejects a bad maxLineLength", () => {
  for (const maxLineLength of [0, -1, 1.5, NaN]) {
    assert.throws(
      () => new NdjsonDecodeStream({ maxLineLength }),
      (e: unknown) => e instanceof RangeError && e.message.includes("maxLineLength"),
    );
  }
  new NdjsonDecodeStream({ maxLineLength: Infinity });
});

Deno.test("NdjsonDecodeStream drops a byte order mark at the start only", async () => {
  const fromBytes = await decodeAll([
    Uint8Array.of(0xef),
    Uint8Array.of(0xbb, 0xbf),
    utf8.encode('{"type":"a"}\n\ufeff{"type":"b"}\n'),
  ]);
  assert.deepEqual(fromBytes.map((d) => [d.line, d.ok]), [[1, true], [2, false]]);
  const fromText = await decodeAll(['\ufeff{"type":"a"}']);
  assert.deepEqual(summary(fromText), [[1, "a"]]);
});

Deno.test("NdjsonDecodeStream replaces invalid UTF-8 with U+FFFD", async () => {
  const lines = await decodeAll([
    Uint8Array.of(...utf8.encode('{"type":"a","s":"'), 0xff, 0xc3),
    Uint8Array.of(...utf8.encode('"}\n{"type":"b","s":"'), 0xe2, 0x82),
  ]);
  assert.deepEqual(summary(lines), [[1, "a"], [
    2,
    "error",
    lines[1].ok ? "" : lines[1].error.reason,
  ]]);
  assert.equal(lines[0].ok && lines[0].frame.s, "\ufffd\ufffd");
  assert.equal(lines[1].raw, '{"type":"b","s":"\ufffd');
});

Deno.test("NdjsonDecodeStream mixes string and byte chunks", async () => {
  const lines = await decodeAll([
    '{"type":"a"}\n{"ty',
    utf8.encode('pe":"b","s":"\u00e9'),
    '"}\n',
    Uint8Array.of(0x7b, 0x22, 0xc3), // '{"' then half of "é"
    'type":"c"}\n',
  ]);
  assert.deepEqual(summary(lines.slice(0, 2)), [[1, "a"], [2, "b"]]);
  assert.equal(lines[1].ok && lines[1].frame.s, "\u00e9");
  // The bytes ended mid-character before the text: the partial character becomes U+FFFD.
  assert.equal(lines[2].raw, '{"\ufffdtype":"c"}');
});

Deno.test("NdjsonDecodeStream errors on a chunk that is neither text nor bytes", async () => {
  await assert.rejects(
    decodeAll([42 as unknown as string]),
    (e: unknown) =>
      e instanceof TypeError && /expected a string or a Uint8Array, got number/.test(e.message),
  );
});

Deno.test("parseFrameLine returns a frame or an error naming the line", () => {
  assert.deepEqual(parseFrameLine(' {"type":"k","n":1} ', 9), {
    ok: true,
    frame: { type: "k", n: 1 },
    line: 9,
    raw: ' {"type":"k","n":1} ',
  });
  const bad = parseFrameLine('{"type":"k",', 12);
  assert(!bad.ok);
  assert.equal(bad.line, 12);
  assert.equal(bad.error.line, 12);
  assert.equal(bad.error.snippet, '{\\"type\\":\\"k\\",');
  assert.match(bad.error.message, /^Cannot decode stream-json line 12: not valid JSON/);
  const empty = parseFrameLine("", 1);
  assert(!empty.ok);
  assert.match(empty.error.reason, /^not valid JSON/);
});

Deno.test("WireError says which line, why and where", () => {
  const cause = new SyntaxError("Unexpected token");
  const error = new WireError("not valid JSON (Unexpected token)", {
    line: 3,
    raw: "{oops",
    cause,
  });
  assert(error instanceof SyntaxError);
  assert.equal(error.name, "WireError");
  assert.equal(error.line, 3);
  assert.equal(error.reason, "not valid JSON (Unexpected token)");
  assert.equal(error.snippet, "{oops");
  assert.equal(error.cause, cause);
  assert.equal(
    error.message,
    'Cannot decode stream-json line 3: not valid JSON (Unexpected token) near "{oops"',
  );
  assert.equal(new WireError("x", { line: 1, raw: "" }).cause, undefined);
});

Deno.test("WireError escapes control characters in the snippet", () => {
  const error = new WireError("bad", { line: 1, raw: 'a\tb"c\u0000\u001b' });
  assert.equal(error.snippet, 'a\\tb\\"c\\u0000\\u001b');
});

Deno.test("WireError shortens the snippet to 80 characters without splitting a pair", () => {
  assert.equal(
    new WireError("bad", { line: 1, raw: "z".repeat(81) }).snippet,
    "z".repeat(80) + "…",
  );
  assert.equal(new WireError("bad", { line: 1, raw: "z".repeat(80) }).snippet, "z".repeat(80));
  const emoji = new WireError("bad", { line: 1, raw: "z".repeat(79) + "\u{1f600}" + "z" });
  assert.equal(emoji.snippet, "z".repeat(79) + "…");
});
