import assert from "node:assert/strict";
import {
  LineBuffer,
  readableOf,
  readAllStdin,
  serialWriter,
  type Stdio,
  streamStdio,
  writableOf,
} from "./_stdio.ts";

const encoder = new TextEncoder();

function chunksStdio(chunks: Uint8Array[], sink: string[] = []): Stdio {
  return {
    read: () => Promise.resolve(chunks.shift() ?? null),
    cancelRead: () => {},
    write: (chunk) => Promise.resolve(void sink.push(new TextDecoder().decode(chunk))),
    writeErr: (chunk) => Promise.resolve(void sink.push(`err:${new TextDecoder().decode(chunk)}`)),
  };
}

Deno.test("readAllStdin: all of stdin as text, a character split across chunks included", async () => {
  const bytes = encoder.encode("héllo\nwörld\n");
  const chunks = [bytes.subarray(0, 2), bytes.subarray(2, 9), bytes.subarray(9)];
  assert.equal(await readAllStdin(chunksStdio(chunks), { mayStall: false }), "héllo\nwörld\n");
  assert.equal(await readAllStdin(chunksStdio([]), { mayStall: false }), "");
});

Deno.test("readAllStdin: a pipe silent for 3 s is given up on with the real CLI's warning; one that answers is read", async () => {
  const timers: { ms: number; fire: () => void; cancelled: boolean }[] = [];
  const timer = (fire: () => void, ms: number) => {
    const t = { ms, fire, cancelled: false };
    timers.push(t);
    return () => void (t.cancelled = true);
  };
  const sink: string[] = [];
  let cancelledRead = false;
  const silent: Stdio = {
    ...chunksStdio([], sink),
    read: () => new Promise(() => {}),
    cancelRead: () => void (cancelledRead = true),
    quietTimer: timer,
  };
  const reading = readAllStdin(silent, { mayStall: true });
  assert.equal(timers.length, 1);
  assert.equal(timers[0].ms, 3000);
  timers[0].fire();
  assert.equal(await reading, "");
  assert.equal(cancelledRead, true);
  assert.deepEqual(sink, [
    "err:Warning: no stdin data received in 3s, proceeding without it. If piping from a slow command, redirect stdin explicitly: < /dev/null to skip, or wait longer.\n",
  ]);

  const answered = await readAllStdin(
    { ...chunksStdio([encoder.encode("x")]), quietTimer: timer },
    { mayStall: true },
  );
  assert.equal(answered, "x");
  assert.equal(timers[1].cancelled, true, "the timer of a pipe that answered is cancelled");
});

Deno.test("streamStdio: Web Streams as functions; close closes stdout and stderr", async () => {
  const out: string[] = [];
  const err: string[] = [];
  let closed = 0;
  const sink = (into: string[]) =>
    new WritableStream<Uint8Array>({
      write: (c) => void into.push(new TextDecoder().decode(c)),
      close: () => void closed++,
    });
  const stdio = streamStdio({
    stdin: new Blob(["ab", "c"]).stream(),
    stdout: sink(out),
    stderr: sink(err),
  });
  assert.equal(await readAllStdin(stdio, { mayStall: false }), "abc");
  await stdio.write(encoder.encode("o"));
  await stdio.writeErr(encoder.encode("e"));
  await stdio.close();
  assert.deepEqual([out, err, closed], [["o"], ["e"], 2]);
});

Deno.test("readableOf and writableOf: streams over the functions, for subcommands", async () => {
  const sink: string[] = [];
  const stdio = chunksStdio([encoder.encode("in1"), encoder.encode("in2")], sink);
  assert.equal(await new Response(readableOf(stdio)).text(), "in1in2");
  const writer = writableOf(stdio.writeErr).getWriter();
  await writer.write(encoder.encode("x"));
  await writer.close();
  assert.deepEqual(sink, ["err:x"]);
});

Deno.test("LineBuffer: lines across chunks, empty lines dropped, a last line without newline", () => {
  const lines = new LineBuffer();
  const bytes = encoder.encode("a\n\nbé");
  assert.deepEqual(lines.push(bytes.subarray(0, 5)), ["a"]);
  assert.deepEqual(lines.push(bytes.subarray(5)), []);
  assert.deepEqual(lines.push(encoder.encode("c\nd")), ["béc"]);
  assert.deepEqual(lines.end(), ["d"]);
  assert.deepEqual(lines.end(), []);
});

Deno.test("streamStdio close: stdin is cancelled, as a process that exits closes it", async () => {
  let cancelled: unknown = "no";
  const stdio = streamStdio({
    stdin: new ReadableStream<Uint8Array>({ cancel: (reason) => void (cancelled = reason) }),
    stdout: new WritableStream(),
    stderr: new WritableStream(),
  });
  const pending = stdio.read();
  await stdio.close();
  assert.equal(await pending, null);
  assert.equal(cancelled, undefined);
});

Deno.test("serialWriter: in call order, all of each chunk, what queues up meanwhile in one write; after a failure every write fails", async () => {
  const calls: string[] = [];
  let gate: (() => void) | undefined;
  let fail = false;
  const file = {
    async write(data: Uint8Array): Promise<number> {
      if (fail) throw new Error("EPIPE");
      if (gate === undefined) await new Promise<void>((resolve) => (gate = resolve));
      // a short write: at most 4 bytes at a time
      const n = Math.min(4, data.length);
      calls.push(new TextDecoder().decode(data.subarray(0, n)));
      return n;
    },
  };
  const write = serialWriter(file);
  const first = write(encoder.encode("ab"));
  while (gate === undefined) await Promise.resolve();
  // the first write is in flight: these three wait, then go out together
  const burst = [
    write(encoder.encode("cd")),
    write(encoder.encode("ef")),
    write(encoder.encode("g")),
  ];
  gate();
  await Promise.all([first, ...burst]);
  assert.deepEqual(calls, ["ab", "cdef", "g"]);
  fail = true;
  await assert.rejects(write(encoder.encode("h")), /EPIPE/);
  fail = false;
  await assert.rejects(write(encoder.encode("i")), /EPIPE/, "a failed stream stays failed");
  assert.equal(calls.join(""), "abcdefg");
});
