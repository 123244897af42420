// deno task demo — the real Agent SDK talks to a mock Claude Code session.
//
// The scenario says some text, reads a file with a tool, asks to run a command (a
// permission round trip: the app's canUseTool allows it), and answers; the SDK runs with
// partial messages on. Every message the app receives is printed, then every line the
// SDK wrote to the mock's stdin, then what the permission recorder saw.
import { query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { MockTransport, PermissionRecorder, ScenarioBuilder } from "../mod.ts";

const scenario = new ScenarioBuilder({ name: "demo", timing: "realistic", seed: 42 })
  .on("notes")
  .usesRead("/home/user/project/notes.txt", {
    say: "I'll read the notes first.",
    content: "Project notes\n1. The build uses make.\n2. Tests live in tests/.\n",
  })
  .usesBash("make test", { say: "Let me run the tests.", stdout: "12 passing" })
  .respond("The notes say the build uses make; the 12 tests pass.")
  .build();

const permissions = PermissionRecorder.allowTools(["Bash"]);

const mock = new MockTransport(scenario);
const color = (code: number) => (s: string) => Deno.noColor ? s : `\x1b[${code}m${s}\x1b[0m`;
const dim = color(2), bold = color(1), cyan = color(36), green = color(32), yellow = color(33);

function describe(message: SDKMessage): string {
  switch (message.type) {
    case "system":
      return `${cyan("system")}/${message.subtype}` +
        (message.subtype === "init"
          ? dim(` model=${message.model} tools=${message.tools.length}`)
          : "");
    case "stream_event": {
      const event = message.event;
      if (event.type === "content_block_delta") {
        const d = event.delta;
        const piece = d.type === "text_delta"
          ? d.text
          : d.type === "input_json_delta"
          ? d.partial_json
          : d.type;
        return dim(`  stream_event ${event.type} ${JSON.stringify(piece)}`);
      }
      return dim(`  stream_event ${event.type}`);
    }
    case "assistant":
      return `${bold("assistant")} ` +
        message.message.content.map((b) =>
          b.type === "text"
            ? JSON.stringify(b.text)
            : b.type === "tool_use"
            ? yellow(`tool_use ${b.name} ${JSON.stringify(b.input)}`)
            : b.type
        ).join(" ");
    case "user": {
      const content = message.message.content;
      const first = Array.isArray(content) ? content[0] : undefined;
      return `${bold("user")} ` +
        (first && typeof first === "object" && first.type === "tool_result"
          ? `tool_result ${JSON.stringify(String(first.content)).slice(0, 70)}…`
          : JSON.stringify(content).slice(0, 80));
    }
    case "result":
      return `${green("result")}/${message.subtype} ` +
        dim(
          `turns=${message.num_turns} duration=${message.duration_ms}ms cost=$${message.total_cost_usd}`,
        ) +
        (message.subtype === "success" ? `\n  ${JSON.stringify(message.result)}` : "");
    default:
      return message.type;
  }
}

console.log(bold("The app receives:"));
const start = performance.now();
for await (
  const message of query({
    prompt: "Read notes.txt and tell me what it says.",
    options: {
      spawnClaudeCodeProcess: mock.spawn,
      includePartialMessages: true,
      canUseTool: permissions.canUseTool,
    },
  })
) {
  console.log(describe(message));
}
const wall = performance.now() - start;

console.log();
console.log(bold("The SDK wrote to the mock's stdin:"));
for (const entry of mock.writes()) {
  const frame = entry.frame!;
  const what = frame.type === "control_request"
    ? `control_request ${(frame.request as { subtype: string }).subtype}`
    : frame.type === "control_response"
    ? `control_response ${JSON.stringify((frame.response as { response?: unknown }).response)}`
    : frame.type === "user"
    ? `user ${JSON.stringify((frame.message as { content: unknown }).content).slice(0, 80)}`
    : frame.type;
  console.log(`  #${entry.index} ${what}`);
}
console.log();
console.log(bold("The permission recorder saw:"));
for (const d of permissions.decisions()) {
  console.log(`  ${d.tool} ${JSON.stringify(d.input)} -> ${d.result?.behavior}`);
}
const status = await mock.exited;
console.log();
console.log(
  dim(
    `exit code ${status.code}; ${scenario.timing} timing on the virtual clock; ${
      wall.toFixed(0)
    } ms of wall time`,
  ),
);
