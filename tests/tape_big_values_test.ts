// Big values in tapes: a line of tens of MB is read whole, in linear time (the reader appended
// each chunk to one string and searched it from its start again: a 100 MB line took 218 s to
// load), and scrubbing and linting take big values (an 8 MB base64 image overflowed the
// base64 secret pattern's stack; a 3 MB run of URL characters took minutes in the
// percent-encoded one, tried from every position).
import assert from "node:assert/strict";
import { isFrameEntry, lintTape, loadTape, parseTape, scrubTape } from "../cassette.ts";

const HELLO = await Deno.readTextFile(new URL("../snapshots/hello.jsonl", import.meta.url));

function tapeWithText(text: string): string {
  const lines = HELLO.trimEnd().split("\n");
  const entry = JSON.parse(lines[6]);
  entry.frame.message.content = [{ type: "text", text }];
  lines.splice(6, 0, JSON.stringify(entry));
  return `${lines.join("\n")}\n`;
}

Deno.test("readTapeEntries: a 12 MB line over about 190 chunks is read whole", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const text = "ab\u00e9".repeat(3_000_000); // 12 MB in UTF-8, a character split at chunk ends
    await Deno.writeTextFile(`${dir}/big.jsonl`, tapeWithText(text));
    const tape = await loadTape(`${dir}/big.jsonl`);
    const frame = tape.entries.filter(isFrameEntry)[5].frame as unknown as {
      message: { content: { text: string }[] };
    };
    assert.equal(frame.message.content[0].text.length, text.length);
    assert.ok(frame.message.content[0].text === text);
    assert.equal(tape.entries.length, 9);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("scrubTape and lintTape take an 8 MB base64 image and a 3 MB run of URL characters", () => {
  for (const text of ["iVBORw0KGgo".repeat(800_000), "x".repeat(3 * 1024 * 1024)]) {
    const tape = parseTape(tapeWithText(text));
    assert.deepEqual(lintTape(tape, { machine: false }).map((p) => p.code), []);
    const clean = scrubTape(tape, { machine: false });
    const frame = clean.entries.filter(isFrameEntry)[5].frame as unknown as {
      message: { content: { text: string }[] };
    };
    assert.equal(frame.message.content[0].text, text, "nothing in it is a secret");
  }
  // a short base64 secret is still found, beside such a run
  const secret = btoa("ANTHROPIC_API_KEY=sk-ant-api03-abcdefghijklmnop");
  const tape = parseTape(tapeWithText(`${"iVBORw0KGgo".repeat(800_000)} ${secret}`));
  assert.ok(lintTape(tape, { machine: false }).some((p) => p.code === "secret"));
});
