// A re-recording whose CLI exited cleanly but whose test then failed (an assertion after the
// query loop) never replaces the good tape: it is kept beside it as <name>.failed.jsonl, and a
// warning names both. The cassette learns the test's outcome from the runner where the runner
// tells it (node:test's t.after with t.passed and t.error, vitest's onTestFinished), or from
// tape.run(body) (any runner, Deno's included).
import assert from "node:assert/strict";
import { query } from "@anthropic-ai/claude-agent-sdk";
import { cassette, type CassetteTest, loadTape } from "../cassette.ts";
import { MockTransport, ScenarioBuilder } from "../mod.ts";

const GOOD = await Deno.readTextFile(new URL("../snapshots/hello.jsonl", import.meta.url));
const hello = () => new ScenarioBuilder().on("hello").respond("Hi!").build();

async function inDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "rerecord4-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A node:test context: after hooks run once the body ended, with passed and error set. */
function nodeTestContext(dir: string) {
  const hooks: Array<() => unknown> = [];
  const t = {
    name: "says hello",
    filePath: `${dir}/hello.test.mjs`,
    passed: false,
    error: null as unknown,
    after: (fn: () => unknown) => void hooks.push(fn),
  };
  const end = async (error: unknown) => {
    [t.passed, t.error] = [error === undefined, error ?? null];
    for (const hook of hooks) await hook();
  };
  return { t, end };
}

/** One recorded query through the cassette: the CLI answers and exits 0. */
async function recordOnce(tape: { spawn: unknown }, mock: MockTransport): Promise<string> {
  let result = "";
  for await (
    const m of query({
      prompt: "hello",
      options: { ...mock.options(), spawnClaudeCodeProcess: tape.spawn as never },
    })
  ) {
    if (m.type === "result" && m.subtype === "success") result = m.result;
  }
  return result;
}

Deno.test("node:test: a test that fails after the CLI exited cleanly leaves the good tape and keeps the recording as .failed.jsonl", () =>
  inDir(async (dir) => {
    const path = `${dir}/hello.jsonl`;
    await Deno.writeTextFile(path, GOOD);
    const { t, end } = nodeTestContext(dir);
    const warned: string[] = [];
    const mock = new MockTransport(hello());
    let thrown: unknown;
    try {
      await using tape = await cassette(t, "hello", {
        mode: "record",
        dir,
        env: {},
        spawn: mock.spawn as never,
        warn: (m) => warned.push(m),
      });
      const result = await recordOnce(tape, mock);
      assert.equal(result, "Hi there!", "the app's assertion fails after the CLI exited 0");
    } catch (error) {
      thrown = error;
    }
    assert.ok(thrown instanceof Error, "the assertion failed");
    await end(thrown);
    assert.ok((await Deno.readTextFile(path)) === GOOD, "the good tape is untouched");
    const failed = await loadTape(`${dir}/hello.failed.jsonl`);
    assert.equal(failed.ending?.code, 0);
    assert.ok(
      failed.entries.some((e) => e.dir === "cli->sdk" && "frame" in e && e.frame.type === "result"),
    );
    assert.equal(warned.length, 1, warned.join("\n"));
    assert.match(
      warned[0],
      new RegExp(
        `^Cannot record cassette 'hello': the test failed after the CLI exited cleanly \\(.*Hi there.*\\); ${
          path.replace(/[.]/g, "\\.")
        } is left as it was, and this recording is kept in .*hello\\.failed\\.jsonl$`,
        "s",
      ),
    );
    assert.deepEqual(
      [...Deno.readDirSync(dir)].map((e) => e.name).sort(),
      ["hello.failed.jsonl", "hello.jsonl"],
      "no temporary file left",
    );
  }));

Deno.test("node:test: a test that passes replaces the tape once the runner says so", () =>
  inDir(async (dir) => {
    const path = `${dir}/hello.jsonl`;
    await Deno.writeTextFile(path, GOOD);
    const { t, end } = nodeTestContext(dir);
    const mock = new MockTransport(hello());
    {
      await using tape = await cassette(t, "hello", {
        mode: "record",
        dir,
        env: {},
        spawn: mock.spawn as never,
      });
      assert.equal(await recordOnce(tape, mock), "Hi!");
    }
    await end(undefined);
    assert.ok((await Deno.readTextFile(path)) !== GOOD, "the tape is replaced");
    assert.equal((await loadTape(path)).ending?.code, 0);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["hello.jsonl"]);
  }));

Deno.test("vitest: onTestFinished with a failed task keeps the recording beside the tape", () =>
  inDir(async (dir) => {
    const path = `${dir}/hello.jsonl`;
    await Deno.writeTextFile(path, GOOD);
    const finished: Array<(context: unknown) => unknown> = [];
    const task = {
      name: "says hello",
      file: { filepath: `${dir}/hello.test.ts` },
      result: undefined as undefined | { state: string; errors?: unknown[] },
    };
    const context = { task, onTestFinished: (fn: (c: unknown) => unknown) => finished.push(fn) };
    const mock = new MockTransport(hello());
    const warned: string[] = [];
    {
      await using tape = await cassette(context as CassetteTest, "hello", {
        mode: "record",
        dir,
        env: {},
        spawn: mock.spawn as never,
        warn: (m) => warned.push(m),
      });
      await recordOnce(tape, mock);
    }
    task.result = { state: "fail", errors: [new Error("expected 'Hi there!'")] };
    for (const fn of finished) await fn({ task });
    assert.ok((await Deno.readTextFile(path)) === GOOD, "the good tape is untouched");
    assert.equal((await loadTape(`${dir}/hello.failed.jsonl`)).ending?.code, 0);
    assert.match(
      warned[0],
      /the test failed after the CLI exited cleanly \(expected 'Hi there!'\)/,
    );
  }));

Deno.test("tape.run(body): a body that throws after the CLI exited cleanly keeps the tape, rethrows the body's error (any runner: Deno's context tells nothing)", () =>
  inDir(async (dir) => {
    const path = `${dir}/hello.jsonl`;
    await Deno.writeTextFile(path, GOOD);
    const mock = new MockTransport(hello());
    const warned: string[] = [];
    const tape = await cassette(
      { name: "says hello", origin: `file://${dir}/x_test.ts` },
      "hello",
      {
        mode: "record",
        dir,
        env: {},
        spawn: mock.spawn as never,
        warn: (m) => warned.push(m),
      },
    );
    const error = await tape.run(async () => {
      assert.equal(await recordOnce(tape, mock), "Hi there!");
    }).catch((e: unknown) => e);
    assert.ok(error instanceof assert.AssertionError, String(error));
    assert.ok((await Deno.readTextFile(path)) === GOOD, "the good tape is untouched");
    assert.equal((await loadTape(`${dir}/hello.failed.jsonl`)).ending?.code, 0);
    assert.equal(warned.length, 1);
    // closing again says the same, and changes nothing
    await assert.rejects(tape.close(), /the test failed after the CLI exited cleanly/);
    assert.ok((await Deno.readTextFile(path)) === GOOD, "the good tape is untouched");
    // a body that passes replaces it
    const again = new MockTransport(hello());
    const next = await cassette({ name: "x" }, "hello", {
      mode: "record",
      dir,
      env: {},
      spawn: again.spawn as never,
    });
    assert.equal(await next.run(() => recordOnce(next, again)), "Hi!");
    assert.ok((await Deno.readTextFile(path)) !== GOOD, "the tape is replaced");
  }));
