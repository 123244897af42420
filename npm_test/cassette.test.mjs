// Cassettes under Node: a recording of the real CLI 2.1.328 (copied into __cassettes__ by
// the harness) replayed to the real SDK through cassette(t, name) with node:test's context,
// and a mock session recorded as a tape and replayed in lockstep.
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { MOCK_EXECUTABLE_PATH, MockTransport, ScenarioBuilder } from "@x/claude-mock";
import {
  cassette,
  lintTape,
  loadTape,
  parseTape,
  recordingSpawn,
  SnapshotPlayer,
} from "@x/claude-mock/cassette";
import { collect, kinds } from "./_helpers.mjs";

const skipLookup = { pathToClaudeCodeExecutable: MOCK_EXECUTABLE_PATH };

// node:test's `t.filePath` exists from Node 22.6; on Node 20 cassette() takes the test file
// from the process (node --test runs each file in its own process): `t` as it is
const here = (t) => t;

test("cassette(t, 'hello') replays the real CLI's recording beside this file", async (t) => {
  const tape = await cassette(here(t), "hello");
  assert.equal(tape.mode, "replay");
  assert.match(tape.path, /__cassettes__\/hello\.jsonl$/);
  const { messages, error } = await collect("hello", {
    ...skipLookup,
    spawnClaudeCodeProcess: tape.spawn,
  });
  assert.equal(error, undefined);
  assert.deepEqual(kinds(messages), ["system/init", "assistant", "result/success"]);
  assert.equal(messages.at(-1).result, "Hello! How can I help you today?");
  await tape.close();
});

test("a missing cassette in CI fails with the command that records it", async (t) => {
  const error = await cassette(here(t), "not-recorded").then(() => undefined, (e) => e);
  assert.ok(error instanceof Error);
  assert.match(error.message, /Cannot replay cassette 'not-recorded'/);
});

test("a mock session recorded as a tape replays to the same messages", async () => {
  const dir = await mkdtemp(join(tmpdir(), "claude-mock-tape-"));
  try {
    const mock = new MockTransport(
      new ScenarioBuilder({ seed: 3 }).on("hello").usesRead("/p/a.txt", { content: "x" })
        .respond("Hi!").build(),
    );
    const out = join(dir, "hello.jsonl");
    const spawn = recordingSpawn({ out, spawn: mock.spawn });
    const recorded = await collect("hello", { ...skipLookup, spawnClaudeCodeProcess: spawn });
    assert.equal(recorded.error, undefined);
    const written = await spawn.finished;
    assert.equal(written.ending?.code, 0);
    assert.deepEqual(lintTape(written).filter((f) => f.severity === "error"), []);
    const tape = await loadTape(out);
    assert.deepEqual(parseTape(await readFile(out, "utf8")).entries.length, tape.entries.length);
    const player = new SnapshotPlayer(tape);
    const replayed = await collect("hello", {
      ...skipLookup,
      spawnClaudeCodeProcess: player.spawn,
    });
    assert.equal(replayed.error, undefined);
    assert.deepEqual(kinds(replayed.messages), kinds(recorded.messages));
    assert.equal(replayed.messages.at(-1).result, "Hi!");
    player.assertFinished();
  } finally {
    await rm(dir, { recursive: true });
  }
});

test("a replay that diverges fails with a CassetteMismatchError", async () => {
  const tape = await loadTape(join(import.meta.dirname, "__cassettes__", "hello.jsonl"));
  const player = new SnapshotPlayer(tape);
  const { error } = await collect("goodbye", {
    ...skipLookup,
    spawnClaudeCodeProcess: player.spawn,
  });
  assert.ok(error instanceof Error);
  assert.throws(() => player.assertFinished(), { name: "CassetteMismatchError" });
});
