// Engine-level fidelity: the real SDK drives the mock through the same conversation as a
// recording of the real CLI 2.1.328 (tests/fixtures/real/), and both directions must carry
// the same frames in the same order, with the same top-level keys.
import {
  createSdkMcpServer,
  type HookCallback,
  type Options,
  tool,
} from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
import { compareTape, readTape } from "./_fidelity.ts";
import { calcServer } from "./_sdk.ts";
import { type Scenario, ScenarioBuilder } from "../mod.ts";
import { readTool, taskTool, text, thinking } from "../builders.ts";

/** The notes.txt of the recordings (the recorder's project folder). */
const NOTES =
  "Project notes\n=============\n1. The build uses make.\n2. Tests live in tests/.\n3. Release on Fridays.\n";

/**
 * Replays tape `name` through the SDK and the mock (see `_fidelity.ts`): frame kinds, keys
 * and the values an app asserts on, always.
 */
async function compare(name: string, scenario: Scenario, options: Options): Promise<void> {
  await compareTape(name, scenario, options);
}

Deno.test("fidelity: hello", async () => {
  await compare(
    "hello",
    new ScenarioBuilder().on(/hello/).respond("Hello! How can I help you today?").build(),
    {
      maxTurns: 1,
    },
  );
});

Deno.test("fidelity: tool_read_allowed (an ask rule, can_use_tool, allow)", async () => {
  await compare(
    "tool_read_allowed",
    new ScenarioBuilder()
      .on("notes")
      .usesRead("/home/user/project/notes.txt", { say: "I'll read the file.", content: NOTES })
      .respond(
        "notes.txt lists three points: the build uses make, tests live in tests/, and releases happen on Fridays.",
      )
      .build(),
    {
      maxTurns: 3,
      permissionMode: "default",
      settings: { permissions: { ask: ["Read"] } },
      canUseTool: (_t, input) => Promise.resolve({ behavior: "allow", updatedInput: input }),
    },
  );
});

Deno.test("fidelity: tool_bash_denied", async () => {
  await compare(
    "tool_bash_denied",
    new ScenarioBuilder()
      .on("build")
      .usesBash("rm -rf build", { description: "Delete the build directory" })
      .respond("Understood, I won't delete the build directory.")
      .build(),
    {
      maxTurns: 3,
      permissionMode: "default",
      canUseTool: () =>
        Promise.resolve({
          behavior: "deny",
          message: "The user does not allow deleting files in this test.",
        }),
    },
  );
});

Deno.test("fidelity: hooks_pretooluse", async () => {
  const allowHook: HookCallback = () =>
    Promise.resolve({
      continue: true,
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "allow",
        permissionDecisionReason: "ok",
      },
    });
  await compare(
    "hooks_pretooluse",
    new ScenarioBuilder()
      .on("notes")
      .usesRead("/home/user/project/notes.txt", { content: NOTES })
      .respond("Here is notes.txt: three points about build, tests and releases.")
      .build(),
    {
      maxTurns: 3,
      permissionMode: "default",
      hooks: { PreToolUse: [{ matcher: "Read", hooks: [allowHook] }] },
      canUseTool: (_t, input) => Promise.resolve({ behavior: "allow", updatedInput: input }),
    },
  );
});

Deno.test("fidelity: partial_messages", async () => {
  await compare(
    "partial_messages",
    new ScenarioBuilder().on("Count").respond(
      "One, two, three, four, five. That is counting to five in words, one piece at a time.",
    ).build(),
    { maxTurns: 1, includePartialMessages: true },
  );
});

Deno.test("fidelity: thinking", async () => {
  const tape = await readTape("thinking");
  const blocks = tape.lines.filter((l) => l.frame.type === "assistant").map((l) =>
    (l.frame.message as {
      content: Array<{ type: string; thinking?: string; signature?: string; text?: string }>;
    })
      .content[0]
  );
  // the recorder's API sent the thinking in three deltas cut at word boundaries: the
  // estimates of system/thinking_tokens follow the deltas
  const words = blocks[0].thinking!.split(/(?<=\s)/);
  const per = Math.ceil(words.length / 3);
  const pieces = [0, per, 2 * per].map((i) => words.slice(i, i + per).join(""));
  await compare(
    "thinking",
    new ScenarioBuilder().on(/.*/).respond([
      thinking(blocks[0].thinking!, { signature: blocks[0].signature }),
      text(blocks[1].text!),
    ], {
      chunks: [pieces, []],
    }).build(),
    { maxTurns: 1 },
  );
});

Deno.test("fidelity: mcp_sdk_tool", async () => {
  const calc = calcServer();
  await compare(
    "mcp_sdk_tool",
    new ScenarioBuilder().on(/.*/).usesTool("mcp__calc__add", { a: 2, b: 3 })
      .respond("2 + 3 = 5, according to the calculator tool.").build(),
    {
      maxTurns: 3,
      permissionMode: "default",
      mcpServers: { calc },
      canUseTool: (_t, input) => Promise.resolve({ behavior: "allow", updatedInput: input }),
    },
  );
});

Deno.test("fidelity: api_error", async () => {
  await compare(
    "api_error",
    new ScenarioBuilder().on(/.*/).apiError(400, {
      message: "messages: the fake API rejects this request (scripted 400)",
    }).build(),
    { maxTurns: 1 },
  );
});

Deno.test("fidelity: subagent_task", async () => {
  await compare(
    "subagent_task",
    new ScenarioBuilder()
      .on("subagent")
      .respond([
        text("I'll delegate this to a subagent."),
        (ctx) =>
          taskTool(ctx, "Summarize notes file", {
            prompt: "Read notes.txt in the current directory and summarize it in one sentence.",
            result:
              "The notes say the build uses make, tests are in tests/, and releases are on Fridays.",
            tools: [readTool(ctx, "/home/user/project/notes.txt", { content: NOTES })],
            // the recorder's API reported 25 output tokens for every call (the report's own
            // count, 21, is the scenario API's: tests/conform_recordings_slow_test.ts)
            totalTokens: 145,
          }),
      ])
      .respond("Summary from the subagent: build with make, tests in tests/, release on Fridays.")
      .build(),
    {
      maxTurns: 4,
      permissionMode: "default",
      canUseTool: (_t, input) => Promise.resolve({ behavior: "allow", updatedInput: input }),
    },
  );
});

const allow = (_t: string, input: Record<string, unknown>) =>
  Promise.resolve({ behavior: "allow" as const, updatedInput: input });

Deno.test("fidelity: cp_allow_updated_input", async () => {
  await compare(
    "cp_allow_updated_input",
    new ScenarioBuilder()
      .on("a.txt")
      .usesRead("/home/user/project/a.txt", { content: "bravo file\n" })
      .respond("The file says: bravo file.")
      .build(),
    {
      maxTurns: 3,
      permissionMode: "default",
      settings: { permissions: { ask: ["Read"] } },
      canUseTool: (_t, input) =>
        Promise.resolve({
          behavior: "allow",
          updatedInput: { ...input, file_path: "/home/user/project/b.txt" },
        }),
    },
  );
});

Deno.test("fidelity: cp_deny_continue", async () => {
  await compare(
    "cp_deny_continue",
    new ScenarioBuilder()
      .on("build")
      .usesBash("rm -rf build", {
        say: "I'll delete it.",
        description: "Delete the build directory",
      })
      .respond("OK, I will not delete the build directory. Anything else?")
      .build(),
    {
      maxTurns: 3,
      permissionMode: "default",
      canUseTool: () => Promise.resolve({ behavior: "deny", message: "Bash is not allowed here." }),
    },
  );
});

Deno.test("fidelity: cp_hooks_all", async () => {
  const ok: HookCallback = () => Promise.resolve({ continue: true });
  const context: HookCallback = () =>
    Promise.resolve({
      continue: true,
      hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "POSTHOOK-CONTEXT" },
    });
  await compare(
    "cp_hooks_all",
    new ScenarioBuilder()
      .on("notes")
      .usesRead("/home/user/project/notes.txt", { content: "one\ntwo\n" })
      .respond("notes.txt has two lines: one, two.")
      .build(),
    {
      maxTurns: 3,
      permissionMode: "default",
      settings: { permissions: { ask: ["Read"] } },
      canUseTool: allow,
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [ok] }],
        PostToolUse: [{ matcher: "Read", hooks: [context] }],
        UserPromptSubmit: [{ hooks: [ok] }],
        Stop: [{ hooks: [() => Promise.resolve({})] }],
      },
    },
  );
});

Deno.test("fidelity: cp_pretooluse_deny", async () => {
  const deny: HookCallback = () =>
    Promise.resolve({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "Shell commands are blocked by policy.",
      },
    });
  await compare(
    "cp_pretooluse_deny",
    new ScenarioBuilder()
      .on("echo")
      .usesBash("echo hi", { description: "Say hi" })
      .respond("The hook blocked the command.")
      .build(),
    {
      maxTurns: 3,
      permissionMode: "default",
      canUseTool: allow,
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [deny] }] },
    },
  );
});

Deno.test("fidelity: cp_hook_continue_false", async () => {
  const stop: HookCallback = () =>
    Promise.resolve({ continue: false, stopReason: "Stopped by the test hook." });
  await compare(
    "cp_hook_continue_false",
    new ScenarioBuilder()
      .on("echo")
      .usesBash("touch made-by-test.txt", { say: "Running it.", description: "Create a file" })
      .respond("never reached")
      .build(),
    {
      maxTurns: 3,
      permissionMode: "default",
      canUseTool: allow,
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [stop] }] },
    },
  );
});

Deno.test("fidelity: cp_ask_user_question", async () => {
  await compare(
    "cp_ask_user_question",
    new ScenarioBuilder()
      .on("date library")
      .usesAskUserQuestion([{
        question: "Which date library should we use?",
        header: "Library",
        options: [
          { label: "date-fns", description: "Small, functional helpers" },
          { label: "Luxon", description: "Immutable DateTime objects" },
        ],
      }])
      .respond("Great, we will use date-fns.")
      .build(),
    {
      maxTurns: 3,
      permissionMode: "default",
      canUseTool: (_t, input) =>
        Promise.resolve({
          behavior: "allow",
          updatedInput: { ...input, answers: { "Which date library should we use?": "date-fns" } },
        }),
    },
  );
});

Deno.test("fidelity: cp_mcp_error_deferred", async () => {
  const calc = createSdkMcpServer({
    name: "calc",
    version: "1.0.0",
    tools: [
      tool(
        "divide",
        "Divide a by b",
        { a: z.number(), b: z.number() },
        () =>
          Promise.resolve({
            content: [{ type: "text", text: "Error: division by zero" }],
            isError: true,
          }),
      ),
    ],
  });
  await compare(
    "cp_mcp_error_deferred",
    new ScenarioBuilder()
      .on("Divide")
      .usesTool("mcp__calc__divide", { a: 1, b: 0 })
      .respond("The calculator reports division by zero.")
      .build(),
    { maxTurns: 3, permissionMode: "default", mcpServers: { calc }, canUseTool: allow },
  );
});
