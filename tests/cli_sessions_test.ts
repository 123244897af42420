// The fake `claude` binary across runs: sessions and transcripts, scripted invocations,
// capture, and the fault modes of agent runners (hang, ignored SIGTERM, crash, stderr).
import assert from "node:assert/strict";
import { installFakeClaude } from "../cli.ts";
import { ScenarioBuilder } from "../mod.ts";
import { userPrompt } from "../builders.ts";
import type { FakeClaude } from "../cli.ts";

const decoder = new TextDecoder();

async function claude(fake: FakeClaude, args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command("claude", {
    args,
    env: { ...fake.env, ...env },
    cwd: fake.dir,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/** Whether this system shows a process's pending signals (Linux's /proc). */
async function canSeeSignals(): Promise<boolean> {
  return await Deno.readTextFile("/proc/self/status").then((t) => /^ShdPnd:/m.test(t), () => false);
}

/**
 * Resolves once the kernel has handed signal `signo` to process `pid`: it is no longer pending
 * for the process (ShdPnd in /proc/<pid>/status). Polls that state; it waits for the event,
 * not for an amount of time.
 */
async function signalReached(pid: number, signo: number): Promise<void> {
  const bit = 1n << BigInt(signo - 1);
  for (;;) {
    const status = await Deno.readTextFile(`/proc/${pid}/status`);
    const pending = BigInt(`0x${/^ShdPnd:\s*([0-9a-f]+)/m.exec(status)![1]}`);
    if ((pending & bit) === 0n) return;
    await new Promise((r) => setTimeout(r, 1));
  }
}

async function json(fake: FakeClaude, args: string[]) {
  const run = await claude(fake, ["-p", "hello", "--output-format", "json", ...args]);
  try {
    return JSON.parse(run.stdout);
  } catch {
    throw new Error(`claude ${args.join(" ")} printed no JSON (exit ${run.code}): ${run.stderr}`);
  }
}

Deno.test("cli sessions: new ids per run, --session-id, --resume, -c, --fork-session", async () => {
  await using fake = await installFakeClaude();
  const first = await json(fake, []);
  const second = await json(fake, []);
  assert.notEqual(first.session_id, second.session_id, "each run is a new session");
  // transcripts where the real CLI keeps them
  const projects = `${fake.env.CLAUDE_CONFIG_DIR}/projects/${
    fake.dir.replace(/[^a-zA-Z0-9]/g, "-")
  }`;
  const transcript = await Deno.readTextFile(`${projects}/${first.session_id}.jsonl`);
  assert.match(transcript, /"type":"result"/);
  const id = "3f9a8c1e-2b4d-4e6f-8a0b-1c2d3e4f5a6b";
  assert.equal((await json(fake, ["--session-id", id])).session_id, id);
  assert.deepEqual(await claude(fake, ["-p", "again", "--session-id", id]), {
    code: 1,
    stdout: "",
    stderr: `Error: Session ID ${id} is already in use.\n`,
  });
  assert.equal((await json(fake, ["--resume", id])).session_id, id, "resume keeps the id");
  const forked = await json(fake, ["--resume", id, "--fork-session"]);
  assert.notEqual(forked.session_id, id);
  const unknown = "00000000-0000-4000-8000-000000000000";
  assert.deepEqual(await claude(fake, ["-p", "x", "--resume", unknown]), {
    code: 1,
    stdout: "",
    stderr: `No conversation found with session ID: ${unknown}\n`,
  });
  assert.equal((await json(fake, ["-c"])).session_id, forked.session_id, "-c: the latest");
  const again = await claude(fake, ["-p", "x", "--resume", "not-a-uuid"]);
  assert.match(again.stderr, /^Error: --resume requires a valid session ID/);
});

Deno.test("cli sessions: --resume of an unknown session in stream-json also writes an error result", async () => {
  await using fake = await installFakeClaude();
  const unknown = "00000000-0000-4000-8000-000000000000";
  const message = `No conversation found with session ID: ${unknown}`;
  for (const fork of [false, true]) {
    const run = await claude(fake, [
      "-p",
      "x",
      "--output-format",
      "stream-json",
      "--verbose",
      "--resume",
      unknown,
      ...(fork ? ["--fork-session"] : []),
    ]);
    assert.equal(run.code, 1);
    assert.equal(run.stderr, `${message}\n`);
    const lines = run.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.equal(lines.length, 1, "only the result (as the real CLI 2.1.332)");
    const [result] = lines;
    assert.deepEqual(Object.keys(result), [
      "type",
      "subtype",
      "duration_ms",
      "duration_api_ms",
      "is_error",
      "num_turns",
      "stop_reason",
      "session_id",
      "total_cost_usd",
      "usage",
      "modelUsage",
      "permission_denials",
      "uuid",
      "errors",
      "result_index",
    ]);
    assert.equal(result.subtype, "error_during_execution");
    assert.deepEqual(result.errors, [message]);
    assert.equal(result.is_error, true);
    if (fork) assert.notEqual(result.session_id, unknown, "a forked resume names its new id");
    else assert.equal(result.session_id, unknown);
  }
  // a resume that is no UUID: the same in stream-json (as 2.1.328 and 2.1.332)
  const bad = await claude(fake, [
    "-p",
    "x",
    "--output-format",
    "stream-json",
    "--verbose",
    "--resume",
    "not-a-uuid",
  ]);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /^Error: --resume requires a valid session ID or session title/);
  const [refused, ...more] = bad.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(more, []);
  assert.equal(refused.subtype, "error_during_execution");
  assert.deepEqual(refused.errors, [bad.stderr.trimEnd()]);
  // json and text: the message on stderr only
  const json = await claude(fake, ["-p", "x", "--output-format", "json", "--resume", unknown]);
  assert.deepEqual(json, { code: 1, stdout: "", stderr: `${message}\n` });
});

Deno.test("cli sessions: a resumed, continued or forked session's cost goes on from the earlier run's", async () => {
  for (const how of ["--resume", "-c", "--fork-session"]) {
    await using fake = await installFakeClaude();
    const first = await json(fake, []);
    const cost = first.total_cost_usd;
    const model = Object.keys(first.modelUsage)[0];
    const input = first.modelUsage[model].inputTokens;
    assert.ok(cost > 0);
    const args = how === "-c"
      ? ["-c"]
      : how === "--resume"
      ? ["--resume", first.session_id]
      : ["--resume", first.session_id, "--fork-session"];
    const again = await json(fake, args);
    // as the real CLI 2.1.332: the session's totals include the earlier run, the turn's do not
    assert.equal(again.total_cost_usd.toFixed(8), (2 * cost).toFixed(8), how);
    assert.equal(again.modelUsage[model].inputTokens, 2 * input, how);
    assert.equal(again.usage.input_tokens, input, "the turn's own usage");
  }
});

Deno.test("cli sessions: --resume-session-at a message the session has, or has not", async () => {
  await using fake = await installFakeClaude();
  const first = await claude(fake, ["-p", "hello", "--output-format", "stream-json", "--verbose"]);
  const frames = first.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
  const id = frames.at(-1).session_id;
  const assistant = frames.find((f) => f.type === "assistant").uuid;
  const at = await json(fake, ["--resume", id, "--resume-session-at", assistant]);
  assert.equal(at.session_id, id);
  assert.equal(at.is_error, false);
  const unknown = "11111111-2222-4333-8444-555555555555";
  const message = `No message found with message.uuid of: ${unknown}`;
  assert.deepEqual(
    await claude(fake, [
      "-p",
      "x",
      "--output-format",
      "json",
      "--resume",
      id,
      "--resume-session-at",
      unknown,
    ]),
    { code: 1, stdout: "", stderr: `${message}\n` },
  );
  const stream = await claude(fake, [
    "-p",
    "x",
    "--output-format",
    "stream-json",
    "--verbose",
    "--resume",
    id,
    "--resume-session-at",
    unknown,
  ]);
  assert.equal(stream.code, 1);
  const result = JSON.parse(stream.stdout);
  assert.equal(result.subtype, "error_during_execution");
  assert.deepEqual(result.errors, [message]);
  assert.equal(result.session_id, id);
});

Deno.test("cli sessions: -c with no earlier session starts a new one", async () => {
  await using fake = await installFakeClaude();
  const run = await json(fake, ["-c"]);
  assert.equal(run.is_error, false);
});

Deno.test("cli invocations: a scenario scripts each run, counted safely under concurrency", async () => {
  await using fake = await installFakeClaude({
    scenario: new ScenarioBuilder()
      .on("go", { invocation: 1 }).respond("first run")
      .on("go", { invocation: 2 }).respond("second run")
      .on("go").repeat().respond("any later run")
      .build(),
  });
  const text = async () => (await claude(fake, ["-p", "go"])).stdout;
  assert.equal(await text(), "first run\n");
  assert.equal(await text(), "second run\n");
  assert.equal(await text(), "any later run\n");
  const runs = await Promise.all(Array.from({ length: 6 }, () => claude(fake, ["-p", "go"])));
  assert.ok(runs.every((r) => r.stdout === "any later run\n"));
  const log = await fake.capture();
  log.assertInvoked(9);
  assert.deepEqual(log.entries.map((e) => e.seq), [1, 2, 3, 4, 5, 6, 7, 8, 9], "no number twice");
});

Deno.test("cli capture: what each run was asked, and assertions over it", async () => {
  await using fake = await installFakeClaude();
  await claude(fake, ["-p", "deploy the app", "--model", "sonnet", "--max-turns", "3"]);
  await claude(fake, ["-p", "status", "--model=opus"], { CLAUDE_CODE_MAX_RETRIES: "1" });
  const log = await fake.capture();
  log.assertInvoked(2);
  const [deploy] = log.findByPrompt("deploy");
  assert.deepEqual(deploy.argv, ["-p", "deploy the app", "--model", "sonnet", "--max-turns", "3"]);
  assert.equal(deploy.exitCode, 0);
  assert.deepEqual(deploy.exchanges, [0]);
  assert.equal(deploy.cwd, fake.dir);
  assert.ok(deploy.frames >= 3);
  log.assertFlags("--model");
  log.assertFlags("--model", { value: "opus", seq: 2 });
  assert.equal(log.findByPrompt(/status/)[0].env.CLAUDE_CODE_MAX_RETRIES, "1");
  assert.throws(
    () => log.assertFlags("--verbose"),
    /Expected invocation 1 of the fake claude to have --verbose/,
  );
  assert.throws(() => log.assertInvoked(5), /to run 5 time\(s\), it ran 2/);
});

Deno.test("cli faults: SIGTERM exits 143; ignored SIGTERM; hang after the result; stderr; crash", async () => {
  await using fake = await installFakeClaude();
  const spawn = (env: Record<string, string>) =>
    new Deno.Command("claude", {
      args: ["-p", "hello"],
      env: { ...fake.env, ...env },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  // hang after the result, then SIGTERM: 143
  const hung = spawn({ CLAUDE_MOCK_HANG: "1" });
  const reader = hung.stdout.getReader();
  const first = await reader.read();
  assert.equal(decoder.decode(first.value), "Hello! How can I help?\n");
  hung.kill("SIGTERM");
  assert.equal((await hung.status).code, 143);
  reader.releaseLock();
  await hung.stdout.cancel();
  await hung.stderr.cancel();
  // waiting on the client's next line (duplex over a pipe), then SIGTERM: 143
  const duplex = new Deno.Command("claude", {
    args: ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"],
    env: fake.env,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = duplex.stdin.getWriter();
  await writer.write(new TextEncoder().encode(`${JSON.stringify(userPrompt("hello"))}\n`));
  const lines = duplex.stdout.pipeThrough(new TextDecoderStream()).getReader();
  for (let text = ""; !text.includes('"type":"result"');) text += (await lines.read()).value;
  duplex.kill("SIGTERM");
  assert.deepEqual({ ...await duplex.status }, { success: false, code: 143, signal: null });
  await writer.close().catch(() => {});
  await lines.cancel();
  await duplex.stderr.cancel();
  // ignoring SIGTERM: once the signal has reached the process, the run still answers the
  // next prompt and ends with its input (exit 0, not 143); a point to look at, not a sleep
  if (await canSeeSignals()) {
    const ignoring = new Deno.Command("claude", {
      args: ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"],
      env: { ...fake.env, CLAUDE_MOCK_IGNORE_SIGTERM: "1" },
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const input = ignoring.stdin.getWriter();
    const output = ignoring.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    const results = async (n: number) => {
      while (seen.split('"type":"result"').length - 1 < n) {
        const { value, done } = await output.read();
        if (done) break;
        seen += value;
      }
      return seen.split('"type":"result"').length - 1;
    };
    await input.write(new TextEncoder().encode(`${JSON.stringify(userPrompt("one"))}\n`));
    assert.equal(await results(1), 1);
    ignoring.kill("SIGTERM");
    await signalReached(ignoring.pid, 15);
    await input.write(new TextEncoder().encode(`${JSON.stringify(userPrompt("two"))}\n`));
    assert.equal(await results(2), 2, "answered after SIGTERM");
    await input.close();
    await results(3);
    assert.deepEqual({ ...await ignoring.status }, { success: true, code: 0, signal: null });
  }
  // a hang that ignores SIGTERM: SIGKILL ends it
  const stubborn = spawn({ CLAUDE_MOCK_HANG: "1", CLAUDE_MOCK_IGNORE_SIGTERM: "1" });
  const r2 = stubborn.stdout.getReader();
  await r2.read();
  stubborn.kill("SIGTERM");
  stubborn.kill("SIGKILL");
  assert.equal((await stubborn.status).signal, "SIGKILL");
  r2.releaseLock();
  await stubborn.stdout.cancel();
  await stubborn.stderr.cancel();
  const noisy = await claude(fake, ["-p", "hello"], {
    CLAUDE_MOCK_STDERR: "warn: one\\nwarn: two",
  });
  assert.equal(noisy.stderr, "warn: one\nwarn: two\n");
  const crashed = await claude(
    fake,
    ["-p", "hello", "--output-format", "stream-json", "--verbose"],
    {
      CLAUDE_MOCK_CRASH_AFTER: "1",
    },
  );
  assert.equal(crashed.code, 1);
  assert.equal(crashed.stdout.trim().split("\n").length, 1, "one frame, then the crash");
});

Deno.test("cli sessions: /compact after --resume counts the resumed session's last context (pre_tokens)", async () => {
  await using fake = await installFakeClaude();
  const first = await json(fake, []);
  const context = first.usage.input_tokens + first.usage.output_tokens;
  assert.ok(context > 0);
  const run = await claude(fake, [
    "-p",
    "/compact",
    "--output-format",
    "stream-json",
    "--verbose",
    "--resume",
    first.session_id,
  ]);
  assert.equal(run.code, 0, run.stderr);
  const boundary = run.stdout.trimEnd().split("\n").map((l) => JSON.parse(l))
    .find((f) => f.subtype === "compact_boundary");
  // before: 0 (the transcript file kept no call's final usage); as the real CLI: the earlier
  // run's last call, its input and output tokens (session_resume_compact)
  assert.equal(boundary?.compact_metadata?.pre_tokens, context);
});
