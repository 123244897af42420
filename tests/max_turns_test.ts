// --max-turns as the real CLI reads it (tests/fixtures/real/max_turns/FINDINGS.md): 0 is no
// limit, negative and fractional numbers are limits, the first call always runs, and
// error_max_turns counts num_turns as the calls made + 1. The mock refused 0, -1 and 2.5
// ("expected a positive integer") and reported num_turns 3 for two parallel tool results.
import assert from "node:assert/strict";
import { runFake } from "./_fake_cli.ts";
import { parseCliFlags } from "../src/session/cli_args.ts";

const RECORDED = JSON.parse(
  await Deno.readTextFile(new URL("./fixtures/real/max_turns/multi_tool.json", import.meta.url)),
);

const fake = (argv: string[], dir: string) => runFake(argv, dir);

Deno.test("--max-turns 1, 0, -1 and 2.5 end as the real CLI's runs did", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (
      const [value, real] of Object.entries(RECORDED.runs) as [string, Record<string, unknown>][]
    ) {
      const r = await fake([
        "--scenario",
        "builtin:multi_tool",
        "-p",
        RECORDED.prompt,
        "--max-turns",
        value,
        "--output-format",
        "json",
        "--allowedTools",
        "Read",
        "Glob",
        "Grep",
        "Bash",
      ], dir);
      const d = JSON.parse(r.stdout);
      assert.deepEqual(
        {
          exit_code: r.code,
          subtype: d.subtype,
          num_turns: d.num_turns,
          is_error: d.is_error,
          errors: d.errors ?? null,
          stop_reason: d.stop_reason,
        },
        real,
        `--max-turns ${value}`,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--max-turns: what is not a number is refused, naming it; 0 is no limit", () => {
  assert.equal(parseCliFlags(["--max-turns", "0"]).maxTurns, undefined);
  assert.equal(parseCliFlags(["--max-turns=-1"]).maxTurns, -1);
  assert.equal(parseCliFlags(["--max-turns", "1e1"]).maxTurns, 10);
  assert.throws(
    () => parseCliFlags(["--max-turns", "many"]),
    /^RangeError: Invalid --max-turns: expected a number, got 'many'$/,
  );
  assert.throws(() => parseCliFlags(["--max-turns", " "]), RangeError);
});
