import assert from "node:assert/strict";
import { configDir, stateDir } from "./cli_state.ts";

Deno.test("configDir: CLAUDE_CONFIG_DIR, else ~/.claude, else the temp folder, never the cwd", () => {
  assert.equal(configDir({ CLAUDE_CONFIG_DIR: "/c", HOME: "/h" }), "/c");
  assert.equal(configDir({ HOME: "/home/u" }), "/home/u/.claude");
  assert.equal(configDir({ TMPDIR: "/var/tmp/" }), "/var/tmp/claude-mock-home/.claude");
  assert.equal(configDir({}), "/tmp/claude-mock-home/.claude");
  assert.equal(stateDir({}), "/tmp/claude-mock-home/.claude/claude-mock");
  assert.equal(stateDir({ CLAUDE_MOCK_STATE_DIR: "/s" }), "/s");
});
