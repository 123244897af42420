import assert from "node:assert/strict";
import type { Frame, RawLine } from "./frame.ts";
import { NdjsonDecodeStream } from "./ndjson_decode_stream.ts";
import { encodeFrame, NdjsonEncodeStream } from "./ndjson_encode_stream.ts";

const utf8 = new TextDecoder();

function encodeAll(frames: Array<Frame | RawLine>): Promise<Uint8Array[]> {
  return Array.fromAsync(ReadableStream.from(frames).pipeThrough(new NdjsonEncodeStream()));
}

Deno.test("NdjsonEncodeStream writes one UTF-8 JSON line per frame", async () => {
  const chunks = await encodeAll([
    { type: "system", subtype: "init" },
    { type: "assistant", text: "h\u00e9 \u{1f600}" },
  ]);
  assert.equal(chunks.length, 2);
  assert(chunks.every((c) => c instanceof Uint8Array));
  assert.deepEqual(chunks.map((c) => utf8.decode(c)), [
    '{"type":"system","subtype":"init"}\n',
    '{"type":"assistant","text":"h\u00e9 \u{1f600}"}\n',
  ]);
});

Deno.test("NdjsonEncodeStream writes raw lines verbatim", async () => {
  const chunks = await encodeAll([{ raw: "{broken" }, { raw: "done\n" }, { raw: "" }, {
    raw: "a\nb",
  }]);
  assert.equal(chunks.map((c) => utf8.decode(c)).join(""), "{broken\ndone\n\na\nb\n");
});

Deno.test("NdjsonEncodeStream errors with a TypeError naming the frame type", async () => {
  const cyclic: Frame = { type: "assistant" };
  cyclic.self = cyclic;
  await assert.rejects(
    encodeAll([{ type: "keep_alive" }, cyclic]),
    (e: unknown) =>
      e instanceof TypeError &&
      e.message.startsWith('Cannot encode frame of type "assistant": ') &&
      /circular/i.test(e.message),
  );
  await assert.rejects(
    encodeAll([{ type: "result", cost: 1n }]),
    (e: unknown) =>
      e instanceof TypeError && e.message.startsWith('Cannot encode frame of type "result": ') &&
      /BigInt/.test(e.message),
  );
});

Deno.test("encodeFrame returns the line with its newline", () => {
  assert.equal(encodeFrame({ type: "k", n: [1, null] }), '{"type":"k","n":[1,null]}\n');
  assert.equal(encodeFrame({ raw: "x" }), "x\n");
  assert.equal(encodeFrame({ raw: "x\n" }), "x\n");
  // A frame with a string type is a frame even when it has a raw field.
  assert.equal(
    encodeFrame({ type: "t", raw: "x" } as Frame),
    '{"type":"t","raw":"x"}\n',
  );
  // Newlines and U+2028 inside strings never break the line.
  const line = encodeFrame({ type: "t", s: "a\nb\r\u2028\ud800" });
  assert.equal(line.indexOf("\n"), line.length - 1);
  assert.deepEqual(JSON.parse(line), { type: "t", s: "a\nb\r\u2028\ud800" });
});

Deno.test("encodeFrame rejects what is neither a frame nor a raw line", () => {
  for (const value of [null, 3, "x", [1], { type: 1 }, { raw: 2 }]) {
    assert.throws(
      () => encodeFrame(value as unknown as Frame),
      (e: unknown) =>
        e instanceof TypeError && e.message.startsWith("Cannot encode frame: expected"),
      JSON.stringify(value),
    );
  }
  assert.throws(
    () => encodeFrame({ type: "odd", toJSON: () => undefined }),
    (e: unknown) =>
      e instanceof TypeError && e.message.startsWith('Cannot encode frame of type "odd"'),
  );
});

Deno.test("NdjsonEncodeStream round-trips through NdjsonDecodeStream", async () => {
  const frames: Frame[] = [
    { type: "user", message: { role: "user", content: "line1\nline2 \u2028 \u{1f600}" } },
    { type: "stream_event", event: { type: "content_block_delta", index: 0 }, n: -1.5e-7 },
    { type: "control_request", request_id: "r1", request: { subtype: "can_use_tool" } },
  ];
  const decoded = await Array.fromAsync(
    ReadableStream.from(frames)
      .pipeThrough(new NdjsonEncodeStream())
      .pipeThrough(new NdjsonDecodeStream()),
  );
  assert.deepEqual(decoded.map((d) => d.ok && d.frame), frames);
  assert.deepEqual(decoded.map((d) => d.line), [1, 2, 3]);
});
