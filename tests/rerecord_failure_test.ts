// A failed re-recording never destroys the good tape, and is itself kept (issue: re-recording
// over a tape replaced it with whatever the failed run left). One rule for every writer:
// recordingSpawn and TapeWriter, cassette() in record mode, and the binary's `record`: a run
// that fails (a non-zero exit, a signal, no exit, the test ending the query by throwing)
// leaves the tape as it was and is kept beside it as <name>.failed.jsonl; the error (or the
// stderr line) names both.
import assert from "node:assert/strict";
import { query } from "@anthropic-ai/claude-agent-sdk";
import { cassette, loadTape, recordingSpawn } from "../cassette.ts";
import { installFakeClaude } from "../cli.ts";
import { MockTransport, ScenarioBuilder } from "../mod.ts";
import { fromFileUrl } from "./_paths.ts";

const CLI = fromFileUrl(new URL("../cli.ts", import.meta.url));
const GOOD = await Deno.readTextFile(new URL("../snapshots/hello.jsonl", import.meta.url));

const hello = () => new ScenarioBuilder().on("hello").respond("Hi!").build();
const crashing = () => new ScenarioBuilder().on("hello").respond("Hi!").crash({ code: 3 }).build();

async function drain(prompt: string, options: Record<string, unknown>): Promise<unknown> {
  try {
    for await (const _ of query({ prompt, options })) { /* the app */ }
  } catch (error) {
    return error;
  }
}

async function inDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "rerecord-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("recordingSpawn: a run that exits 3 over a good tape leaves it, keeps itself beside it, and says where", () =>
  inDir(async (dir) => {
    const out = `${dir}/hello.jsonl`;
    await Deno.writeTextFile(out, GOOD);
    const mock = new MockTransport(crashing());
    const spawn = recordingSpawn({ out, spawn: mock.spawn });
    await drain("hello", { ...mock.options(), spawnClaudeCodeProcess: spawn });
    await assert.rejects(
      spawn.finished,
      (e: Error) =>
        e.message ===
          `Cannot record ${out}: the CLI exited with code 3; ${out} is left as it was, and this failed recording is kept in ${dir}/hello.failed.jsonl`,
    );
    assert.equal(await Deno.readTextFile(out), GOOD, "the good tape is untouched");
    const failed = await loadTape(`${dir}/hello.failed.jsonl`);
    assert.equal(failed.ending?.code, 3);
    assert.ok(failed.entries.length > 3, "the failed run is kept whole");
    // a run that succeeds replaces it
    const ok = new MockTransport(hello());
    const again = recordingSpawn({ out, spawn: ok.spawn });
    await drain("hello", { ...ok.options(), spawnClaudeCodeProcess: again });
    assert.equal((await again.finished).ending?.code, 0);
    assert.equal((await loadTape(out)).ending?.code, 0);
    assert.notEqual(await Deno.readTextFile(out), GOOD);
  }));

Deno.test("cassette record: a failing CLI leaves the tape, keeps the recording, names both; expectedExit records an error run", () =>
  inDir(async (dir) => {
    const path = `${dir}/hello.jsonl`;
    await Deno.writeTextFile(path, GOOD);
    const mock = new MockTransport(crashing());
    const warned: string[] = [];
    const tape = await cassette({ name: "t" }, "hello", {
      mode: "record",
      dir,
      env: {},
      spawn: mock.spawn as never,
      warn: (message) => warned.push(message),
    });
    await drain("hello", { ...mock.options(), spawnClaudeCodeProcess: tape.spawn });
    await assert.rejects(
      tape.close(),
      (e: Error) =>
        // said as a warning too: a runner may show only the test's own error
        warned.length === 1 && warned[0] === e.message &&
        e.message.startsWith("Cannot record cassette 'hello': the CLI exited with code 3") &&
        e.message.includes(
          `; ${path} is left as it was, and this failed recording is kept in ${dir}/hello.failed.jsonl`,
        ) &&
        e.message.endsWith("A run meant to fail: give cassette() the option expectedExit"),
    );
    assert.equal(await Deno.readTextFile(path), GOOD);
    assert.equal((await loadTape(`${dir}/hello.failed.jsonl`)).ending?.code, 3);
    assert.deepEqual(
      [...Deno.readDirSync(dir)].map((e) => e.name).sort(),
      ["hello.failed.jsonl", "hello.jsonl"],
      "no temporary file left",
    );
    // an error run meant to be recorded
    const meant = new MockTransport(crashing());
    const error = await cassette({ name: "t" }, "hello", {
      mode: "record",
      dir,
      env: {},
      spawn: meant.spawn as never,
      expectedExit: 3,
    });
    await drain("hello", { ...meant.options(), spawnClaudeCodeProcess: error.spawn });
    await error.close();
    assert.equal((await loadTape(path)).ending?.code, 3);
  }));

Deno.test("cassette record: a test that throws mid-query leaves the tape as it was", () =>
  inDir(async (dir) => {
    const path = `${dir}/hello.jsonl`;
    await Deno.writeTextFile(path, GOOD);
    // the CLI asks the app a permission: the test throws before it answers
    const asking = new ScenarioBuilder().on("hello")
      .usesBash("make deploy", { permission: "ask", stdout: "ok" }).respond("Done.").build();
    const mock = new MockTransport(asking);
    const thrown = await (async () => {
      await using tape = await cassette({ name: "t" }, "hello", {
        mode: "record",
        dir,
        env: {},
        spawn: mock.spawn as never,
        warn: () => {},
      });
      for await (
        const m of query({
          prompt: "hello",
          options: {
            ...mock.options(),
            spawnClaudeCodeProcess: tape.spawn,
            canUseTool: () => new Promise(() => {}), // the app's prompt, never answered
          },
        })
      ) {
        if (m.type === "assistant") throw new Error("the test's assertion failed");
      }
    })().catch((e: unknown) => e);
    // the test's error, and the cassette's, which says what happened to the tape
    const { error, suppressed } = thrown as { error: Error; suppressed: Error };
    assert.equal(suppressed.message, "the test's assertion failed");
    assert.match(
      error.message,
      /Cannot record cassette 'hello': the app closed the CLI's stdin before its last prompt was answered \(the test threw, or left its query loop early\)/,
    );
    assert.equal(await Deno.readTextFile(path), GOOD);
    const failed = await loadTape(`${dir}/hello.failed.jsonl`);
    assert.ok(failed.entries.some((e) => "frame" in e && e.frame.type === "system"));
  }));

Deno.test("cli record: a failed re-recording leaves the tape, keeps itself and says so; a claude that cannot start removes nothing", async () => {
  await using fake = await installFakeClaude({ env: { CLAUDE_MOCK_CRASH_AFTER: "1" } });
  const out = `${fake.dir}/hello.jsonl`;
  await Deno.writeTextFile(out, GOOD);
  const run = async (env: Record<string, string>) => {
    const child = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--no-config", "--quiet", CLI, "record", "--out", out, "--", "-p", "hi"],
      env: { ...fake.env, CLAUDE_MOCK_REAL_CLAUDE: fake.path, ...env },
      cwd: fake.dir,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    return { code: child.code, stderr: new TextDecoder().decode(child.stderr) };
  };
  const crashed = await run({});
  assert.equal(crashed.code, 1);
  assert.match(
    crashed.stderr,
    /claude-mock record: Cannot record .*hello\.jsonl: the CLI exited with code 1; .*hello\.jsonl is left as it was, and this failed recording is kept in .*hello\.failed\.jsonl/,
  );
  assert.equal(await Deno.readTextFile(out), GOOD);
  assert.equal((await loadTape(`${fake.dir}/hello.failed.jsonl`)).ending?.code, 1);
  const missing = await run({ CLAUDE_MOCK_REAL_CLAUDE: `${fake.dir}/no-such-claude` });
  assert.equal(missing.code, 127);
  assert.equal(await Deno.readTextFile(out), GOOD, "the tape is not removed");
});
