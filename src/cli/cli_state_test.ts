import assert from "node:assert/strict";
import { configDir, nextInvocation, stateDir } from "./cli_state.ts";

Deno.test("configDir: CLAUDE_CONFIG_DIR, else ~/.claude, else the temp folder, never the cwd", () => {
  assert.equal(configDir({ CLAUDE_CONFIG_DIR: "/c", HOME: "/h" }), "/c");
  assert.equal(configDir({ HOME: "/home/u" }), "/home/u/.claude");
  assert.equal(configDir({ TMPDIR: "/var/tmp/" }), "/var/tmp/claude-mock-home/.claude");
  assert.equal(configDir({}), "/tmp/claude-mock-home/.claude");
  assert.equal(stateDir({}), "/tmp/claude-mock-home/.claude/claude-mock");
  assert.equal(stateDir({ CLAUDE_MOCK_STATE_DIR: "/s" }), "/s");
});

Deno.test("nextInvocation: 1, 2, 3 … in a fresh folder, after many runs, and when runs overlap", async () => {
  const dir = await Deno.makeTempDir();
  try {
    assert.deepEqual([await nextInvocation(dir), await nextInvocation(dir)], [1, 2]);
    // 1000 earlier runs: the next is 1003, found without listing the folder
    for (let n = 3; n <= 1002; n++) Deno.writeTextFileSync(`${dir}/invocations/${n}`, "");
    assert.equal(await nextInvocation(dir), 1003);
    // runs that overlap each get a number of their own
    const claimed = await Promise.all(Array.from({ length: 20 }, () => nextInvocation(dir)));
    assert.deepEqual(
      claimed.toSorted((a, b) => a - b),
      Array.from({ length: 20 }, (_, i) => 1004 + i),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
