import assert from "node:assert/strict";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import type { Frame } from "../wire/frame.ts";
import { Session } from "./session.ts";

const line = (frame: unknown) => JSON.stringify(frame) + "\n";
const prompt = (content: string) =>
  line({
    type: "user",
    session_id: "",
    message: { role: "user", content },
    parent_tool_use_id: null,
  });

/** The frames a session writes for `prompts`, sent after `initialize`. */
async function run(prompts: string[]): Promise<Frame[]> {
  const session = new Session(new ScenarioBuilder().on("hello").respond("Hi there.").build());
  const writer = session.writable.getWriter();
  await writer.write(
    line({ type: "control_request", request_id: "i1", request: { subtype: "initialize" } }),
  );
  for (const p of prompts) await writer.write(prompt(p));
  await writer.close();
  const body = await new Response(session.readable).text();
  return body.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
}

const kinds = (frames: Frame[]) =>
  frames.map((f) => (typeof f.subtype === "string" ? `${f.type}/${f.subtype}` : f.type));

Deno.test("local command /cost: a synthetic message with the report, a local_command result (as CLI 2.1.332)", async () => {
  const frames = await run(["/cost"]);
  assert.deepEqual(kinds(frames), [
    "control_response",
    "system/session_state_changed",
    "system/init",
    "assistant",
    "result/success",
    "system/session_state_changed",
  ]);
  const report = "Estimated cost:        $0.0000\nTotal duration (API):  0s\n" +
    "Total duration (wall): 0s\nTotal code changes:    0 lines added, 0 lines removed\n" +
    "Usage:                 0 input, 0 output, 0 cache read, 0 cache write";
  const message = frames[3];
  assert.deepEqual(Object.keys(message), [
    "type",
    "message",
    "parent_tool_use_id",
    "local_command_source",
    "session_id",
    "uuid",
    "timestamp",
    "local_command_run",
  ]);
  const body = message.message as Record<string, unknown>;
  assert.equal(body.model, "<synthetic>");
  assert.equal(body.stop_reason, "end_turn");
  assert.deepEqual(body.content, [{ type: "text", text: report }]);
  assert.equal(
    message.local_command_source,
    `<local-command-stdout>${report}</local-command-stdout>`,
  );
  assert.deepEqual(message.local_command_run, { command: "usage", args: "" });
  const result = frames[4];
  assert.equal(result.result, report);
  assert.equal(result.local_command, "cost");
  assert.equal(result.num_turns, 0);
  assert.equal(result.total_cost_usd, 0);
});

Deno.test("local command /cost after a turn: the session's cost and tokens by model", async () => {
  const frames = await run(["hello", "/cost"]);
  const results = frames.filter((f) => f.type === "result");
  assert.equal(results.length, 2);
  const text = results[1].result as string;
  assert.match(text, /^Estimated cost: {8}\$0\.\d{4}\n/);
  assert.match(
    text,
    /\nUsage by model:\n {5}claude-opus-5-5: {2}120 input, \d+ output, 0 cache read, 0 cache write \(\$0\.\d{4}\)\n/,
  );
  assert.match(
    text,
    /\nPrompt cache \(main\): {3}1 request · 0% of input tokens from cache · no misses · no prompt caching reported by the API$/,
  );
  assert.equal(results[1].total_cost_usd, results[0].total_cost_usd, "cumulative");
  assert.equal(results[1].result_index, 1);
});

Deno.test("local command /compact with nothing to compact: the error, a compact result with no text", async () => {
  const frames = await run(["/compact"]);
  assert.deepEqual(kinds(frames).slice(1), [
    "system/session_state_changed",
    "system/init",
    "assistant",
    "result/success",
    "system/session_state_changed",
  ]);
  const message = frames[3];
  assert.equal(
    message.local_command_source,
    "<local-command-stderr>Error: No messages to compact</local-command-stderr>",
  );
  assert.deepEqual(message.local_command_run, { command: "compact", args: "" });
  assert.deepEqual(message.local_command_outcome, { kind: "failed" });
  assert.equal(frames[4].result, "");
  assert.equal(frames[4].local_command, "compact");
  assert.equal(frames[4].is_error, false);
});
