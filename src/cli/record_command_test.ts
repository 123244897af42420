import assert from "node:assert/strict";
import { runCli } from "./run_cli.ts";

async function run(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (into: string[]) =>
    new WritableStream<Uint8Array>({ write: (c) => void into.push(new TextDecoder().decode(c)) });
  const code = await runCli({
    argv: ["record", ...argv],
    env,
    cwd: "/",
    stdin: new Blob([]).stream(),
    stdinIsTerminal: false,
    stdoutIsTerminal: false,
    stdout: sink(out),
    stderr: sink(err),
  });
  return { code, stdout: out.join(""), stderr: err.join("") };
}

const USAGE =
  "Usage: claude-mock record --out <tape> [--name <scenario name>] [--scenario <file>] -- <claude args>\n";

Deno.test("record: usage errors exit 2 and name the flag", async () => {
  const cases: [string[], string][] = [
    [["--", "-p", "hi"], "claude-mock record: --out <tape> is required"],
    [["--out"], "claude-mock record: --out needs a value"],
    [["--out", "--name", "x"], "claude-mock record: --out needs a value"],
    [["--out="], "claude-mock record: --out needs a value"],
    [["--out", "t.jsonl", "--name"], "claude-mock record: --name needs a value"],
    [
      ["--out", "t.jsonl", "--bogus", "--", "-p"],
      "claude-mock record: unknown flag --bogus (claude's own flags go after --)",
    ],
    [
      ["--out", "t.jsonl", "-p", "hi"],
      "claude-mock record: unknown flag -p (claude's own flags go after --)",
    ],
    [
      ["--out", "t.jsonl", "hi"],
      'claude-mock record: unexpected argument "hi" (claude\'s arguments go after --)',
    ],
  ];
  for (const [argv, message] of cases) {
    assert.deepEqual(await run(argv), { code: 2, stdout: "", stderr: `${message}\n${USAGE}` });
  }
});

Deno.test("record: --help says what it runs", async () => {
  const { code, stdout, stderr } = await run(["--help"]);
  assert.equal(code, 0);
  assert.equal(stderr, "");
  assert.ok(stdout.startsWith(USAGE));
  assert.match(stdout, /\$CLAUDE_MOCK_REAL_CLAUDE, or claude on PATH/);
});

Deno.test("record --scenario: a scenario it cannot load or serve exits 1, naming why, before claude runs", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/crash.json`,
      JSON.stringify({ name: "c", exchanges: [{ on: "x", steps: [{ say: "a" }, { crash: {} }] }] }),
    );
    const env = { CLAUDE_MOCK_REAL_CLAUDE: `${dir}/never-run` };
    const missing = await run([
      "--out",
      `${dir}/t.jsonl`,
      "--scenario",
      `${dir}/nope.json`,
      "--",
      "-p",
      "x",
    ], env);
    assert.equal(missing.code, 1);
    assert.match(
      missing.stderr,
      /^claude-mock record: Cannot load scenario: cannot read .*nope\.json/,
    );
    const crash = await run([
      "--out",
      `${dir}/t.jsonl`,
      "--scenario",
      `${dir}/crash.json`,
      "--",
      "-p",
      "x",
    ], env);
    assert.equal(crash.code, 1);
    assert.match(
      crash.stderr,
      /Cannot serve scenario 'c': exchange 1 \(contains "x"\) steps\[1\] is a crash step/,
    );
    await assert.rejects(() => Deno.stat(`${dir}/t.jsonl`), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("record: a claude that cannot run exits 127 and leaves no tape", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { code, stderr } = await run(["--out=" + `${dir}/t.jsonl`, "--", "-p", "hi"], {
      CLAUDE_MOCK_REAL_CLAUDE: `${dir}/missing-claude`,
      PATH: "",
    });
    assert.equal(code, 127);
    assert.match(
      stderr,
      new RegExp(
        `^claude-mock record: cannot run ${dir}/missing-claude: .*CLAUDE_MOCK_REAL_CLAUDE`,
      ),
    );
    assert.deepEqual([...Deno.readDirSync(dir)], []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
