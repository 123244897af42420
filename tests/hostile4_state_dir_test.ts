// CLAUDE_MOCK_STATE_DIR that the binary cannot use (a file, /dev/null, a path under a file):
// the run stops before anything runs, with an error naming the variable, its value and what
// it accepts (it was reported as the config folder's settings.json, or not at all, and the
// run went on counting every run as the first).
import assert from "node:assert/strict";
import { runFake } from "./_fake_cli.ts";

Deno.test("CLAUDE_MOCK_STATE_DIR that is a file, /dev/null or under a file: exit 1 naming the variable, its value and what it accepts", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/file`, "x");
    for (const state of ["/dev/null", `${dir}/file`, `${dir}/file/below`]) {
      const run = await runFake(["-p", "hello"], dir, {
        env: { CLAUDE_MOCK_STATE_DIR: state, HOME: dir },
      });
      assert.equal(run.code, 1, run.stderr);
      assert.equal(run.stdout, "");
      const first = run.stderr.split("\n")[0];
      assert.match(
        first,
        new RegExp(
          `^claude-mock: CLAUDE_MOCK_STATE_DIR must be a folder path the binary can write to, got ${
            JSON.stringify(state).replace(/[/.]/g, "\\$&")
          }: .*(not a directory|Not a directory|exists)`,
        ),
        run.stderr,
      );
      assert.ok(!run.stderr.includes("settings.json"), run.stderr);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("CLAUDE_CONFIG_DIR set: a CLAUDE_MOCK_STATE_DIR that is a file is still named", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/file`, "x");
    const run = await runFake(["-p", "hello"], dir, {
      env: { CLAUDE_MOCK_STATE_DIR: `${dir}/file`, CLAUDE_CONFIG_DIR: `${dir}/config` },
    });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /^claude-mock: CLAUDE_MOCK_STATE_DIR must be a folder path/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a CLAUDE_MOCK_STATE_DIR not there yet is made, and runs are counted in it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const env = { CLAUDE_MOCK_STATE_DIR: `${dir}/a/b/state`, CLAUDE_CONFIG_DIR: `${dir}/config` };
    for (let i = 0; i < 2; i++) {
      const run = await runFake(["-p", "hello"], dir, { env });
      assert.equal(run.code, 0, run.stderr);
    }
    const log = await Deno.readTextFile(`${dir}/a/b/state/invocations.log`);
    assert.equal(log.split("\n").filter((l) => l !== "").length, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
