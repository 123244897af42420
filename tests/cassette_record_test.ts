// Recording for cassettes, end to end: the real Agent SDK spawning the fake binary through
// recordingSpawn, the fake binary's `record` subcommand standing in for a program's claude
// (print and duplex modes), and recordings running side by side without mixing.
import assert from "node:assert/strict";
import { type Options, query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import {
  isFrameEntry,
  loadTape,
  recordingSpawn,
  SnapshotRecorder,
  type Tape,
  type TapeEntry,
} from "../cassette.ts";
import { type FakeClaude, installFakeClaude } from "../cli.ts";
import { MockTransport, ScenarioBuilder } from "../mod.ts";
import { NEWEST_CLI_VERSION } from "../builders.ts";
import { fromFileUrl } from "./_paths.ts";

const CLI = fromFileUrl(new URL("../cli.ts", import.meta.url));
const decoder = new TextDecoder();

/** What the app gets, without what differs between two processes (timings). */
function comparable(messages: SDKMessage[]): unknown[] {
  return messages.map((m) => {
    const { duration_ms: _d, duration_api_ms: _a, ...rest } = m as Record<string, unknown>;
    return rest;
  });
}

async function messagesOf(prompt: string, options: Options): Promise<SDKMessage[]> {
  const messages: SDKMessage[] = [];
  for await (const m of query({ prompt, options })) messages.push(m);
  return messages;
}

function frames(tape: Tape, dir: TapeEntry["dir"]) {
  return tape.entries.filter((e) => e.dir === dir).filter(isFrameEntry).map((e) => e.frame);
}

function subtypeOf(frame: Record<string, unknown>): unknown {
  return (frame.request as { subtype?: string } | undefined)?.subtype ?? frame.subtype;
}

Deno.test("recordingSpawn + SDK: the tape holds the whole run; the app sees the same as unrecorded", async () => {
  const scenario = new ScenarioBuilder({ seed: 5 }).on("hello").respond("Hi there.").build();
  await using plain = await installFakeClaude({ scenario });
  await using recorded = await installFakeClaude({ scenario });
  const env = (fake: FakeClaude) => ({ ...Deno.env.toObject(), ...fake.env });
  const without = await messagesOf("hello", {
    pathToClaudeCodeExecutable: plain.path,
    env: env(plain),
  });
  const out = `${recorded.dir}/tapes/hello.jsonl`;
  const spawn = recordingSpawn({ out, header: { scenario: "hello" } });
  const withRecording = await messagesOf("hello", {
    pathToClaudeCodeExecutable: recorded.path,
    env: env(recorded),
    spawnClaudeCodeProcess: spawn,
  });
  assert.deepEqual(comparable(withRecording), comparable(without));
  const tape = await spawn.finished;
  assert.deepEqual(await loadTape(out), tape);
  const sent = frames(tape, "sdk->cli");
  assert.equal(sent[0].type, "control_request");
  assert.equal(subtypeOf(sent[0]), "initialize");
  assert.equal(sent[1].type, "user");
  assert.deepEqual((sent[1].message as { content: unknown }).content, [{
    type: "text",
    text: "hello",
  }]);
  const got = frames(tape, "cli->sdk");
  assert.equal(got[0].type, "control_response");
  const result = got.find((f) => f.type === "result");
  assert.equal(result?.result, "Hi there.");
  assert.deepEqual(
    frames(tape, "cli->sdk").filter((f) =>
      f.type !== "control_response" && subtypeOf(f) !== "session_state_changed"
    )
      .map((f) => f.uuid),
    withRecording.map((m) => m.uuid),
    "every message the app got is on the tape",
  );
  assert.deepEqual([tape.ending?.code, tape.ending?.signal, tape.complete], [0, null, true]);
  assert.equal(tape.header.sdk_version, "0.3.328");
  assert.equal(tape.header.scenario, "hello");
  assert.ok((tape.header.args as string[]).includes("--input-format"));
  assert.ok(tape.entries.every((e, i) => i === 0 || e.t >= tape.entries[i - 1].t));
});

Deno.test("recordings side by side do not mix: two SDK queries, two mock duplexes", async () => {
  await using fake = await installFakeClaude({
    scenario: new ScenarioBuilder().on("alpha").respond("A!").on("beta").respond("B!").build(),
  });
  const run = async (prompt: string) => {
    const spawn = recordingSpawn({ out: `${fake.dir}/${prompt}.jsonl` });
    await messagesOf(prompt, {
      pathToClaudeCodeExecutable: fake.path,
      env: { ...Deno.env.toObject(), ...fake.env },
      spawnClaudeCodeProcess: spawn,
    });
    return spawn.finished;
  };
  const record = async (prompt: string) => {
    const mock = new MockTransport(new ScenarioBuilder().on(prompt).respond(`${prompt}!`).build());
    const recorder = new SnapshotRecorder();
    const { readable, writable } = recorder.wrap(mock.connect());
    const writer = writable.getWriter();
    await writer.write(
      JSON.stringify({
        type: "user",
        session_id: "",
        message: { role: "user", content: prompt },
        parent_tool_use_id: null,
      }) +
        "\n",
    );
    await writer.close();
    await new Response(readable).text();
    recorder.end(await mock.exited);
    return recorder.close();
  };
  const tapes = await Promise.all([run("alpha"), run("beta"), record("gamma"), record("delta")]);
  for (
    const [tape, prompt, reply] of [
      [tapes[0], "alpha", "A!"],
      [tapes[1], "beta", "B!"],
      [tapes[2], "gamma", "gamma!"],
      [tapes[3], "delta", "delta!"],
    ] as const
  ) {
    const text = JSON.stringify(tape.entries);
    for (const other of ["alpha", "beta", "gamma", "delta"]) {
      assert.equal(text.includes(`"${other}`), other === prompt, `${prompt}'s tape and ${other}`);
    }
    assert.equal(frames(tape, "cli->sdk").find((f) => f.type === "result")?.result, reply);
    assert.equal(tape.ending?.code, 0);
  }
});

/** Runs `cli.ts record …` as a subprocess, with the fake standing in for the real claude. */
async function recordRun(
  fake: FakeClaude,
  argv: string[],
  options: { stdin?: string; env?: Record<string, string> } = {},
) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-config", "--quiet", CLI, "record", ...argv],
    env: { ...fake.env, CLAUDE_MOCK_REAL_CLAUDE: fake.path, ...options.env },
    cwd: fake.dir,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const out = await child.output();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

Deno.test("cli record: print mode, passed through and recorded", async () => {
  await using fake = await installFakeClaude({
    env: { CLAUDE_MOCK_STDERR: "note one\\nnote two" },
  });
  const out = `${fake.dir}/print.jsonl`;
  const args = ["-p", "hello", "--output-format", "stream-json", "--verbose"];
  const run = await recordRun(fake, ["--out", out, "--name", "print hello", "--", ...args]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, "note one\nnote two\n", "stderr passes through");
  const tape = await loadTape(out);
  const lines = run.stdout.trimEnd().split("\n");
  assert.deepEqual(
    frames(tape, "cli->sdk").map((f) => JSON.stringify(f)),
    lines,
    "stdout, byte for byte",
  );
  assert.deepEqual(lines.map((l) => JSON.parse(l).type), ["system", "assistant", "result"]);
  assert.equal(JSON.parse(lines[2]).result, "Hello! How can I help?");
  assert.deepEqual(
    tape.entries.filter((e) => e.dir === "stderr").map((e) => "text" in e && e.text).join(""),
    "note one\nnote two\n",
  );
  assert.deepEqual(frames(tape, "sdk->cli"), [], "print mode reads no stdin here");
  assert.deepEqual(tape.header.args, args);
  assert.equal(tape.header.scenario, "print hello");
  // no SDK spawned the fake, and none is installed for its folder: the newest CLI it knows
  assert.equal(tape.header.cli_version, NEWEST_CLI_VERSION);
  assert.deepEqual([tape.ending?.code, tape.complete], [0, true]);
  const log = await fake.capture();
  log.assertInvoked(1);
});

Deno.test("cli record: duplex mode, both directions", async () => {
  await using fake = await installFakeClaude({
    scenario: new ScenarioBuilder().on("ping").respond("pong").build(),
  });
  const out = `${fake.dir}/duplex.jsonl`;
  const input = [
    { type: "control_request", request_id: "r1", request: { subtype: "initialize" } },
    {
      type: "user",
      session_id: "",
      message: { role: "user", content: "ping" },
      parent_tool_use_id: null,
    },
  ].map((f) => JSON.stringify(f) + "\n").join("");
  const run = await recordRun(fake, [
    `--out=${out}`,
    "--",
    "--input-format",
    "stream-json",
    "--output-format",
    "stream-json",
    "--verbose",
  ], { stdin: input });
  assert.equal(run.code, 0, run.stderr);
  const tape = await loadTape(out);
  assert.deepEqual(frames(tape, "sdk->cli").map((f) => JSON.stringify(f) + "\n").join(""), input);
  const got = frames(tape, "cli->sdk");
  assert.deepEqual(got.map((f) => JSON.stringify(f)), run.stdout.trimEnd().split("\n"));
  assert.equal(got[0].type, "control_response");
  assert.equal((got[0].response as { request_id: string }).request_id, "r1");
  assert.equal(got.find((f) => f.type === "result")?.result, "pong");
  assert.equal(tape.ending?.code, 0);
});

Deno.test("cli record: exits with the child's code and records it", async () => {
  await using fake = await installFakeClaude({ env: { CLAUDE_MOCK_CRASH_AFTER: "1" } });
  const out = `${fake.dir}/crash.jsonl`;
  const run = await recordRun(fake, [
    "--out",
    out,
    "--",
    "-p",
    "hi",
    "--output-format",
    "stream-json",
    "--verbose",
  ]);
  assert.equal(run.code, 1);
  const tape = await loadTape(out);
  assert.equal(frames(tape, "cli->sdk").length, 1);
  assert.deepEqual([tape.ending?.code, tape.ending?.signal], [1, null]);
});
