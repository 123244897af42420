// The bundle against the sources, case by case, each run twice as a subprocess: slow, so in
// the slow tier (deno task test:slow); build_bin_test.ts checks that dist/ is the bundle.
import assert from "node:assert/strict";
import { runBin as run } from "./_run_bin.ts";

const DIST = new URL("../dist/", import.meta.url).pathname;
const ROOT = new URL("..", import.meta.url).pathname;

Deno.test("dist/bin.js and cli.ts are the same program", async (t) => {
  const cases = [
    ["-p", "hello", "--output-format", "json"],
    ["-p", "hello", "--output-format", "stream-json", "--verbose", "--include-partial-messages"],
    ["-p", "hi", "--failure", "rate_limit", "--output-format", "stream-json", "--verbose"],
    ["-p", "hi", "--output-format", "yaml"],
    ["--version"],
    ["--help"],
    ["drift"],
    ["view"],
    ["record"],
  ];
  for (const args of cases) {
    await t.step(args.join(" "), async () => {
      const dir = await Deno.makeTempDir({ prefix: "claude-mock-bin-" });
      try {
        const bundled = await run(`${DIST}bin.js`, args, `${dir}/a`);
        const source = await run(`${ROOT}cli.ts`, args, `${dir}/b`);
        assert.deepEqual(bundled, source, "dist/bin.js and cli.ts differ");
        assert.notEqual(bundled.stdout + bundled.stderr, "", "no output at all");
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });
  }
});
