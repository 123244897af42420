// Replay speed: a SnapshotPlayer replaying a large tape (one turn of N stream events) to a raw
// client, against a floor that writes the same bytes through a ReadableStream, interleaved
// (A B A B ...), medians and their ratio. Run: deno run -A scripts/replay_bench.ts [events] [rounds]
import { parseTape, SnapshotPlayer } from "../cassette.ts";

const events = Number(Deno.args[0] ?? 20_000);
const rounds = Number(Deno.args[1] ?? 15);
const session = "0b6f4b47-5c55-4f59-9a0e-3b6a2e9bbd10";
const lines = [
  JSON.stringify({ format: "claude-mock-tape", version: 1 }),
  JSON.stringify({
    t: 0,
    dir: "sdk->cli",
    frame: {
      type: "user",
      message: { role: "user", content: "go" },
      parent_tool_use_id: null,
    },
  }),
];
for (let i = 0; i < events; i++) {
  lines.push(JSON.stringify({
    t: i,
    dir: "cli->sdk",
    frame: {
      type: "stream_event",
      event: {
        type: "content_block_delta",
        index: 0,
        delta: { type: "text_delta", text: `word ${i} of a long answer, ` },
      },
      session_id: session,
      parent_tool_use_id: null,
      uuid: crypto.randomUUID(),
    },
  }));
}
lines.push(JSON.stringify({
  t: events,
  dir: "cli->sdk",
  frame: {
    type: "result",
    subtype: "success",
    is_error: false,
    result: "done",
    session_id: session,
  },
}));
lines.push(JSON.stringify({ t: events + 1, end: { code: 0, signal: null } }));
const tape = parseTape(lines.join("\n"));
const out = tape.entries.filter((e) => e.dir === "cli->sdk")
  .map((e) => `${JSON.stringify((e as { frame: unknown }).frame)}\n`).join("");
const bytes = new TextEncoder().encode(out);
const user = '{"type":"user","message":{"role":"user","content":"go"},"parent_tool_use_id":null}\n';

async function drain(readable: ReadableStream<Uint8Array>): Promise<number> {
  let n = 0;
  for await (const chunk of readable) n += chunk.byteLength;
  return n;
}

async function replay(fresh = tape): Promise<number> {
  const player = new SnapshotPlayer(fresh);
  const { readable, writable } = player.connect();
  const writer = writable.getWriter();
  const reading = drain(readable);
  await writer.write(user);
  await writer.close();
  const n = await reading;
  player.assertFinished();
  return n;
}

async function floor(): Promise<number> {
  // the same lines, one chunk per frame, through a stream
  const encoder = new TextEncoder();
  const frames = out.split("\n").slice(0, -1);
  const readable = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const line of frames) controller.enqueue(encoder.encode(`${line}\n`));
      controller.close();
    },
  });
  return await drain(readable);
}

// with --v8-flags=--expose-gc each timed part starts after a collection (no garbage of the
// previous part, e.g. the parse, charged to it)
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const a: number[] = [];
const b: number[] = [];
const cold: number[] = [];
for (let i = 0; i < 3; i++) {
  await replay();
  await floor();
}
for (let i = 0; i < rounds; i++) {
  gc();
  let t = performance.now();
  const na = await replay();
  a.push(performance.now() - t);
  gc();
  t = performance.now();
  const nb = await floor();
  b.push(performance.now() - t);
  // a tape replayed for the first time: each frame is serialized once
  const fresh = parseTape(lines.join("\n"));
  gc();
  t = performance.now();
  await replay(fresh);
  cold.push(performance.now() - t);
  if (na !== nb || nb !== bytes.byteLength) throw new Error(`bytes differ: ${na} vs ${nb}`);
}
console.log(`${events} stream events, ${(bytes.byteLength / 1e6).toFixed(1)} MB, ${rounds} rounds`);
console.log(`replay median ${median(a).toFixed(1)} ms, floor median ${median(b).toFixed(1)} ms`);
console.log(`replay/floor ${(median(a) / median(b)).toFixed(2)}x (a tape replayed again)`);
console.log(
  `first replay median ${median(cold).toFixed(1)} ms: ${(median(cold) / median(b)).toFixed(2)}x`,
);
