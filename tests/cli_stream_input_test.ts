// The fake `claude` binary in print mode with stream-json input: user lines on stdin, and
// --replay-user-messages (as the real CLI 2.1.332 does, recorded in
// tests/fixtures/real/conform/print_stdin_replay.*).
import assert from "node:assert/strict";
import { installFakeClaude } from "../cli.ts";
import { ScenarioBuilder } from "../mod.ts";
import type { FakeClaude } from "../cli.ts";

const decoder = new TextDecoder();
const encoder = new TextEncoder();

async function claude(fake: FakeClaude, args: string[], stdin: string) {
  const child = new Deno.Command("claude", {
    args,
    env: fake.env,
    cwd: fake.dir,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(encoder.encode(stdin));
  await writer.close();
  const out = await child.output();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

const line = (content: string) =>
  JSON.stringify({
    type: "user",
    message: { role: "user", content },
    parent_tool_use_id: null,
    session_id: "",
  }) + "\n";

const scenario = new ScenarioBuilder()
  .on("first").respond("First answer.")
  .on("second").respond("Second answer.")
  .build();

Deno.test("stream-json input with --replay-user-messages: each user line echoed after its turn's init", async () => {
  await using fake = await installFakeClaude({ scenario });
  const run = await claude(fake, [
    "-p",
    "--output-format",
    "stream-json",
    "--verbose",
    "--input-format",
    "stream-json",
    "--replay-user-messages",
  ], line("first question") + line("second question"));
  assert.equal(run.code, 0, run.stderr);
  const frames = run.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
  const kinds = frames.map((f) => f.subtype ? `${f.type}/${f.subtype}` : f.type);
  assert.deepEqual(kinds, [
    "system/init",
    "user",
    "assistant",
    "result/success",
    "system/init",
    "user",
    "assistant",
    "result/success",
  ]);
  const replay = frames[1];
  assert.deepEqual(Object.keys(replay), [
    "type",
    "message",
    "session_id",
    "parent_tool_use_id",
    "uuid",
    "timestamp",
    "isReplay",
  ]);
  assert.deepEqual(replay.message, { role: "user", content: "first question" });
  assert.equal(replay.isReplay, true);
  assert.equal(replay.session_id, frames[0].session_id);
  assert.deepEqual(frames[5].message, { role: "user", content: "second question" });
});

Deno.test("--replay-user-messages without stream-json input and output is refused", async () => {
  await using fake = await installFakeClaude({ scenario });
  for (const format of ["text", "json", "stream-json"]) {
    const run = await claude(fake, [
      "-p",
      "first question",
      "--output-format",
      format,
      ...(format === "stream-json" ? ["--verbose"] : []),
      "--replay-user-messages",
    ], "");
    assert.deepEqual(run, {
      code: 1,
      stdout: "",
      stderr:
        "Error: --replay-user-messages requires both --input-format=stream-json and --output-format=stream-json.\n",
    }, format);
  }
});
