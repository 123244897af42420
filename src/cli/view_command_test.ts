import assert from "node:assert/strict";
import { runCli } from "./run_cli.ts";
import { viewCommand } from "./view_command.ts";

const REAL = decodeURIComponent(new URL("../../tests/fixtures/real/", import.meta.url).pathname);

/** Runs `claude-mock <argv>` in `cwd`; what it printed and its exit code. */
async function run(argv: string[], cwd: string) {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (into: string[]) =>
    new WritableStream<Uint8Array>({ write: (c) => void into.push(new TextDecoder().decode(c)) });
  const code = await runCli({
    argv,
    env: {},
    cwd,
    stdin: new Blob([]).stream(),
    stdinIsTerminal: true,
    stdoutIsTerminal: false,
    stdout: sink(out),
    stderr: sink(err),
  });
  return { code, out: out.join(""), err: err.join("") };
}

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "view_command_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("view: writes the page beside the tape and prints its path", async () => {
  await withDir(async (dir) => {
    await Deno.copyFile(`${REAL}api_error.jsonl`, `${dir}/api_error.jsonl`);
    const r = await run(["view", "api_error.jsonl"], dir);
    assert.deepEqual(r, { code: 0, out: `${dir}/api_error.html\n`, err: "" });
    const html = await Deno.readTextFile(`${dir}/api_error.html`);
    assert.match(html, /^<!doctype html>/);
    assert.match(html, /<title>api_error<\/title>/);
    assert.match(html, /id="line-8"/);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
      "api_error.html",
      "api_error.jsonl",
    ]);
  });
});

Deno.test("view: --out, --title and --compare; an existing page is replaced", async () => {
  await withDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/page.html`, "old");
    const r = await run([
      "view",
      `${REAL}cp_interrupt_partial.jsonl`,
      "--compare",
      `${REAL}partial_messages.jsonl`,
      "--out=page.html",
      "--title",
      "interrupt vs partial",
    ], dir);
    assert.deepEqual(r, { code: 0, out: `${dir}/page.html\n`, err: "" });
    const html = await Deno.readTextFile(`${dir}/page.html`);
    assert.match(html, /<title>interrupt vs partial<\/title>/);
    assert.match(html, /<body class="view-diff">/);
    assert.match(html, /class="drow diff"/);
    const url = new URL(`file://${REAL}hello.jsonl`).href;
    const byUrl = await run(["view", url, "-o", `${dir}/hello page.html`], dir);
    assert.deepEqual(byUrl, { code: 0, out: `${dir}/hello page.html\n`, err: "" });
  });
});

Deno.test("view: a missing tape is named, exit 1; nothing is written", async () => {
  await withDir(async (dir) => {
    const r = await run(["view", "nope.jsonl"], dir);
    assert.equal(r.code, 1);
    assert.equal(r.out, "");
    assert.match(
      r.err,
      new RegExp(`^claude-mock view: Cannot load tape: cannot read ${dir}/nope\\.jsonl`),
    );
    await Deno.copyFile(`${REAL}hello.jsonl`, `${dir}/hello.jsonl`);
    const c = await run(["view", "hello.jsonl", "--compare", "other.jsonl"], dir);
    assert.equal(c.code, 1);
    assert.match(c.err, /cannot read .*\/other\.jsonl/);
    const w = await run(["view", "hello.jsonl", "--out", `${dir}/no/such/dir/x.html`], dir);
    assert.equal(w.code, 1);
    assert.match(w.err, new RegExp(`Cannot write timeline to ${dir}/no/such/dir/x\\.html: `));
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["hello.jsonl"]);
  });
});

Deno.test("view: a tape that is not a tape is refused, exit 1", async () => {
  await withDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/bad.jsonl`, '{"version":1}\nnot json at all\n');
    const r = await run(["view", "bad.jsonl"], dir);
    assert.equal(r.code, 1);
    assert.match(r.err, /^claude-mock view: .*bad\.jsonl/);
  });
});

Deno.test("view: usage errors exit 2 with the usage; --help exits 0", async () => {
  await withDir(async (dir) => {
    for (
      const [argv, why] of [
        [["view"], "missing the tape to show"],
        [["view", "a.jsonl", "b.jsonl"], "one tape at a time (got 2: a.jsonl, b.jsonl)"],
        [["view", "a.jsonl", "--bogus"], "unknown option --bogus"],
        [["view", "a.jsonl", "--out"], "--out needs a value"],
        [["view", "a.jsonl", "--compare="], "--compare needs a value"],
        [["view", "a.jsonl", "-o", "x", "--out", "y"], "--out is given twice"],
      ] as const
    ) {
      const r = await run([...argv], dir);
      assert.equal(r.code, 2, argv.join(" "));
      assert.equal(r.out, "");
      assert.ok(
        r.err.startsWith(`claude-mock view: ${why}\n\nUsage: claude-mock view <tape>`),
        r.err,
      );
    }
    const help = await run(["view", "--help"], dir);
    assert.equal(help.code, 0);
    assert.match(help.out, /^Usage: claude-mock view <tape>/);
  });
});

Deno.test("viewCommand: a tape path without .jsonl gets .html appended", async () => {
  await withDir(async (dir) => {
    await Deno.copyFile(`${REAL}hello.jsonl`, `${dir}/hello.tape.txt`);
    const out: string[] = [];
    const code = await viewCommand(["./hello.tape.txt"], {
      argv: [],
      env: {},
      cwd: `${dir}/`,
      stdin: new Blob([]).stream(),
      stdinIsTerminal: true,
      stdoutIsTerminal: false,
      stdout: new WritableStream({ write: (c) => void out.push(new TextDecoder().decode(c)) }),
      stderr: new WritableStream(),
    });
    assert.equal(code, 0);
    assert.equal(out.join(""), `${dir}/hello.tape.txt.html\n`);
    assert.match(await Deno.readTextFile(`${dir}/hello.tape.txt.html`), /<title>hello<\/title>/);
  });
});
