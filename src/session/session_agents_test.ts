import assert from "node:assert/strict";
import { text } from "../builders/assistant.ts";
import { bashTool, genericTool, readTool, taskTool, writeTool } from "../builders/tools.ts";
import { any } from "../scenario/matcher.ts";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import type { Frame } from "../wire/frame.ts";
import { Session } from "./session.ts";
import { promptFrames } from "./_prompt_frames.ts";
import type { BuildContext } from "../builders/build_context.ts";
import type { ToolCall } from "../builders/tools.ts";
import {
  agentLacksTool,
  agentsFlagJson,
  BUILTIN_AGENT_TOOLS,
  customAgents,
  listedAgents,
  parseAgentsFlag,
  subagentMode,
  subagentModel,
} from "./session_agents.ts";

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

Deno.test("customAgents: --agents then initialize; initialize's with one bad entry are all left out", () => {
  const agents = customAgents({
    flag: JSON.stringify({ a: { description: "A", prompt: "A.", model: "sonnet" } }),
    initialize: {
      agents: { a: { description: "A2", prompt: "A." }, b: { description: "B", prompt: "B." } },
    },
  });
  assert.deepEqual(Object.keys(agents), ["a", "b"]);
  assert.equal(agents.a.description, "A2");
  // as 2.1.328 and 2.1.332 (conformance agents_bad_entry): silently, the good one too
  const dropped = customAgents({
    initialize: { agents: { broken: { prompt: "x" }, good: { description: "G", prompt: "G." } } },
  });
  assert.deepEqual(Object.keys(dropped), []);
});

Deno.test("parseAgentsFlag: the CLI's messages for text that is not JSON and for bad entries", () => {
  assert.throws(
    () => parseAgentsFlag("{nope"),
    (e: Error) =>
      e instanceof SyntaxError &&
      /^Invalid --agents configuration:\ninvalid JSON: /.test(e.message),
  );
  assert.throws(
    () => parseAgentsFlag('{"broken": {"prompt": "x"}}'),
    {
      name: "SyntaxError",
      message: "Invalid --agents configuration:\n" +
        "broken.description: Invalid input: expected string, received undefined",
    },
  );
  assert.throws(() => parseAgentsFlag("[1]"), /expected record, received array/);
  // a file path (the fake binary reads it), JSON null, an empty value: no agents here
  assert.deepEqual(parseAgentsFlag("agents.json"), {});
  assert.deepEqual(parseAgentsFlag("null"), {});
  assert.deepEqual(parseAgentsFlag(""), {});
});

Deno.test("agentsFlagJson: JSON, a file path or nothing, as the CLI tells them apart", () => {
  assert.equal(agentsFlagJson("").kind, "none");
  assert.equal(agentsFlagJson("5").kind, "json");
  assert.equal(agentsFlagJson('"str"').kind, "json");
  assert.equal(agentsFlagJson("null").kind, "file");
  assert.equal(agentsFlagJson("  ").kind, "file");
  assert.equal(agentsFlagJson("notjson").kind, "file");
  assert.throws(() => agentsFlagJson(' {"x": 1'), SyntaxError);
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

/** The Agent tool's hand-back among `frames` (its `tool_use_result` names `type`). */
function handBackOf(frames: Frame[], type: string): Any {
  return frames.find((f) => f.type === "user" && (f as Any).tool_use_result?.agentType === type);
}

/** The subagent's tool results among `frames`, in order. */
function subagentResults(frames: Frame[]): Any[] {
  return frames.filter((f) =>
    f.type === "user" && (f as Any).parent_tool_use_id !== null &&
    (f as Any).message.content[0]?.type === "tool_result"
  );
}

Deno.test("Explore and Plan are read-only: Write and Edit fail unasked, the hand-back has no trailer", async () => {
  for (const type of ["Explore", "Plan"]) {
    const frames = await run(type, {
      args: ["--permission-prompt-tool", "stdio"],
      tools: (ctx) => [
        writeTool(ctx, "/home/user/project/found.md", { content: "found\n" }),
        bashTool(ctx, "ls", { stdout: "notes.txt" }),
        readTool(ctx, "/home/user/project/notes.txt", { content: "notes\n" }),
      ],
      answer: (request) =>
        request.subtype === "can_use_tool"
          ? { behavior: "allow", updatedInput: request.input }
          : {},
    });
    const asked = frames.filter((f) =>
      f.type === "control_request" && (f as Any).request.subtype === "can_use_tool"
    ) as Any[];
    // Write is not asked about; Bash ls is read-only
    assert.deepEqual(asked.map((f) => f.request.tool_name), [], type);
    const [write] = subagentResults(frames);
    assert.equal(
      write.tool_use_result,
      "Error: No such tool available: Write. Write is not among the tools available here. " +
        "Continue with the tools you have.",
    );
    const handBack = handBackOf(frames, type);
    assert.deepEqual(handBack.tool_use_result.toolsUsed, ["Bash", "Read"]);
    const text = handBack.message.content[0].content[0].text;
    assert.ok(text.endsWith("\n  No problems found."), text);
  }
});

Deno.test("BUILTIN_AGENT_TOOLS: what each built-in agent lacks", () => {
  for (const tool of ["Write", "Edit", "NotebookEdit", "Agent", "ExitPlanMode"]) {
    assert.ok(agentLacksTool(BUILTIN_AGENT_TOOLS.Explore, tool), tool);
    assert.ok(agentLacksTool(BUILTIN_AGENT_TOOLS.Plan, tool), tool);
  }
  assert.ok(agentLacksTool(BUILTIN_AGENT_TOOLS["statusline-setup"], "Bash"));
  assert.ok(!agentLacksTool(BUILTIN_AGENT_TOOLS["statusline-setup"], "Edit"));
  assert.ok(!agentLacksTool(undefined, "Write"));
  assert.ok(!agentLacksTool({ tools: ["*"] }, "Write"));
});

Deno.test("any subagent's ExitPlanMode fails with the CLI's subagent message; the tools used sorted", async () => {
  const frames = await run("general-purpose", {
    tools: (ctx) => [
      writeTool(ctx, "/home/user/project/NOTE.md", { content: "note\n" }),
      bashTool(ctx, "ls", { stdout: "" }),
      genericTool(ctx, "ExitPlanMode", { input: {}, result: "" }),
    ],
    args: ["--permission-mode", "acceptEdits"],
  });
  const results = subagentResults(frames);
  assert.match(results[2].tool_use_result, /ExitPlanMode is not available inside subagents\./);
  const handBack = handBackOf(frames, "general-purpose");
  assert.deepEqual(handBack.tool_use_result.toolsUsed, ["Bash", "Write"]);
  assert.equal(handBack.tool_use_result.toolStats.otherToolCount, 1);
  const progress = frames.filter((f) => f.type === "system" && f.subtype === "task_progress");
  assert.equal((progress[2] as Any).description, "Review the notes");
  assert.equal((progress[2] as Any).usage.total_tokens, 120);
});

Deno.test("an agent's permissionMode decides its tool uses, unless the session's is acceptEdits", async () => {
  const writer = { description: "Writes.", prompt: "Write.", permissionMode: "acceptEdits" };
  const frames = await run("writer", {
    initialize: { agents: { writer } },
    tools: (ctx) => [writeTool(ctx, "/home/user/project/NOTE.md", { content: "note\n" })],
  });
  const [write] = subagentResults(frames);
  assert.equal(write.message.content[0].is_error, undefined);
  assert.deepEqual(write.tool_result_meta[0].permission_decision, {
    decision: "accept",
    source: "config",
    reason_type: "mode",
  });
  assert.equal(subagentMode("default", "acceptEdits"), "acceptEdits");
  assert.equal(subagentMode("acceptEdits", "default"), "acceptEdits");
  assert.equal(subagentMode("plan", "bypassPermissions"), "bypassPermissions");
  assert.equal(subagentMode("default", undefined), "default");
  // without it, the session's default mode with no one to ask: denied
  const denied = subagentResults(
    await run("writer", {
      initialize: { agents: { writer: { ...writer, permissionMode: undefined } } },
      tools: (ctx) => [writeTool(ctx, "/home/user/project/NOTE.md", { content: "note\n" })],
    }),
  );
  assert.equal(denied[0].message.content[0].is_error, true);
});

Deno.test("an agent's maxTurns: it stops after that many calls with the CLI's note, billed for them alone", async () => {
  const reader = { description: "Reads.", prompt: "Read.", maxTurns: 1 };
  const frames = await run("reader", {
    initialize: { agents: { reader } },
    tools: (ctx) => [
      readTool(ctx, "/home/user/project/a.txt", { content: "A\n" }),
      readTool(ctx, "/home/user/project/b.txt", { content: "B\n" }),
    ],
  });
  assert.equal(subagentResults(frames).length, 1);
  const note = "NOTE: this agent stopped at its 1-turn limit before finishing. It was still " +
    "calling tools and had produced no report. Send the agent a message (SendMessage) to let " +
    "it continue from where it stopped.\n";
  const notification = frames.find((f) =>
    f.type === "system" && f.subtype === "task_notification"
  ) as Any;
  assert.equal(notification.summary, note);
  assert.equal(notification.usage.tool_uses, 1);
  const handBack = handBackOf(frames, "reader");
  assert.equal(handBack.tool_use_result.harnessNoteCount, 2);
  assert.equal(handBack.tool_use_result.content[1].text, note);
  assert.equal(handBack.tool_use_result.totalToolUseCount, 1);
  const text: string = handBack.message.content[0].content[0].text;
  assert.ok(!text.includes("[Subagent hand-back]"));
  assert.ok(text.includes("\n  NOTE: this agent stopped"));
  // the main loop's two calls and the subagent's one (no report call): 3 x 120 input tokens
  const result = frames.find((f) => f.type === "result") as Any;
  assert.equal(result.modelUsage["claude-opus-5-5"].inputTokens, 360);
});

Deno.test("a subagent's own Agent call: a nested subagent at depth 2, only its task frames written", async () => {
  const frames = await run("general-purpose", {
    tools: (ctx) => [
      taskTool(ctx, "Read notes", {
        prompt: "Read notes.txt.",
        result: "notes.txt holds notes.",
        tools: [readTool(ctx, "/home/user/project/notes.txt", { content: "notes\n" })],
      }),
    ],
  });
  const started = frames.filter((f) =>
    f.type === "system" && f.subtype === "task_started"
  ) as Any[];
  assert.deepEqual(started.map((f) => f.spawn_depth), [1, 2]);
  assert.equal(started[1].parent_task_id, started[0].task_id);
  assert.equal("parent_task_id" in started[0], false);
  // the nested subagent's prompt, messages and tool results are not written
  const inner = frames.filter((f) => (f as Any).agent_id === started[1].task_id);
  assert.deepEqual(inner, []);
  const outer = handBackOf(frames, "general-purpose");
  assert.equal(outer.parent_tool_use_id, null);
  assert.deepEqual(outer.tool_use_result.toolsUsed, ["Agent", "Read"]);
  assert.equal("toolStats" in outer.tool_use_result, false);
  const result = frames.find((f) => f.type === "result") as Any;
  assert.equal(result.subagent_stats.max_depth, 2);
  assert.equal(result.subagent_stats.spawned_by_subagents, 1);
  // main 2 calls, the outer subagent 2, the nested one 2 (its Read and its report)
  assert.equal(result.modelUsage["claude-opus-5-5"].inputTokens, 720);
});

Deno.test("customAgents: initialize's agents named with a leading '-' are left out, the others kept (2.1.332)", () => {
  const def = { description: "d", prompt: "p" };
  const agents = customAgents({ initialize: { agents: { "-y": def, "-": def, "a-": def } } });
  assert.deepEqual(Object.keys(agents), ["a-"]);
});
