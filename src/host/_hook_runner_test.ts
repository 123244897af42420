import assert from "node:assert/strict";
import { hostHookRunner, runOnNode } from "./_hook_runner.ts";

const run = (
  dir: string,
  command: string,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
) =>
  hostHookRunner(dir).run({
    command,
    stdin: '{"hook_event_name":"PreToolUse","tool_name":"Bash"}',
    env: { CLAUDE_PROJECT_DIR: dir, HOOK_TEST_VAR: "set" },
    timeoutMs: options.timeoutMs ?? 60_000,
    ...(options.signal ? { signal: options.signal } : {}),
  });

Deno.test("hostHookRunner: runs sh -c in the project folder with the input on stdin and the variables given", async () => {
  const dir = await Deno.makeTempDir({ prefix: "claude-mock-hook-" });
  try {
    const out = await run(
      dir,
      'pwd; cat; echo; echo "$HOOK_TEST_VAR $CLAUDE_PROJECT_DIR"; echo err >&2; exit 2',
    );
    const real = await Deno.realPath(dir);
    assert.equal(out.code, 2);
    assert.equal(out.timedOut, false);
    assert.equal(
      out.stdout,
      `${real}\n{"hook_event_name":"PreToolUse","tool_name":"Bash"}\nset ${dir}\n`,
    );
    assert.equal(out.stderr, "err\n");
    // a hook that never reads its stdin (and ends first) is no error
    assert.equal((await run(dir, "exit 0")).code, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hostHookRunner: a hook past its timeout is killed with what it started, and says so", async () => {
  const dir = await Deno.makeTempDir({ prefix: "claude-mock-hook-" });
  try {
    // the background sleep holds stdout open: only killing the process group ends the run
    const out = await run(dir, "echo started; sleep 600 & sleep 600; echo late", {
      timeoutMs: 50,
    });
    assert.equal(out.timedOut, true);
    assert.equal(out.code, null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hostHookRunner: an abort (an interrupted turn) kills the hook", async () => {
  const dir = await Deno.makeTempDir({ prefix: "claude-mock-hook-" });
  try {
    const abort = new AbortController();
    const pending = run(dir, "echo started; exec sleep 600", { signal: abort.signal });
    abort.abort();
    const out = await pending;
    assert.equal(out.code, null);
    assert.equal(out.timedOut, false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hostHookRunner: reads the project's settings files, undefined when there are none", async () => {
  const dir = await Deno.makeTempDir({ prefix: "claude-mock-hook-" });
  try {
    const runner = hostHookRunner(dir);
    assert.equal(await runner.readText?.(".claude/settings.json"), undefined);
    await Deno.mkdir(`${dir}/.claude`);
    await Deno.writeTextFile(`${dir}/.claude/settings.json`, '{"hooks":{}}');
    assert.equal(await runner.readText?.(".claude/settings.json"), '{"hooks":{}}');
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hostHookRunner on Node (node:child_process): stdin, variables, exit code, and a timeout that kills the group", async () => {
  const dir = await Deno.makeTempDir({ prefix: "claude-mock-hook-" });
  try {
    const ran = await runOnNode(dir, {
      command: 'cat; echo "$HOOK_TEST_VAR" >&2; exit 2',
      stdin: '{"a":1}',
      env: { HOOK_TEST_VAR: "set" },
      timeoutMs: 60_000,
    });
    assert.deepEqual(ran, { code: 2, stdout: '{"a":1}', stderr: "set\n", timedOut: false });
    const late = await runOnNode(dir, {
      command: "sleep 600 & sleep 600",
      stdin: "",
      env: {},
      timeoutMs: 50,
    });
    assert.equal(late.timedOut, true);
    assert.equal(late.code, null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
