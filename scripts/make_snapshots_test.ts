// The committed snapshots are what scripts/make_snapshots.ts makes from the real recordings.
import assert from "node:assert/strict";
import { loadTape } from "../src/cassette/load_tape.ts";
import { makeSnapshots, SNAPSHOTS } from "./make_snapshots.ts";

const dir = new URL("../snapshots/", import.meta.url);

Deno.test("make_snapshots: regenerating gives the committed snapshots, scrubbed", async () => {
  const files = await makeSnapshots();
  assert.equal(files.size, Object.keys(SNAPSHOTS).length * 2);
  for (const [name, text] of files) {
    const committed = await Deno.readTextFile(new URL(name, dir));
    assert.equal(
      text,
      committed,
      `snapshots/${name}: run \`deno run -A scripts/make_snapshots.ts\``,
    );
    assert.doesNotMatch(text, /\/home\/user|-home-user-project/, name);
  }
  for (const name of Object.keys(SNAPSHOTS)) {
    const tape = await loadTape(decodeURIComponent(new URL(`${name}.jsonl`, dir).pathname));
    const real = await loadTape(
      decodeURIComponent(new URL(`../tests/fixtures/real/${name}.jsonl`, import.meta.url).pathname),
    );
    assert.equal(tape.entries.length, real.entries.length, name);
    assert.equal(tape.header.scrubbed_from, `tests/fixtures/real/${name}.jsonl`);
    assert.match(files.get(`${name}.jsonl`)!, /"cwd":"<CWD>"/, name);
    const messages = files.get(`${name}.messages.jsonl`)!.trimEnd().split("\n");
    assert.ok(messages.length > 0 && messages.every((l) => typeof JSON.parse(l).type === "string"));
  }
});

Deno.test("make_snapshots: each scrubbed snapshot replays through the real SDK to its messages", async () => {
  const { query } = await import("@anthropic-ai/claude-agent-sdk");
  const { SnapshotPlayer } = await import("../src/cassette/snapshot_player.ts");
  for (const name of Object.keys(SNAPSHOTS)) {
    const tape = await loadTape(decodeURIComponent(new URL(`${name}.jsonl`, dir).pathname));
    const player = new SnapshotPlayer(tape, { mode: "inert" });
    const q = query({ prompt: player.prompt(), options: { spawnClaudeCodeProcess: player.spawn } });
    const driving = player.drive(q);
    const messages: unknown[] = [];
    try {
      for await (const message of q) messages.push(message);
    } catch (error) {
      // interrupt and api_error end with an error result: the SDK throws after yielding it
      assert.match((error as Error).message, /^Claude Code returned an error result: /, name);
    }
    await driving;
    const expected = (await Deno.readTextFile(new URL(`${name}.messages.jsonl`, dir))).trimEnd()
      .split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(JSON.parse(JSON.stringify(messages)), expected, name);
  }
});
