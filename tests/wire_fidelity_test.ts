// Engine-level fidelity: the real SDK drives the mock through the same conversation as a
// recording of the real CLI 2.1.328 (tests/fixtures/real/), and both directions must carry
// the same frames in the same order, with the same top-level keys.
import assert from "node:assert/strict";
import {
  createSdkMcpServer,
  type HookCallback,
  type Options,
  query,
  tool,
} from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
import {
  type Frame,
  MockTransport,
  readTool,
  type Scenario,
  ScenarioBuilder,
  taskTool,
  text,
  thinking,
} from "../mod.ts";

interface TapeLine {
  dir: "sdk->cli" | "cli->sdk";
  frame: Frame;
}

async function loadTape(name: string): Promise<{ args: string[]; lines: TapeLine[] }> {
  const raw = await Deno.readTextFile(new URL(`./fixtures/real/${name}.jsonl`, import.meta.url));
  const [header, ...rest] = raw.trim().split("\n").map((l) => JSON.parse(l));
  return { args: header.args, lines: rest };
}

/** A frame's kind: type, then subtype / state / control subtype. */
function kind(frame: Frame): string {
  const request = frame.request as { subtype?: string } | undefined;
  const detail = frame.type === "control_request"
    ? request?.subtype
    : frame.type === "stream_event"
    ? (frame.event as { type: string }).type
    : frame.subtype === "session_state_changed"
    ? `session_state_changed:${frame.state}`
    : frame.subtype;
  return detail ? `${frame.type}/${detail}` : frame.type;
}

/** Runs `scenario` under the SDK with `prompt` and `options`; returns the mock's two directions. */
async function runMock(
  scenario: Scenario,
  prompt: string,
  options: Options,
): Promise<{ out: Frame[]; written: Frame[]; args: string[] }> {
  const mock = new MockTransport(scenario, { recordSent: true });
  let args: string[] = [];
  const spawn: typeof mock.spawn = (o) => {
    args = o.args;
    return mock.spawn(o);
  };
  try {
    for await (
      const _ of query({ prompt, options: { ...options, spawnClaudeCodeProcess: spawn } })
    ) {
      // consume
    }
  } catch {
    // error results make the SDK throw; the frames are what we compare
  }
  await mock.exited;
  return { out: mock.session.sent(), written: mock.writtenMessages(), args };
}

// Frames whose kinds depend on the real process's timing, not on the protocol.
const TIMING_ONLY = new Set(["system/session_state_changed:idle"]);

async function compare(
  name: string,
  scenario: Scenario,
  options: Options,
  exactUser = false,
): Promise<void> {
  const tape = await loadTape(name);
  const realOut = tape.lines.filter((l) => l.dir === "cli->sdk").map((l) => l.frame);
  const realIn = tape.lines.filter((l) => l.dir === "sdk->cli").map((l) => l.frame);
  const firstPrompt = realIn.find((f) => f.type === "user")!;
  const text = typeof (firstPrompt.message as { content: unknown }).content === "string"
    ? (firstPrompt.message as { content: string }).content
    : (firstPrompt.message as { content: Array<{ text: string }> }).content[0].text;
  const ours = await runMock(scenario, text, options);
  assert.deepEqual(
    ours.args.slice(0, tape.args.length).sort(),
    [...tape.args].sort(),
    `${name}: CLI args`,
  );
  // Chunk boundaries of streamed deltas are the API's choice: a run of deltas counts once.
  const strip = (frames: Frame[]) =>
    frames.map(kind).filter((k, i, all) =>
      !TIMING_ONLY.has(k) && !(k === "stream_event/content_block_delta" && all[i - 1] === k)
    );
  assert.deepEqual(strip(ours.out), strip(realOut), `${name}: cli->sdk frame kinds`);
  assert.deepEqual(ours.written.map(kind), realIn.map(kind), `${name}: sdk->cli frame kinds`);
  // same top-level keys, frame by frame (ids and values differ)
  const keep = (f: Frame) =>
    !TIMING_ONLY.has(kind(f)) && kind(f) !== "stream_event/content_block_delta";
  const real = realOut.filter(keep);
  const mine = ours.out.filter(keep);
  for (let i = 0; i < real.length; i++) {
    const where = `${name}: frame ${i} (${kind(real[i])})`;
    assert.deepEqual(Object.keys(mine[i]).sort(), Object.keys(real[i]).sort(), `${where}: keys`);
    if (real[i].type === "control_request") {
      const a = mine[i].request as Record<string, unknown>;
      const b = real[i].request as Record<string, unknown>;
      assert.deepEqual(Object.keys(a).sort(), Object.keys(b).sort(), `${where}: request keys`);
      if (b.input && typeof b.input === "object") {
        assert.deepEqual(
          Object.keys(a.input as object).sort(),
          Object.keys(b.input as object).sort(),
          `${where}: request.input keys`,
        );
      }
    }
    if (exactUser && real[i].type === "user") {
      const masked = (v: unknown) => JSON.stringify(v)?.replace(/toolu_\w+/g, "ID");
      for (const key of ["message", "tool_use_result", "tool_result_meta"]) {
        assert.equal(masked(mine[i][key]), masked(real[i][key]), `${where}: ${key}`);
      }
    }
  }
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
      .usesRead("/home/user/project/notes.txt", {
        say: "I'll read the file.",
        content:
          "Project notes\n=============\n1. The build uses make.\n2. Tests live in tests/.\n3. Release on Fridays.\n",
      })
      .respond("notes.txt lists three points.")
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
      .usesRead("/home/user/project/notes.txt", { content: "x\n" })
      .respond("Here is notes.txt.")
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
  const tape = await loadTape("thinking");
  const blocks = tape.lines.filter((l) => l.frame.type === "assistant").map((l) =>
    (l.frame.message as { content: Array<{ type: string; thinking?: string; text?: string }> })
      .content[0]
  );
  await compare(
    "thinking",
    new ScenarioBuilder().on(/.*/).respond([thinking(blocks[0].thinking!), text(blocks[1].text!)])
      .build(),
    { maxTurns: 1 },
  );
});

Deno.test("fidelity: mcp_sdk_tool", async () => {
  const calc = createSdkMcpServer({
    name: "calc",
    version: "1.0.0",
    tools: [
      tool(
        "add",
        "Add two numbers",
        { a: z.number(), b: z.number() },
        (a) => Promise.resolve({ content: [{ type: "text", text: String(a.a + a.b) }] }),
      ),
    ],
  });
  await compare(
    "mcp_sdk_tool",
    new ScenarioBuilder().on(/.*/).usesTool("mcp__calc__add", { a: 2, b: 3 }).respond("2 + 3 = 5.")
      .build(),
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
            result: "The notes say: build with make, tests in tests/, release on Fridays.",
            tools: [readTool(ctx, "/home/user/project/notes.txt", { content: "Project notes\n" })],
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
    true,
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
    true,
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
    true,
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
    true,
  );
});

Deno.test("fidelity: cp_ask_user_question", async () => {
  await compare(
    "cp_ask_user_question",
    new ScenarioBuilder()
      .on("date library")
      .usesAskUserQuestion([{
        question: "Which date library should we use?",
        header: "Date lib",
        options: [
          { label: "date-fns", description: "Modular, tree-shakeable functions" },
          { label: "dayjs", description: "Tiny Moment-compatible API" },
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
    true,
  );
});
