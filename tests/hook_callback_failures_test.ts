// Hook callbacks that fail, against what the real CLI does with them (2.1.328 to 2.1.332,
// recorded in tests/fixtures/real/conform/hooks_callback_*.jsonl and
// hooks_pretooluse_wrong_event.*.jsonl): a callback that throws or returns no object is passed
// over with a warning; an output about another event fails the PreToolUse hooks.
import assert from "node:assert/strict";
import { MockTransport, runQuery, ScenarioBuilder } from "../mod.ts";

const scenario = new ScenarioBuilder().on("Touch")
  .usesBash("touch out.txt", { ifDenied: "Understood, I won't." })
  .respond("Touched.").build();

// deno-lint-ignore no-explicit-any
async function withHook(hook: (...args: any[]) => unknown) {
  const mock = new MockTransport(scenario);
  const run = await runQuery(mock, "Touch out.txt.", {
    canUseTool: (_tool: string, input: Record<string, unknown>) =>
      Promise.resolve({ behavior: "allow" as const, updatedInput: input }),
    // deno-lint-ignore no-explicit-any
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [hook as any] }] },
  });
  // deno-lint-ignore no-explicit-any
  const frames = run.messages as any[];
  const toolResult = frames.find((m) => m.type === "user")?.message.content[0];
  const warnings = frames.filter((m) => m.type === "system" && m.subtype === "informational");
  return { run, toolResult, warnings };
}

for (
  const [what, hook] of [
    ["throws", () => Promise.reject(new Error("Policy service unreachable."))],
    ["returns a number", () => Promise.resolve(42)],
    ["returns a string", () => Promise.resolve("yes")],
    ["returns null", () => Promise.resolve(null)],
  ] as const
) {
  Deno.test(`a PreToolUse hook callback that ${what} is passed over with a warning; the tool runs`, async () => {
    const { run, toolResult, warnings } = await withHook(hook);
    assert.equal(run.error, undefined);
    assert.equal(run.result?.subtype, "success");
    assert.equal(run.result?.result, "Touched.");
    assert.equal(toolResult.is_error, false);
    assert.deepEqual(warnings.map((w) => [w.level, w.tag, w.content]), [[
      "warning",
      "hook_callback_failed",
      "PreToolUse: Hook callback hook_0 failed: the SDK host replied with an error or an " +
      "invalid answer. Its answer was treated as empty.",
    ]]);
  });
}

Deno.test("a PreToolUse hook output about another event fails the hook: the tool is not run", async () => {
  const { run, toolResult } = await withHook(() =>
    Promise.resolve({
      hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "c" },
    })
  );
  assert.equal(run.result?.subtype, "success");
  assert.equal(toolResult.is_error, true);
  assert.equal(
    toolResult.content,
    "PreToolUse hook failed with an unexpected error. The tool call was not executed; other " +
      "configured hooks may not have completed.",
  );
  assert.deepEqual(run.result?.permission_denials, [], "not a permission denial");
  // the denied branch of the scenario answered
  assert.equal(run.result?.result, "Understood, I won't.");
});

Deno.test("a UserPromptSubmit hook output about another event crashes the session as the real CLI", async () => {
  const mock = new MockTransport(scenario);
  const run = await runQuery(mock, "Touch out.txt.", {
    hooks: {
      UserPromptSubmit: [{
        hooks: [() =>
          Promise.resolve({
            hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "Context." },
          })],
      }],
    },
  });
  // before: the hook was passed over and the turn ran
  assert.equal(run.exit?.code, 1);
  assert.equal(run.result?.subtype, "error_during_execution");
  assert.equal(run.result?.num_turns, 0);
  assert.deepEqual((run.result as { errors?: string[] } | undefined)?.errors, [
    "Hook returned incorrect event name: expected 'UserPromptSubmit' but got 'SessionStart'. " +
    `Full stdout: ${
      JSON.stringify(
        { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "Context." } },
        null,
        2,
      )
    }`,
    "[session_crash] error_name=TelemetrySafeError api_error_status=none cause_name=none",
  ]);
  assert.equal(run.messages.some((m) => m.type === "assistant"), false, "no turn ran");
});
