// The drift subcommand with stand-in type checkers (tests/cassette_drift_slow_test.ts runs the real one).
import assert from "node:assert/strict";
import type { TypeChecker } from "../cassette/drift.ts";
import { driftCommand } from "./drift_command.ts";
import type { CliIO } from "./cli_io.ts";

interface Run {
  code: number;
  out: string;
  err: string;
}

async function drift(argv: string[], cwd: string, typeCheck?: TypeChecker): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (into: string[]) =>
    new WritableStream<Uint8Array>({ write: (c) => void into.push(new TextDecoder().decode(c)) });
  const io: CliIO = {
    argv: ["drift", ...argv],
    env: {},
    cwd,
    stdin: new Blob([]).stream(),
    stdinIsTerminal: true,
    stdoutIsTerminal: false,
    stdout: sink(out),
    stderr: sink(err),
  };
  const code = await driftCommand(argv, io, typeCheck ? { typeCheck } : {});
  return { code, out: out.join(""), err: err.join("") };
}

const TAPE = [
  '{"version":1,"cli_version":"2.1.328","sdk_version":"0.3.328"}',
  '{"t":1,"dir":"cli->sdk","frame":{"type":"system","subtype":"init","extra":true}}',
  '{"t":2,"dir":"cli->sdk","frame":{"type":"result","subtype":"success"}}',
  "",
].join("\n");

/** A checker that flags the field name `"extra"` in the field-name checks. */
const flagsExtra: TypeChecker = (source) => {
  const lines = source.split("\n");
  const start = lines.findIndex((l) => /^const k\d+_0:/.test(l));
  const at = lines.findIndex((l, i) => i > start && l === '  "extra",');
  return Promise.resolve(
    at < 0 || start < 0 ? [] : [{
      line: at + 1,
      column: 3,
      code: 2322,
      message: "Type '\"extra\"' is not assignable to type 'keyof SDKSystemMessage'.",
    }],
  );
};

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "drift-command-test-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("drift command: the command line (help, usage errors: exit 2)", async () => {
  await withDir(async (dir) => {
    const help = await drift(["--help"], dir);
    assert.equal(help.code, 0);
    assert.match(help.out, /^Usage: claude-mock drift \[options\] <tape or folder>\.\.\./);
    for (
      const [argv, message] of [
        [[], "missing the tapes or folders to check"],
        [["--frobnicate", "x"], "unknown option --frobnicate"],
        [["x", "--baseline"], "--baseline needs a value"],
        [["x", "--sdk=a", "--sdk=b"], "--sdk is given twice"],
        [["x", "--update-baseline"], "--update-baseline needs --baseline <file>"],
        [["nowhere"], "nowhere is neither a tape file nor a folder"],
      ] as const
    ) {
      const run = await drift([...argv], dir);
      assert.equal(run.code, 2, argv.join(" "));
      assert.ok(run.err.startsWith(`claude-mock drift: ${message}\n\nUsage:`), run.err);
    }
  });
});

Deno.test("drift command: no tapes found is exit 2 with a clear message", async () => {
  await withDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/a.messages.jsonl`, "{}\n");
    const run = await drift(["."], dir, flagsExtra);
    assert.deepEqual(run, {
      code: 2,
      out: "",
      err:
        "claude-mock drift: no tapes found in . (a folder's tapes are its *.jsonl files, not *.messages.jsonl)\n",
    });
  });
});

Deno.test("drift command: findings per tape (exit 1), then known in a baseline (exit 0)", async () => {
  await withDir(async (dir) => {
    await Deno.mkdir(`${dir}/tapes`);
    await Deno.writeTextFile(`${dir}/tapes/b.jsonl`, TAPE);
    await Deno.writeTextFile(`${dir}/tapes/a.jsonl`, TAPE);
    await Deno.writeTextFile(`${dir}/tapes/a.messages.jsonl`, "{}\n");
    await Deno.writeTextFile(`${dir}/broken.jsonl`, '{"version":1}\nnot a tape line\n');
    const first = await drift(["tapes", "broken.jsonl"], dir, flagsExtra);
    assert.equal(first.code, 1);
    const lines = first.out.trimEnd().split("\n");
    assert.deepEqual(lines.slice(0, 2), [
      'tapes/a.jsonl:2  system/init  unmodeled-field at extra: The SDK\'s SDKSystemMessage has no field "extra"',
      'tapes/b.jsonl:2  system/init  unmodeled-field at extra: The SDK\'s SDKSystemMessage has no field "extra"',
    ]);
    assert.match(lines[2], /^broken\.jsonl:2 {2}tape {2}parse-error: Cannot load tape: /);
    assert.equal(lines[3], "drift: 3 findings in 3 of 3 tapes");

    const written = await drift(
      ["tapes", "--baseline", "known.json", "--update-baseline"],
      dir,
      flagsExtra,
    );
    assert.deepEqual(written, {
      code: 0,
      out: "drift: wrote 1 known findings to known.json\n",
      err: "",
    });
    const baseline = JSON.parse(await Deno.readTextFile(`${dir}/known.json`));
    assert.deepEqual(baseline.findings, [{
      kind: "system/init",
      code: "unmodeled-field",
      path: "extra",
      message: 'The SDK\'s SDKSystemMessage has no field "extra"',
    }]);
    baseline.findings[0].note = "the CLI's own field";
    await Deno.writeTextFile(`${dir}/known.json`, JSON.stringify(baseline));

    const known = await drift(["tapes", "--baseline=known.json"], dir, flagsExtra);
    assert.deepEqual(known, {
      code: 0,
      out: "drift: no drift in 2 tapes (2 known in known.json)\n",
      err: "",
    });
    const verbose = await drift(["tapes", "--baseline=known.json", "-v"], dir, flagsExtra);
    assert.equal(verbose.code, 0);
    assert.match(verbose.out, /^\(known\) tapes\/a\.jsonl:2 {2}system\/init/);

    const clean = await drift(
      ["tapes", "--baseline", "known.json"],
      dir,
      () => Promise.resolve([]),
    );
    assert.deepEqual(
      clean.out,
      "drift: no drift in 2 tapes; 1 baseline entry is no longer found\n",
    );
    await drift(["tapes", "--baseline", "known.json", "--update-baseline"], dir, flagsExtra);
    const rewritten = JSON.parse(await Deno.readTextFile(`${dir}/known.json`));
    assert.equal(rewritten.findings[0].note, "the CLI's own field", "notes are kept");
  });
});

Deno.test("drift command: a bad baseline or a checker that cannot run is exit 2", async () => {
  await withDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/a.jsonl`, TAPE);
    await Deno.writeTextFile(`${dir}/bad.json`, "{not json");
    await Deno.writeTextFile(`${dir}/wrong.json`, '{"findings":[{"kind":1}]}');
    const cases: Array<[string[], RegExp]> = [
      [
        ["--baseline", "missing.json"],
        /^claude-mock drift: Cannot read baseline .*missing\.json: /,
      ],
      [
        ["--baseline", "bad.json"],
        /^claude-mock drift: Cannot read baseline .*bad\.json: not JSON/,
      ],
      [
        ["--baseline", "wrong.json"],
        /^claude-mock drift: Cannot read baseline .*wrong\.json: findings\[0\]\.kind is not a string\n$/,
      ],
    ];
    for (const [argv, err] of cases) {
      const run = await drift(["a.jsonl", ...argv], dir, flagsExtra);
      assert.equal(run.code, 2);
      assert.match(run.err, err);
    }
    const failing = await drift(
      ["a.jsonl"],
      dir,
      () => Promise.reject(new Error("Cannot check drift: no deno")),
    );
    assert.deepEqual(failing, {
      code: 2,
      out: "",
      err: "claude-mock drift: Cannot check drift: no deno\n",
    });
  });
});
