// What the outputs of PreCompact, PostCompact, StopFailure and SessionEnd hooks do, and when
// SessionEnd hooks run, as the real CLI 2.1.328 to 2.1.332 (conformance/hooks_*compact_block*,
// hooks_command_compact_outputs, hooks_*stop_failure_outputs,
// hooks_command_session_end_outputs; tests/fixtures/real/FINDINGS_hooks.md). Command hooks run
// through a runner that answers for them, so no process starts.
import assert from "node:assert/strict";
import type { HookCommand, HookCommandResult, HookCommandRunner } from "../mod.ts";
import { builtinScenario, MockTransport, ScenarioBuilder } from "../mod.ts";
import { Session } from "../session.ts";
import { gatedPrompt, kinds, runQuery } from "./_sdk.ts";
import { query } from "@anthropic-ai/claude-agent-sdk";

/** A runner that answers each command from `answers` (by command) and keeps what it ran. */
function answering(answers: Record<string, HookCommandResult>) {
  const ran: HookCommand[] = [];
  const runner: HookCommandRunner = {
    cwd: "/home/user/project",
    run: (command) => {
      ran.push(command);
      return Promise.resolve(answers[command.command] ?? { code: 0, stdout: "", stderr: "" });
    },
  };
  return { ran, runner };
}

function hooks(event: string, commands: string[]) {
  return {
    [event]: [{ hooks: commands.map((command) => ({ type: "command" as const, command })) }],
  };
}

/** `hello` then `/compact` through the SDK; the messages of the `/compact` turn. */
async function compact(mock: MockTransport, options: Record<string, unknown>) {
  const { prompt, next } = gatedPrompt(["hello", "/compact"]);
  const messages = [];
  for await (
    const m of query({ prompt, options: { ...options, spawnClaudeCodeProcess: mock.spawn } })
  ) {
    messages.push(m);
    if (m.type === "result") next();
  }
  const first = messages.findIndex((m) => m.type === "result");
  return messages.slice(first + 1);
}

Deno.test("PreCompact: a callback's decision: block fails /compact, named by its systemMessage; no summary, no PostCompact", async () => {
  const mock = new MockTransport(builtinScenario("compaction_event"));
  const turn = await compact(mock, {
    hooks: {
      PreCompact: [{
        hooks: [() =>
          Promise.resolve({
            decision: "block" as const,
            reason: "Blocked by policy.",
            systemMessage: "PreCompact checked.",
          })],
      }],
      PostCompact: [{ hooks: [() => Promise.resolve({})] }],
    },
  });
  const text = "Compaction blocked by PreCompact hook: [callback]: PreCompact checked.";
  assert.deepEqual(kinds(turn), [
    "system/status",
    "system/status",
    "system/init",
    "assistant",
    "result/success",
  ]);
  assert.deepEqual(
    [
      (turn[1] as { compact_result?: string }).compact_result,
      (turn[1] as { compact_error?: string }).compact_error,
    ],
    ["failed", `skipped: ${text}`],
  );
  const said = turn[3] as {
    local_command_outcome?: unknown;
    message: { content: { text: string }[] };
  };
  assert.equal(said.message.content[0].text, text);
  assert.deepEqual(said.local_command_outcome, { kind: "failed" });
  assert.equal((turn[4] as { result?: string }).result, text);
  assert.deepEqual(mock.hookOutputs().map((h) => h.event), ["PreCompact"]);
});

Deno.test("PreCompact and PostCompact command hooks: exit 2 and a JSON block name the command; continue:false stops nothing; the listing shows reasons and failures", async () => {
  const blocked = answering({
    "exit2": { code: 2, stdout: "", stderr: "no compaction now\n" },
    "json": { code: 0, stdout: '{"decision":"block","reason":"Blocked by policy."}\n', stderr: "" },
  });
  const mock = new MockTransport(builtinScenario("compaction_event"), {
    runHookCommand: blocked.runner,
  });
  const turn = await compact(mock, { settings: { hooks: hooks("PreCompact", ["exit2", "json"]) } });
  assert.equal(
    (turn.at(-1) as { result?: string }).result,
    "Compaction blocked by PreCompact hook: [exit2]: no compaction now\n[json]: Blocked by policy.",
  );

  const listed = answering({
    "stop": {
      code: 0,
      stdout: '{"continue":false,"stopReason":"Not now.","systemMessage":"x"}',
      stderr: "",
    },
    "fail": { code: 2, stdout: "", stderr: "after\n" },
    "undo": { code: 0, stdout: '{"decision":"block","reason":"Undo."}', stderr: "" },
  });
  const ok = new MockTransport(builtinScenario("compaction_event"), {
    runHookCommand: listed.runner,
  });
  const done = await compact(ok, {
    settings: {
      hooks: { ...hooks("PreCompact", ["stop"]), ...hooks("PostCompact", ["fail", "undo"]) },
    },
  });
  // compacted, no systemMessage notice
  assert.ok(kinds(done).includes("system/compact_boundary"));
  assert.ok(!kinds(done).includes("system/informational"));
  const output = done.find((m) =>
    m.type === "user" && JSON.stringify(m).includes("local-command-stdout")
  ) as { message: { content: string } };
  assert.equal(
    output.message.content,
    '<local-command-stdout>Compacted PreCompact [stop] completed successfully: {"continue":false,"stopReason":"Not now.","systemMessage":"x"}\n' +
      "PostCompact [fail] failed: after\nPostCompact [undo] completed successfully: Undo.</local-command-stdout>",
  );
});

Deno.test("StopFailure: command hooks write no hook frames, and no hook's systemMessage is said", async () => {
  const { ran, runner } = answering({
    "block": {
      code: 0,
      stdout: '{"decision":"block","reason":"Try again.","systemMessage":"x"}',
      stderr: "",
    },
  });
  const scenario = new ScenarioBuilder().on("hello").failure("bad_request").build();
  const mock = new MockTransport(scenario, { runHookCommand: runner });
  const { messages } = await runQuery(mock, "hello", {
    includeHookEvents: true,
    settings: { hooks: hooks("StopFailure", ["block"]) },
    hooks: {
      StopFailure: [{ hooks: [() => Promise.resolve({ systemMessage: "callback says" })] }],
    },
  });
  assert.equal(ran.length, 1);
  assert.deepEqual(kinds(messages), ["system/init", "assistant", "result/success"]);
});

Deno.test("SessionEnd: runs once on SIGTERM and on exit(), a failing hook reported on stderr, its JSON ignored", async () => {
  for (const end of ["SIGTERM", "exit"] as const) {
    const { ran, runner } = answering({
      "fail": { code: 2, stdout: "", stderr: "ending\n" },
      "json": {
        code: 0,
        stdout: '{"decision":"block","continue":false,"systemMessage":"x"}',
        stderr: "",
      },
    });
    const errors: string[] = [];
    const session = new Session(new ScenarioBuilder().on("hi").respond("Hello.").build(), {
      args: ["--settings", JSON.stringify({ hooks: hooks("SessionEnd", ["fail", "json"]) })],
      runHookCommand: runner,
      stderr: (text) => errors.push(text),
    });
    session.write(
      `${JSON.stringify({ type: "user", message: { role: "user", content: "hi" } })}\n`,
    );
    const reader = session.readable.pipeThrough(new TextDecoderStream()).getReader();
    let out = "";
    while (!out.includes('"type":"result"')) out += (await reader.read()).value ?? "";
    // stdin still open, the turn over: the process is ended from outside
    if (end === "SIGTERM") session.kill("SIGTERM");
    else await session.exit(0);
    while (!(await reader.read()).done);
    const status = await session.exited;
    assert.deepEqual(
      status,
      end === "SIGTERM" ? { code: null, signal: "SIGTERM" } : { code: 0, signal: null },
    );
    assert.deepEqual(ran.map((c) => [c.command, JSON.parse(c.stdin).reason]), [["fail", "other"], [
      "json",
      "other",
    ]]);
    assert.deepEqual(errors, ["SessionEnd hook [fail] failed: ending\n\n"]);
  }
});

Deno.test("hook_progress: a hook that runs a second or more, each whole second its output so far when it changed (a runner's timed chunks)", async () => {
  const { runner } = answering({});
  // a slow hook played without waiting: the runner says what it wrote, when, and how long it ran
  const slow: HookCommandRunner = {
    ...runner,
    run: () =>
      Promise.resolve({
        code: 0,
        stdout: "one\nthree\n",
        stderr: "two\n",
        chunks: [
          { ms: 5, stream: "stdout" as const, text: "one\n" },
          { ms: 1500, stream: "stderr" as const, text: "two\n" },
          { ms: 2500, stream: "stdout" as const, text: "three\n" },
        ],
        ms: 3200,
      }),
  };
  const mock = new MockTransport(new ScenarioBuilder().on("hello").respond("Hello.").build(), {
    runHookCommand: slow,
  });
  const { messages } = await runQuery(mock, "hello", {
    includeHookEvents: true,
    settings: { hooks: hooks("UserPromptSubmit", ["slow"]) },
  });
  const hookFrames = messages.filter((m) =>
    m.type === "system" && m.subtype.startsWith("hook_")
  ) as unknown as Record<string, unknown>[];
  assert.deepEqual(
    hookFrames.map(({ subtype, stdout, stderr, output }) => ({ subtype, stdout, stderr, output })),
    [
      { subtype: "hook_started", stdout: undefined, stderr: undefined, output: undefined },
      { subtype: "hook_progress", stdout: "one\n", stderr: "", output: "one\n" },
      { subtype: "hook_progress", stdout: "one\n", stderr: "two\n", output: "one\ntwo\n" },
      // the third second changed it again
      {
        subtype: "hook_progress",
        stdout: "one\nthree\n",
        stderr: "two\n",
        output: "one\ntwo\nthree\n",
      },
      {
        subtype: "hook_response",
        stdout: "one\nthree\n",
        stderr: "two\n",
        output: "one\ntwo\nthree\n",
      },
    ],
  );
  assert.equal(new Set(hookFrames.map((f) => f.hook_id)).size, 1);
});
