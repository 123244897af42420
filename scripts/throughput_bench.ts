// Benchmark (b): frames per second through builder → pace(instant) → encode → decode, vs
// plain JSON.stringify + JSON.parse of the same frames.
//   deno bench -A scripts/throughput_bench.ts
import { assistantMessage, createBuildContext } from "../builders.ts";
import { type Frame, NdjsonDecodeStream, NdjsonEncodeStream, PaceStream } from "../wire.ts";

const N = 20_000;

function* frames(): Generator<Frame> {
  const ctx = createBuildContext({ seed: 1 });
  for (let i = 0; i < N; i++) yield* assistantMessage(ctx, `frame number ${i} with a little text`);
}

Deno.bench({
  name: `stringify+parse ${N} built frames (floor)`,
  group: "throughput",
  baseline: true,
}, () => {
  let n = 0;
  for (const frame of frames()) {
    const line = JSON.stringify(frame) + "\n";
    if (JSON.parse(line).type) n++;
  }
  if (n !== N) throw new Error("lost frames");
});

Deno.bench(
  { name: `builder → pace(instant) → encode → decode ${N} frames`, group: "throughput" },
  async () => {
    let n = 0;
    await ReadableStream.from(frames())
      .pipeThrough(new PaceStream<Frame>({ timing: "instant" }))
      .pipeThrough(new NdjsonEncodeStream())
      .pipeThrough(new NdjsonDecodeStream())
      .pipeTo(new WritableStream({ write: (d) => void (d.ok && n++) }));
    if (n !== N) throw new Error(`lost frames: ${n}`);
  },
);
