import assert from "node:assert/strict";
import { loadTape, readTapeEntries } from "./load_tape.ts";
import { parseTape } from "./parse_tape.ts";

const HELLO = new URL("../../tests/fixtures/real/hello.jsonl", import.meta.url);
const HELLO_PATH = decodeURIComponent(HELLO.pathname);

Deno.test("loadTape: a path and a file: URL give what parseTape gives, source as given", async () => {
  const expected = parseTape(await Deno.readTextFile(HELLO), { source: HELLO_PATH });
  assert.deepEqual(await loadTape(HELLO_PATH), expected);
  assert.deepEqual(await loadTape(HELLO), expected);
  assert.deepEqual(await loadTape(HELLO.href), { ...expected, source: HELLO.href }, "as given");
});

Deno.test("loadTape: a relative path, resolved from the working directory", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/t.jsonl`, '{"version":1}\n');
    const relative = `${dir}/t.jsonl`.replace(`${Deno.cwd()}/`, "");
    assert.equal((await loadTape(relative)).source, relative);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadTape: an http URL, and its errors", async () => {
  const text = await Deno.readTextFile(HELLO);
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) =>
      new URL(request.url).pathname === "/hello.jsonl"
        ? new Response(text)
        : new Response("no", { status: 404, statusText: "Not Found" }),
  );
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const tape = await loadTape(`${base}/hello.jsonl`);
    assert.equal(tape.source, `${base}/hello.jsonl`);
    assert.deepEqual(tape.entries, parseTape(text).entries);
    await assert.rejects(
      loadTape(new URL(`${base}/missing.jsonl`)),
      new Error(`Cannot load tape: GET ${base}/missing.jsonl answered 404 Not Found`),
    );
  } finally {
    await server.shutdown();
  }
});

Deno.test("loadTape: errors name the file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/bad.jsonl`, '{"version":1}\n{"t":0,"dir":"x","raw":""}\n');
    await assert.rejects(
      loadTape(`${dir}/bad.jsonl`),
      (error: Error) =>
        error instanceof RangeError &&
        error.message ===
          `Cannot load tape: line 2 has an unknown dir "x" (expected "sdk->cli", "cli->sdk" or "stderr") (in ${dir}/bad.jsonl)`,
    );
    await assert.rejects(
      loadTape(`${dir}/missing.jsonl`),
      (error: Error) =>
        error.message.startsWith(`Cannot load tape: cannot read ${dir}/missing.jsonl (`),
    );
    await assert.rejects(loadTape("ftp://host/t.jsonl"), TypeError);
    await assert.rejects(loadTape(""), /the path is empty/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readTapeEntries: streams across chunk boundaries, returns the header and ending", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // lines longer than a read chunk, multi-byte characters split between chunks
    const long = "é€😀".repeat(40_000);
    const lines = [
      '{"format":"claude-mock-tape","version":1,"scenario":"big"}',
      JSON.stringify({ t: 0, dir: "cli->sdk", frame: { type: "assistant", text: long } }),
      JSON.stringify({ t: 1, dir: "cli->sdk", raw: long }),
      '{"t":2,"end":{"code":0,"signal":null}}',
    ];
    await Deno.writeTextFile(`${dir}/big.jsonl`, lines.join("\n"));
    const reading = readTapeEntries(`${dir}/big.jsonl`);
    const entries = [];
    let next = await reading.next();
    while (!next.done) {
      entries.push(next.value);
      next = await reading.next();
    }
    assert.equal(entries.length, 2);
    assert.deepEqual(entries[0], {
      t: 0,
      dir: "cli->sdk",
      frame: { type: "assistant", text: long },
      line: 2,
    });
    assert.deepEqual(entries[1], { t: 1, dir: "cli->sdk", raw: long, line: 3 });
    assert.deepEqual(next.value, {
      header: { format: "claude-mock-tape", version: 1, scenario: "big" },
      ending: { t: 2, code: 0, signal: null },
      complete: true,
      source: `${dir}/big.jsonl`,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readTapeEntries: stopping early closes the file; a bad line fails where it is", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const entry = '{"t":0,"dir":"cli->sdk","frame":{"type":"x"}}';
    await Deno.writeTextFile(
      `${dir}/t.jsonl`,
      ['{"version":1}', ...Array(5000).fill(entry), "oops", entry].join("\n"),
    );
    let seen = 0;
    for await (const _ of readTapeEntries(`${dir}/t.jsonl`)) if (++seen === 3) break;
    assert.equal(seen, 3); // the resource sanitizer checks that the file was closed
    seen = 0;
    await assert.rejects(async () => {
      for await (const _ of readTapeEntries(`${dir}/t.jsonl`)) seen++;
    }, /line 5002 is not JSON/);
    assert.equal(seen, 5000, "every entry before the bad line was read");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadTape: bytes that are not UTF-8 are a SyntaxError naming the byte, its offset and line", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const enc = new TextEncoder();
    const header = enc.encode('{"format":"claude-mock-tape","version":1}\n');
    const entry = (text: string) =>
      enc.encode(`{"t":0,"dir":"cli->sdk","frame":{"type":"x","text":"${text}"}}\n`);
    // the bad byte far into the file: past the reader's first chunks
    const many = Array.from({ length: 3000 }, () => entry("a".repeat(100)));
    const parts = [
      header,
      ...many,
      enc.encode('{"t":0,"dir":"cli->sdk","frame":{"type":"x","text":"'),
      new Uint8Array([0xff]),
      enc.encode('"}}\n'),
    ];
    const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) (bytes.set(p, at), at += p.length);
    const offset = bytes.indexOf(0xff);
    await Deno.writeFile(`${dir}/bad.jsonl`, bytes);
    await assert.rejects(
      () => loadTape(`${dir}/bad.jsonl`),
      (e: Error) =>
        e instanceof SyntaxError &&
        e.message ===
          `Cannot load tape: it is not UTF-8 text: byte 0xff at offset ${offset} (line 3002) is not part of a UTF-8 character (in ${dir}/bad.jsonl)`,
    );
    await Deno.writeFile(`${dir}/cut.jsonl`, new Uint8Array([...header, 0xe2, 0x82]));
    await assert.rejects(
      () => loadTape(`${dir}/cut.jsonl`),
      /not UTF-8 text: the file ends in the middle of a UTF-8 character \(line 2\)/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
