import assert from "node:assert/strict";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import type { Frame } from "../wire/frame.ts";
import { Session } from "./session.ts";
import { promptFrames } from "./_prompt_frames.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

function scenario(options: { notification?: boolean; runInBackground?: boolean } = {}) {
  const builder = new ScenarioBuilder({ cwd: "/home/user/project" })
    .on("check")
    .usesTask("Check notes", {
      prompt: "Read notes.txt.",
      result: "The notes are fine.",
      ...(options.runInBackground ? { runInBackground: true } : { subagentType: "reader" }),
      tools: (t) => t.usesRead("/home/user/project/notes.txt", { content: "Project notes\n" }),
    })
    .respond("Checking in the background.");
  if (options.notification !== false) {
    builder.on("<task-notification>").respond("The notes are fine.");
  }
  return builder.build();
}

const READER = { reader: { description: "Reads.", prompt: "Read.", background: true } };

function run(options: { runInBackground?: boolean } = {}): Promise<Frame[]> {
  const session = new Session(scenario(options), {});
  return promptFrames(session, "check", {
    ...(options.runInBackground ? {} : { initialize: { agents: READER } }),
  });
}

Deno.test("a background agent: the session stays running between the turn and the notification turn, idle once at the end", async () => {
  const frames = await run();
  const states = frames.filter((f: Any) => f.subtype === "session_state_changed")
    .map((f: Any) => f.state);
  assert.deepEqual(states, ["running", "idle"]);
  const inits = frames.filter((f: Any) => f.subtype === "init");
  assert.equal(inits.length, 2);
  const results = frames.filter((f) => f.type === "result") as Any[];
  assert.deepEqual(results.map((r) => r.result), [
    "Checking in the background.",
    "The notes are fine.",
  ]);
  assert.equal("origin" in results[0], false);
  assert.deepEqual(Object.keys(results[1].origin), ["kind", "producer", "runId"]);
  assert.equal(results[1].num_turns, 1);
  assert.equal(results[1].result_index, 1);
});

Deno.test("a background agent's first call is billed before the launching turn's result, the rest after", async () => {
  const frames = await run();
  const [first, second] = frames.filter((f) => f.type === "result") as Any[];
  const since = (r: Any) => r.model_usage_since_last_result["claude-opus-5-5"].inputTokens;
  // the main loop's two calls and the subagent's first; then its report and the notification's
  assert.equal(since(first), 3 * 120);
  assert.equal(since(second), 2 * 120);
  assert.equal(first.usage.input_tokens, 2 * 120);
});

Deno.test("run_in_background: counted as requested in the background, the launch input says so", async () => {
  const frames = await run({ runInBackground: true });
  const call = frames.find((f: Any) => f.type === "assistant") as Any;
  assert.equal(call.message.content[0].input.run_in_background, true);
  const [first, second] = frames.filter((f) => f.type === "result") as Any[];
  assert.deepEqual(first.subagent_stats.requested, { background: 1, foreground: 0, unset: 0 });
  assert.equal(first.subagent_stats.started_in_background, 1);
  assert.equal(first.subagent_stats.spawned, 1);
  assert.equal(second.subagent_stats.completed, 1);
  assert.deepEqual(second.subagent_stats.by_type, { "general-purpose": 1 });
});

Deno.test("the notification turn's text is the CLI's <task-notification>, naming the task and its report", async () => {
  const seen: string[] = [];
  const builder = new ScenarioBuilder({ cwd: "/home/user/project" })
    .on("check")
    .usesTask("Check notes", {
      prompt: "Read notes.txt.",
      result: "The notes are fine.",
      subagentType: "reader",
    })
    .respond("Checking.")
    .on((text) => {
      seen.push(text);
      return text.includes("<task-notification>");
    })
    .respond("Done.");
  const session = new Session(builder.build(), {});
  const frames = await promptFrames(session, "check", { initialize: { agents: READER } });
  const started = frames.find((f: Any) => f.subtype === "task_started") as Any;
  const text = seen.at(-1)!;
  assert.match(text, /^<system-reminder>\n\[SYSTEM NOTIFICATION - NOT USER INPUT\]/);
  assert.ok(text.includes(`<task-id>${started.task_id}</task-id>`));
  assert.ok(text.includes(`<tool-use-id>${started.tool_use_id}</tool-use-id>`));
  assert.ok(text.includes(`<summary>Agent "Check notes" finished</summary>`));
  assert.ok(text.includes("<result>The notes are fine.</result>"));
  // a subagent with no tools: its report is its first message, before the turn's result
  const kinds = frames.map((f: Any) =>
    f.type === "assistant" && f.parent_tool_use_id ? "report" : f.type
  );
  assert.ok(kinds.indexOf("report") < kinds.indexOf("result"));
});

Deno.test("a notification turn no exchange answers fails, saying how to answer it", async () => {
  const session = new Session(scenario({ notification: false }), {});
  const frames = await promptFrames(session, "check", { initialize: { agents: READER } });
  const results = frames.filter((f) => f.type === "result") as Any[];
  assert.equal(results.length, 2);
  assert.equal(results[1].subtype, "error_during_execution");
  assert.match(
    results[1].errors[0],
    /background subagent finished: answer it with an exchange on "<task-notification>"/,
  );
});
