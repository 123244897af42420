// Benchmark: peak memory while readTapeEntries streams a large tape (default 100 MB), against
// the file's size; loadTape is not used (it keeps every entry by design).
//   deno run -A --v8-flags=--expose-gc scripts/tape_memory.ts [megabytes]
// Exits 1 when the (live, with --expose-gc) heap grew by more than a tenth of the file.
import { readTapeEntries } from "../cassette.ts";

const megabytes = Number(Deno.args[0] ?? 100);
const dir = await Deno.makeTempDir({ prefix: "tape-memory-" });
const path = `${dir}/big.jsonl`;
const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
const gc = (globalThis as { gc?: () => void }).gc;

try {
  // write the tape in big blocks (not through TapeWriter: one write per entry is slower)
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  const encoder = new TextEncoder();
  await file.write(encoder.encode('{"format":"claude-mock-tape","version":1,"scenario":"big"}\n'));
  let written = 0;
  let entries = 0;
  const text = "token ".repeat(100);
  while (written < megabytes * 1024 * 1024) {
    const block: string[] = [];
    for (let i = 0; i < 1000; i++, entries++) {
      block.push(JSON.stringify({
        t: entries,
        dir: "cli->sdk",
        frame: {
          type: "stream_event",
          event: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
          session_id: "s",
          parent_tool_use_id: null,
          uuid: crypto.randomUUID(),
        },
      }));
    }
    const bytes = encoder.encode(block.join("\n") + "\n");
    for (let done = 0; done < bytes.length;) done += await file.write(bytes.subarray(done));
    written += bytes.length;
  }
  await file.write(encoder.encode(`{"t":${entries},"end":{"code":0,"signal":null}}\n`));
  file.close();
  console.log(`tape: ${mb(written)} MB, ${entries} entries`);

  gc?.();
  const base = Deno.memoryUsage();
  let peakHeap = base.heapUsed;
  let peakRss = base.rss;
  let count = 0;
  const start = performance.now();
  const reading = readTapeEntries(path);
  let next = await reading.next();
  while (!next.done) {
    count++;
    if (count % 20_000 === 0) {
      gc?.(); // with --expose-gc: the live heap, not the garbage between collections
      const m = Deno.memoryUsage();
      peakHeap = Math.max(peakHeap, m.heapUsed);
      peakRss = Math.max(peakRss, m.rss);
    }
    next = await reading.next();
  }
  const seconds = (performance.now() - start) / 1000;
  if (count !== entries || next.value.complete !== true) {
    throw new Error(`read ${count} of ${entries} entries, complete: ${next.value.complete}`);
  }
  const growth = peakHeap - base.heapUsed;
  console.log(
    `streamed ${count} entries in ${seconds.toFixed(1)} s (${
      (written / 1024 / 1024 / seconds).toFixed(0)
    } MB/s); ` +
      `heap ${mb(base.heapUsed)} MB -> peak ${mb(peakHeap)} MB (+${mb(growth)} MB), peak rss ${
        mb(peakRss)
      } MB`,
  );
  if (growth > written / 10) {
    console.error(`heap grew by ${mb(growth)} MB for a ${mb(written)} MB tape: not bounded`);
    Deno.exitCode = 1;
  }
} finally {
  await Deno.remove(dir, { recursive: true });
}
