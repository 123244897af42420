// A fake process on plain Node streams: the floor the query benchmarks measure the mock against
// (scripts/query_bench.ts, scripts/speed_goals.ts).
import type { SpawnedProcess } from "@anthropic-ai/claude-agent-sdk";
import { EventEmitter } from "node:events";
import { Readable, Writable } from "node:stream";

/** A parsed stdin line. */
export type Json = Record<string, unknown>;

/**
 * A fake process on plain Node streams. `onFrame` sees each stdin line parsed (as the
 * mock's decoder does) and pushes stdout chunks; when stdin ends, stdout ends and `exit`
 * fires with code 0, as the mock does once its last turn has ended.
 */
export function fakeProcess(onFrame: (frame: Json, stdout: Readable) => void): SpawnedProcess {
  const events = new EventEmitter();
  let exitCode: number | null = null;
  const stdout = new Readable({ read() {} });
  let buffer = "";
  const stdin = new Writable({
    write(chunk, _encoding, done) {
      buffer += chunk.toString();
      let i;
      while ((i = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 1);
        if (line.trim() !== "") onFrame(JSON.parse(line), stdout);
      }
      done();
    },
    final(done) {
      stdout.push(null);
      exitCode = 0;
      queueMicrotask(() => events.emit("exit", 0, null));
      done();
    },
  });
  return {
    stdin,
    stdout,
    killed: false,
    get exitCode() {
      return exitCode;
    },
    kill: () => true,
    on: (e: string, l: (...a: unknown[]) => void) => void events.on(e, l),
    once: (e: string, l: (...a: unknown[]) => void) => void events.once(e, l),
    off: (e: string, l: (...a: unknown[]) => void) => void events.off(e, l),
  } as SpawnedProcess;
}
