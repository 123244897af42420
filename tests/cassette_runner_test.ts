// cassette(t, name): replay by default, record only when asked and never in CI, auto, stale
// warnings, the node:test form; recording goes through the SDK's spawn seam (here a mock).
import assert from "node:assert/strict";
import { query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { cassette, loadTape } from "../cassette.ts";
import { MockTransport, ScenarioBuilder } from "../mod.ts";
import { fromFileUrl } from "./_paths.ts";

async function ask(
  spawn: (options: never) => unknown,
  prompt: string,
): Promise<{ messages: SDKMessage[]; error?: Error }> {
  const messages: SDKMessage[] = [];
  try {
    for await (
      const m of query({
        prompt,
        options: { maxTurns: 1, spawnClaudeCodeProcess: spawn as never },
      })
    ) messages.push(m);
    return { messages };
  } catch (error) {
    return { messages, error: error as Error };
  }
}

const quiet = { env: {}, args: [] };

Deno.test("cassette: replays __cassettes__/<name>.jsonl beside the test file", async (t) => {
  const tape = await cassette(t, "hello", quiet);
  assert.equal(tape.mode, "replay");
  assert.equal(tape.path, fromFileUrl(new URL("./__cassettes__/hello.jsonl", import.meta.url)));
  const { messages, error } = await ask(tape.spawn, "hello");
  assert.equal(error, undefined);
  assert.equal(messages.at(-1)?.type, "result");
  await tape.close();
});

Deno.test("cassette: a replay that diverges fails at close with the mismatch", async (t) => {
  await assert.rejects(async () => {
    await using tape = await cassette(t, "hello", quiet);
    await ask(tape.spawn, "something else");
  }, /Cassette mismatch at .*hello\.jsonl:3: the app sent another user message/);
});

Deno.test("cassette: a missing tape fails with the command that records it", async (t) => {
  const dir = await Deno.makeTempDir();
  try {
    await assert.rejects(
      () => cassette(t, "missing", { ...quiet, dir }),
      /does not exist\nRecord it with: deno test -A .*cassette_runner_test\.ts -- --update/,
    );
    await assert.rejects(
      () => cassette(t, "missing", { env: { CI: "true" }, args: ["--update"], dir }),
      /Cannot record cassette 'missing' in CI \(CI is set\)/,
    );
    await assert.rejects(() => cassette(t, "../escape", quiet), TypeError);
    await assert.rejects(() => cassette(t, "x", { ...quiet, mode: "tape" as never }), TypeError);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cassette: --update records (scrubbed), then the tape replays", async (t) => {
  const dir = await Deno.makeTempDir();
  const home = Deno.env.get("HOME") ?? "/root";
  const scenario = new ScenarioBuilder({ cwd: `${home}/project` }).on("hi").respond("Hello there")
    .build();
  try {
    const mock = new MockTransport(scenario);
    const recording = await cassette(t, "greeting", {
      dir,
      env: {},
      args: ["--update"],
      spawn: mock.spawn as never,
      header: { cli_version: "2.1.328" },
    });
    assert.equal(recording.mode, "record");
    const first = await ask(recording.spawn, "hi");
    await recording.close();
    const tape = await loadTape(`${dir}/greeting.jsonl`);
    assert.equal(tape.complete, true);
    assert.equal(tape.header.cli_version, "2.1.328");
    assert.equal(tape.header.test, t.name);
    const text = await Deno.readTextFile(`${dir}/greeting.jsonl`);
    assert.ok(!text.includes(`${home}/project`), "the cwd is scrubbed");
    assert.match(text, /<CWD>|<HOME>/);

    const replay = await cassette(t, "greeting", { ...quiet, dir });
    const second = await ask(replay.spawn, "hi");
    await replay.close();
    const resultOf = (m: SDKMessage[]) => m.find((x) => x.type === "result");
    assert.deepEqual(
      (resultOf(second.messages) as { result?: string }).result,
      (resultOf(first.messages) as { result?: string }).result,
    );
    assert.equal(second.messages.length, first.messages.length);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cassette: auto records when missing and replays when present", async (t) => {
  const dir = await Deno.makeTempDir();
  const scenario = new ScenarioBuilder().on("hi").respond("Hello").build();
  try {
    const a = await cassette(t, "auto", {
      ...quiet,
      dir,
      mode: "auto",
      spawn: new MockTransport(scenario).spawn as never,
    });
    assert.equal(a.mode, "record");
    await ask(a.spawn, "hi");
    await a.close();
    const b = await cassette(t, "auto", { ...quiet, dir, mode: "auto" });
    assert.equal(b.mode, "replay");
    await ask(b.spawn, "hi");
    await b.close();
    const unused = await cassette(t, "unused", {
      ...quiet,
      dir,
      mode: "record",
      spawn: new MockTransport(scenario).spawn as never,
    });
    await assert.rejects(() => unused.close(), /recorded nothing/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cassette: a tape from another CLI version warns, and node:test's filePath works", async () => {
  const warnings: string[] = [];
  const file = fromFileUrl(new URL("./cassette_runner_test.ts", import.meta.url));
  const tape = await cassette({ name: "node", filePath: file }, "hello", {
    ...quiet,
    cliVersion: "9.9.9",
    warn: (m) => warnings.push(m),
  });
  assert.match(warnings[0], /recorded with CLI 2\.1\.328; this run uses 9\.9\.9/);
  assert.match(warnings[0], /CLAUDE_MOCK_RECORD=1 node --test/);
  await ask(tape.spawn, "hello");
  await tape.close();
});

Deno.test("cassette: a CLAUDE_MOCK_RECORD it cannot read is an error naming it", async (t) => {
  await assert.rejects(
    cassette(t, "hello", { env: { CLAUDE_MOCK_RECORD: "yes" }, args: [] }),
    /CLAUDE_MOCK_RECORD must be 1 or 0 \(true or false\), got "yes"/,
  );
});
