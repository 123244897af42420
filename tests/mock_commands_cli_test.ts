// `__mock__` commands checked against recordings of the real CLI (frame kinds, keys and the
// values an app asserts on), and run through the fake binary: duplex mode with the real SDK
// (the same app messages as in-process) and print mode.
import assert from "node:assert/strict";
import {
  type CanUseTool,
  type Options,
  query,
  type SDKMessage,
} from "@anthropic-ai/claude-agent-sdk";
import { installFakeClaude } from "../cli.ts";
import { MockTransport } from "../mod.ts";
import { mockCommand } from "../mock_command.ts";
import type { Frame } from "../wire.ts";
import { compareTape } from "./_fidelity.ts";
import { runQuery } from "./_sdk.ts";

const allow: CanUseTool = (_tool, input) =>
  Promise.resolve({ behavior: "allow", updatedInput: input });

function resultOf(messages: SDKMessage[]) {
  const result = messages.find((m) => m.type === "result");
  assert.ok(result, "a result");
  return result as SDKMessage & Record<string, unknown>;
}

async function collect(q: AsyncIterable<SDKMessage>) {
  const messages: SDKMessage[] = [];
  try {
    for await (const m of q) messages.push(m);
    return { messages, error: undefined as Error | undefined };
  } catch (error) {
    return { messages, error: error as Error };
  }
}

Deno.test("__mock__ fidelity: command frames have the real CLI's kinds and keys", async () => {
  const empty = { exchanges: [] };
  await compareTape("hello", empty, {
    maxTurns: 1,
    turns: [mockCommand.textResponse("Hello! How can I help you today?")],
  });
  await compareTape("tool_bash_denied", empty, {
    maxTurns: 3,
    permissionMode: "default",
    canUseTool: () =>
      Promise.resolve({
        behavior: "deny",
        message: "The user does not allow deleting files in this test.",
      }),
    turns: [mockCommand.sequence([
      mockCommand.toolUse("Bash", {
        command: "rm -rf build",
        description: "Delete the build directory",
      }),
      mockCommand.textResponse("Understood, I won't delete the build directory."),
    ])],
  });
  await compareTape("api_error", empty, {
    maxTurns: 1,
    turns: [mockCommand.error("messages: the fake API rejects this request (scripted 400)", {
      code: 400,
    })],
  }, { values: false });
  await compareTape("thinking", empty, {
    maxTurns: 1,
    turns: [mockCommand.sequence([
      mockCommand.thinkingResponse(
        "The user wants 17 * 23. 17 * 20 = 340, 17 * 3 = 51, total 391.",
      ),
      mockCommand.textResponse("17 × 23 = 391."),
    ])],
  }, { values: false });
  await compareTape("partial_messages", empty, {
    maxTurns: 1,
    includePartialMessages: true,
    turns: [mockCommand.streamDelta(
      "One, two, three, four, five. That is counting to five in words, one piece at a time.",
    )],
  }, { values: false });
  await compareTape("cp_ask_user_question", empty, {
    maxTurns: 3,
    permissionMode: "default",
    canUseTool: (_tool, input) =>
      Promise.resolve({
        behavior: "allow",
        updatedInput: { ...input, answers: { "Which date library should we use?": "date-fns" } },
      }),
    turns: [mockCommand.sequence([
      mockCommand.askUserQuestion([{
        question: "Which date library should we use?",
        header: "Library",
        options: [
          { label: "date-fns", description: "Modular, functional date utilities" },
          { label: "luxon", description: "Immutable DateTime objects with Intl support" },
        ],
      }]),
      mockCommand.textResponse("Great, we will use date-fns."),
    ])],
  }, { values: false });
  await compareTape("tool_read_allowed", empty, {
    maxTurns: 3,
    permissionMode: "default",
    settings: { permissions: { ask: ["Read"] } },
    canUseTool: allow,
    turns: [mockCommand.sequence([
      mockCommand.textResponse("I'll read the file."),
      mockCommand.toolUse("Read", { file_path: "/home/user/project/notes.txt" }, {
        toolUseId: "toolu_notes",
      }),
      mockCommand.toolResult("toolu_notes", {
        result:
          "Project notes\n=============\n1. The build uses make.\n2. Tests live in tests/.\n3. Release on Fridays.\n",
      }),
      mockCommand.textResponse(
        "notes.txt lists three points: the build uses make, tests live in tests/, and releases happen on Fridays.",
      ),
    ])],
  });
  const subagent = await compareTape("subagent_task", empty, {
    maxTurns: 4,
    permissionMode: "default",
    canUseTool: allow,
    turns: [mockCommand.sequence([
      mockCommand.textResponse("I'll delegate this to a subagent."),
      mockCommand.toolUse("Read", { file_path: "/home/user/project/notes.txt" }, {
        agentId: "a8b0a0e708be712e2",
        toolUseId: "toolu_01SubRead0000000000001",
      }),
      mockCommand.toolResult("toolu_01SubRead0000000000001", { result: "notes\n" }),
      mockCommand.textResponse("Summary from the subagent."),
    ])],
  }, { values: false });
  // the main thread's words and the Agent tool use are one API call, as recorded (two calls of
  // 120 input tokens; output tokens are estimated from other texts)
  const input = (frames: Frame[]) =>
    (frames.find((f) => f.type === "result")?.usage as { input_tokens: number }).input_tokens;
  assert.equal(input(subagent.mine), input(subagent.real));
});

// ---- through the fake binary

Deno.test("__mock__ commands through the fake binary: the same app messages as in-process", async () => {
  const prompt = mockCommand.sequence([
    mockCommand.textResponse("Checking.", { agentId: "helper" }),
    mockCommand.permissionRequest("Bash", { command: "make test" }, {
      suggestions: ["Bash(make *)"],
    }),
    mockCommand.systemStatus("compacting"),
    mockCommand.compactBoundary(),
    mockCommand.textResponse("Tests pass."),
  ]);
  const options: Options = { canUseTool: allow };
  // what differs between two processes: timings, and the working directory (the binary's own)
  const comparable = (messages: SDKMessage[]) =>
    messages.map((m) => {
      const {
        duration_ms: _d,
        duration_api_ms: _a,
        cwd: _c,
        original_cwd: _o,
        memory_paths: _m,
        output_file: _f, // in the CLI's temp folder, under the working directory's slug
        ...rest
      } = m as Record<string, unknown>;
      return rest;
    });
  const inProcess = await runQuery(new MockTransport(), prompt, options);
  await using fake = await installFakeClaude();
  const subprocess = await collect(query({
    prompt,
    options: {
      ...options,
      pathToClaudeCodeExecutable: fake.path,
      env: { ...Deno.env.toObject(), ...fake.env },
    },
  }));
  assert.equal(subprocess.error, undefined);
  assert.deepEqual(comparable(subprocess.messages), comparable(inProcess.messages));
  assert.equal(resultOf(subprocess.messages).result, "Tests pass.");
  // the default scenario still answers plain prompts
  const plain = await collect(query({
    prompt: "hello",
    options: {
      pathToClaudeCodeExecutable: fake.path,
      env: { ...Deno.env.toObject(), ...fake.env },
    },
  }));
  assert.equal(resultOf(plain.messages).result, "Hello! How can I help?");
});

Deno.test("__mock__ commands in print mode: claude -p '<command>'", async () => {
  await using fake = await installFakeClaude();
  const claude = async (args: string[]) => {
    const out = await new Deno.Command("claude", {
      args,
      env: fake.env,
      cwd: fake.dir,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    return { code: out.code, stdout: new TextDecoder().decode(out.stdout) };
  };
  const text = await claude(["-p", mockCommand.textResponse("Printed by a command.")]);
  assert.deepEqual(text, { code: 0, stdout: "Printed by a command.\n" });
  const json = await claude([
    "-p",
    mockCommand.result({ cost: 0.5, result: "json result" }),
    "--output-format",
    "json",
  ]);
  assert.equal(json.code, 0);
  const parsed = JSON.parse(json.stdout);
  assert.deepEqual([parsed.result, parsed.total_cost_usd], ["json result", 0.5]);
  const stream = await claude([
    "-p",
    mockCommand.sequence([mockCommand.systemStatus("compacting"), mockCommand.textResponse("ok")]),
    "--output-format",
    "stream-json",
    "--verbose",
  ]);
  const frames = stream.stdout.trim().split("\n").map((l) => JSON.parse(l) as Frame);
  assert.deepEqual(frames.map((f) => f.subtype ? `${f.type}/${f.subtype}` : f.type), [
    "system/init",
    "system/status",
    "assistant",
    "result/success",
  ]);
  const bad = await claude(["-p", '{"__mock__": {"command": "nope"}}']);
  assert.equal(bad.code, 1);
  assert.match(bad.stdout, /__mock__: unknown command "nope"/);
});

// ---- the off switch, and live tools (issue 21 item 11) --------------------------------------

/** Runs the fake binary in `dir` with a prompt; resolves with its exit code and stdout. */
async function fakeRun(
  fake: { path: string; env: Record<string, string> },
  dir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(fake.path, {
    args,
    env: { ...fake.env, ...env },
    cwd: dir,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

Deno.test("__mock__ and live tools: a command's Bash never runs a real shell unless mock commands are 'live'", async () => {
  await using fake = await installFakeClaude();
  const dir = await Deno.makeTempDir({ prefix: "claude-mock-commands-" });
  try {
    const prompt = mockCommand.sequence([
      mockCommand.toolUse("Bash", { command: "touch pwned" }),
      mockCommand.textResponse("Done."),
    ]);
    const args = ["-p", prompt, "--allowedTools", "Bash"];
    const live = { CLAUDE_MOCK_LIVE: "1" };
    const plain = await fakeRun(fake, dir, args, live);
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(plain.stdout, "Done.\n");
    await assert.rejects(Deno.stat(`${dir}/pwned`), Deno.errors.NotFound, "no real shell ran");
    // the explicit opt-in, by environment variable or option
    const optedIn = await fakeRun(fake, dir, args, { ...live, CLAUDE_MOCK_COMMANDS: "live" });
    assert.equal(optedIn.code, 0, optedIn.stderr);
    assert.ok((await Deno.stat(`${dir}/pwned`)).isFile, "the opted-in command ran the shell");
    await Deno.remove(`${dir}/pwned`);
    await fakeRun(fake, dir, [...args, "--mock-commands", "live"], live);
    assert.ok((await Deno.stat(`${dir}/pwned`)).isFile);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("__mock__ off switch: the prompt is an ordinary prompt (option, environment variable, MockTransport)", async () => {
  await using fake = await installFakeClaude();
  const prompt = mockCommand.textResponse("From the command.");
  const on = await fakeRun(fake, fake.dir, ["-p", prompt]);
  assert.equal(on.stdout, "From the command.\n");
  const off = await fakeRun(fake, fake.dir, ["-p", prompt, "--mock-commands", "off"]);
  assert.equal(off.stdout, "Hello! How can I help?\n", "the default reply, as for any prompt");
  const offEnv = await fakeRun(fake, fake.dir, ["-p", prompt], { CLAUDE_MOCK_COMMANDS: "off" });
  assert.equal(offEnv.stdout, "Hello! How can I help?\n");
  const bad = await fakeRun(fake, fake.dir, ["-p", prompt, "--mock-commands", "maybe"]);
  assert.equal(bad.code, 1);
  assert.match(
    bad.stderr,
    /--mock-commands <mode>' argument 'maybe' is invalid\. Allowed choices are on, off, live/,
  );
  const badEnv = await fakeRun(fake, fake.dir, ["-p", prompt], { CLAUDE_MOCK_COMMANDS: "nope" });
  assert.equal(badEnv.code, 1);
  assert.match(badEnv.stderr, /CLAUDE_MOCK_COMMANDS must be on, off or live, got "nope"/);

  const mock = new MockTransport(undefined, { mockCommands: "off" });
  const { messages, error } = await runQuery(mock, prompt);
  assert.match(String(error?.message), /no exchange of scenario matched user message/);
  assert.equal(messages.filter((m) => m.type === "assistant").length, 0);
  assert.throws(
    () => new MockTransport(undefined, { mockCommands: "sometimes" as "on" }).connect(),
    /'mockCommands' must be "on", "off" or "live", got "sometimes"/,
  );
});
