import assert from "node:assert/strict";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import { Session } from "../session/session.ts";
import { loadTape } from "./load_tape.ts";
import { SnapshotRecorder } from "./snapshot_recorder.ts";
import type { TapeEntry } from "./tape.ts";
import { TapeWriter } from "./tape_writer.ts";

const encoder = new TextEncoder();
const USER =
  '{"type":"user","session_id":"","message":{"role":"user","content":"hello"},"parent_tool_use_id":null}\n';

/** A clock that advances one ms per reading. */
function ticking(): () => number {
  let now = 100;
  return () => now++;
}

/** What an entry holds, without time and line. */
function what(entry: TapeEntry): string {
  if ("frame" in entry) return `${entry.dir} ${JSON.stringify(entry.frame)}`;
  if ("raw" in entry) return `${entry.dir} raw ${entry.raw}`;
  return `stderr ${entry.text}`;
}

/** Waits (on microtasks only) until `done()`; fails after many turns. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (done()) return;
    await Promise.resolve();
  }
  throw new Error(`never happened: ${what}`);
}

Deno.test("SnapshotRecorder: stdout passes unchanged; lines split across chunks and characters", async () => {
  const e = encoder.encode("é"); // two bytes, split between two chunks
  const chunks = [
    encoder.encode('{"type":"a"}\n{"ty'),
    encoder.encode('pe":"b"}\nnot js'),
    encoder.encode('on\n{"type":"c","s":"'),
    new Uint8Array([...encoder.encode("\n\n"), e[0]]).subarray(2),
    new Uint8Array([e[1], ...encoder.encode('"}\n{"type":"d"}')]),
  ];
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(c);
      controller.close();
    },
  });
  const recorder = new SnapshotRecorder({ clock: ticking() });
  const { readable } = recorder.wrap({ readable: source, writable: new WritableStream() });
  const received: Uint8Array[] = [];
  for await (const chunk of readable) received.push(chunk);
  assert.equal(received.length, chunks.length);
  received.forEach((chunk, i) => assert.equal(chunk, chunks[i], "the very same chunks"));
  const tape = recorder.tape();
  assert.deepEqual(tape.entries.map(what), [
    'cli->sdk {"type":"a"}',
    'cli->sdk {"type":"b"}',
    "cli->sdk raw not json",
    'cli->sdk {"type":"c","s":"é"}',
    'cli->sdk {"type":"d"}',
  ]);
  assert.ok(tape.entries.every((entry, i) => i === 0 || entry.t >= tape.entries[i - 1].t));
  assert.equal(tape.complete, false, "no ending yet");
});

Deno.test("SnapshotRecorder: stdin chunks (text and bytes) pass unchanged, in order", async () => {
  const got: (Uint8Array | string)[] = [];
  let closed = false;
  const sink = new WritableStream<Uint8Array | string>({
    write: (chunk) => void got.push(chunk),
    close: () => void (closed = true),
  });
  const recorder = new SnapshotRecorder({ clock: ticking() });
  const { writable } = recorder.wrap({ readable: new ReadableStream(), writable: sink });
  const writer = writable.getWriter();
  const sent: (Uint8Array | string)[] = [
    '{"type":"control_request","request":{"subtype":"initialize"}}\n{"type":',
    encoder.encode('"user"}\n'),
    "tail without newline",
  ];
  for (const chunk of sent) await writer.write(chunk);
  await writer.close();
  assert.deepEqual(got, sent);
  assert.equal(got[1], sent[1]);
  assert.ok(closed);
  assert.deepEqual(recorder.tape().entries.map(what), [
    'sdk->cli {"type":"control_request","request":{"subtype":"initialize"}}',
    'sdk->cli {"type":"user"}',
    "sdk->cli raw tail without newline",
  ]);
});

Deno.test("SnapshotRecorder: a client that cancels early loses nothing already written; the cancel reaches the process", async () => {
  let reason: unknown;
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode('{"type":"one"}\n'));
      controller.enqueue(encoder.encode('{"type":"two"}\n'));
      controller.enqueue(encoder.encode('{"type":"thr'));
    },
    cancel: (why) => void (reason = why),
  });
  const recorder = new SnapshotRecorder();
  const { readable } = recorder.wrap({ readable: source, writable: new WritableStream() });
  const reader = readable.getReader();
  assert.equal(new TextDecoder().decode((await reader.read()).value), '{"type":"one"}\n');
  await until(() => recorder.tape().entries.length === 2, "the process's output recorded");
  await reader.cancel("stop");
  assert.equal(reason, "stop");
  const tape = await recorder.close();
  assert.deepEqual(tape.entries.map(what), [
    'cli->sdk {"type":"one"}',
    'cli->sdk {"type":"two"}',
    'cli->sdk raw {"type":"thr',
  ]);
});

Deno.test("SnapshotRecorder: a client that never reads stdout still gets the whole session on tape", async () => {
  const session = new Session(new ScenarioBuilder().on("hello").respond("Hi!").build());
  const recorder = new SnapshotRecorder();
  const { writable } = recorder.wrap(session);
  const writer = writable.getWriter();
  await writer.write(USER);
  await writer.close();
  const status = await session.exited;
  recorder.end(status);
  const tape = await recorder.close();
  const types = tape.entries.map((e) => "frame" in e && e.frame.type);
  assert.deepEqual(types.slice(0, 1), ["user"]);
  assert.ok(types.includes("assistant") && types.includes("result"), types.join(","));
  assert.deepEqual(tape.ending?.code, 0);
});

Deno.test("SnapshotRecorder: a recorded mock session, in memory and on file, equals what the client read", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const session = new Session(
      new ScenarioBuilder({ seed: 3 }).on("hello").sendRaw("not json at all").respond("Hi!")
        .build(),
    );
    const recorder = new SnapshotRecorder({
      out: `${dir}/s.jsonl`,
      header: { scenario: "greeting" },
    });
    const { readable, writable } = recorder.wrap(session);
    const writer = writable.getWriter();
    await writer.write(USER);
    await writer.close();
    const text = await new Response(readable).text();
    recorder.stderr("a warning\n");
    recorder.end(await session.exited);
    const tape = await recorder.close();
    const read = text.trimEnd().split("\n").map((line) =>
      line.startsWith("{") ? JSON.parse(line) : line
    );
    assert.ok(read.includes("not json at all"));
    assert.deepEqual(
      tape.entries.filter((e) => e.dir === "cli->sdk").map((e) =>
        "frame" in e ? e.frame : "raw" in e && e.raw
      ),
      read,
    );
    assert.deepEqual(tape.entries[0], { ...tape.entries[0], dir: "sdk->cli", line: 2 });
    assert.equal(tape.entries.at(-1)?.dir, "stderr");
    assert.equal(tape.header.scenario, "greeting");
    assert.equal(tape.complete, true);
    assert.deepEqual(await loadTape(`${dir}/s.jsonl`), tape, "the file holds the same tape");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("SnapshotRecorder: errors and aborts pass through, lines so far are kept", async () => {
  let pulls = 0;
  const failing = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulls++ === 0) controller.enqueue(encoder.encode('{"type":"x"}\npartial'));
      else controller.error(new Error("pipe broke"));
    },
  }, { highWaterMark: 0 });
  let aborted: unknown;
  const recorder = new SnapshotRecorder();
  const { readable, writable } = recorder.wrap({
    readable: failing,
    writable: new WritableStream({ abort: (why) => void (aborted = why) }),
  });
  await assert.rejects(new Response(readable).text(), /pipe broke/);
  const writer = writable.getWriter();
  await writer.write("half a line");
  await writer.abort("gone");
  assert.equal(aborted, "gone");
  assert.deepEqual(recorder.tape().entries.map(what), [
    'cli->sdk {"type":"x"}',
    "cli->sdk raw partial",
    "sdk->cli raw half a line",
  ]);
});

Deno.test("SnapshotRecorder: misuse is refused; after close nothing more is recorded", async () => {
  const recorder = new SnapshotRecorder({ clock: () => 5 });
  recorder.wrap({ readable: new ReadableStream(), writable: new WritableStream() });
  assert.throws(
    () => recorder.wrap({ readable: new ReadableStream(), writable: new WritableStream() }),
    TypeError,
  );
  assert.throws(() => recorder.end({ code: 1.5, signal: null }), TypeError);
  assert.throws(() => recorder.record("up" as "cli->sdk", "x\n"), /unknown direction "up"/);
  recorder.end({ code: null, signal: "SIGKILL" });
  assert.throws(() => recorder.end({ code: 0, signal: null }), /twice/);
  recorder.record("cli->sdk", '{"type":"late"}');
  const tape = await recorder.close();
  assert.deepEqual(tape.entries.map(what), ['cli->sdk {"type":"late"}'], "flushed at close");
  recorder.record("cli->sdk", '{"type":"later"}\n');
  recorder.stderr("later");
  assert.equal(recorder.tape().entries.length, 1);
  assert.deepEqual(tape.ending, { t: 0, code: null, signal: "SIGKILL" });
  assert.throws(
    () => new SnapshotRecorder({ out: new TapeWriter("/tmp/x.jsonl"), header: {} }),
    /give the header to its TapeWriter/,
  );
  assert.throws(() => new SnapshotRecorder({ out: 3 as unknown as string }), TypeError);
});

Deno.test("SnapshotRecorder: a file that cannot be written fails close, the memory tape stays", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/t.jsonl.partial`, "");
    const recorder = new SnapshotRecorder({ out: `${dir}/t.jsonl` });
    recorder.record("cli->sdk", '{"type":"x"}\n');
    await assert.rejects(recorder.close(), /already exists/);
    assert.equal(recorder.tape().entries.length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
