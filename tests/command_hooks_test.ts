// Command hooks of the settings (`settings` of the SDK's query(), --settings of the binary, the
// project's .claude/settings.json) run by the mock as the real CLI runs them: the real SDK's
// query() in-process (MockTransport) and through the fake binary (pathToClaudeCodeExecutable),
// and the binary alone. The shapes were recorded from the real CLI 2.1.332 and 2.1.328
// (conformance/hooks_command_*.json; tests/fixtures/real/FINDINGS_command_hooks.md).
import assert from "node:assert/strict";
import { type Options, query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { installFakeClaude } from "../cli.ts";
import { MockTransport, type Scenario, scenarioFromJSON } from "../mod.ts";

const bashScenario = (command: string): Scenario =>
  scenarioFromJSON({
    name: "command-hooks",
    // the session's own cwd (both seams alike); the hooks run in the SDK's cwd, the project
    cwd: "/home/user/project",
    exchanges: [{
      on: { any: true },
      steps: [
        { bash: { command, stdout: "ran", description: "Run it" }, ifDenied: "The hook refused." },
        { say: "Done." },
      ],
    }],
  });

/** A temp project folder with `files`; removed after `fn`. */
async function withProject(
  files: Record<string, string>,
  fn: (dir: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "claude-mock-cmdhooks-" });
  try {
    for (const [path, text] of Object.entries(files)) {
      const full = `${dir}/${path}`;
      await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
      await Deno.writeTextFile(full, text);
    }
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function collect(prompt: string, options: Options): Promise<SDKMessage[]> {
  const messages: SDKMessage[] = [];
  for await (const m of query({ prompt, options })) messages.push(m);
  return messages;
}

/** The app's messages in-process and through the fake binary: the same, then returned. */
async function bothSeams(
  scenario: Scenario,
  prompt: string,
  options: Options,
): Promise<SDKMessage[]> {
  const mock = new MockTransport(scenario);
  const inProcess = await collect(prompt, { ...options, ...mock.options() });
  await using fake = await installFakeClaude({ scenario });
  const subprocess = await collect(prompt, {
    ...options,
    pathToClaudeCodeExecutable: fake.path,
    env: { ...Deno.env.toObject(), ...fake.env },
  });
  const comparable = (ms: SDKMessage[]) =>
    ms.map((m) => {
      const { duration_ms: _d, duration_api_ms: _a, ...rest } = m as Record<string, unknown>;
      return rest;
    });
  assert.deepEqual(comparable(subprocess), comparable(inProcess));
  return inProcess;
}

function toolResult(messages: SDKMessage[]): Record<string, unknown> {
  for (const m of messages) {
    if (m.type !== "user" || !Array.isArray(m.message.content)) continue;
    const block = m.message.content.find((b) => (b as { type: string }).type === "tool_result");
    if (block) return block as unknown as Record<string, unknown>;
  }
  throw new Error("no tool result");
}

const result = (messages: SDKMessage[]) =>
  messages.at(-1) as Extract<SDKMessage, { type: "result" }>;

Deno.test("command hooks: a PreToolUse hook of the SDK's settings blocks Bash by exiting 2, its stderr the tool's error", async () => {
  await withProject({
    ".claude/hooks/no_rm.sh": [
      "#!/bin/sh",
      "if grep -q '\"command\":\"rm '; then echo 'rm is not allowed here' >&2; exit 2; fi",
      "",
    ].join("\n"),
  }, async (dir) => {
    const command = 'sh "$CLAUDE_PROJECT_DIR/.claude/hooks/no_rm.sh"';
    const messages = await bothSeams(bashScenario("rm -rf build"), "Remove build.", {
      cwd: dir,
      settings: {
        hooks: {
          PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command" as const, command }] }],
        },
      },
      canUseTool: (_name, input) => Promise.resolve({ behavior: "allow", updatedInput: input }),
    });
    const block = toolResult(messages);
    assert.equal(block.is_error, true);
    assert.equal(
      block.content,
      `PreToolUse:Bash hook error: [${command}]: rm is not allowed here\n`,
    );
    assert.equal(result(messages).subtype, "success");
  });
});

Deno.test("command hooks: a PreToolUse hook that lets the command through, and one that denies it with JSON", async () => {
  await withProject({}, async (dir) => {
    const allowed = await bothSeams(bashScenario("ls"), "List.", {
      cwd: dir,
      settings: {
        hooks: {
          PreToolUse: [{
            matcher: "Bash",
            hooks: [{ type: "command" as const, command: "exit 0" }],
          }],
        },
      },
      allowedTools: ["Bash"],
    });
    assert.equal(toolResult(allowed).content, "ran");
    const denied = await bothSeams(bashScenario("ls"), "List.", {
      cwd: dir,
      settings: {
        hooks: {
          PreToolUse: [{
            matcher: "Edit|Bash",
            hooks: [{
              type: "command" as const,
              command: `echo '${
                JSON.stringify({
                  hookSpecificOutput: {
                    hookEventName: "PreToolUse",
                    permissionDecision: "deny",
                    permissionDecisionReason: "Shell commands are blocked by policy.",
                  },
                })
              }'`,
            }],
          }],
        },
      },
      allowedTools: ["Bash"],
    });
    assert.equal(
      toolResult(denied).content,
      "PreToolUse:Bash hook error: Shell commands are blocked by policy.",
    );
  });
});

Deno.test("command hooks: each hook reads its event's input on stdin, in the project folder, with CLAUDE_PROJECT_DIR", async () => {
  await withProject({}, async (dir) => {
    const dump = (name: string) => ({
      hooks: [{
        type: "command" as const,
        command:
          `cat > "$CLAUDE_PROJECT_DIR/${name}.json"; pwd > ${name}.cwd; echo "$CLAUDECODE" > ${name}.env`,
      }],
    });
    const mock = new MockTransport(bashScenario("echo hi"));
    await collect("Say hi.", {
      ...mock.options(),
      cwd: dir,
      allowedTools: ["Bash"],
      settings: {
        hooks: {
          UserPromptSubmit: [dump("prompt")],
          PreToolUse: [{ matcher: "Bash", ...dump("pre") }],
          PostToolUse: [{ matcher: "*", ...dump("post") }],
          Stop: [dump("stop")],
        },
      },
    });
    const read = async (name: string) => JSON.parse(await Deno.readTextFile(`${dir}/${name}.json`));
    const prompt = await read("prompt");
    assert.equal(prompt.hook_event_name, "UserPromptSubmit");
    assert.equal(prompt.prompt, "Say hi.");
    assert.equal("effort" in prompt, false);
    const pre = await read("pre");
    assert.deepEqual(Object.keys(pre), [
      "session_id",
      "transcript_path",
      "cwd",
      "prompt_id",
      "permission_mode",
      "effort",
      "hook_event_name",
      "tool_name",
      "tool_input",
      "tool_use_id",
    ]);
    assert.deepEqual(pre.tool_input, { command: "echo hi", description: "Run it" });
    assert.equal(pre.session_id, prompt.session_id);
    const post = await read("post");
    assert.equal(post.hook_event_name, "PostToolUse");
    assert.equal(post.tool_use_id, pre.tool_use_id);
    const stop = await read("stop");
    assert.equal(stop.stop_hook_active, false);
    assert.equal(stop.last_assistant_message, "Done.");
    assert.equal((await Deno.readTextFile(`${dir}/pre.cwd`)).trim(), await Deno.realPath(dir));
    assert.equal((await Deno.readTextFile(`${dir}/pre.env`)).trim(), "1");
  });
});

Deno.test("command hooks: a Stop hook that blocks keeps the turn going once, with its feedback", async () => {
  const scenario = scenarioFromJSON({
    cwd: "/home/user/project",
    exchanges: [{
      on: { any: true },
      steps: [{ say: "First answer." }, { say: "Second answer." }],
    }],
  });
  await withProject({
    ".claude/hooks/once.sh": [
      "if grep -q '\"stop_hook_active\":true'; then exit 0; fi",
      `echo '{"decision":"block","reason":"Say it once more."}'`,
      "",
    ].join("\n"),
  }, async (dir) => {
    const messages = await bothSeams(scenario, "Answer twice.", {
      cwd: dir,
      settings: {
        hooks: {
          Stop: [{ hooks: [{ type: "command" as const, command: "sh .claude/hooks/once.sh" }] }],
        },
      },
    });
    const feedback = messages.find((m) =>
      m.type === "user" && (m as { isSynthetic?: boolean }).isSynthetic === true
    ) as Extract<SDKMessage, { type: "user" }> | undefined;
    assert.deepEqual(feedback?.message.content, [
      { type: "text", text: "Stop hook feedback:\nSay it once more." },
    ]);
    assert.ok(
      messages.some((m) =>
        m.type === "system" && (m as { key?: string }).key === "stop-hook-error"
      ),
    );
    const done = result(messages);
    assert.equal(done.subtype, "success");
    assert.equal((done as { result: string }).result, "Second answer.");
    assert.equal(done.num_turns, 2);
  });
});

Deno.test("command hooks: the project's .claude/settings.json is read unless settingSources leaves it out", async () => {
  await withProject({
    ".claude/settings.json": JSON.stringify({
      hooks: {
        PreToolUse: [{
          matcher: "Bash",
          hooks: [{ type: "command" as const, command: "echo 'project says no' >&2; exit 2" }],
        }],
      },
    }),
  }, async (dir) => {
    const scenario = bashScenario("ls");
    const withProjectSettings = await collect("List.", {
      ...new MockTransport(scenario).options(),
      cwd: dir,
      allowedTools: ["Bash"],
    });
    assert.equal(
      toolResult(withProjectSettings).content,
      "PreToolUse:Bash hook error: [echo 'project says no' >&2; exit 2]: project says no\n",
    );
    const userOnly = await collect("List.", {
      ...new MockTransport(scenario).options(),
      cwd: dir,
      allowedTools: ["Bash"],
      settingSources: ["user"],
    });
    assert.equal(toolResult(userOnly).content, "ran");
  });
});

Deno.test("command hooks: off with commandHooks: false or CLAUDE_MOCK_COMMAND_HOOKS=0", async () => {
  await withProject({}, async (dir) => {
    const settings = {
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command" as const, command: "exit 2" }] }],
      },
    };
    const scenario = bashScenario("ls");
    const off = await collect("List.", {
      ...new MockTransport(scenario, { commandHooks: false }).options(),
      cwd: dir,
      allowedTools: ["Bash"],
      settings,
    });
    assert.equal(toolResult(off).content, "ran");
    const offByEnv = await collect("List.", {
      ...new MockTransport(scenario).options(),
      cwd: dir,
      allowedTools: ["Bash"],
      settings,
      env: { ...Deno.env.toObject(), CLAUDE_MOCK_COMMAND_HOOKS: "0" },
    });
    assert.equal(toolResult(offByEnv).content, "ran");
    const on = await collect("List.", {
      ...new MockTransport(scenario).options(),
      cwd: dir,
      allowedTools: ["Bash"],
      settings,
    });
    assert.equal(toolResult(on).content, "PreToolUse:Bash hook error: [exit 2]: No stderr output");
  });
});

Deno.test("command hooks: a PreToolUse hook past its timeout is killed, reported, and the tool runs", async () => {
  await withProject({}, async (dir) => {
    const messages = await collect("List.", {
      ...new MockTransport(bashScenario("ls")).options(),
      cwd: dir,
      allowedTools: ["Bash"],
      settings: {
        hooks: {
          PreToolUse: [{
            hooks: [{ type: "command" as const, command: "exec sleep 600", timeout: 0.05 }],
          }],
        },
      },
    });
    const notice = messages.find((m) =>
      m.type === "system" && (m as { tag?: string }).tag === "hook_no_verdict"
    ) as Record<string, unknown> | undefined;
    assert.equal(notice?.content, "A hook didn't answer in time, so it didn't check this action.");
    assert.deepEqual(
      (notice?.hook_no_verdict as Record<string, unknown>).timed_out,
      true,
    );
    assert.equal(toolResult(messages).content, "ran");
  });
});

Deno.test("command hooks: the binary runs --settings hooks in the folder it runs in (print mode)", async () => {
  await withProject({}, async (dir) => {
    await using fake = await installFakeClaude({ scenario: bashScenario("rm -rf build") });
    const settings = JSON.stringify({
      hooks: {
        PreToolUse: [{
          matcher: "Bash",
          hooks: [{
            type: "command" as const,
            command: "pwd > where.txt; echo 'no rm' >&2; exit 2",
          }],
        }],
      },
    });
    const run = (extra: Record<string, string>) =>
      new Deno.Command(fake.path, {
        args: [
          "-p",
          "Remove build.",
          "--output-format",
          "json",
          "--allowedTools",
          "Bash",
          "--settings",
          settings,
        ],
        cwd: dir,
        env: { ...fake.env, ...extra },
        stdout: "piped",
        stderr: "piped",
      }).output();
    const out = await run({});
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const json = JSON.parse(new TextDecoder().decode(out.stdout));
    assert.equal(json.result, "The hook refused.");
    assert.equal((await Deno.readTextFile(`${dir}/where.txt`)).trim(), await Deno.realPath(dir));
    const refused = await run({ CLAUDE_MOCK_COMMAND_HOOKS: "maybe" });
    assert.equal(refused.code, 1);
    assert.match(
      new TextDecoder().decode(refused.stderr),
      /CLAUDE_MOCK_COMMAND_HOOKS must be 1 or 0 \(true or false\), got "maybe"/,
    );
    const off = await run({ CLAUDE_MOCK_COMMAND_HOOKS: "0" });
    assert.equal(JSON.parse(new TextDecoder().decode(off.stdout)).result, "Done.");
  });
});

Deno.test("command hooks: a UserPromptSubmit hook that exits 2 blocks the prompt: the notice, no API call, a result of no turns", async () => {
  await withProject({}, async (dir) => {
    const command = "echo 'prompts like this are blocked' >&2; exit 2";
    const messages = await bothSeams(bashScenario("rm -rf /"), "Delete everything.", {
      cwd: dir,
      settings: {
        hooks: { UserPromptSubmit: [{ hooks: [{ type: "command" as const, command }] }] },
      },
    });
    const text =
      `UserPromptSubmit operation blocked by hook:\n[${command}]: prompts like this are blocked\n\n\nOriginal prompt: Delete everything.`;
    const notice = messages.find((m) => m.type === "system" && m.subtype === "informational") as
      | Record<string, unknown>
      | undefined;
    assert.equal(notice?.content, text);
    assert.deepEqual(notice?.prompt_submit_outcome, {
      kind: "blocked_by_hook",
      prompt_kept: false,
      reason: "prompts like this are blocked",
    });
    assert.equal(messages.some((m) => m.type === "assistant"), false);
    const done = result(messages) as Record<string, unknown>;
    assert.equal(done.result, text);
    assert.equal(done.num_turns, 0);
    assert.equal("terminal_reason" in done, false);
  });
});

Deno.test("hooks: a UserPromptSubmit callback's continue: false stops the prompt as the real CLI does (notice, result of no turns)", async () => {
  const mock = new MockTransport(bashScenario("ls"));
  const messages = await collect("Delete everything.", {
    ...mock.options(),
    hooks: {
      UserPromptSubmit: [{
        hooks: [() => Promise.resolve({ continue: false, stopReason: "halt here" })],
      }],
    },
  });
  const notice = messages.find((m) => m.type === "system" && m.subtype === "informational") as
    | Record<string, unknown>
    | undefined;
  assert.equal(notice?.content, "Operation stopped by hook: halt here");
  assert.deepEqual(notice?.prompt_submit_outcome, {
    kind: "stopped_by_hook",
    prompt_kept: true,
    reason: "halt here",
  });
  const done = result(messages) as Record<string, unknown>;
  assert.equal(done.result, "Operation stopped by hook: halt here");
  assert.equal(done.num_turns, 0);
  assert.equal("terminal_reason" in done, false);
});

Deno.test("command hooks: a SessionStart hook runs as the session starts, between hook_started and hook_response", async () => {
  await withProject({}, async (dir) => {
    const messages = await bothSeams(bashScenario("ls"), "List.", {
      cwd: dir,
      allowedTools: ["Bash"],
      settings: {
        hooks: {
          SessionStart: [{
            matcher: "startup",
            hooks: [{
              type: "command" as const,
              command: "cat > start.json; echo 'The build is green.'",
            }],
          }],
        },
      },
    });
    const kinds = messages.slice(0, 3).map((m) =>
      `${m.type}/${(m as { subtype?: string }).subtype}`
    );
    assert.deepEqual(kinds, ["system/hook_started", "system/hook_response", "system/init"]);
    const response = messages[1] as Record<string, unknown>;
    assert.equal(response.hook_name, "SessionStart:startup");
    assert.equal(response.stdout, "The build is green.\n");
    assert.equal(response.exit_code, 0);
    assert.equal(response.outcome, "success");
    const input = JSON.parse(await Deno.readTextFile(`${dir}/start.json`));
    assert.deepEqual(Object.keys(input), [
      "session_id",
      "transcript_path",
      "cwd",
      "hook_event_name",
      "source",
    ]);
    assert.equal(input.source, "startup");
  });
});

Deno.test("hooks: a systemMessage (a command hook's or a callback's) is the real CLI's notice, where it writes it", async () => {
  await withProject({}, async (dir) => {
    const say = (text: string) => ({
      hooks: [{ type: "command" as const, command: `echo '{"systemMessage":"${text}"}'` }],
    });
    const messages = await bothSeams(bashScenario("echo hi"), "Say hi.", {
      cwd: dir,
      settings: { hooks: { PreToolUse: [{ matcher: "Bash", ...say("Command checked.") }] } },
      hooks: {
        PostToolUse: [{
          hooks: [() => Promise.resolve({ systemMessage: "Output checked." })],
        }],
      },
    });
    const order = messages.map((m) =>
      m.type === "system" && m.subtype === "informational"
        ? (m as unknown as { content: string }).content
        : m.type
    );
    const at = order.indexOf("user");
    assert.deepEqual(order.slice(at - 1, at + 2), [
      "PreToolUse:Bash says: Command checked.",
      "user",
      "PostToolUse:Bash says: Output checked.",
    ]);
  });
});

Deno.test("command hooks: with includeHookEvents each run sits between hook_started and hook_response", async () => {
  await withProject({}, async (dir) => {
    const messages = await bothSeams(bashScenario("echo hi"), "Say hi.", {
      cwd: dir,
      includeHookEvents: true,
      settings: {
        hooks: {
          PreToolUse: [{
            matcher: "Bash",
            hooks: [{ type: "command" as const, command: "echo checking >&2" }],
          }],
          PostToolUse: [{ hooks: [{ type: "command" as const, command: "exit 1" }] }],
        },
      },
    });
    const frames = messages.filter((m) =>
      m.type === "system" && (m.subtype === "hook_started" || m.subtype === "hook_response")
    ) as unknown as Array<Record<string, unknown>>;
    assert.deepEqual(
      frames.map((f) => [f.subtype, f.hook_name, f.exit_code, f.outcome]),
      [
        ["hook_started", "PreToolUse:Bash", undefined, undefined],
        ["hook_response", "PreToolUse:Bash", 0, "success"],
        ["hook_started", "PostToolUse:Bash", undefined, undefined],
        ["hook_response", "PostToolUse:Bash", 1, "error"],
      ],
    );
    assert.equal(frames[1].stderr, "checking\n");
    assert.equal(frames[0].hook_id, frames[1].hook_id);
  });
});

Deno.test("command hooks: a project settings file that is not JSON is skipped with a warning; the local file's hooks still run", async () => {
  await withProject({
    ".claude/settings.json": "{not json",
    ".claude/settings.local.json": JSON.stringify({
      hooks: {
        PreToolUse: [{
          matcher: "Bash",
          hooks: [{ type: "command", command: "echo 'local says no' >&2; exit 2" }],
        }],
      },
    }),
  }, async (dir) => {
    await using fake = await installFakeClaude({ scenario: bashScenario("ls") });
    const out = await new Deno.Command(fake.path, {
      args: ["-p", "List.", "--output-format", "json", "--allowedTools", "Bash"],
      cwd: dir,
      env: fake.env,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0);
    assert.equal(JSON.parse(new TextDecoder().decode(out.stdout)).result, "The hook refused.");
    assert.match(
      new TextDecoder().decode(out.stderr),
      /claude-mock: warning: \.claude\/settings\.json is not JSON, its hooks are not run/,
    );
  });
});

Deno.test("command hooks: the hooks of one event run together, a denial wins over an allow", async () => {
  // as the real CLI 2.1.332 (FINDINGS_gaps.md): every matching hook starts at once; `first`
  // waits for `second` to have run, so run one after the other it would time out instead
  const deny = '{"hookSpecificOutput":{"hookEventName":"PreToolUse",' +
    '"permissionDecision":"deny","permissionDecisionReason":"first says no"}}';
  const allow = '{"hookSpecificOutput":{"hookEventName":"PreToolUse",' +
    '"permissionDecision":"allow","permissionDecisionReason":"second says yes"}}';
  await withProject({
    ".claude/hooks/first.sh": [
      "#!/bin/sh",
      "cat > /dev/null",
      'while [ ! -f "$CLAUDE_PROJECT_DIR/second.done" ]; do sleep 0.01; done',
      `echo '${deny}'`,
      "",
    ].join("\n"),
    ".claude/hooks/second.sh": [
      "#!/bin/sh",
      "cat > /dev/null",
      `echo '${allow}'`,
      'touch "$CLAUDE_PROJECT_DIR/second.done"',
      "",
    ].join("\n"),
  }, async (dir) => {
    const hook = (name: string) => ({
      type: "command" as const,
      command: `sh "$CLAUDE_PROJECT_DIR/.claude/hooks/${name}.sh"`,
      timeout: 5,
    });
    const mock = new MockTransport(bashScenario("touch out.txt"));
    const messages = await collect("Touch it.", {
      ...mock.options(),
      cwd: dir,
      includeHookEvents: true,
      settings: { hooks: { PreToolUse: [{ hooks: [hook("first"), hook("second")] }] } },
      canUseTool: (_name, input) => Promise.resolve({ behavior: "allow", updatedInput: input }),
    });
    const hookFrames = messages.flatMap((m) => {
      const f = m as Record<string, unknown>;
      if (f.type !== "system" || !String(f.subtype).startsWith("hook_")) return [];
      return [
        `${f.subtype} ${
          String(f.stdout ?? "").includes("first") ? "first" : f.stdout ? "second" : ""
        }`.trim(),
      ];
    });
    // both started before either answered (in which order two processes end is the host's)
    assert.deepEqual(hookFrames.slice(0, 2), ["hook_started", "hook_started"]);
    assert.deepEqual(hookFrames.slice(2).sort(), ["hook_response first", "hook_response second"]);
    const block = toolResult(messages);
    assert.equal(block.content, "PreToolUse:Bash hook error: first says no");
    assert.equal(result(messages).subtype, "success");
  });
});

Deno.test("command hooks: SubagentStart (named by the agent type) runs while the subagent's prompt is written; SubagentStop after", async () => {
  await withProject({}, async (dir) => {
    const scenario = scenarioFromJSON({
      name: "subagent-hooks",
      cwd: "/home/user/project",
      exchanges: [{
        on: "review",
        steps: [
          {
            task: {
              description: "Review",
              prompt: "Review notes.txt.",
              result: "Fine.",
              subagentType: "reviewer",
            },
          },
          { say: "Reviewed." },
        ],
      }],
    });
    const messages = await bothSeams(scenario, "review", {
      cwd: dir,
      includeHookEvents: true,
      agents: { reviewer: { description: "Reviews.", prompt: "Review." } },
      settings: {
        hooks: {
          SubagentStart: [{
            matcher: "reviewer",
            hooks: [{ type: "command" as const, command: "echo starting" }],
          }],
          SubagentStop: [{ hooks: [{ type: "command" as const, command: "echo done" }] }],
        },
      },
    });
    const seen = messages.flatMap((m) => {
      const f = m as Record<string, unknown>;
      if (f.subtype === "hook_started" || f.subtype === "hook_response") {
        return [`${f.subtype} ${f.hook_name}`];
      }
      if (m.type === "user" && m.parent_tool_use_id !== null) return ["subagent prompt"];
      return [];
    });
    assert.deepEqual(seen, [
      "hook_started SubagentStart:reviewer",
      "subagent prompt",
      "hook_response SubagentStart:reviewer",
      "hook_started SubagentStop",
      "hook_response SubagentStop",
    ]);
  });
});

Deno.test("command hooks: SessionEnd hooks run once stdin closed, before the process exits (reason other; no frames)", async () => {
  // as the real CLI 2.1.328 and 2.1.332 (conformance/hooks_command_session_end_ran.json)
  await withProject({}, async (dir) => {
    const scenario = scenarioFromJSON({
      name: "session-end",
      cwd: "/home/user/project",
      exchanges: [{ on: { any: true }, repeat: true, steps: [{ say: "Hello." }] }],
    });
    const messages = await bothSeams(scenario, "Hi.", {
      cwd: dir,
      includeHookEvents: true,
      settings: {
        hooks: {
          SessionEnd: [{
            hooks: [{ type: "command", command: 'cat > "$CLAUDE_PROJECT_DIR/ended.json"' }],
          }],
        },
      },
    });
    const done = result(messages);
    assert.equal(done.subtype === "success" ? done.result : done.subtype, "Hello.");
    assert.ok(!messages.some((m) => m.type === "system" && m.subtype.startsWith("hook_")));
    const input = JSON.parse(await Deno.readTextFile(`${dir}/ended.json`));
    assert.deepEqual(Object.keys(input), [
      "session_id",
      "transcript_path",
      "cwd",
      "prompt_id",
      "hook_event_name",
      "reason",
    ]);
    assert.equal(input.hook_event_name, "SessionEnd");
    assert.equal(input.reason, "other");
    assert.equal(input.session_id, result(messages).session_id);
  });
});
