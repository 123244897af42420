// A background subagent through the real Agent SDK's query(): an agent defined with
// `background: true`; the Agent call returns at once with the CLI's launch text, the turn ends,
// the subagent runs on, and the CLI starts a turn by itself to tell the model (answered by the
// scenario's exchange on "<task-notification>"), as the real CLI 2.1.328-2.1.332 does.
import assert from "node:assert/strict";
import { query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { MockTransport, ScenarioBuilder } from "../mod.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

function scenario() {
  return new ScenarioBuilder({ cwd: "/home/user/project" })
    .on("read both notes")
    .usesTask("Read both notes", {
      prompt: "Read a.txt and b.txt.",
      result: "Both read.",
      subagentType: "reader",
      tools: (t) =>
        t.usesRead("/home/user/project/a.txt", { content: "A\n" })
          .usesRead("/home/user/project/b.txt", { content: "B\n" }),
    })
    .respond("The reader runs in the background.")
    .on("<task-notification>")
    .respond("The reader read both notes.")
    .build();
}

Deno.test("query(): a background agent's call returns at once; its notification starts a turn of its own", async () => {
  const mock = new MockTransport(scenario());
  const messages: SDKMessage[] = [];
  for await (
    const message of query({
      prompt: "read both notes",
      options: {
        spawnClaudeCodeProcess: mock.spawn,
        agents: {
          reader: { description: "Reads files.", prompt: "You read files.", background: true },
        },
      },
    })
  ) {
    messages.push(message);
  }
  const what = messages.map((m: Any) =>
    m.type === "system"
      ? m.subtype
      : m.type === "result"
      ? `result ${m.result}`
      : `${m.parent_tool_use_id ? "subagent " : ""}${m.type}`
  ).filter((k) => k !== "init");
  assert.deepEqual(what, [
    "assistant", // the Agent call
    "background_tasks_changed",
    "task_started",
    "user", // the launch text, at once
    "assistant", // the turn goes on
    "subagent assistant", // the subagent's first message, before the turn's result
    "task_progress",
    "result The reader runs in the background.",
    "subagent user",
    "subagent assistant",
    "task_progress",
    "subagent user",
    "subagent assistant", // its report
    "task_updated",
    "task_notification",
    "background_tasks_changed",
    "assistant", // the notification turn's answer
    "result The reader read both notes.",
  ]);
  const launch = messages.find((m: Any) =>
    m.type === "user" && m.parent_tool_use_id === null
  ) as Any;
  assert.match(launch.message.content[0].content[0].text, /^Async agent launched successfully\./);
  assert.equal(launch.tool_use_result.status, "async_launched");
  assert.equal(launch.tool_use_result.isAsync, true);
  const started = messages.find((m: Any) => m.subtype === "task_started") as Any;
  assert.equal(started.is_backgrounded, true);
  const [first, second] = messages.filter((m) => m.type === "result") as Any[];
  assert.equal(first.subagent_stats.started_in_background, 1);
  assert.equal(first.subagent_stats.completed, 0);
  assert.deepEqual(first.subagent_stats.requested, { background: 0, foreground: 1, unset: 0 });
  assert.equal(second.subagent_stats.completed, 1);
  assert.equal(second.origin.kind, "task-notification");
  assert.equal(second.origin.runId, started.run_id);
  const notice = messages.find((m: Any) => m.subtype === "task_notification") as Any;
  assert.equal(notice.summary, "Both read.");
  assert.equal(notice.summary_is_report, true);
});
