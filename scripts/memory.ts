// Benchmark (c): peak memory while a 1,000,000-frame scenario streams to a consumer.
//   deno run -A --v8-flags=--expose-gc scripts/memory.ts [frames]
import { any, MockTransport, ScenarioBuilder, type Step } from "../mod.ts";

const total = Number(Deno.args[0] ?? 1_000_000);
const mock = new MockTransport(
  new ScenarioBuilder().onLazy(any(), function* () {
    for (let i = 0; i < total; i++) {
      yield {
        kind: "emit",
        frame: {
          type: "stream_event",
          event: {
            type: "content_block_delta",
            index: 0,
            delta: { type: "text_delta", text: `token ${i} ` },
          },
          session_id: "s",
          parent_tool_use_id: null,
          uuid: "u",
        },
      } as Step;
    }
  }).build(),
);
const { readable, writable } = mock.connect();
const writer = writable.getWriter();
await writer.write(
  JSON.stringify({
    type: "user",
    session_id: "",
    message: { role: "user", content: "go" },
    parent_tool_use_id: null,
  }) + "\n",
);
await writer.close();

const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
let peakRss = 0, peakHeap = 0, lines = 0, chunks = 0;
const samples: string[] = [];
const start = performance.now();
const reader = readable.getReader();
while (true) {
  const { value, done } = await reader.read();
  if (done) break;
  for (let i = value.indexOf(10); i >= 0; i = value.indexOf(10, i + 1)) lines++;
  if (++chunks % 50_000 === 0) {
    const m = Deno.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
    samples.push(`${lines} lines: rss ${mb(m.rss)} MB, heap ${mb(m.heapUsed)} MB`);
  }
}
const seconds = (performance.now() - start) / 1000;
await mock.exited;
for (const s of samples.filter((_, i) => i % 4 === 0)) console.log(s);
console.log(
  `${lines} lines in ${seconds.toFixed(1)} s (${Math.round(lines / seconds)} frames/s); peak rss ${
    mb(peakRss)
  } MB, peak heap ${mb(peakHeap)} MB`,
);
