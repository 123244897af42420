import assert from "node:assert/strict";
import { text } from "../builders/assistant.ts";
import { genericTool } from "../builders/tools.ts";
import { any } from "../scenario/matcher.ts";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import type { Frame } from "../wire/frame.ts";
import { Session } from "./session.ts";
import { promptFrames } from "./_prompt_frames.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

/** One prompt whose reply uses `tool`; can_use_tool answered by `answer`. */
function run(
  tool: string,
  input: Record<string, unknown>,
  options: { args?: string[]; answer?: (request: Any) => Record<string, unknown> } = {},
): Promise<Frame[]> {
  const scenario = new ScenarioBuilder({ cwd: "/home/user/project" })
    .on(any())
    .respond((ctx) => genericTool(ctx, tool, { input, result: "ok", isError: false }))
    .respond(text("Done."))
    .build();
  const session = new Session(scenario, {
    args: ["--permission-prompt-tool", "stdio", ...(options.args ?? [])],
  });
  return promptFrames(session, "plan the fix", { answer: options.answer });
}

const toolResultOf = (frames: Frame[]) =>
  frames.find((f) =>
    f.type === "user" && Array.isArray((f as Any).message.content) &&
    (f as Any).message.content[0].type === "tool_result"
  ) as Any;
const statuses = (frames: Frame[]) =>
  frames.filter((f) => f.type === "system" && f.subtype === "status").map((f) =>
    (f as Any).permissionMode
  );

Deno.test("ExitPlanMode in plan mode: asked without its plan, allowed, back to default", async () => {
  const frames = await run("ExitPlanMode", { plan: "1. Fix it." }, {
    args: ["--permission-mode", "plan"],
    answer: (r) => ({ behavior: "allow", updatedInput: r.input }),
  });
  const ask = frames.find((f) => f.type === "control_request") as Any;
  assert.equal(ask.request.tool_name, "ExitPlanMode");
  assert.deepEqual(ask.request.input, {});
  assert.equal(ask.request.requires_user_interaction, true);
  assert.deepEqual(statuses(frames), ["default"]);
  const result = toolResultOf(frames);
  assert.equal(
    result.message.content[0].content,
    "User has approved exiting plan mode. You can now proceed.",
  );
  assert.equal(result.tool_use_result.plan, null);
  assert.equal(result.tool_use_result.isAgent, false);
  assert.match(
    result.tool_use_result.filePath,
    /^\/home\/user\/\.claude\/plans\/plan-the-fix-[a-z]+-[a-z]+\.md$/,
  );
  assert.deepEqual(result.tool_result_meta[0].permission_decision, {
    decision: "accept",
    source: "user_temporary",
  });
});

Deno.test("ExitPlanMode denied: the mode stays, the denial without the plan", async () => {
  const frames = await run("ExitPlanMode", { plan: "1. Fix it." }, {
    args: ["--permission-mode", "plan"],
    answer: () => ({ behavior: "deny", message: "Add a rollback step." }),
  });
  assert.deepEqual(statuses(frames), []);
  const result = toolResultOf(frames);
  assert.equal(result.tool_use_result, "Error: Add a rollback step.");
  const end = frames.find((f) => f.type === "result") as Any;
  assert.deepEqual(end.permission_denials[0].tool_input, {});
});

Deno.test("ExitPlanMode outside plan mode fails unasked", async () => {
  const frames = await run("ExitPlanMode", { plan: "1. Fix it." }, {
    answer: (r) => ({ behavior: "allow", updatedInput: r.input }),
  });
  assert.equal(frames.some((f) => f.type === "control_request"), false);
  const result = toolResultOf(frames);
  assert.match(result.message.content[0].content, /^<tool_use_error>You are not in plan mode\./);
  assert.match(result.tool_use_result, /^Error: You are not in plan mode\./);
  assert.equal("tool_result_meta" in result, false);
});

Deno.test("EnterPlanMode switches to plan mode unasked", async () => {
  const frames = await run("EnterPlanMode", {}, {
    answer: (r) => ({ behavior: "allow", updatedInput: r.input }),
  });
  assert.equal(frames.some((f) => f.type === "control_request"), false);
  assert.deepEqual(statuses(frames), ["plan"]);
  const result = toolResultOf(frames);
  assert.match(result.message.content[0].content, /^Entered plan mode\./);
  assert.deepEqual(result.tool_use_result, {
    message:
      "Entered plan mode. You should now focus on exploring the codebase and designing an implementation approach.",
  });
  assert.deepEqual(result.tool_result_meta[0].permission_decision, {
    decision: "accept",
    source: "config",
  });
});
