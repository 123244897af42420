import assert from "node:assert/strict";
import { loadTape } from "./load_tape.ts";
import { scrubTape } from "./scrub_tape.ts";
import type { Tape, TapeEntry } from "./tape.ts";

const frame = (f: Record<string, unknown>, line = 2): TapeEntry => ({
  t: 0,
  dir: "cli->sdk",
  line,
  frame: { type: "user", ...f },
});
const tapeOf = (...entries: TapeEntry[]): Tape => ({ header: { version: 1 }, entries });
const only = (tape: Tape) => (tape.entries[0] as { frame: Record<string, unknown> }).frame;

Deno.test("scrubTape: secrets in frame strings, keys kept", () => {
  const tape = tapeOf(frame({
    text: "key sk-ant-api03-AbCdEf_123-xyz and oauth sk-ant-oat01-QwErTy_987654 here",
    headers: {
      authorization: "Bearer abc.def-ghi_jkl",
      "x-api-key": "hunter22",
      other: "Bearer x",
    },
    env: { ANTHROPIC_API_KEY: "plain-value", apiKeySource: "ANTHROPIC_API_KEY" },
    shell: "ANTHROPIC_AUTH_TOKEN='tok-123456' MY_SECRET=s3cr3t OTHER=fine curl",
    json: '{"apiKey": "abcd1234", "name": "x"}',
  }));
  const f = only(scrubTape(tape, { machine: false }));
  assert.equal(f.text, "key <API_KEY> and oauth <OAUTH_TOKEN> here");
  assert.deepEqual(f.headers, {
    authorization: "<TOKEN>",
    "x-api-key": "<API_KEY>",
    other: "Bearer x",
  });
  assert.deepEqual(f.env, { ANTHROPIC_API_KEY: "<API_KEY>", apiKeySource: "ANTHROPIC_API_KEY" });
  assert.equal(f.shell, "ANTHROPIC_AUTH_TOKEN='<TOKEN>' MY_SECRET=<SECRET> OTHER=fine curl");
  assert.equal(f.json, '{"apiKey": "<API_KEY>", "name": "x"}');
});

Deno.test("scrubTape: cwd, home, slug, temp dir, real paths, user, host, base URLs", () => {
  const tape = tapeOf(frame({
    a: "/var/folders/ab/T/proj/src/x.ts and /private/var/folders/ab/T/proj",
    b: "/Users/ada/.claude/projects/-var-folders-ab-T-proj/1.jsonl",
    c: "/var/folders/ab/T/projX stays, /var/folders/ab/T/proj.bak stays, /var/folders/ab/T/proj. ends",
    d: "/tmp/run-1/sock and /Users/bob/x and ada@laptop-7.local in LAPTOP-7 logs, laptop-78 not",
    e: "GET http://127.0.0.1:54321/v1/messages, http://localhost/x, https://api.anthropic.com/v1",
  }));
  const f = only(scrubTape(tape, {
    machine: false,
    cwd: "/var/folders/ab/T/proj/",
    home: "/Users/ada",
    tmpdir: "/tmp/run-1",
    user: ["ada", "bob"],
    hostname: "laptop-7.local",
  }));
  assert.equal(f.a, "<CWD>/src/x.ts and <CWD>");
  assert.equal(f.b, "<HOME>/.claude/projects/<CWD_SLUG>/1.jsonl");
  assert.equal(
    f.c,
    "/var/folders/ab/T/projX stays, /var/folders/ab/T/proj.bak stays, <CWD>. ends",
  );
  assert.equal(
    f.d,
    "<TMP>/sock and /Users/<USER>/x and <USER>@<HOST> in <HOST> logs, laptop-78 not",
  );
  assert.equal(f.e, "GET <BASE_URL>/v1/messages, <BASE_URL>/x, https://api.anthropic.com/v1");
});

Deno.test("scrubTape: what the tape names (init cwd, transcript paths) without options", () => {
  const tape = tapeOf(
    frame({ type: "system", subtype: "init", cwd: "/srv/app", original_cwd: "/srv/app" }, 2),
    frame({ transcript_path: "/home/eve/.claude/projects/-srv-app/s.jsonl", p: "/srv/app/a" }, 3),
  );
  const out = scrubTape(tape, { machine: false });
  assert.deepEqual(out.entries.map((e) => (e as { frame: unknown }).frame), [
    { type: "system", subtype: "init", cwd: "<CWD>", original_cwd: "<CWD>" },
    { type: "user", transcript_path: "<HOME>/.claude/projects/<CWD_SLUG>/s.jsonl", p: "<CWD>/a" },
  ]);
  const kept = scrubTape(tape, { machine: false, infer: false });
  assert.deepEqual(kept.entries, tape.entries);
});

Deno.test("scrubTape: raw lines, stderr, the header; lines, times, ending and source kept", () => {
  const tape: Tape = {
    header: { version: 1, args: ["--settings", "/w/p/s.json"], cwd: "/w/p", nested: { k: "/w/p" } },
    entries: [
      {
        t: 3,
        dir: "cli->sdk",
        line: 2,
        raw: 'oops {"path":"/w/p/x", "key":"sk-ant-api03-zzzzzzzzzz"',
      },
      { t: 4, dir: "stderr", line: 3, text: "warning in /w/p/y\nsk-ant-api03-zzzzzzzzzz\n" },
    ],
    ending: { t: 9, code: 1, signal: null },
    complete: true,
    source: "/w/p/t.jsonl",
  };
  const out = scrubTape(tape, { machine: false });
  assert.deepEqual(out, {
    header: {
      version: 1,
      args: ["--settings", "<CWD>/s.json"],
      cwd: "<CWD>",
      nested: { k: "<CWD>" },
    },
    entries: [
      { t: 3, dir: "cli->sdk", line: 2, raw: 'oops {"path":"<CWD>/x", "key":"<API_KEY>"' },
      { t: 4, dir: "stderr", line: 3, text: "warning in <CWD>/y\n<API_KEY>\n" },
    ],
    ending: { t: 9, code: 1, signal: null },
    complete: true,
    source: "/w/p/t.jsonl",
  });
  assert.equal(tape.header.cwd, "/w/p", "the input is not changed");
});

Deno.test("scrubTape: strings with quotes and newlines stay valid JSON", () => {
  const tape = tapeOf(frame({ text: 'say "hi" in /q/r\n\t"sk-ant-api03-abcdefghij"\\' }));
  const out = scrubTape(tape, { machine: false, cwd: "/q/r" });
  const f = JSON.parse(JSON.stringify(only(out)));
  assert.equal(f.text, 'say "hi" in <CWD>\n\t"<API_KEY>"\\');
  const odd = tapeOf(frame(JSON.parse('{"__proto__":{"p":"/q/r/x"},"constructor":"/q/r"}')));
  assert.equal(
    JSON.stringify(only(scrubTape(odd, { machine: false, cwd: "/q/r" }))),
    '{"type":"user","__proto__":{"p":"<CWD>/x"},"constructor":"<CWD>"}',
  );
});

Deno.test("scrubTape: replacements (strings, RegExps with or without g, $1) and beforePersist", () => {
  const tape = tapeOf(frame({ text: "acme-1 acme-2 Order 77 order 78" }));
  let seen: Tape | undefined;
  const out = scrubTape(tape, {
    machine: false,
    replacements: new Map<string | RegExp, string>([
      ["acme", "<ORG>"],
      [/order (\d)\d/i, "order $1X"],
    ]),
    beforePersist: (t) => {
      seen = t;
      return { ...t, header: { ...t.header, hooked: true } };
    },
  });
  assert.equal(only(out).text, "<ORG>-1 <ORG>-2 order 7X order 7X");
  assert.equal(out.header.hooked, true);
  assert.equal(only(seen!).text, "<ORG>-1 <ORG>-2 order 7X order 7X");
  assert.throws(
    () => scrubTape(tape, { replacements: [["", "x"]] }),
    { name: "TypeError", message: "Cannot scrub tape: a replacement's target is empty" },
  );
  assert.throws(
    () => scrubTape(tape, { replacements: [[42 as unknown as string, "x"]] }),
    { name: "TypeError", message: /must be a string or a RegExp, not number/ },
  );
});

Deno.test("scrubTape: the machine's cwd by default, not with machine: false", () => {
  const cwd = Deno.cwd();
  const tape = tapeOf(frame({ text: `${cwd}/file.txt` }));
  assert.equal(only(scrubTape(tape)).text, "<CWD>/file.txt");
  assert.equal(only(scrubTape(tape, { machine: false })).text, `${cwd}/file.txt`);
});

Deno.test("scrubTape: deterministic and idempotent on every real recording", async () => {
  const dir = new URL("../../tests/fixtures/real/", import.meta.url);
  let checked = 0;
  for await (const e of Deno.readDir(dir)) {
    if (!e.name.endsWith(".jsonl") || e.name.endsWith(".messages.jsonl")) continue;
    const tape = await loadTape(decodeURIComponent(new URL(e.name, dir).pathname));
    const once = scrubTape(tape, { machine: false });
    assert.deepEqual(scrubTape(tape, { machine: false }), once, e.name);
    assert.deepEqual(scrubTape(once, { machine: false }), once, e.name);
    const text = JSON.stringify(once.entries);
    assert.doesNotMatch(text, /\/home\/user|-home-user-project/, e.name);
    checked++;
  }
  assert.ok(checked > 40, `only ${checked} tapes`);
});
