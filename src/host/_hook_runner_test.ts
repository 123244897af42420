import assert from "node:assert/strict";
import { hostHookRunner, runOnNode } from "./_hook_runner.ts";

const run = (dir: string, command: string, options: { signal?: AbortSignal } = {}) =>
  hostHookRunner(dir).run({
    command,
    stdin: '{"hook_event_name":"PreToolUse","tool_name":"Bash"}',
    env: { CLAUDE_PROJECT_DIR: dir, HOOK_TEST_VAR: "set" },
    timeoutMs: 600_000,
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
    const { chunks, ms, ...ended } = out as typeof out & {
      chunks?: { text: string }[];
      ms?: number;
    };
    // what it wrote, timed chunk by chunk (for hook_progress), adds up to its output
    assert.equal(chunks?.map((c) => c.text).join("").length, out.stdout.length + out.stderr.length);
    assert.ok(typeof ms === "number" && ms >= 0);
    assert.deepEqual(ended, {
      code: 2,
      stdout: `${real}\n{"hook_event_name":"PreToolUse","tool_name":"Bash"}\nset ${dir}\n`,
      stderr: "err\n",
    });
    // a hook that never reads its stdin (and ends first) is no error
    assert.equal((await run(dir, "exit 0")).code, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hostHookRunner: an abort (the hook's time is up, an interrupt) kills it with what it started", async () => {
  const dir = await Deno.makeTempDir({ prefix: "claude-mock-hook-" });
  try {
    // the background sleep holds stdout open: only killing the process group ends the run
    const abort = new AbortController();
    const pending = run(dir, "echo started; sleep 600 & sleep 600; echo late", {
      signal: abort.signal,
    });
    abort.abort();
    const out = await pending;
    assert.equal(out.code, null);
    assert.equal(out.stdout.includes("late"), false);
    // aborted before it starts: killed at once
    assert.equal((await run(dir, "exec sleep 600", { signal: AbortSignal.abort() })).code, null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hostHookRunner: reads the project's settings files at once, undefined when there are none", async () => {
  const dir = await Deno.makeTempDir({ prefix: "claude-mock-hook-" });
  try {
    const runner = hostHookRunner(dir);
    assert.equal(runner.readText(".claude/settings.json"), undefined);
    await Deno.mkdir(`${dir}/.claude`);
    await Deno.writeTextFile(`${dir}/.claude/settings.json`, '{"hooks":{}}');
    assert.equal(runner.readText(".claude/settings.json"), '{"hooks":{}}');
    assert.equal(runner.readText(".claude"), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hostHookRunner: with an exists check, reads only what is there, the same texts", async () => {
  const { existsSync } = await import("node:fs");
  const dir = await Deno.makeTempDir({ prefix: "claude-mock-hook-" });
  try {
    const asked: string[] = [];
    const runner = hostHookRunner(dir, {
      exists: (path) => (asked.push(path), existsSync(path)),
    });
    assert.equal(runner.readText(".claude/settings.json"), undefined);
    assert.deepEqual(asked, [`${dir}/.claude/settings.json`]);
    await Deno.mkdir(`${dir}/.claude`);
    await Deno.writeTextFile(`${dir}/.claude/settings.json`, '{"hooks":{}}');
    assert.equal(runner.readText(".claude/settings.json"), '{"hooks":{}}');
    assert.equal(runner.readText(".claude"), undefined);
    assert.equal(runner.readText(".claude/settings.local.json"), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hostHookRunner on Node (node:child_process): stdin, variables, exit code, and an abort that kills the group", async () => {
  const dir = await Deno.makeTempDir({ prefix: "claude-mock-hook-" });
  try {
    const ran = await runOnNode(dir, {
      command: 'cat; echo "$HOOK_TEST_VAR" >&2; exit 2',
      stdin: '{"a":1}',
      env: { HOOK_TEST_VAR: "set" },
      timeoutMs: 600_000,
    });
    const { chunks, ms: _ms, ...ended } = ran as typeof ran & { chunks?: { text: string }[] };
    assert.deepEqual(ended, { code: 2, stdout: '{"a":1}', stderr: "set\n" });
    assert.deepEqual(chunks?.map((c) => c.text).sort(), ["set\n", '{"a":1}']);
    const abort = new AbortController();
    const pending = runOnNode(dir, {
      command: "sleep 600 & sleep 600",
      stdin: "",
      env: {},
      timeoutMs: 600_000,
      signal: abort.signal,
    });
    abort.abort();
    assert.equal((await pending).code, null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hostHookRunner: a hook's output past the limit is read and dropped (Deno and Node)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "claude-mock-hook-" });
  try {
    // 3 MB on stdout (before, all of it was kept: an endless one failed on a string too long)
    const command = {
      command: "head -c 3000000 /dev/zero | tr '\\0' a; echo done >&2",
      stdin: "",
      env: {},
      timeoutMs: 600_000,
      outputLimit: 1000,
    };
    for (const ran of [await hostHookRunner(dir).run(command), await runOnNode(dir, command)]) {
      const { code, stdout, stderr, chunks } = ran;
      assert.deepEqual({ code, stdout, stderr }, {
        code: 0,
        stdout: "a".repeat(1000),
        stderr: "done\n",
      });
      // the timed chunks (hook_progress) keep no more than the text
      const of = (stream: string) =>
        chunks?.filter((c) => c.stream === stream).map((c) => c.text).join("");
      assert.deepEqual([of("stdout"), of("stderr")], [stdout, stderr]);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
