// Cassette.run(body) misused: what is not a function, a second run(), a run() after close().
// Before, the first failed with "body is not a function", the second with the player's "already
// replayed its tape", and the third ran the body against a closed cassette and passed.
import assert from "node:assert/strict";
import { query } from "@anthropic-ai/claude-agent-sdk";
import { cassette } from "../cassette.ts";

const HELLO = new URL("../snapshots/hello.jsonl", import.meta.url);

async function replaying(fn: (tape: Awaited<ReturnType<typeof cassette>>) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "cassette-run5-" });
  try {
    await Deno.copyFile(HELLO, `${dir}/t.jsonl`);
    await fn(await cassette({ name: "t" }, "t", { dir }));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const ask = async (spawn: unknown) => {
  for await (
    const _ of query({ prompt: "hello", options: { spawnClaudeCodeProcess: spawn as never } })
  );
};

Deno.test("Cassette.run: a body that is not a function is refused, naming the cassette", async () => {
  await replaying(async (tape) => {
    await assert.rejects(
      () => tape.run(42 as never),
      (error: Error) =>
        error instanceof TypeError &&
        error.message ===
          `Cassette ${tape.path}: run(body) takes the test's body, a function, got number`,
    );
    await tape.run(() => ask(tape.spawn)); // the cassette is still usable
  });
});

Deno.test("Cassette.run: a second run(), or one after close(), is refused before its body runs", async () => {
  await replaying(async (tape) => {
    await tape.run(() => ask(tape.spawn));
    let ran = false;
    await assert.rejects(
      () => tape.run(() => void (ran = true)),
      /run\(\) was called after an earlier run\(\): a cassette is for one test's body/,
    );
    assert.equal(ran, false);
  });
  await replaying(async (tape) => {
    await tape.close().catch(() => {}); // nothing replayed: its complaint is not this test's
    let ran = false;
    await assert.rejects(
      () => tape.run(() => void (ran = true)),
      /run\(\) was called after close\(\)/,
    );
    assert.equal(ran, false);
  });
});
