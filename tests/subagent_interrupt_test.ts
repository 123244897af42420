// A subagent interrupted while its own tool runs, through the real Agent SDK's query(): the
// app calls interrupt() when it sees the subagent's first task_progress; the mock's Bash
// `sleep 5` runs until then (untilInterrupt), as the real CLI 2.1.328 and 2.1.332 run it.
// Then a second prompt: the next turn runs from the session as the interrupt left it.
import assert from "node:assert/strict";
import { query, type SDKMessage, type SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";
import { MockTransport, ScenarioBuilder } from "../mod.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

function scenario() {
  return new ScenarioBuilder({ cwd: "/home/user/project" })
    .on("wait for it")
    .usesTask("Wait a while", {
      prompt: "Sleep five seconds, then read notes.txt.",
      result: "Waited and read.",
      tools: (t) =>
        t.usesBash("sleep 5", { stdout: "", untilInterrupt: true })
          .usesRead("/home/user/project/notes.txt", { content: "Project notes\n" }),
    })
    .respond("Waited.")
    .on("what now")
    .respond("Stopped as asked.")
    .build();
}

Deno.test("query(): interrupt() while a subagent's tool runs kills its task; the next turn goes on", async () => {
  const mock = new MockTransport(scenario());
  let release: (() => void) | undefined;
  const prompt = (async function* (): AsyncGenerator<SDKUserMessage> {
    yield {
      type: "user",
      message: { role: "user", content: "wait for it" },
      parent_tool_use_id: null,
    };
    await new Promise<void>((resolve) => (release = resolve));
    yield {
      type: "user",
      message: { role: "user", content: "what now" },
      parent_tool_use_id: null,
    };
  })();
  const q = query({
    prompt,
    options: { spawnClaudeCodeProcess: mock.spawn, allowedTools: ["Bash(sleep:*)"] },
  });
  const messages: SDKMessage[] = [];
  let interrupted = false;
  for await (const message of q) {
    messages.push(message);
    if (!interrupted && message.type === "system" && message.subtype === "task_progress") {
      interrupted = true;
      await q.interrupt();
    }
    if (message.type === "result") {
      if (messages.filter((m) => m.type === "result").length === 2) break;
      release?.();
    }
  }
  q.close();
  const results = messages.filter((m) => m.type === "result") as Any[];
  assert.equal(results.length, 2);
  const [stopped, next] = results;
  assert.equal(stopped.subtype, "error_during_execution");
  assert.equal(stopped.terminal_reason, "aborted_tools");
  assert.deepEqual(stopped.subagent_stats.killed, { parent: 0, user: 1, system: 0 });
  assert.equal(stopped.subagent_stats.completed, 0);
  const tasks = messages.filter((m: Any) =>
    m.type === "system" && ["task_updated", "task_notification"].includes(m.subtype)
  ) as Any[];
  assert.deepEqual(tasks.map((t) => t.patch?.status ?? t.status), ["killed", "stopped"]);
  // the Agent call's result is the rejection of a tool stopped while running; the subagent's
  // Bash has no result, its Read never ran
  const toolResults = messages.filter((m: Any) =>
    m.type === "user" && Array.isArray(m.message.content) &&
    m.message.content[0]?.type === "tool_result"
  ) as Any[];
  assert.equal(toolResults.length, 1);
  assert.equal(toolResults[0].parent_tool_use_id, null);
  assert.match(toolResults[0].message.content[0].content, /stopped while running/);
  // the next turn: answered, a success
  assert.equal(next.subtype, "success");
  assert.equal(next.result, "Stopped as asked.");
  assert.equal(next.subagent_stats.killed.user, 1);
});
