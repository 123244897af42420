// The fake binary under faults, end to end and in bulk, in the slow tier (tests/cli_faults_test.ts
// runs each check once): the signal tests of print mode for the bundle, on Deno and on Node (the
// same code as `cli.ts`, seconds of paced real time each), and CLAUDE_MOCK_CRASH_AFTER with many
// runs of each way to run the binary at once, where output used to be lost at exit.
import assert from "node:assert/strict";
import { crashAfterMisses, signalTests } from "./_cli_faults.ts";

for (const entry of ["dist/bin.js", "node dist/bin.js"]) signalTests(entry);

Deno.test("CLAUDE_MOCK_CRASH_AFTER=n writes exactly n lines, every run, many at once", async () => {
  assert.deepEqual(await crashAfterMisses(12), []);
});
