// What a newcomer and a hostile caller meet: wrong argument types to the public constructors,
// the command a missing cassette names, a recording whose CLI never started, and the fake
// binary's state and capture files in places it cannot write. Each error says what, why, where.
import assert from "node:assert/strict";
import { MockTransport, ScenarioBuilder } from "../mod.ts";
import { cassette, SnapshotPlayer, type Tape } from "../cassette.ts";

Deno.test("new SnapshotPlayer(tape): a value that is no tape is refused at once, naming what it needs", () => {
  for (const bad of [null, undefined, 5, {}, { entries: [] }, { header: {}, entries: "x" }]) {
    assert.throws(
      () => new SnapshotPlayer(bad as unknown as Tape),
      (e: unknown) =>
        e instanceof TypeError &&
        /^Cannot replay: new SnapshotPlayer\(tape\) needs a tape with a header and entries/.test(
          e.message,
        ),
    );
  }
  const tape: Tape = { header: { format: "claude-mock-tape", version: 1 }, entries: [] };
  assert.throws(
    () => new SnapshotPlayer(tape, 5 as never),
    /Cannot replay: the options must be an object, got 5/,
  );
});

Deno.test("new MockTransport(): a scenario or options of the wrong type is refused at once", () => {
  const scenario = new ScenarioBuilder().on("hi").respond("ok").build();
  assert.throws(
    () => new MockTransport(null as never),
    /Cannot create a MockTransport: the scenario must be an object .* got null/,
  );
  assert.throws(
    () => new MockTransport("x" as never),
    /Cannot create a MockTransport: the scenario must be an object .* got string/,
  );
  assert.throws(
    () => new MockTransport(scenario, 5 as never),
    /Cannot create a MockTransport: the options must be an object, got number/,
  );
  assert.throws(
    () => new MockTransport(scenario, null as never),
    /Cannot create a MockTransport: the options must be an object, got null/,
  );
  // no scenario at all is an empty one, as documented
  assert.deepEqual(new MockTransport().scenario, { exchanges: [] });
});

Deno.test("cassette in record mode: a CLI that cannot start fails close(), naming it, and keeps the old tape", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/hello.jsonl`;
    await Deno.writeTextFile(path, "the tape recorded before\n");
    const tape = await cassette({ origin: `file://${dir}/x_test.ts` }, "hello", {
      mode: "record",
      dir,
      env: {},
    });
    const child = tape.spawn({
      command: `${dir}/no-such-claude`,
      args: ["--output-format", "stream-json"],
      env: {},
      signal: new AbortController().signal,
    });
    const failed = new Promise((resolve) => child.on("error", resolve));
    await failed;
    await assert.rejects(
      tape.close(),
      (e: unknown) =>
        e instanceof Error &&
        e.message.startsWith(
          `Cannot record cassette 'hello': the CLI "${dir}/no-such-claude" did not run (`,
        ) && e.message.includes("ENOENT") && e.message.includes(`${path} is left as it was`),
    );
    assert.equal(await Deno.readTextFile(path), "the tape recorded before\n");
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["hello.jsonl"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
