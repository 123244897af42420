import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { loadTape } from "./load_tape.ts";
import { recordingSpawn } from "./recording_spawn.ts";
import type { SpawnedProcessLike } from "./spawned_process.ts";
import type { TapeEntry } from "./tape.ts";

function what(entry: TapeEntry): string {
  if ("frame" in entry) return `${entry.dir} ${JSON.stringify(entry.frame)}`;
  if ("raw" in entry) return `${entry.dir} raw ${entry.raw}`;
  return `stderr ${entry.text}`;
}

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "recording-spawn-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Collects a Node readable's bytes as text. */
function textOf(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    stream.on("data", (chunk) => (text += String(chunk)));
    stream.on("end", () => resolve(text));
    stream.on("error", reject);
  });
}

// A program that answers each stdin line with a frame, writes a non-JSON line and stderr,
// and exits 3.
const ECHO = `
const input = await new Response(Deno.stdin.readable).text();
const out = input.split("\\n").filter(Boolean).map((l) => JSON.stringify({ type: "echo", got: JSON.parse(l).type }));
await Deno.stderr.write(new TextEncoder().encode("warn: é\\n"));
await Deno.stdout.write(new TextEncoder().encode(out.join("\\n") + "\\nplain text\\n"));
Deno.exit(3);
`;

Deno.test("recordingSpawn: a real process, spawned as the SDK does, recorded whole", () =>
  withDir(async (dir) => {
    const stderr: string[] = [];
    const spawn = recordingSpawn({
      out: `${dir}/echo.jsonl`,
      header: { scenario: "echo", cli_version: "9.9.9" },
      stderr: (text) => void stderr.push(text),
    });
    const child = spawn({
      command: Deno.execPath(),
      args: ["eval", ECHO],
      env: { ...Deno.env.toObject(), CLAUDE_AGENT_SDK_VERSION: "0.3.328", NO_COLOR: "1" },
      signal: new AbortController().signal,
    });
    const exited = new Promise<[number | null, string | null]>((resolve) =>
      child.once("exit", (code, signal) => resolve([code, signal]))
    );
    const stdout = textOf(child.stdout);
    child.stdin.write('{"type":"control_request"}\n{"ty');
    child.stdin.end(new TextEncoder().encode('pe":"user"}\n'));
    assert.equal(
      await stdout,
      '{"type":"echo","got":"control_request"}\n{"type":"echo","got":"user"}\nplain text\n',
    );
    assert.deepEqual(await exited, [3, null]);
    assert.equal(child.exitCode, 3);
    assert.equal(stderr.join(""), "warn: é\n");
    const tape = await spawn.finished;
    assert.deepEqual(await loadTape(`${dir}/echo.jsonl`), tape, "the file is in place at exit");
    assert.deepEqual(tape.entries.map(what), [
      'sdk->cli {"type":"control_request"}',
      'sdk->cli {"type":"user"}',
      "stderr warn: é\n",
      'cli->sdk {"type":"echo","got":"control_request"}',
      'cli->sdk {"type":"echo","got":"user"}',
      "cli->sdk raw plain text",
    ]);
    assert.equal(tape.ending?.code, 3);
    assert.equal(tape.complete, true);
    assert.deepEqual(tape.header.args, ["eval", ECHO]);
    assert.equal(tape.header.sdk_version, "0.3.328");
    assert.equal(tape.header.cli_version, "9.9.9");
    assert.equal(tape.header.scenario, "echo");
    assert.match(String(tape.header.recorded_at), /^\d{4}-\d\d-\d\dT/);
    assert.throws(
      () => spawn({ command: "x", args: [], env: {}, signal: new AbortController().signal }),
      /make one per query/,
    );
  }));

Deno.test("recordingSpawn: the SDK's abort signal kills the process; the tape says by which signal", () =>
  withDir(async (dir) => {
    const spawn = recordingSpawn({ out: `${dir}/killed.jsonl` });
    const abort = new AbortController();
    const child = spawn({
      command: Deno.execPath(),
      args: ["eval", 'console.log(JSON.stringify({type:"ready"})); setInterval(() => {}, 1000);'],
      env: Deno.env.toObject(),
      signal: abort.signal,
    });
    child.on("error", () => {}); // Node reports the abort as an AbortError
    const exited = new Promise((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal }))
    );
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    abort.abort();
    assert.deepEqual(await exited, { code: null, signal: "SIGTERM" });
    const tape = await spawn.finished;
    assert.deepEqual(tape.entries.map(what), ['cli->sdk {"type":"ready"}']);
    assert.deepEqual([tape.ending?.code, tape.ending?.signal], [null, "SIGTERM"]);
    assert.equal(child.signalCode, "SIGTERM");
  }));

Deno.test("recordingSpawn: a command that cannot start is an error event and a tape without ending", () =>
  withDir(async (dir) => {
    const spawn = recordingSpawn({ out: `${dir}/none.jsonl` });
    const child = spawn({
      command: `${dir}/no-such-claude`,
      args: ["-p", "hi"],
      env: {},
      signal: new AbortController().signal,
    });
    let exits = 0;
    child.on("exit", () => exits++);
    const error = await new Promise<Error>((resolve) => child.once("error", resolve));
    assert.match(error.message, /ENOENT|No such file|not found/i);
    const tape = await spawn.finished;
    assert.equal(tape.complete, false);
    assert.equal(tape.entries.length, 0);
    assert.equal(exits, 0);
  }));

/** A child process made of pass-through streams, driven by the test. */
function fakeChild() {
  const events = new EventEmitter();
  const child = {
    stdin: new PassThrough(),
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    killed: false,
    exitCode: null as number | null,
    signalCode: null,
    kill: () => true,
    on: (event: string, listener: (...args: unknown[]) => void) => events.on(event, listener),
    once: (event: string, listener: (...args: unknown[]) => void) => events.once(event, listener),
    exit(code: number) {
      child.exitCode = code;
      events.emit("exit", code, null);
    },
  };
  return child;
}

Deno.test("recordingSpawn: exit reaches the SDK after stdout and stderr ended and the tape is written", () =>
  withDir(async (dir) => {
    const fake = fakeChild();
    const spawn = recordingSpawn({
      out: `${dir}/t.jsonl`,
      spawn: () => fake as unknown as SpawnedProcessLike,
      clock: () => 0,
    });
    const child = spawn({ command: "c", args: [], env: {}, signal: new AbortController().signal });
    const order: string[] = [];
    const exitSeen = new Promise<void>((resolve) =>
      child.once("exit", (code) => {
        const tapeLines = Deno.readTextFileSync(`${dir}/t.jsonl`).trimEnd().split("\n").length;
        resolve(void order.push(`exit ${code}, tape of ${tapeLines} lines in place`));
      })
    );
    const got: string[] = [];
    child.stdout.on("data", (c) => got.push(String(c)));
    fake.stdout.write('{"type":"a"}\n{"type"');
    fake.exit(0); // the process is gone, its last output still in the pipe
    await Promise.resolve();
    assert.deepEqual(order, []);
    fake.stdout.end(':"b"}\n');
    fake.stderr.end("bye\n");
    const tape = await spawn.finished;
    await exitSeen;
    assert.deepEqual(order, ["exit 0, tape of 5 lines in place"]);
    assert.equal(got.join(""), '{"type":"a"}\n{"type":"b"}\n');
    assert.deepEqual(tape.entries.map(what), [
      'cli->sdk {"type":"a"}',
      'cli->sdk {"type":"b"}',
      "stderr bye\n",
    ]);
    assert.deepEqual(tape.ending, { t: 0, code: 0, signal: null });
  }));

Deno.test("recordingSpawn: stdin is recorded and passed on; a client closing stdout breaks the child's pipe", () =>
  withDir(async (dir) => {
    const fake = fakeChild();
    const spawn = recordingSpawn({
      out: `${dir}/t.jsonl`,
      spawn: () => fake as unknown as SpawnedProcessLike,
    });
    const child = spawn({ command: "c", args: [], env: {}, signal: new AbortController().signal });
    const passed = textOf(fake.stdin);
    child.stdin.write('{"type":"user"}\n');
    child.stdin.end("raw tail");
    assert.equal(await passed, '{"type":"user"}\nraw tail');
    fake.stdout.write('{"type":"first"}\n');
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    child.stdout.destroy();
    assert.equal(fake.stdout.destroyed, true, "the child's stdout is closed too");
    fake.stderr.end();
    fake.exit(1);
    const tape = await spawn.finished;
    assert.deepEqual(tape.entries.map(what), [
      'sdk->cli {"type":"user"}',
      "sdk->cli raw raw tail",
      'cli->sdk {"type":"first"}',
    ]);
    assert.equal(tape.ending?.code, 1);
  }));

Deno.test("recordingSpawn: needs an out path", () => {
  assert.throws(() => recordingSpawn({ out: "" }), TypeError);
  assert.throws(() => recordingSpawn(undefined as unknown as { out: string }), TypeError);
});

Deno.test("recordingSpawn: a child that exits while a process it started holds stdout still ends its tape", () =>
  withDir(async (dir) => {
    const spawn = recordingSpawn({ out: `${dir}/held.jsonl` });
    // the grandchild keeps stdout's pipe open for an hour: the tape must not wait for its end
    const child = spawn({
      command: "sh",
      args: [
        "-c",
        `echo '{"type":"ready"}'; sleep 3600 2>/dev/null </dev/null & echo $! > ${dir}/pid`,
      ],
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
      signal: new AbortController().signal,
    });
    child.stdout.resume();
    try {
      const tape = await spawn.finished;
      assert.deepEqual(tape.entries.map(what), ['cli->sdk {"type":"ready"}']);
      assert.deepEqual([tape.ending?.code, tape.ending?.signal], [0, null]);
    } finally {
      Deno.kill(Number(await Deno.readTextFile(`${dir}/pid`)), "SIGKILL");
    }
  }));
