import assert from "node:assert/strict";
import {
  commandHookOutput,
  commandHooksAllowed,
  commandHooksOf,
  DEFAULT_HOOK_TIMEOUT_S,
  type HookCommandResult,
  matcherCovers,
} from "./command_hooks.ts";

const ran = (partial: Partial<HookCommandResult>): HookCommandResult => ({
  code: 0,
  stdout: "",
  stderr: "",
  timedOut: false,
  ...partial,
});

Deno.test("commandHooksOf: the command hooks of a settings object, in order, with their matcher and timeout", () => {
  const hooks = commandHooksOf({
    permissions: { allow: [] },
    hooks: {
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [
            { type: "command", command: "./check.sh", timeout: 5 },
            { type: "prompt", prompt: "not a command" },
            { type: "command", command: "./audit.sh", timeout: -1 },
          ],
        },
        { hooks: "not an array" },
      ],
      Stop: [{ hooks: [{ type: "command", command: "./keep.sh" }] }],
      Broken: "not an array",
    },
  });
  assert.deepEqual(hooks, [
    { event: "PreToolUse", matcher: "Bash", command: "./check.sh", timeout: 5 },
    {
      event: "PreToolUse",
      matcher: "Bash",
      command: "./audit.sh",
      timeout: DEFAULT_HOOK_TIMEOUT_S,
    },
    { event: "Stop", command: "./keep.sh", timeout: DEFAULT_HOOK_TIMEOUT_S },
  ]);
  assert.deepEqual(commandHooksOf(undefined), []);
  assert.deepEqual(commandHooksOf({ hooks: [] }), []);
});

Deno.test("matcherCovers: exact names, alternatives, regexes and wildcards, as the real CLI matches tools", () => {
  assert.equal(matcherCovers("Bash", "Bash"), true);
  assert.equal(matcherCovers("Bash", "BashOutput"), false);
  assert.equal(matcherCovers("Edit|Write", "Write"), true);
  assert.equal(matcherCovers("mcp__.*", "mcp__db__query"), true);
  assert.equal(matcherCovers("*", "Read"), true);
  assert.equal(matcherCovers("", "Read"), true);
  assert.equal(matcherCovers(undefined, "Read"), true);
  assert.equal(matcherCovers("Bash", undefined), true);
  assert.equal(matcherCovers("([", "Read"), false);
});

Deno.test("commandHookOutput: exit 0 with a JSON object is the hook's output, as a callback's answer", () => {
  const output = commandHookOutput(
    { event: "PreToolUse", command: "./deny.sh" },
    ran({
      stdout:
        '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}\n',
    }),
  );
  assert.deepEqual(output, {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: "no",
    },
  });
});

Deno.test("commandHookOutput: exit 0 with plain stdout is context for UserPromptSubmit and SessionStart only", () => {
  assert.deepEqual(
    commandHookOutput({ event: "UserPromptSubmit", command: "x" }, ran({ stdout: "ticket ABC\n" })),
    { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "ticket ABC" } },
  );
  assert.deepEqual(
    commandHookOutput({ event: "SessionStart", command: "x" }, ran({ stdout: "{not json" })),
    { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "{not json" } },
  );
  assert.deepEqual(
    commandHookOutput({ event: "PreToolUse", command: "x" }, ran({ stdout: "hi" })),
    {},
  );
  assert.deepEqual(commandHookOutput({ event: "UserPromptSubmit", command: "x" }, ran({})), {});
});

Deno.test("commandHookOutput: a compaction hook's plain stdout is what /compact's output lists after it", () => {
  for (const event of ["PreCompact", "PostCompact"]) {
    assert.deepEqual(
      commandHookOutput({ event, command: "echo kept" }, ran({ stdout: "kept\n" })),
      { hookOutputText: "kept" },
    );
    assert.deepEqual(commandHookOutput({ event, command: "true" }, ran({})), {});
  }
});

Deno.test("commandHookOutput: exit 2 blocks with '[command]: stderr' where the event can block", () => {
  const block = (event: string) =>
    commandHookOutput(
      { event, command: "./no_rm.sh" },
      ran({ code: 2, stderr: "rm is not allowed\n" }),
    );
  for (const event of ["PreToolUse", "Stop", "SubagentStop"]) {
    assert.deepEqual(block(event), {
      decision: "block",
      reason: "[./no_rm.sh]: rm is not allowed\n",
    });
  }
  // the prompt's outcome keeps the hook's own words, the notice names the command
  assert.deepEqual(block("UserPromptSubmit"), {
    decision: "block",
    reason: "[./no_rm.sh]: rm is not allowed\n",
    outcomeReason: "rm is not allowed",
  });
  assert.deepEqual(
    commandHookOutput(
      { event: "PostToolUse", command: "./post.sh" },
      ran({ code: 2, stderr: "post err\n" }),
      { tool: "Bash" },
    ),
    {
      hookSpecificOutput: {
        hookEventName: "PostToolUse",
        additionalContext:
          'PostToolUse:Bash hook blocking error from command: "./post.sh": [./post.sh]: post err\n',
      },
    },
  );
  assert.deepEqual(block("Notification"), {});
  // exit 2 ignores stdout, even JSON
  assert.deepEqual(
    commandHookOutput(
      { event: "PreToolUse", command: "c" },
      ran({ code: 2, stdout: '{"decision":"approve"}', stderr: "" }),
    ),
    { decision: "block", reason: "[c]: No stderr output" },
  );
});

Deno.test("commandHookOutput: other codes, timeouts and kills are non-blocking: no decision", () => {
  const hook = { event: "PreToolUse", command: "c" };
  assert.deepEqual(commandHookOutput(hook, ran({ code: 1, stderr: "oops" })), {});
  assert.deepEqual(commandHookOutput(hook, ran({ code: 127, stderr: "not found" })), {});
  assert.deepEqual(
    commandHookOutput(hook, ran({ code: null, timedOut: true, stdout: '{"decision":"block"}' })),
    {},
  );
  assert.deepEqual(commandHookOutput(hook, ran({ code: null })), {});
});

Deno.test("commandHooksAllowed: CLAUDE_MOCK_COMMAND_HOOKS turns command hooks off, and refuses what it cannot read", () => {
  assert.equal(commandHooksAllowed({}), true);
  assert.equal(commandHooksAllowed({ CLAUDE_MOCK_COMMAND_HOOKS: "" }), true);
  assert.equal(commandHooksAllowed({ CLAUDE_MOCK_COMMAND_HOOKS: "1" }), true);
  assert.equal(commandHooksAllowed({ CLAUDE_MOCK_COMMAND_HOOKS: "0" }), false);
  assert.equal(commandHooksAllowed({ CLAUDE_MOCK_COMMAND_HOOKS: "False" }), false);
  assert.throws(
    () => commandHooksAllowed({ CLAUDE_MOCK_COMMAND_HOOKS: "off" }),
    (e: unknown) =>
      e instanceof TypeError &&
      e.message ===
        'claude-mock: CLAUDE_MOCK_COMMAND_HOOKS must be 1 or 0 (true or false), got "off"',
  );
});
