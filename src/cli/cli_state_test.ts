import assert from "node:assert/strict";
import { configDir, mockStateHome, nextInvocation, stateDir } from "./cli_state.ts";

Deno.test("configDir: CLAUDE_CONFIG_DIR, else the fake's own state folder: never ~/.claude, never the cwd", () => {
  assert.equal(configDir({ CLAUDE_CONFIG_DIR: "/c", HOME: "/h" }), "/c");
  assert.equal(configDir({ HOME: "/home/u" }), "/home/u/.local/state/claude-mock");
  assert.equal(
    configDir({ HOME: "/home/u/", XDG_STATE_HOME: "/x/state/" }),
    "/x/state/claude-mock",
  );
  assert.equal(
    configDir({ HOME: "/home/u", XDG_STATE_HOME: "rel" }),
    "/home/u/.local/state/claude-mock",
  );
  assert.equal(configDir({ HOME: "/home/u", CLAUDE_MOCK_STATE_DIR: "/s" }), "/s");
  assert.equal(
    configDir({ LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" }),
    "C:\\Users\\u\\AppData\\Local/claude-mock",
  );
  assert.equal(configDir({ TMPDIR: "/var/tmp/" }), "/var/tmp/claude-mock-state");
  assert.equal(configDir({}), "/tmp/claude-mock-state");
  assert.equal(mockStateHome({ HOME: "/home/u" }), "/home/u/.local/state/claude-mock");
});

Deno.test("stateDir: CLAUDE_MOCK_STATE_DIR, else inside CLAUDE_CONFIG_DIR, else the fake's own folder", () => {
  assert.equal(stateDir({ CLAUDE_MOCK_STATE_DIR: "/s", CLAUDE_CONFIG_DIR: "/c" }), "/s");
  assert.equal(stateDir({ CLAUDE_CONFIG_DIR: "/c", HOME: "/h" }), "/c/claude-mock");
  assert.equal(stateDir({ HOME: "/h" }), "/h/.local/state/claude-mock");
  assert.equal(stateDir({}), "/tmp/claude-mock-state");
});

Deno.test("nextInvocation: 1, 2, 3 … in a fresh folder, after many runs, and when runs overlap", async () => {
  const dir = await Deno.makeTempDir();
  try {
    assert.deepEqual([await nextInvocation(dir), await nextInvocation(dir)], [1, 2]);
    // one 16-byte record per run, and nothing else in the folder
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["invocations.log"]);
    const log = Deno.readTextFileSync(`${dir}/invocations.log`);
    assert.match(log, /^([0-9a-f]{15}\n){2}$/);
    // 1000 earlier runs: the next is 1003, one write however many came before
    Deno.writeTextFileSync(`${dir}/invocations.log`, `${"0".repeat(15)}\n`.repeat(1000), {
      append: true,
    });
    assert.equal(await nextInvocation(dir), 1003);
    // runs that overlap (other processes: in-process the writes are synchronous) each get a
    // number of their own
    const script = `import { nextInvocation } from "${
      new URL("./cli_state.ts", import.meta.url).href
    }"; console.log(await nextInvocation(Deno.args[0]));`;
    const runs = await Promise.all(
      Array.from({ length: 12 }, () =>
        new Deno.Command(Deno.execPath(), {
          args: ["eval", "--no-config", script, dir],
          stdout: "piped",
        }).output()),
    );
    const claimed = runs.map((r) => Number(new TextDecoder().decode(r.stdout)));
    assert.deepEqual(
      claimed.toSorted((a, b) => a - b),
      Array.from({ length: 12 }, (_, i) => 1004 + i),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("nextInvocation: a missing state folder is made", async () => {
  const dir = await Deno.makeTempDir();
  try {
    assert.equal(await nextInvocation(`${dir}/a/b`), 1);
    assert.equal(await nextInvocation(`${dir}/a/b`), 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
