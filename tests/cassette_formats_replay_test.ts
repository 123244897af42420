// The other formats replay through the real Agent SDK: claude-agent-cassette's tapes and frames
// files, and the Rust SDK testing spec's snapshot JSON.
import assert from "node:assert/strict";
import { query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { loadTape, parseTape, SnapshotPlayer, type Tape } from "../cassette.ts";
import { fromFileUrl } from "./_paths.ts";

const CASSETTE = fromFileUrl(new URL("fixtures/claude-agent-cassette/", import.meta.url));

async function replay(tape: Tape): Promise<{ messages: SDKMessage[]; player: SnapshotPlayer }> {
  const player = new SnapshotPlayer(tape, { waitMs: 2000 });
  const q = query({ prompt: player.prompt(), options: { spawnClaudeCodeProcess: player.spawn } });
  const driving = player.drive(q);
  const messages: SDKMessage[] = [];
  try {
    for await (const m of q) messages.push(m);
  } catch {
    // checked below through the player
  }
  await driving;
  return { messages, player };
}

/** The frames an app sees: the CLI's, without the control plane. */
function appFrames(tape: Tape): unknown[] {
  return tape.entries.flatMap((e) =>
    e.dir === "cli->sdk" && "frame" in e && !e.frame.type.startsWith("control_") ? [e.frame] : []
  );
}

for (const name of ["hooks_session", "permission_session", "mcp_session", "stop_session"]) {
  Deno.test(`claude-agent-cassette ${name} replays to its frames`, async () => {
    const tape = await loadTape(`${CASSETTE}examples/cassettes/${name}.jsonl`);
    assert.equal(tape.header.converted_from, "claude-agent-cassette");
    const { messages, player } = await replay(tape);
    player.assertFinished();
    assert.deepEqual(JSON.parse(JSON.stringify(messages)), appFrames(tape));
  });
}

Deno.test("a claude-agent-cassette frames file (output only) replays to its frames", async () => {
  const tape = await loadTape(`${CASSETTE}examples/cassettes/hello_world.jsonl`);
  const player = new SnapshotPlayer(tape);
  const messages: SDKMessage[] = [];
  for await (
    const m of query({ prompt: "anything", options: { spawnClaudeCodeProcess: player.spawn } })
  ) messages.push(m);
  player.assertFinished();
  assert.deepEqual(JSON.parse(JSON.stringify(messages)), appFrames(tape));
});

Deno.test("the Rust SDK spec's snapshot JSON replays, prompt checked by its text", async () => {
  const snapshot = {
    version: 1,
    recorded_at: "2024-01-15T10:30:00Z",
    sdk_version: "0.6.0",
    cli_version: "1.0.0",
    options: { model: "claude-sonnet-4-20250514", max_turns: 10 },
    messages: [
      { offset_ms: 0, direction: "Sent", content: { type: "user", content: "Hello, Claude!" } },
      {
        offset_ms: 40,
        direction: "Received",
        content: { type: "system", subtype: "init", session_id: "abc123", tools: ["Read"] },
      },
      {
        offset_ms: 1250,
        direction: "Received",
        content: {
          type: "assistant",
          session_id: "abc123",
          parent_tool_use_id: null,
          message: { role: "assistant", content: [{ type: "text", text: "Hello!" }] },
        },
      },
      {
        offset_ms: 1300,
        direction: "Received",
        content: {
          type: "result",
          subtype: "success",
          is_error: false,
          result: "Hello!",
          session_id: "abc123",
        },
      },
    ],
  };
  const tape = parseTape(JSON.stringify(snapshot));
  assert.equal(tape.header.converted_from, "rust-sdk-snapshot");
  const { messages, player } = await replay(tape);
  player.assertFinished();
  assert.deepEqual(JSON.parse(JSON.stringify(messages)), appFrames(tape));

  const other = new SnapshotPlayer(tape);
  try {
    for await (
      const _ of query({ prompt: "Goodbye", options: { spawnClaudeCodeProcess: other.spawn } })
    ) { /* drain */ }
  } catch { /* exit 1 */ }
  assert.match(other.mismatches[0]?.message ?? "", /the app sent another prompt/);
});
