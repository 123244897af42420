// Custom slash commands (`.claude/commands/*.md` of the project, `commands/` of the config
// folder) and the UserPromptExpansion hooks, through the real SDK's query() against the
// in-process mock and through the fake binary, as the real CLI 2.1.328 to 2.1.332 runs them
// (conformance/hooks_prompt_expansion*.json, tests/fixtures/real/FINDINGS_hooks.md).
import assert from "node:assert/strict";
import { query, type SDKSystemMessage } from "@anthropic-ai/claude-agent-sdk";
import { installFakeClaude } from "../cli.ts";
import { MockTransport, ScenarioBuilder } from "../mod.ts";
import { gatedPrompt, kinds, runQuery } from "./_sdk.ts";

const GREET = "---\ndescription: Greet someone\nargument-hint: <name> <name>\n---\n" +
  "Say hello to $ARGUMENTS. First $0, then $1.\n";

async function project(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "claude-mock-commands-" });
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(`${dir}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
    await Deno.writeTextFile(`${dir}/${path}`, text);
  }
  return dir;
}

function scenario() {
  return new ScenarioBuilder()
    .on('Say hello to Ann "Bob Smith". First Ann, then Bob Smith.').respond("Expanded.")
    .on(/.*/).respond("Not expanded.")
    .build();
}

Deno.test("custom commands: the project's command is expanded, listed, and its UserPromptExpansion hook asked after UserPromptSubmit", async () => {
  const cwd = await project({ ".claude/commands/greet.md": GREET });
  try {
    const mock = new MockTransport(scenario());
    const { messages } = await runQuery(mock, '/greet Ann "Bob Smith"', {
      cwd,
      hooks: {
        UserPromptSubmit: [{ hooks: [() => Promise.resolve({})] }],
        UserPromptExpansion: [{ hooks: [() => Promise.resolve({})] }],
      },
    });
    const init = messages.find((m) =>
      m.type === "system" && m.subtype === "init"
    ) as SDKSystemMessage;
    assert.deepEqual(init.slash_commands.slice(0, 2), ["greet", "deep-research"]);
    const result = messages.at(-1);
    assert.equal(
      result?.type === "result" && result.subtype === "success" && result.result,
      "Expanded.",
    );
    const outputs = mock.hookOutputs();
    assert.deepEqual(outputs.map((h) => h.event), ["UserPromptSubmit", "UserPromptExpansion"]);
    const { session_id: _s, transcript_path: _t, prompt_id: _p, ...input } = outputs[1].input;
    assert.deepEqual(input, {
      cwd: "/home/user/project",
      permission_mode: "default",
      hook_event_name: "UserPromptExpansion",
      expansion_type: "slash_command",
      command_name: "greet",
      command_args: 'Ann "Bob Smith"',
      command_source: "projectSettings",
      prompt: '/greet Ann "Bob Smith"',
    });
    // the initialize answer lists it, described as the project's
    const q = query({
      prompt: gatedPrompt([]).prompt,
      options: { cwd, ...new MockTransport(scenario()).options() },
    });
    const commands = await q.supportedCommands();
    q.close();
    assert.deepEqual(commands[0], {
      name: "greet",
      description: "Greet someone (project)",
      argumentHint: "<name> <name>",
    });
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("custom commands: a UserPromptExpansion hook's block and continue:false stop the prompt as a local command", async () => {
  const cwd = await project({ ".claude/commands/greet.md": GREET });
  try {
    for (
      const [output, text] of [
        [
          { decision: "block", reason: "No greetings today.", systemMessage: "unsaid" },
          'UserPromptExpansion operation blocked by hook:\nNo greetings today.\n\nOriginal prompt: /greet Ann "Bob Smith"',
        ],
        [
          { continue: false, stopReason: "Stopped here." },
          "Operation stopped by hook: Stopped here.",
        ],
      ] as const
    ) {
      const mock = new MockTransport(scenario());
      const { messages } = await runQuery(mock, '/greet Ann "Bob Smith"', {
        cwd,
        hooks: { UserPromptExpansion: [{ hooks: [() => Promise.resolve(output)] }] },
      });
      assert.deepEqual(kinds(messages), ["system/init", "system/informational", "result/success"]);
      const notice = messages[1] as { content?: string; prompt_submit_outcome?: unknown };
      assert.equal(notice.content, text);
      assert.equal(notice.prompt_submit_outcome, undefined);
      const result = messages[2] as { result?: string; num_turns?: number; local_command?: string };
      assert.deepEqual([result.result, result.num_turns, result.local_command], [
        text,
        0,
        "custom",
      ]);
    }
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("custom commands: the command's model runs its turn only; a built-in of the same name is replaced", async () => {
  const cwd = await project({
    ".claude/commands/fast.md": "---\nmodel: claude-haiku-5-5\n---\nFast body\n",
  });
  try {
    const mock = new MockTransport(
      new ScenarioBuilder().on("Fast body").respond("Fast.").on("plain").respond("Plain.").build(),
    );
    const { prompt, next } = gatedPrompt(["/fast", "plain"]);
    const messages = [];
    for await (const m of query({ prompt, options: { cwd, spawnClaudeCodeProcess: mock.spawn } })) {
      messages.push(m);
      if (m.type === "result") next();
    }
    const inits = messages.filter((m) =>
      m.type === "system" && m.subtype === "init"
    ) as SDKSystemMessage[];
    assert.deepEqual(inits.map((m) => m.model), ["claude-haiku-5-5", "claude-opus-5-5"]);
    assert.equal(inits[0].slash_commands.filter((n) => n === "fast").length, 1);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("custom commands: the fake binary reads the config folder's commands/ (userSettings) and the project's", async () => {
  await using fake = await installFakeClaude();
  const cwd = await project({ ".claude/commands/greet.md": GREET });
  try {
    const config = fake.env.CLAUDE_CONFIG_DIR;
    await Deno.mkdir(`${config}/commands`, { recursive: true });
    await Deno.writeTextFile(
      `${config}/commands/mine.md`,
      "---\ndescription: From the user\n---\nUser body $ARGUMENTS\n",
    );
    const file = `${cwd}/scenario.json`;
    await Deno.writeTextFile(
      file,
      JSON.stringify({
        exchanges: [
          { on: { contains: "User body z" }, steps: [{ say: "Mine." }] },
          { on: { any: true }, steps: [{ say: "Other." }] },
        ],
      }),
    );
    const out = await new Deno.Command("claude", {
      args: ["-p", "/mine z", "--output-format", "stream-json", "--verbose"],
      env: { ...fake.env, CLAUDE_MOCK_SCENARIO: file },
      cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const frames = new TextDecoder().decode(out.stdout).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    assert.deepEqual(frames[0].slash_commands.slice(0, 3), ["greet", "mine", "deep-research"]);
    assert.equal(frames.at(-1).result, "Mine.");
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});
