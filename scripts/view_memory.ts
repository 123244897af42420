// Benchmark: the peak memory (peak RSS, VmHWM) of writing a large tape's timeline page, before
// and after the view went to parts (issue 21 item 12). It writes a tape of mostly streamed text
// deltas (default 200 MB), then runs two child processes on it, one after the other:
//
//   whole  the old way: loadTape (every entry in memory) and one timelineHtml page;
//   parts  `claude-mock view` as it is now: a tape over 16 MB is read twice as a stream and
//          written in parts of about 16 MB of tape each; its child runs with a 256 MB heap
//          limit, so it fails if memory grows with the tape.
//
// Each child reports its own peak RSS from /proc/self/status. Printed, never asserted.
//
//   deno run -A scripts/view_memory.ts [megabytes]          (default 200)
import { loadTape, timelineHtml } from "../cassette.ts";
import { viewCommand } from "../src/cli/view_command.ts";

const mb = (n: number) => (n / 1024 / 1024).toFixed(0);

/** The peak resident set of this process, in bytes (Linux). */
function peakRss(): number {
  const status = Deno.readTextFileSync("/proc/self/status");
  const kb = Number(/VmHWM:\s+(\d+)\s+kB/.exec(status)?.[1] ?? NaN);
  return kb * 1024;
}

async function child(mode: string, tape: string, out: string): Promise<void> {
  if (mode === "whole") {
    const html = timelineHtml(await loadTape(tape));
    await Deno.writeTextFile(out, html);
  } else {
    const sink = () => new WritableStream<Uint8Array>();
    const code = await viewCommand([tape, "--out", out], {
      argv: ["view", tape],
      env: {},
      cwd: Deno.cwd(),
      stdin: new Blob([]).stream(),
      stdinIsTerminal: true,
      stdoutIsTerminal: false,
      stdout: sink(),
      stderr: sink(),
    });
    if (code !== 0) throw new Error(`view exited ${code}`);
  }
  console.log(JSON.stringify({ peak: peakRss() }));
}

async function writeTape(path: string, megabytes: number): Promise<number> {
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  const encoder = new TextEncoder();
  await file.write(encoder.encode('{"format":"claude-mock-tape","version":1,"scenario":"big"}\n'));
  let written = 0;
  let entries = 0;
  const text = "token ".repeat(100);
  while (written < megabytes * 1024 * 1024) {
    const block: string[] = [];
    for (let i = 0; i < 1000; i++, entries++) {
      const frame = i % 100 === 99
        ? { type: "assistant", message: { role: "assistant", content: [{ type: "text", text }] } }
        : {
          type: "stream_event",
          event: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
          session_id: "s",
          parent_tool_use_id: null,
          uuid: crypto.randomUUID(),
        };
      block.push(JSON.stringify({ t: entries, dir: "cli->sdk", frame }));
    }
    const bytes = encoder.encode(block.join("\n") + "\n");
    for (let done = 0; done < bytes.length;) done += await file.write(bytes.subarray(done));
    written += bytes.length;
  }
  await file.write(encoder.encode(`{"t":${entries},"end":{"code":0,"signal":null}}\n`));
  file.close();
  return written;
}

if (Deno.args[0] === "--child") {
  await child(Deno.args[1], Deno.args[2], Deno.args[3]);
} else {
  const megabytes = Number(Deno.args[0] ?? 200);
  const dir = await Deno.makeTempDir({ prefix: "view-memory-" });
  try {
    const tape = `${dir}/big.jsonl`;
    const size = await writeTape(tape, megabytes);
    console.log(`tape: ${mb(size)} MB`);
    for (const mode of ["whole", "parts"]) {
      const started = performance.now();
      const out = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          // the old way needs a big heap; the parts must fit a small one
          `--v8-flags=--max-old-space-size=${mode === "whole" ? 16384 : 256}`,
          new URL(import.meta.url).pathname,
          "--child",
          mode,
          tape,
          `${dir}/${mode}.html`,
        ],
        stdout: "piped",
        stderr: "piped",
      }).output();
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      if (!out.success) {
        console.log(`${mode}: failed (${new TextDecoder().decode(out.stderr).slice(-300)})`);
        continue;
      }
      const { peak } = JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!);
      const pages = [...Deno.readDirSync(dir)].filter((e) => e.name.startsWith(mode)).length;
      console.log(
        `${mode.padEnd(5)}  peak RSS ${mb(peak).padStart(5)} MB  (${
          (peak / size).toFixed(2)
        }x the tape; ${pages} page${pages === 1 ? "" : "s"}, ${seconds} s)`,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
