import assert from "node:assert/strict";
import { text } from "../builders/assistant.ts";
import { any } from "../scenario/matcher.ts";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import type { Frame } from "../wire/frame.ts";
import { Session } from "./session.ts";
import { promptFrames } from "./_prompt_frames.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

const REJECTED_RUNNING = "The user doesn't want to proceed with this tool use. The tool use " +
  "was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP " +
  "what you are doing and wait for the user to tell you how to proceed. Correction to the text " +
  "above: this call was stopped while running, not refused before it ran. It may have run in " +
  "part or in full, and its changes may have been written. No permission prompt was involved. " +
  "Work it started elsewhere (a remote command, a background process) may still be running, so " +
  "check before starting the same work again. The instruction to stop and wait still stands.";

/** A subagent whose `sleep 5` runs until the interrupt, then would read a file. */
function subagentScenario() {
  return new ScenarioBuilder({ cwd: "/home/user/project" })
    .on(any())
    .usesTask("Wait a while", {
      prompt: "Sleep five seconds, then read notes.txt.",
      result: "Waited and read.",
      tools: (t) =>
        t.usesBash("sleep 5", { stdout: "", untilInterrupt: true })
          .usesRead("/home/user/project/notes.txt", { content: "Project notes\n" }),
    })
    .respond("Waited.")
    .build();
}

/** What each frame is (subtype, the subagent's frames marked). */
function kinds(frames: Frame[]): string[] {
  return frames.flatMap((f: Any) => {
    if (f.type === "system") {
      return f.subtype === "init" || f.subtype === "session_state_changed" ? [] : [f.subtype];
    }
    if (f.type === "control_response") return [];
    const sub = f.parent_tool_use_id ? "subagent " : "";
    if (f.type === "user") {
      const block = Array.isArray(f.message.content) ? f.message.content[0] : undefined;
      return [`${sub}user ${block?.type === "tool_result" ? "tool_result" : block?.text}`];
    }
    if (f.type === "assistant") return [`${sub}assistant ${f.message.content[0].name ?? "text"}`];
    return [f.type === "result" ? `result ${f.subtype}` : f.type];
  });
}

Deno.test("untilInterrupt: a subagent's tool stopped by an interrupt kills its task and rejects the Agent call, as 2.1.332", async () => {
  const session = new Session(subagentScenario(), { args: ["--allowedTools", "Bash(sleep:*)"] });
  const frames = await promptFrames(session, "wait for it", {
    interruptAfter: (f) => f.type === "system" && f.subtype === "task_progress",
  });
  assert.deepEqual(kinds(frames), [
    "assistant Agent",
    "task_started",
    "subagent user Sleep five seconds, then read notes.txt.",
    "task_progress",
    "subagent assistant Bash",
    // no result of its own for the subagent's Bash, no Read
    "user tool_result",
    "task_updated",
    "task_notification",
    "user [Request interrupted by user for tool use]",
    "result error_during_execution",
  ]);
  const agentUse = (frames.find((f: Any) => f.type === "assistant") as Any).message.content[0];
  const rejected = frames.find((f: Any) =>
    f.type === "user" && f.message.content[0]?.type === "tool_result"
  ) as Any;
  assert.equal(rejected.parent_tool_use_id, null);
  assert.deepEqual(rejected.message.content[0], {
    type: "tool_result",
    content: REJECTED_RUNNING,
    is_error: true,
    tool_use_id: agentUse.id,
  });
  assert.equal(rejected.tool_use_result, "User rejected tool use");
  assert.deepEqual(rejected.tool_result_meta, [
    { id: agentUse.id, non_execution_kind: "user-rejected" },
  ]);
  const updated = frames.find((f: Any) => f.subtype === "task_updated") as Any;
  assert.equal(updated.patch.status, "killed");
  const notice = frames.find((f: Any) => f.subtype === "task_notification") as Any;
  assert.equal(notice.status, "stopped");
  assert.equal(notice.summary, "Wait a while");
  assert.equal("usage" in notice, false);
  const result = frames.find((f: Any) => f.type === "result") as Any;
  assert.equal(result.terminal_reason, "aborted_tools");
  assert.equal(result.stop_reason, "tool_use");
  assert.equal(result.num_turns, 3);
  assert.equal(result.is_error, true);
  const stats = result.subagent_stats;
  assert.equal(stats.spawned, 1);
  assert.equal(stats.completed, 0);
  assert.deepEqual(stats.killed, { parent: 0, user: 1, system: 0 });
  assert.deepEqual(stats.requested, { background: 0, foreground: 1, unset: 0 });
  assert.deepEqual(stats.by_type, { "general-purpose": 1 });
  // the main loop's one call in usage; the subagent's call billed in modelUsage
  const model = result.modelUsage["claude-opus-5-5"];
  assert.equal(model.inputTokens, result.usage.input_tokens * 2);
  assert.ok(model.outputTokens > result.usage.output_tokens);
});

Deno.test("untilInterrupt: the main agent's own tool stopped while it runs gets the same rejection, no task frames", async () => {
  const scenario = new ScenarioBuilder({ cwd: "/home/user/project" })
    .on(any())
    .usesBash("sleep 5", { stdout: "", untilInterrupt: true })
    .respond("Waited.")
    .build();
  const session = new Session(scenario, { args: ["--allowedTools", "Bash(sleep:*)"] });
  const frames = await promptFrames(session, "wait for it", {
    interruptAfter: (f) => f.type === "assistant",
  });
  assert.deepEqual(kinds(frames), [
    "assistant Bash",
    "user tool_result",
    "user [Request interrupted by user for tool use]",
    "result error_during_execution",
  ]);
  const rejected = frames.find((f: Any) => f.type === "user") as Any;
  assert.equal(rejected.message.content[0].content, REJECTED_RUNNING);
  const result = frames.find((f: Any) => f.type === "result") as Any;
  assert.deepEqual(result.subagent_stats.killed, { parent: 0, user: 0, system: 0 });
});

Deno.test("untilInterrupt: without an interrupt the turn fails past the control timeout, naming the tool", async () => {
  const scenario = new ScenarioBuilder({ cwd: "/home/user/project" })
    .on(any())
    .usesTask("Wait", {
      prompt: "Sleep.",
      result: "Slept.",
      tools: (t) => t.usesBash("sleep 5", { stdout: "", untilInterrupt: true }),
    })
    .respond(text("Done."))
    .build();
  const session = new Session(scenario, {
    args: ["--allowedTools", "Bash(sleep:*)"],
    controlTimeoutMs: 1,
  });
  const frames = await promptFrames(session, "wait");
  const result = frames.find((f: Any) => f.type === "result") as Any;
  assert.equal(result.subtype, "error_during_execution");
  assert.match(
    result.errors[0],
    /a subagent's Bash tool use \(toolu_\w+\) runs until the app interrupts the session \(untilInterrupt\), but no interrupt came within 1 ms of real time/,
  );
});

Deno.test("untilInterrupt: a tool before it in the subagent runs and has its result", async () => {
  const scenario = new ScenarioBuilder({ cwd: "/home/user/project" })
    .on(any())
    .usesTask("Read then wait", {
      prompt: "Read, then sleep.",
      result: "Done.",
      tools: (t) =>
        t.usesRead("/home/user/project/a.txt", { content: "A\n" })
          .usesBash("sleep 5", { stdout: "", untilInterrupt: true }),
    })
    .respond(text("Done."))
    .build();
  const session = new Session(scenario, { args: ["--allowedTools", "Bash(sleep:*)"] });
  const frames = await promptFrames(session, "go", {
    interruptAfter: (f: Any) => f.type === "assistant" && f.message.content[0].name === "Bash",
  });
  assert.deepEqual(kinds(frames).slice(3), [
    "task_progress",
    "subagent assistant Read",
    "subagent user tool_result",
    "task_progress",
    "subagent assistant Bash",
    "user tool_result",
    "task_updated",
    "task_notification",
    "user [Request interrupted by user for tool use]",
    "result error_during_execution",
  ]);
});
