import assert from "node:assert/strict";
import { text } from "../builders/assistant.ts";
import { bashTool, taskTool } from "../builders/tools.ts";
import { any } from "../scenario/matcher.ts";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import type { Frame } from "../wire/frame.ts";
import { Session } from "./session.ts";
import { promptFrames } from "./_prompt_frames.ts";

/** Runs one prompt, answering every hook with `{}` and every can_use_tool with `answer`. */
function run(answer: Record<string, unknown>): Promise<Frame[]> {
  const scenario = new ScenarioBuilder({ cwd: "/home/user/project" })
    .on(any())
    .respond([
      text("Delegating."),
      (ctx) =>
        taskTool(ctx, "Clean up", {
          prompt: "Remove the build directory.",
          result: "Could not remove it.",
          tools: [bashTool(ctx, "rm -rf build", { stdout: "" })],
        }),
    ])
    .respond("Done.")
    .build();
  const session = new Session(scenario, { args: ["--permission-prompt-tool", "stdio"] });
  return promptFrames(session, "clean up", {
    initialize: {
      hooks: {
        SubagentStart: [{ hookCallbackIds: ["start"] }],
        PreToolUse: [{ hookCallbackIds: ["pre"] }],
        SubagentStop: [{ hookCallbackIds: ["stop"] }],
      },
    },
    answer: (request) => request.subtype === "can_use_tool" ? answer : undefined,
  });
}

/** What each frame is, with the hook event or the tool asked about. */
function kinds(frames: Frame[]): string[] {
  return frames.flatMap((f) => {
    if (f.type === "control_request") {
      const r = f.request as { subtype: string; input?: { hook_event_name?: string } };
      if (r.subtype === "hook_callback") return [`hook ${r.input?.hook_event_name}`];
      return [r.subtype];
    }
    if (f.type === "assistant" && f.parent_tool_use_id !== null) return ["subagent assistant"];
    if (f.type === "user" && f.parent_tool_use_id !== null) return ["subagent user"];
    if (f.type === "system" && String(f.subtype).startsWith("task_")) return [String(f.subtype)];
    return [];
  });
}

Deno.test("a subagent's Bash command goes through the tool flow: PreToolUse, then can_use_tool naming the subagent, after its block", async () => {
  const frames = await run({ behavior: "deny", message: "Not now." });
  assert.deepEqual(kinds(frames), [
    "hook PreToolUse", // the Agent tool itself
    "task_started",
    "hook SubagentStart",
    "subagent user", // its prompt
    "task_progress",
    "subagent assistant", // a Bash command is checked after its block
    "hook PreToolUse",
    "can_use_tool",
    "subagent user", // the denial
    "hook SubagentStop",
    "task_updated",
    "task_notification",
  ]);
  const asked = frames.find((f) =>
    f.type === "control_request" && (f.request as { subtype: string }).subtype === "can_use_tool"
  )!.request as Record<string, unknown>;
  const started = frames.find((f) => f.type === "system" && f.subtype === "task_started")!;
  assert.equal(asked.agent_id, started.task_id);
  const pre = frames.filter((f) =>
    f.type === "control_request" &&
    (f.request as { input?: { hook_event_name?: string } }).input?.hook_event_name === "PreToolUse"
  ).map((f) => (f.request as { input: Record<string, unknown> }).input);
  assert.equal("agent_id" in pre[0], false, "the main agent's hook names no agent");
  assert.equal(pre[1].agent_id, started.task_id);
  assert.equal(pre[1].agent_type, "general-purpose");
  const denied = frames.filter((f) => f.type === "user" && f.parent_tool_use_id !== null)[1];
  const content = (denied.message as { content: Array<{ is_error?: boolean; content: string }> })
    .content[0];
  assert.equal(content.is_error, true);
  assert.equal(content.content, "Not now.");
  assert.ok(frames.some((f) => f.type === "result"), "the turn goes on to its result");
});

Deno.test("a subagent's allowed Bash command runs: its result, then SubagentStop with the report", async () => {
  const frames = await run({ behavior: "allow", updatedInput: { command: "rm -rf build" } });
  const stop = frames.find((f) =>
    f.type === "control_request" &&
    (f.request as { input?: { hook_event_name?: string } }).input?.hook_event_name ===
      "SubagentStop"
  )!.request as { input: Record<string, unknown> };
  assert.equal(stop.input.last_assistant_message, "Could not remove it.");
  assert.match(String(stop.input.agent_transcript_path), /\/subagents\/agent-[^/]+\.jsonl$/);
  const ran = frames.filter((f) => f.type === "user" && f.parent_tool_use_id !== null)[1];
  const content = (ran.message as { content: Array<{ is_error?: boolean }> }).content[0];
  assert.notEqual(content.is_error, true);
});
