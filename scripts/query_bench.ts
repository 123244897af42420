// Benchmark (a): query() to result for a one-turn scenario, through the mock vs through a
// minimal hand-written fake process (the floor: no scenario, no pacing, no validation).
//   deno bench -A scripts/query_bench.ts
import { query } from "@anthropic-ai/claude-agent-sdk";
import { EventEmitter } from "node:events";
import { Readable, Writable } from "node:stream";
import { MockTransport, ScenarioBuilder } from "../mod.ts";

const scenario = new ScenarioBuilder().on("hello").respond("Hello! How can I help you today?")
  .build();

/** The floor: a fake process that answers initialize and one prompt with fixed lines. */
function handWrittenSpawn() {
  const events = new EventEmitter();
  let exitCode: number | null = null;
  const sid = "00000000-0000-4000-8000-000000000000";
  const lines = [
    {
      type: "system",
      subtype: "init",
      cwd: "/",
      session_id: sid,
      tools: [],
      mcp_servers: [],
      model: "m",
      permissionMode: "default",
      slash_commands: [],
      apiKeySource: "none",
      claude_code_version: "2.1.328",
      output_style: "default",
      agents: [],
      skills: [],
      plugins: [],
      uuid: sid,
    },
    {
      type: "assistant",
      message: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "m",
        content: [{ type: "text", text: "Hello! How can I help you today?" }],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      },
      parent_tool_use_id: null,
      session_id: sid,
      uuid: sid,
    },
    {
      type: "result",
      subtype: "success",
      is_error: false,
      duration_ms: 1,
      duration_api_ms: 1,
      num_turns: 1,
      result: "Hello! How can I help you today?",
      session_id: sid,
      total_cost_usd: 0,
      usage: {},
      modelUsage: {},
      permission_denials: [],
      uuid: sid,
    },
    {
      type: "system",
      subtype: "session_state_changed",
      state: "idle",
      sdk_host_only: true,
      uuid: sid,
      session_id: sid,
    },
  ].map((f) => JSON.stringify(f) + "\n");
  const stdout = new Readable({ read() {} });
  let buffer = "";
  const stdin = new Writable({
    write(chunk, _enc, done) {
      buffer += chunk.toString();
      let i;
      while ((i = buffer.indexOf("\n")) >= 0) {
        const frame = JSON.parse(buffer.slice(0, i));
        buffer = buffer.slice(i + 1);
        if (frame.type === "control_request") {
          stdout.push(
            JSON.stringify({
              type: "control_response",
              response: { subtype: "success", request_id: frame.request_id, response: {} },
            }) + "\n",
          );
        } else if (frame.type === "user") { for (const line of lines) stdout.push(line); }
      }
      done();
    },
    final(done) {
      stdout.push(null);
      exitCode = 0;
      queueMicrotask(() => events.emit("exit", 0, null));
      done();
    },
  });
  return {
    stdin,
    stdout,
    killed: false,
    get exitCode() {
      return exitCode;
    },
    kill: () => true,
    on: (e: string, l: (...a: unknown[]) => void) => events.on(e, l),
    once: (e: string, l: (...a: unknown[]) => void) => events.once(e, l),
    off: (e: string, l: (...a: unknown[]) => void) => events.off(e, l),
  };
}

type Spawn = NonNullable<
  NonNullable<Parameters<typeof query>[0]["options"]>["spawnClaudeCodeProcess"]
>;

async function drain(spawn: unknown): Promise<void> {
  for await (
    const _ of query({ prompt: "hello", options: { spawnClaudeCodeProcess: spawn as Spawn } })
  ) { /* consume */ }
}

Deno.bench({
  name: "query() via hand-written fake process (floor)",
  group: "query",
  baseline: true,
}, async () => {
  await drain(handWrittenSpawn);
});

Deno.bench({ name: "query() via MockTransport", group: "query" }, async () => {
  await drain(new MockTransport(scenario).spawn);
});
