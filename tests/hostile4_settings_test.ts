// --settings JSON that is no object ([1], 5, null) is a file path to the real CLI 2.1.332 (run
// on 2026-11-26): `Error: Settings file not found: <cwd>/[1]`, exit 1; the mock ran on with it.
import assert from "node:assert/strict";
import { runFake } from "./_fake_cli.ts";

Deno.test("--settings that is JSON but no object is a path: the real CLI's 'Settings file not found'", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const value of ["[1]", "5", "null"]) {
      const run = await runFake(["-p", "hi", "--settings", value], dir);
      assert.equal(run.code, 1, value);
      assert.equal(run.stdout, "");
      assert.equal(run.stderr, `Error: Settings file not found: ${dir}/${value}\n`);
    }
    const ok = await runFake(["-p", "hi", "--settings", "{}"], dir);
    assert.equal(ok.code, 0, ok.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
