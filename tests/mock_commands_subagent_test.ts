// A subagent of `__mock__` commands (`agent_id`) runs the app's hooks and permission checks as
// the same subagent run by a scenario (a Task/Agent tool use) does, through the real SDK:
// SubagentStart and SubagentStop, each tool through PreToolUse, the permission rules and
// canUseTool (with the agent's id), PostToolUse and PostToolBatch, in the same order, with
// the same frames.
import assert from "node:assert/strict";
import type { SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import {
  type HookOutput,
  HookRecorder,
  MockTransport,
  PermissionRecorder,
  ScenarioBuilder,
} from "../mod.ts";
import { bashTool, readTool, taskTool, text } from "../builders.ts";
import { mockCommand } from "../mock_command.ts";
import { runQuery } from "./_sdk.ts";

const FILE = "/home/user/project/notes.txt";

/** The subagent run by a scenario: a Read (allowed by the mode), then a Bash command (asked). */
function scenarioMock(): MockTransport {
  return new MockTransport(
    new ScenarioBuilder({ cwd: "/home/user/project" })
      .on("delegate")
      .respond([
        text("I'll delegate this."),
        (ctx) =>
          taskTool(ctx, "Subagent explorer", {
            prompt: "Carry out the task of subagent explorer.",
            result: "The build uses make.",
            taskId: "explorer",
            tools: [
              readTool(ctx, FILE, { content: "make\n" }),
              bashTool(ctx, "make", { stdout: "built\n" }),
            ],
          }),
      ])
      .respond("Summary: make.")
      .build(),
  );
}

/** The same run, said by `__mock__` commands. */
const COMMANDS = mockCommand.sequence([
  mockCommand.textResponse("I'll delegate this."),
  mockCommand.toolUse("Read", { file_path: FILE }, { agentId: "explorer", toolUseId: "toolu_r" }),
  mockCommand.toolResult("toolu_r", { result: "make\n" }),
  mockCommand.toolUse("Bash", { command: "make" }, { agentId: "explorer", toolUseId: "toolu_b" }),
  mockCommand.toolResult("toolu_b", { result: "built\n" }),
  mockCommand.textResponse("The build uses make.", { agentId: "explorer" }),
  mockCommand.textResponse("Summary: make."),
]);

const EVENTS = [
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PostToolBatch",
  "SubagentStart",
  "SubagentStop",
] as const;

interface Seen {
  hooks: string[];
  /** SubagentStop's `last_assistant_message`. */
  report: unknown;
  asks: string[];
  kinds: string[];
  /** Where the subagent's words without a tool use are. */
  words: number[];
  subagentResults: unknown[];
  /** What the result says the turn cost (the subagent's API calls among them). */
  bill: unknown;
  /** How the turn ended. */
  end: unknown;
}

async function observe(
  mock: MockTransport,
  prompt: string,
  permissions: PermissionRecorder,
  options: { bashPreToolUse?: HookOutput } = {},
): Promise<Seen> {
  const hooks = new HookRecorder();
  if (options.bashPreToolUse) {
    hooks.on("PreToolUse", { matcher: "Bash", output: options.bashPreToolUse });
  }
  for (const event of EVENTS) hooks.on(event);
  const { messages, error } = await runQuery(mock, prompt, {
    hooks: hooks.hooks,
    canUseTool: permissions.canUseTool,
  });
  assert.equal(error, undefined);
  return {
    hooks: hooks.invocations().map((call) => {
      const input = call.input as Record<string, unknown>;
      return [
        call.event,
        call.toolName ?? "-",
        "agent_id" in input ? `agent ${input.agent_id}/${input.agent_type}` : "main",
      ].join(" ");
    }),
    report: (hooks.invocations("SubagentStop")[0]?.input as Record<string, unknown>)
      ?.last_assistant_message,
    asks: permissions.decisions().map((d) => `${d.tool} ${d.context.agentID ?? "main"}`),
    bill: (({ total_cost_usd, usage, modelUsage }) => ({ total_cost_usd, usage, modelUsage }))(
      messages.at(-1) as unknown as Record<string, unknown>,
    ),
    end: (({ subtype, stop_reason, terminal_reason, result }) => ({
      subtype,
      stop_reason,
      terminal_reason,
      result,
    }))(messages.at(-1) as unknown as Record<string, unknown>),
    kinds: messages.map(kindOf),
    words: messages.flatMap((m, i) =>
      m.type === "assistant" && m.parent_tool_use_id &&
        m.message.content.every((b) => b.type === "text")
        ? [i]
        : []
    ),
    subagentResults: messages.flatMap((m) =>
      m.type === "user" && m.parent_tool_use_id && Array.isArray(m.message.content)
        ? m.message.content.flatMap((b) =>
          b.type === "tool_result" ? [{ content: b.content, is_error: b.is_error }] : []
        )
        : []
    ),
  };
}

/**
 * The frames' kinds, but a subagent's words without a tool use: the commands write what the
 * subagent says (`text_response` with `agent_id`, its report), a scenario's taskTool() scripts
 * only its tool calls.
 */
function kindsBesideWords(seen: Seen): string[] {
  return seen.kinds.filter((k, i) => !(k === "assistant@sub" && seen.words.includes(i)));
}

function kindOf(m: SDKMessage): string {
  const sub = "parent_tool_use_id" in m && m.parent_tool_use_id ? "@sub" : "";
  return `${m.type}${"subtype" in m ? `/${m.subtype}` : ""}${sub}`;
}

Deno.test("__mock__ agent_id: a subagent's hooks and permission asks are the scenario path's (all allowed)", async () => {
  const byScenario = await observe(scenarioMock(), "delegate", PermissionRecorder.allowAll());
  const warnings: unknown[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => warnings.push(args);
  let byCommands: Seen;
  try {
    byCommands = await observe(new MockTransport(), COMMANDS, PermissionRecorder.allowAll());
  } finally {
    console.warn = warn;
  }
  // the Agent tool use's message has a tool use: what follows it is reachable
  assert.deepEqual(warnings, []);
  assert.deepEqual(byScenario.hooks, [
    "PreToolUse Agent main",
    "SubagentStart - agent explorer/general-purpose",
    "PreToolUse Read agent explorer/general-purpose",
    "PostToolUse Read agent explorer/general-purpose",
    "PostToolBatch - agent explorer/general-purpose",
    "PreToolUse Bash agent explorer/general-purpose",
    "PostToolUse Bash agent explorer/general-purpose",
    "PostToolBatch - agent explorer/general-purpose",
    "SubagentStop - agent explorer/general-purpose",
    "PostToolUse Agent main",
    "PostToolBatch - main",
  ]);
  assert.deepEqual(byCommands.hooks, byScenario.hooks);
  assert.deepEqual(byScenario.asks, ["Bash explorer"]);
  assert.deepEqual(byCommands.asks, byScenario.asks);
  assert.deepEqual(kindsBesideWords(byCommands), byScenario.kinds);
  assert.deepEqual(byCommands.words.length, 1);
  assert.deepEqual(byCommands.subagentResults, byScenario.subagentResults);
  assert.equal(byCommands.report, "The build uses make.");
  assert.deepEqual(byCommands.bill, byScenario.bill);
  assert.equal(byCommands.report, byScenario.report);
});

Deno.test("__mock__ agent_id: a subagent's denied tool use writes the scenario path's denial, no PostToolUse", async () => {
  const deny = () => PermissionRecorder.allowAll().deny("Bash", "Not now.");
  const byScenario = await observe(scenarioMock(), "delegate", deny());
  const byCommands = await observe(new MockTransport(), COMMANDS, deny());
  assert.ok(!byScenario.hooks.includes("PostToolUse Bash agent explorer/general-purpose"));
  assert.deepEqual(byCommands.hooks, byScenario.hooks);
  assert.deepEqual(byCommands.asks, ["Bash explorer"]);
  assert.deepEqual(kindsBesideWords(byCommands), byScenario.kinds);
  assert.deepEqual(byCommands.subagentResults, byScenario.subagentResults);
  assert.deepEqual(byCommands.subagentResults.at(-1), { content: "Not now.", is_error: true });
});

Deno.test("__mock__ agent_id: a subagent's permission_request asks with its suggestions and agent_id, then its PostToolUse and PostToolBatch name the agent", async () => {
  const permissions = PermissionRecorder.allowAll();
  const hooks = new HookRecorder();
  for (const event of EVENTS) hooks.on(event);
  const { error } = await runQuery(
    new MockTransport(),
    mockCommand.sequence([
      mockCommand.permissionRequest("Bash", { command: "make" }, {
        agentId: "builder",
        suggestions: ["Bash(make:*)"],
        toolUseId: "toolu_make",
      }),
      mockCommand.toolResult("toolu_make", { result: "built\n" }),
      mockCommand.textResponse("Built.", { agentId: "builder" }),
      mockCommand.textResponse("Done."),
    ]),
    { hooks: hooks.hooks, canUseTool: permissions.canUseTool },
  );
  assert.equal(error, undefined);
  const [asked] = permissions.decisions();
  assert.equal(asked.context.agentID, "builder");
  assert.deepEqual(asked.context.suggestions, [{
    type: "addRules",
    rules: [{ toolName: "Bash", ruleContent: "make:*" }],
    behavior: "allow",
    destination: "localSettings",
  }]);
  const post = hooks.invocations("PostToolUse").find((c) => c.toolName === "Bash");
  assert.ok(post, "PostToolUse for the subagent's Bash");
  const input = post.input as Record<string, unknown>;
  assert.deepEqual([input.agent_id, input.agent_type], ["builder", "general-purpose"]);
  assert.equal((input.tool_response as { stdout?: string }).stdout, "built");
  const batches = hooks.invocations("PostToolBatch").map((c) =>
    (c.input as Record<string, unknown>).agent_id ?? "main"
  );
  assert.deepEqual(batches, ["builder", "main"]);
});

Deno.test("__mock__ agent_id: an Agent tool use a PreToolUse hook denies starts no subagent; its commands are left out", async () => {
  const hooks = new HookRecorder()
    .on("PreToolUse", {
      matcher: "Agent",
      output: {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: "No subagents here.",
        },
      },
    })
    .on("SubagentStart");
  const permissions = PermissionRecorder.allowAll();
  const { messages, error } = await runQuery(new MockTransport(), COMMANDS, {
    hooks: hooks.hooks,
    canUseTool: permissions.canUseTool,
  });
  assert.equal(error, undefined);
  hooks.assertCalled("PreToolUse", 1);
  hooks.assertNotCalled("SubagentStart");
  assert.equal(permissions.asked(), 0, "the subagent's Bash never ran");
  assert.ok(!messages.some((m) => "parent_tool_use_id" in m && m.parent_tool_use_id));
  assert.ok(!messages.some((m) => m.type === "system" && m.subtype === "task_started"));
  const denied = messages.flatMap((m) =>
    m.type === "user" && Array.isArray(m.message.content) ? m.message.content : []
  ) as Array<{ type: string; content?: unknown; is_error?: boolean }>;
  assert.deepEqual(denied.map((b) => [b.type, b.is_error, b.content]), [[
    "tool_result",
    true,
    "PreToolUse:Agent hook error: No subagents here.",
  ]]);
  const result = messages.at(-1) as unknown as Record<string, unknown>;
  assert.equal(result.result, "Summary: make.");
  assert.deepEqual(
    (result.permission_denials as Array<{ tool_name: string }>).map((d) => d.tool_name),
    ["Agent"],
  );
});

Deno.test("__mock__ agent_id: a subagent's PreToolUse hook that says continue: false ends the turn after the Agent tool's result, as for a scenario's subagent", async () => {
  const stop = { bashPreToolUse: { continue: false, stopReason: "Enough." } };
  const byScenario = await observe(scenarioMock(), "delegate", PermissionRecorder.allowAll(), stop);
  const byCommands = await observe(
    new MockTransport(),
    COMMANDS,
    PermissionRecorder.allowAll(),
    stop,
  );
  assert.equal((byScenario.end as { terminal_reason: string }).terminal_reason, "hook_stopped");
  assert.deepEqual(byCommands.end, byScenario.end);
  assert.deepEqual(byCommands.hooks, byScenario.hooks);
  assert.deepEqual(kindsBesideWords(byCommands), byScenario.kinds);
});
