import assert from "node:assert/strict";
import { text } from "../builders/assistant.ts";
import { bashTool, readTool, taskTool, writeTool } from "../builders/tools.ts";
import { any } from "../scenario/matcher.ts";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import type { Frame } from "../wire/frame.ts";
import { Session } from "./session.ts";
import { promptFrames } from "./_prompt_frames.ts";
import type { BuildContext } from "../builders/build_context.ts";
import type { ToolCall } from "../builders/tools.ts";
import { customAgents, listedAgents, parseAgentsFlag, subagentModel } from "./session_agents.ts";

const REVIEWER = {
  description: "Reviews text for problems.",
  prompt: "You are a careful reviewer.",
  tools: ["Read", "Grep"],
  model: "haiku",
};

/** One prompt that starts a subagent of `type`; the frames written, control answered `{}`. */
function run(
  type: string,
  options: {
    initialize?: Record<string, unknown>;
    args?: string[];
    tools?: (ctx: BuildContext) => ToolCall[];
    answer?: (request: Any) => Record<string, unknown>;
  } = {},
): Promise<Frame[]> {
  const tools = options.tools ??
    ((ctx) => [readTool(ctx, "/home/user/project/notes.txt", { content: "notes\n" })]);
  const scenario = new ScenarioBuilder({ cwd: "/home/user/project" })
    .on(any())
    .respond((ctx) =>
      taskTool(ctx, "Review the notes", {
        prompt: "Review notes.txt.",
        result: "No problems found.",
        subagentType: type,
        tools: tools(ctx),
      })
    )
    .respond(text("Reviewed."))
    .build();
  const session = new Session(scenario, { args: options.args ?? [] });
  return promptFrames(session, "review the notes", {
    initialize: options.initialize,
    answer: options.answer,
  });
}

// deno-lint-ignore no-explicit-any
type Any = any;

/** The agents listed with `reviewer` defined: the built-in ones and it, sorted by name. */
const LISTED = ["claude", "Explore", "general-purpose", "Plan", "reviewer", "statusline-setup"];

Deno.test("a custom agent from initialize is listed among the built-in ones, sorted by name", async () => {
  const frames = await run("reviewer", { initialize: { agents: { reviewer: REVIEWER } } });
  const answer = frames.find((f) => f.type === "control_response") as Any;
  assert.deepEqual(answer.response.response.agents.map((a: Any) => a.name), LISTED);
  assert.deepEqual(
    answer.response.response.agents.find((a: Any) => a.name === "reviewer"),
    { name: "reviewer", description: "Reviews text for problems.", model: "haiku" },
  );
  const init = frames.find((f) => f.type === "system" && f.subtype === "init") as Any;
  assert.ok(init.agents.includes("reviewer"));
});

Deno.test("--agents lists its agents in system/init", async () => {
  const frames = await run("reviewer", {
    args: ["--agents", JSON.stringify({ reviewer: REVIEWER })],
  });
  const init = frames.find((f) => f.type === "system" && f.subtype === "init") as Any;
  assert.deepEqual(init.agents, LISTED);
});

Deno.test("a custom agent's model: the subagent's messages, resolvedModel, modelUsage by model", async () => {
  const frames = await run("reviewer", { initialize: { agents: { reviewer: REVIEWER } } });
  const sub = frames.filter((f) =>
    f.type === "assistant" && (f as Any).parent_tool_use_id !== null
  ) as Any[];
  assert.ok(sub.length > 0);
  for (const f of sub) assert.equal(f.message.model, "claude-haiku-5-5");
  const main = frames.filter((f) =>
    f.type === "assistant" && (f as Any).parent_tool_use_id === null
  ) as Any[];
  for (const f of main) assert.equal(f.message.model, "claude-opus-5-5");
  const handBack = frames.find((f) =>
    f.type === "user" && (f as Any).tool_use_result?.agentType === "reviewer"
  ) as Any;
  assert.equal(handBack.tool_use_result.resolvedModel, "claude-haiku-5-5");
  const result = frames.find((f) => f.type === "result") as Any;
  assert.deepEqual(Object.keys(result.modelUsage), ["claude-opus-5-5", "claude-haiku-5-5"]);
  // the main loop's two calls on opus, the subagent's on haiku
  assert.equal(result.modelUsage["claude-opus-5-5"].inputTokens, 240);
  assert.ok(result.modelUsage["claude-haiku-5-5"].inputTokens > 0);
});

Deno.test("an unknown subagent_type: the CLI's error, no subagent runs", async () => {
  const frames = await run("nobody", { initialize: { agents: { reviewer: REVIEWER } } });
  assert.equal(
    frames.some((f) => f.type === "system" && f.subtype === "task_started"),
    false,
  );
  const error = frames.find((f) =>
    f.type === "user" && typeof (f as Any).tool_use_result === "string"
  ) as Any;
  const message =
    "Agent type 'nobody' not found. Available agents: claude, Explore, general-purpose, Plan, reviewer, statusline-setup";
  assert.deepEqual(error.message.content[0].content, message);
  assert.equal(error.message.content[0].is_error, true);
  assert.equal(error.tool_use_result, `Error: ${message}`);
  const result = frames.find((f) => f.type === "result") as Any;
  assert.deepEqual(Object.keys(result.modelUsage), ["claude-opus-5-5"]);
});

Deno.test("customAgents: --agents then initialize, invalid definitions left out", () => {
  const agents = customAgents({
    flag: JSON.stringify({ a: { description: "A", model: "sonnet" }, bad: { prompt: "x" } }),
    initialize: { agents: { a: { description: "A2" }, b: { description: "B" } } },
  });
  assert.deepEqual(Object.keys(agents), ["a", "b"]);
  assert.equal(agents.a.description, "A2");
});

Deno.test("parseAgentsFlag rejects JSON text that is not valid; a file path gives no agents", () => {
  assert.throws(() => parseAgentsFlag("{nope"), SyntaxError);
  assert.throws(() => parseAgentsFlag("{} []"), /not valid JSON/);
  assert.deepEqual(parseAgentsFlag("agents.json"), {});
});

Deno.test("listedAgents: a custom agent takes a built-in one's place; subagentModel resolves", () => {
  const listed = listedAgents({ Plan: { description: "Mine.", model: "sonnet" } });
  assert.equal(listed.filter((a) => a.name === "Plan").length, 1);
  assert.equal(subagentModel(listed, "Plan", "claude-opus-5-5"), "claude-sonnet-5-5");
  assert.equal(subagentModel(listed, "Explore", "claude-opus-5-5"), "claude-opus-5-5");
  assert.equal(subagentModel(listed, "general-purpose", "claude-opus-5-5"), "claude-opus-5-5");
});

Deno.test("a custom agent's tools: a tool it lacks gets the CLI's error, unasked; not among the tools used", async () => {
  const frames = await run("reviewer", {
    initialize: { agents: { reviewer: REVIEWER } },
    tools: (ctx) => [
      bashTool(ctx, "cat notes.txt", { stdout: "notes" }),
      readTool(ctx, "/home/user/project/notes.txt", { content: "notes\n" }),
    ],
  });
  assert.equal(frames.some((f) => f.type === "control_request"), false);
  const message =
    "Error: No such tool available: Bash. Bash is not among the tools available here. Continue with the tools you have.";
  const error = frames.find((f) =>
    f.type === "user" && (f as Any).parent_tool_use_id !== null &&
    (f as Any).message.content[0].is_error === true
  ) as Any;
  assert.equal(error.message.content[0].content, `<tool_use_error>${message}</tool_use_error>`);
  assert.equal(error.tool_use_result, message);
  assert.equal("tool_result_meta" in error, false);
  const progress = frames.filter((f) => f.type === "system" && f.subtype === "task_progress");
  assert.deepEqual(progress.map((f) => (f as Any).usage.total_tokens), [122, 123]);
  const handBack = frames.find((f) =>
    f.type === "user" && (f as Any).tool_use_result?.agentType === "reviewer"
  ) as Any;
  assert.deepEqual(handBack.tool_use_result.toolsUsed, ["Read"]);
  assert.equal(handBack.tool_use_result.toolStats.bashCount, 1);
  assert.equal(handBack.tool_use_result.totalToolUseCount, 2);
  assert.match(
    handBack.message.content[0].content[0].text,
    /<tools-used-before-summary>Read<\/tools-used-before-summary>/,
  );
});

Deno.test("a subagent's denied tool: tool_use_result on its error, the session's permission_denials", async () => {
  const frames = await run("cleaner", {
    args: ["--permission-prompt-tool", "stdio"],
    initialize: {
      agents: { cleaner: { description: "Cleans.", prompt: "Clean.", tools: ["Bash", "Write"] } },
    },
    tools: (ctx) => [
      bashTool(ctx, "rm -rf build", { stdout: "" }),
      writeTool(ctx, "/home/user/project/NOTE.md", { content: "cleaned\n" }),
    ],
    answer: (request) =>
      request.subtype !== "can_use_tool"
        ? {}
        : request.tool_name === "Write"
        ? { behavior: "deny", message: "No notes, please." }
        : { behavior: "allow", updatedInput: request.input },
  });
  const asks = frames.filter((f) =>
    f.type === "control_request" && (f as Any).request.subtype === "can_use_tool"
  ) as Any[];
  assert.deepEqual(asks.map((f) => f.request.tool_name), ["Bash", "Write"]);
  assert.ok(asks.every((f) => typeof f.request.agent_id === "string"));
  const denied = frames.find((f) =>
    f.type === "user" && (f as Any).parent_tool_use_id !== null &&
    (f as Any).message.content[0].is_error === true
  ) as Any;
  assert.equal(denied.tool_use_result, "Error: No notes, please.");
  const result = frames.find((f) => f.type === "result") as Any;
  assert.deepEqual(result.permission_denials.map((d: Any) => d.tool_name), ["Write"]);
  const handBack = frames.find((f) =>
    f.type === "user" && (f as Any).tool_use_result?.agentType === "cleaner"
  ) as Any;
  assert.deepEqual(handBack.tool_use_result.toolsUsed, ["Bash", "Write"]);
  assert.equal(handBack.tool_use_result.toolStats.linesAdded, 2);
});
