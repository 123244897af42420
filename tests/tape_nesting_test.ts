// Tapes and the product's nesting limit (1,000 levels): a tape line nested deeper is refused
// when the tape is read, naming the line, the path and the limit (it overflowed the stack in
// the loader's freeze, then scrubbing, linting, the timeline, the drift source and replay);
// a recorder keeps such a line as written (a raw entry), so what was recorded is never lost
// and the tape still loads; a tape at the limit goes through every tool.
import assert from "node:assert/strict";
import { query } from "@anthropic-ai/claude-agent-sdk";
import {
  lintTape,
  parseTape,
  scrubTape,
  serializeTape,
  SnapshotPlayer,
  SnapshotRecorder,
  tapeToScenario,
  timelineHtml,
} from "../cassette.ts";
import { normalizeFrame } from "../src/cassette/_drift_source.ts";
import { NEVER } from "../src/cassette/_drift_source.ts";

const HELLO = await Deno.readTextFile(new URL("../snapshots/hello.jsonl", import.meta.url));

/** hello.jsonl with an assistant tool use whose input makes its line `levels` deep in all. */
function tapeWithInputOf(levels: number): string {
  const lines = HELLO.trimEnd().split("\n");
  const entry = JSON.parse(lines[6]);
  entry.frame.message.content = [{ type: "tool_use", id: "toolu_1", name: "Frob", input: {} }];
  // the entry, frame, message, content, the tool use and its input: 6 levels; then arrays
  const arrays = levels - 6;
  const deep = `{"a":${"[".repeat(arrays)}${"]".repeat(arrays)}}`;
  lines.splice(6, 0, JSON.stringify(entry).replace('"input":{}', `"input":${deep}`));
  return `${lines.join("\n")}\n`;
}

Deno.test("a tape line nested 200,000 deep is refused when read, naming the line, where and the limit", () => {
  assert.throws(
    () => parseTape(tapeWithInputOf(200_000), { source: "deep.jsonl" }),
    (error: Error) =>
      error instanceof RangeError &&
      error.message ===
        "Cannot load tape: line 7 nests deeper than 1,000 levels at 'frame.message.content[0].input.a[0][0]…' (the most claude-mock takes: its frames are walked recursively) (in deep.jsonl)",
  );
  assert.throws(() => parseTape(tapeWithInputOf(1001)), /line 7 nests deeper than 1,000 levels/);
  // a first line too deep, and a frames file
  assert.throws(
    () => parseTape(`${"[".repeat(5000)}${"]".repeat(5000)}\n`),
    /line 1 nests deeper than 1,000 levels at '\[0\]\[0\]/,
  );
});

Deno.test("a tape nested 1,000 levels deep loads, scrubs, lints, converts, renders and replays", async () => {
  const tape = parseTape(tapeWithInputOf(1000));
  assert.equal(tape.entries.length, 9);
  const clean = scrubTape(tape, { machine: false });
  assert.equal(parseTape(serializeTape(clean)).entries.length, 9);
  assert.deepEqual(lintTape(tape, { machine: false }).map((p) => p.code), []);
  assert.ok(JSON.stringify(tapeToScenario(tape)).includes("[[[[[["));
  assert.ok(timelineHtml(tape).includes("Frob"));
  const player = new SnapshotPlayer(tape);
  const types: string[] = [];
  for await (
    const m of query({ prompt: "hello", options: { spawnClaudeCodeProcess: player.spawn } })
  ) {
    types.push(m.type);
  }
  assert.deepEqual(types, ["system", "assistant", "assistant", "result"]);
  player.assertFinished();
});

Deno.test("drift: what nests below the checked depth checks as anything (TypeScript's parser recurses)", () => {
  let deep: unknown = 1;
  for (let i = 0; i < 1000; i++) deep = [deep];
  let tree = normalizeFrame({ type: "x", input: deep });
  let depth = 0;
  while (Array.isArray(tree) || (tree !== null && typeof tree === "object")) {
    tree = Array.isArray(tree) ? tree[0] : (tree as Record<string, unknown>).input as never;
    depth++;
  }
  assert.equal(tree, NEVER);
  assert.equal(depth, 64);
});

Deno.test("a recorder keeps a line nested beyond the limit as written: never lost, and the tape loads", async () => {
  const line = `{"type":"assistant","x":${"[".repeat(5000)}${"]".repeat(5000)}}`;
  const bytes = new TextEncoder().encode(`${line}\n{"type":"result"}\n`);
  const recorder = new SnapshotRecorder();
  const { readable } = recorder.wrap({
    readable: new ReadableStream({
      start(c) {
        c.enqueue(bytes);
        c.close();
      },
    }),
    writable: new WritableStream(),
  });
  for await (const _ of readable) { /* drain */ }
  recorder.end({ code: 0, signal: null });
  const tape = await recorder.close();
  const again = parseTape(serializeTape(tape));
  assert.deepEqual(
    again.entries.map((e) => "raw" in e ? e.raw : "frame" in e ? e.frame.type : "?"),
    [line, "result"],
  );
});
