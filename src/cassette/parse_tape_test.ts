import assert from "node:assert/strict";
import { parseTape, serializeTape, TapeLineParser } from "./parse_tape.ts";
import { isFrameEntry, type Tape } from "./tape.ts";

const FIXTURES = new URL("../../tests/fixtures/", import.meta.url);
const REAL = new URL("real/", FIXTURES);
const CASSETTE = new URL("claude-agent-cassette/", FIXTURES);

function tapesIn(dir: URL): URL[] {
  return [...Deno.readDirSync(dir)]
    .filter((e) => e.isFile && e.name.endsWith(".jsonl") && !e.name.endsWith(".messages.jsonl"))
    .map((e) => new URL(e.name, dir))
    .sort((a, b) => a.href.localeCompare(b.href));
}

function throwsWith(fn: () => unknown, Class: ErrorConstructor, message: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof Class, `expected ${Class.name}, got ${error}`);
    assert.match((error as Error).message, message);
    return true;
  });
}

const HEADER = '{"format":"claude-mock-tape","version":1}';

Deno.test("parseTape: this library's format, with stderr, raw lines and the end line", () => {
  const tape = parseTape(
    [
      '{"format":"claude-mock-tape","version":1,"cli_version":"2.1.328","args":["-p"]}',
      '{"t":0,"dir":"sdk->cli","frame":{"type":"user"}}',
      '{"t":3,"dir":"stderr","text":"warning\\n"}',
      '{"t":4,"dir":"cli->sdk","raw":"not json"}',
      '{"t":5,"dir":"cli->sdk","frame":{"type":"result"}}',
      '{"t":6,"end":{"code":null,"signal":"SIGTERM"}}',
      "",
    ].join("\n"),
    { source: "x.jsonl" },
  );
  assert.deepEqual(tape, {
    header: {
      format: "claude-mock-tape",
      version: 1,
      cli_version: "2.1.328",
      args: ["-p"],
    },
    entries: [
      { t: 0, dir: "sdk->cli", frame: { type: "user" }, line: 2 },
      { t: 3, dir: "stderr", text: "warning\n", line: 3 },
      { t: 4, dir: "cli->sdk", raw: "not json", line: 4 },
      { t: 5, dir: "cli->sdk", frame: { type: "result" }, line: 5 },
    ],
    ending: { t: 6, code: null, signal: "SIGTERM" },
    complete: true,
    source: "x.jsonl",
  });
});

Deno.test("parseTape: complete is false for a cut tape, undefined for header-without-format", () => {
  const cut = parseTape(`${HEADER}\n{"t":0,"dir":"cli->sdk","frame":{"type":"x"}}`);
  assert.equal(cut.complete, false);
  assert.equal(cut.ending, undefined);
  assert.equal(cut.entries.length, 1, "a last line without newline is read");
  const old = parseTape('{"version":1}\n{"t":0,"dir":"cli->sdk","frame":{"type":"x"}}\n');
  assert.equal(old.complete, undefined);
  assert.equal("complete" in old, false);
  const oldEnded = parseTape('{"version":1}\n{"t":1,"end":{"code":0,"signal":null}}\n');
  assert.equal(oldEnded.complete, true);
  assert.equal(parseTape(`${HEADER}\n`).entries.length, 0, "a header alone is a tape");
});

Deno.test("parseTape: every real tape loads as it is, entries byte-identical when written back", () => {
  const files = [
    ...tapesIn(REAL),
    ...tapesIn(new URL("failures/", REAL)),
    ...tapesIn(new URL("wire-samples/", FIXTURES)),
  ];
  assert.ok(files.length >= 50, `found ${files.length} tapes`);
  for (const file of files) {
    const text = Deno.readTextFileSync(file);
    const tape = parseTape(text, { source: file.pathname });
    assert.equal(tape.header.version, 1, file.pathname);
    assert.equal(tape.complete, undefined, file.pathname);
    assert.equal(tape.entries.length, text.trimEnd().split("\n").length - 1, file.pathname);
    assert.ok(tape.entries.every(isFrameEntry), file.pathname);
    const first = tape.entries[0];
    assert.ok(isFrameEntry(first) && first.frame.type === "control_request", file.pathname);
    const hasResult = tape.entries.some((e) => isFrameEntry(e) && e.frame.type === "result");
    assert.equal(hasResult, !file.pathname.includes("hangs"), `${file.pathname}: a result`);
    const written = serializeTape(tape).split("\n");
    assert.deepEqual(written.slice(1), text.split("\n").slice(1), `${file.pathname} entry lines`);
    const back = parseTape(serializeTape(tape));
    assert.deepEqual(back.entries, tape.entries);
    assert.equal(back.complete, undefined, "an unknown ending stays unknown");
    assert.deepEqual(back.header, {
      ...tape.header,
      format: "claude-mock-tape",
      ending_recorded: false,
    });
  }
});

Deno.test("parseTape: round-trips a tape in this library's format exactly", () => {
  const text = [
    '{"format":"claude-mock-tape","version":1,"recorded_at":"2026-01-01T00:00:00.000Z"}',
    '{"t":0,"dir":"sdk->cli","frame":{"type":"control_request","request":{"subtype":"initialize"}}}',
    '{"t":1.5,"dir":"cli->sdk","raw":"{broken"}',
    '{"t":2,"dir":"stderr","text":"a\\nb\\n"}',
    '{"t":9,"end":{"code":1,"signal":null}}',
    "",
  ].join("\n");
  const tape = parseTape(text);
  assert.equal(serializeTape(tape), text);
  assert.deepEqual(parseTape(serializeTape(tape)), tape);
  const cut = parseTape(text.split("\n").slice(0, 3).join("\n"));
  assert.equal(cut.complete, false);
  assert.deepEqual(parseTape(serializeTape(cut)), cut);
});

Deno.test("parseTape: claude-agent-cassette tapes and frames files, from every copied fixture", () => {
  for (
    const file of [
      ...tapesIn(new URL("examples/cassettes/", CASSETTE)),
      ...tapesIn(
        new URL("tests/fixtures/", CASSETTE),
      ),
    ]
  ) {
    const text = Deno.readTextFileSync(file);
    const tape = parseTape(text, { source: file.pathname });
    const lines = text.split("\n").filter((l) => l.trim() !== "");
    if (file.pathname.endsWith("hello_world.jsonl")) {
      assert.equal(tape.header.converted_from, "claude-agent-cassette/frames");
      assert.deepEqual(tape.entries.map((e) => e.dir), ["cli->sdk", "cli->sdk"]);
    } else {
      assert.equal(tape.header.converted_from, "claude-agent-cassette", file.pathname);
      const writes = lines.filter((l) => JSON.parse(l).dir === "write").length;
      assert.equal(tape.entries.filter((e) => e.dir === "sdk->cli").length, writes);
      const first = tape.entries[0];
      assert.ok(isFrameEntry(first) && first.dir === "sdk->cli");
      assert.equal((first.frame.request as { subtype: string }).subtype, "initialize");
    }
    assert.equal(tape.entries.length, lines.length, file.pathname);
    assert.ok(tape.entries.every((e) => e.t === 0 && isFrameEntry(e)));
    assert.equal(tape.complete, undefined);
    assert.equal(tape.header.version, 1);
    // written in this library's format, it reads back the same (line numbers aside)
    const back = parseTape(serializeTape(tape));
    assert.equal(back.complete, undefined);
    assert.deepEqual(
      back.entries.map(({ line: _, ...e }) => e),
      tape.entries.map(({ line: _, ...e }) => e),
    );
  }
});

Deno.test("parseTape: a cassette write holding several lines, a non-JSON one kept raw", () => {
  const tape = parseTape(
    '{"dir": "write", "data": "{\\"type\\": \\"user\\"}\\nnot json\\n"}\n\n{"dir": "read", "frame": {"type": "result"}}\n',
  );
  assert.deepEqual(tape.entries, [
    { t: 0, dir: "sdk->cli", frame: { type: "user" }, line: 1 },
    { t: 0, dir: "sdk->cli", raw: "not json", line: 1 },
    { t: 0, dir: "cli->sdk", frame: { type: "result" }, line: 3 },
  ]);
});

const SNAPSHOT = {
  version: 1,
  recorded_at: "2026-01-02T03:04:05Z",
  sdk_version: "0.9.0",
  cli_version: "2.1.0",
  options: { model: "sonnet", max_turns: 2 },
  messages: [
    { offset_ms: 0, direction: "Sent", content: { type: "user", message: { content: "hi" } } },
    { offset_ms: 12, direction: "Received", content: '{"type":"result","subtype":"success"}' },
    { offset_ms: 13, direction: "Received", content: "garbage" },
  ],
};

Deno.test("parseTape: the Rust SDK snapshot document, compact or pretty-printed", () => {
  const expected: Tape = {
    header: {
      version: 1,
      converted_from: "rust-sdk-snapshot",
      recorded_at: "2026-01-02T03:04:05Z",
      sdk_version: "0.9.0",
      cli_version: "2.1.0",
      options: { model: "sonnet", max_turns: 2 },
      snapshot_version: 1,
    },
    entries: [
      { t: 0, dir: "sdk->cli", frame: { type: "user", message: { content: "hi" } }, line: 0 },
      { t: 12, dir: "cli->sdk", frame: { type: "result", subtype: "success" }, line: 0 },
      { t: 13, dir: "cli->sdk", raw: "garbage", line: 0 },
    ],
  };
  assert.deepEqual(parseTape(JSON.stringify(SNAPSHOT)), expected);
  assert.deepEqual(parseTape(JSON.stringify(SNAPSHOT, null, 2) + "\n"), expected);
  const back = parseTape(serializeTape(expected));
  assert.deepEqual(back.header.options, SNAPSHOT.options, "options stay in the header");
  assert.equal(back.entries[1].t, 12);
});

Deno.test("parseTape: bad snapshots say which message", () => {
  const bad = (messages: unknown[]) => () => parseTape(JSON.stringify({ version: 1, messages }));
  throwsWith(
    bad([{ offset_ms: 1, direction: "Up", content: {} }]),
    RangeError,
    /messages\[0\] has an unknown direction "Up"/,
  );
  throwsWith(
    bad([{ direction: "Sent", content: {} }]),
    SyntaxError,
    /messages\[0\] has no offset_ms/,
  );
  throwsWith(
    bad([{ offset_ms: 0, direction: "Sent", content: {} }, {
      offset_ms: 0,
      direction: "Sent",
      content: 7,
    }]),
    SyntaxError,
    /messages\[1\] has a content/,
  );
  throwsWith(
    () => parseTape('{\n  "version": 1,\n  "messages": [\n'),
    SyntaxError,
    /line 1 is not JSON/,
  );
  throwsWith(
    () => parseTape(`${JSON.stringify({ messages: [] })}\n{"t":0}`),
    SyntaxError,
    /line 2 comes after the snapshot/,
  );
});

Deno.test("parseTape: errors name the line and the source", () => {
  const src = { source: "hello.jsonl" };
  const cases: [string, ErrorConstructor, RegExp][] = [
    [
      `${HEADER}\n{"t":0,"dir":"cli->sdk","frame":{"type":"x"}}\nnot json`,
      SyntaxError,
      /^Cannot load tape: line 3 is not JSON .* \(in hello\.jsonl\)$/,
    ],
    [`${HEADER}\n{"t":0,"dir":"up","frame":{}}`, RangeError, /line 2 has an unknown dir "up"/],
    [`${HEADER}\n{"dir":"cli->sdk","frame":{}}`, SyntaxError, /line 2 has no time \(t\)/],
    [
      `${HEADER}\n{"t":-1,"dir":"cli->sdk","frame":{}}`,
      RangeError,
      /line 2 has a time out of range/,
    ],
    [`${HEADER}\n{"t":1,"frame":{}}`, SyntaxError, /line 2 has no dir/],
    [`${HEADER}\n{"t":1,"dir":"cli->sdk"}`, SyntaxError, /line 2 has neither a frame nor a raw/],
    [
      `${HEADER}\n{"t":1,"dir":"cli->sdk","frame":[1]}`,
      SyntaxError,
      /line 2 has a frame that is not a JSON object/,
    ],
    [`${HEADER}\n{"t":1,"dir":"stderr"}`, SyntaxError, /line 2 is a stderr entry without a text/],
    [`${HEADER}\n[1]`, SyntaxError, /line 2 is not a JSON object/],
    [
      '{"format":"claude-mock-tape","version":2}',
      RangeError,
      /line 1 is a header of version 2, newer than this library reads \(1\)/,
    ],
    ['{"format":"other","version":1}', SyntaxError, /unknown format "other"/],
    ['{"format":"claude-mock-tape"}', SyntaxError, /line 1 is a header without a valid version/],
    [
      '{"t":0,"dir":"cli->sdk","frame":{"type":"x"}}',
      SyntaxError,
      /line 1 is an entry, but a tape starts with a header/,
    ],
    ["", SyntaxError, /^Cannot load tape: it is empty \(in hello\.jsonl\)$/],
    ["\n\n", SyntaxError, /it is empty/],
    ["[1,2]", SyntaxError, /line 1 is not a JSON object/],
    ['{"hello":1}', SyntaxError, /line 1 is not a tape header, a cassette entry, a frame/],
    [
      `${HEADER}\n{"t":0,"dir":"cli->sdk","frame":{}}\n\n{"t":0,"dir":"cli->sdk","frame":{}}`,
      SyntaxError,
      /line 3 is blank, in the middle/,
    ],
    [
      `${HEADER}\n{"t":1,"end":{"code":0,"signal":null}}\n{"t":2,"dir":"cli->sdk","raw":"x"}`,
      SyntaxError,
      /line 3 comes after the end line \(line 2\)/,
    ],
    [
      `${HEADER}\n{"t":1,"end":{"code":"0","signal":null}}`,
      SyntaxError,
      /line 2 has an end without an integer or null code/,
    ],
    [
      '{"dir":"read","frame":{"type":"x"}}\n{"dir":"sideways"}',
      RangeError,
      /line 2 has an unknown dir "sideways" \(expected "read" or "write"\)/,
    ],
    ['{"dir":"write","data":{}}', SyntaxError, /line 1 is a write entry without a data string/],
    ['{"dir":"read"}', SyntaxError, /line 1 is a read entry without a frame/],
    ['{"type":"assistant"}\n{"dir":"read","frame":{}}', SyntaxError, /line 2 is not a frame/],
  ];
  for (const [text, Class, message] of cases) {
    throwsWith(() => parseTape(text, src), Class, message);
  }
});

Deno.test("parseTape: a BOM, CRLF line ends and trailing blank lines are fine", () => {
  const tape = parseTape(
    `\uFEFF${HEADER}\r\n{"t":0,"dir":"cli->sdk","frame":{"type":"x"}}\r\n\r\n\n`,
  );
  assert.equal(tape.entries.length, 1);
  assert.equal(tape.header.format, "claude-mock-tape");
});

Deno.test("TapeLineParser: reads line by line, refuses lines after finish", () => {
  const parser = new TapeLineParser();
  assert.deepEqual(parser.push(HEADER), []);
  assert.equal(parser.push('{"t":1,"dir":"cli->sdk","raw":"x"}').length, 1);
  const end = parser.finish();
  assert.equal(end.complete, false);
  assert.throws(() => parser.push("{}"), TypeError);
});
