// The control plane as conformance found it differing (issue 20), each compared with the real
// CLI's run of the same conformance case (tests/fixtures/real/conform/, scripts/record_conform.ts).
import assert from "node:assert/strict";
import { at, diffWithRecording } from "../scripts/_conform_recording.ts";

for (const name of ["multi_tool_two_bash", "perm_updated_input"]) {
  Deno.test(`can_use_tool for a Bash command without a description names the command (${name})`, async () => {
    const diffs = await diffWithRecording(name);
    assert.deepEqual(at(diffs, { kind: "cli->sdk control_request/can_use_tool" }), []);
  });
}

Deno.test("tool_result_meta: a tool an allow rule runs says so (reason_type rule, perm_allowed_disallowed_tools)", async () => {
  const diffs = await diffWithRecording("perm_allowed_disallowed_tools");
  assert.deepEqual(at(diffs, { path: /^tool_result_meta/ }), []);
});

Deno.test("tool_result_meta: a Bash command the whole-tool rule 'Bash' runs is allowed by the rule (reason_type rule, not subcommandResults; perm_allowed_bash_whole_tool)", async () => {
  assert.deepEqual(await diffWithRecording("perm_allowed_bash_whole_tool"), []);
});

for (const name of ["perm_default_readonly", "limit_max_turns", "hooks_posttooluse_context"]) {
  Deno.test(`a read-only Bash command (echo) runs unasked without canUseTool, as recorded (${name})`, async () => {
    assert.deepEqual(await diffWithRecording(name), []);
  });
}

Deno.test("a rule's denial waits for the tools before it in the message: their results first (example_tools_permissions_cleanup)", async () => {
  assert.deepEqual(await diffWithRecording("example_tools_permissions_cleanup"), []);
});

Deno.test("a multi-prompt session: every frame as recorded, in the order each side wrote them (builtin_simple_conversation)", async () => {
  assert.deepEqual(await diffWithRecording("builtin_simple_conversation"), []);
});

for (const name of ["builtin_ask_user_question_unmatched_answer", "ask_user_question_answers"]) {
  Deno.test(`AskUserQuestion reads the answers keyed by the questions' text, in their order (${name})`, async () => {
    assert.deepEqual(await diffWithRecording(name), []);
  });
}

Deno.test("/compact: PreCompact, SubagentStop (the summarizer), SessionStart (compact), PostCompact with the reply, the output listing the hooks (hooks_all_compact)", async () => {
  const diffs = await diffWithRecording("hooks_all_compact");
  // post_tokens: the real CLI counts something more in the summary's context with hooks
  // registered (56 tokens here), not known yet
  assert.deepEqual(
    diffs.filter((d) => d.path !== "compact_metadata.post_tokens"),
    [],
  );
});

for (const name of ["hooks_message_display", "hooks_message_display_partial"]) {
  Deno.test(`MessageDisplay before each text the main agent shows, awaited before its frame (${name})`, async () => {
    assert.deepEqual(await diffWithRecording(name), []);
  });
}

for (
  const name of [
    "hooks_permission_request_none",
    "hooks_permission_request_allow",
    "hooks_permission_request_deny",
    "hooks_permission_request_can_use_tool",
  ]
) {
  Deno.test(`PermissionRequest hooks asked where the CLI asks, deciding without canUseTool (${name})`, async () => {
    assert.deepEqual(await diffWithRecording(name), []);
  });
}

Deno.test("every tool hook as the real CLI calls it: PreToolUse, PermissionRequest beside can_use_tool, PostToolUse, PostToolBatch, MessageDisplay, Stop (hooks_all_tools)", async () => {
  assert.deepEqual(await diffWithRecording("hooks_all_tools"), []);
});

for (const name of ["hooks_permission_request_can_use_tool", "hooks_all_tools"]) {
  Deno.test(`a PermissionRequest hook beside canUseTool as CLI 2.1.332 asks: a file tool's request without server_policy_ask_only (${name})`, async () => {
    assert.deepEqual(await diffWithRecording(name, { cli: "2.1.332" }), []);
  });
}

Deno.test("a subagent's tools through the hooks: SubagentStart, PreToolUse, PostToolUse, PostToolBatch with agent_id and agent_type, SubagentStop (hooks_all_subagent)", async () => {
  assert.deepEqual(await diffWithRecording("hooks_all_subagent"), []);
});

Deno.test("can_use_tool when the mode asks (plan mode, before an edit): no server_policy_ask_only, no suggestions (perm_mode_plan)", async () => {
  assert.deepEqual(await diffWithRecording("perm_mode_plan"), []);
});

Deno.test("a thinking block's signature raises the thinking-token estimate to its own floor: one more thinking_tokens frame before signature_delta (example_partial_streaming)", async () => {
  const diffs = await diffWithRecording("example_partial_streaming");
  assert.deepEqual(at(diffs, { kind: "cli->sdk system/thinking_tokens" }), []);
  // the rest is identical but for where message_stop falls around the Write's can_use_tool,
  // a race with the API's pace (conformance/exceptions.json: last-tool-check-vs-message-stop)
  assert.deepEqual(
    diffs.filter((d) => d.kind !== "cli->sdk stream_event/message_stop").map((d) => d.kind),
    [],
  );
});

// Command hooks of the settings, run by the mock as by the real CLI (FINDINGS_command_hooks.md).
for (
  const name of [
    "hooks_command_pretooluse_exit2",
    "hooks_command_pretooluse_deny_json",
    "hooks_command_user_prompt_context",
    "hooks_command_stop_block",
    "hooks_command_user_prompt_block",
    "hooks_user_prompt_stop",
    "hooks_user_prompt_block",
    "hooks_command_system_message",
    "hooks_system_message",
    "hooks_command_hook_events",
    "hooks_hook_events",
  ]
) {
  for (const cli of ["2.1.328", "2.1.332"]) {
    Deno.test(`command hooks of the settings run as the real CLI ${cli} runs them (${name})`, async () => {
      assert.deepEqual(await diffWithRecording(name, { cli }), []);
    });
  }
}
Deno.test("a Stop command hook that blocks, in print mode: the feedback and the notice, as recorded (hooks_command_stop_block)", async () => {
  for (const cli of ["2.1.328", "2.1.331", "2.1.332"]) {
    assert.deepEqual(
      await diffWithRecording("hooks_command_stop_block", { cli, mode: "print:stream-json" }),
      [],
    );
  }
});
Deno.test("a SessionStart command hook: its hook_started and hook_response frames before system/init, as recorded (hooks_command_session_start)", async () => {
  for (const cli of ["2.1.328", "2.1.332"]) {
    assert.deepEqual(
      await diffWithRecording("hooks_command_session_start", { cli, mode: "print:stream-json" }),
      [],
    );
  }
});

Deno.test("a SessionStart command hook runs at start-up, before the initialize answer and the first turn, as recorded (hooks_command_session_start, duplex)", async () => {
  for (const cli of ["2.1.328", "2.1.332"]) {
    assert.deepEqual(await diffWithRecording("hooks_command_session_start", { cli }), []);
  }
});

for (const mode of ["print:json", "print:stream-json"]) {
  Deno.test(`--max-turns 0 is no limit, as the real CLI: the tool runs and the run succeeds (limit_max_turns_zero, ${mode})`, async () => {
    assert.deepEqual(await diffWithRecording("limit_max_turns_zero", { mode }), []);
  });
}

Deno.test("/context sent as a prompt is answered locally, as recorded: the report, context_usage, a local_command result (slash_context)", async () => {
  for (const cli of ["2.1.328", "2.1.332"]) {
    assert.deepEqual(await diffWithRecording("slash_context", { cli }), []);
  }
});

// The hooks of one event run together (FINDINGS_hooks.md): PermissionRequest (the first
// decision decides), PreCompact, PostCompact and SessionStart.
for (
  const name of [
    "hooks_permission_request_together",
    "hooks_command_permission_request_together",
    "hooks_command_permission_request_slow_deny",
    "hooks_command_session_start_together",
    "hooks_command_message_display_together",
  ]
) {
  for (const cli of ["2.1.328", "2.1.332"]) {
    Deno.test(`the hooks of one event run together as the real CLI ${cli} runs them (${name})`, async () => {
      assert.deepEqual(await diffWithRecording(name, { cli }), []);
    });
  }
}
for (const name of ["hooks_compact_together", "hooks_command_compact_together"]) {
  for (const cli of ["2.1.328", "2.1.332"]) {
    Deno.test(`/compact's hooks run together, listed in their order, as the real CLI ${cli} runs them (${name})`, async () => {
      const diffs = await diffWithRecording(name, { cli });
      // post_tokens counts the transcript's path (conformance/exceptions.json:
      // compact-transcript-path-length)
      assert.deepEqual(diffs.filter((d) => d.path !== "compact_metadata.post_tokens"), []);
    });
  }
}

// Every hook event registered, around a failed tool and an API error (FINDINGS_hooks.md).
for (const name of ["hooks_all_tool_failure", "hooks_all_api_error"]) {
  for (const cli of ["2.1.328", "2.1.332"]) {
    Deno.test(`a failed tool's PostToolUseFailure (is_interrupt), an API error's MessageDisplay and StopFailure, as the real CLI ${cli} calls them (${name})`, async () => {
      assert.deepEqual(await diffWithRecording(name, { cli }), []);
    });
  }
}

Deno.test("an MCP tool's hooks name its server; updatedMCPToolOutput replaces its result as it is, updatedToolOutput leaves Bash's frame (hooks_posttooluse_updated_output)", async () => {
  for (const cli of ["2.1.328", "2.1.332"]) {
    assert.deepEqual(await diffWithRecording("hooks_posttooluse_updated_output", { cli }), []);
  }
});

// Which events a headless session runs, and which it does not (FINDINGS_hooks.md).
for (
  const name of ["hooks_command_session_end_ran", "hooks_command_session_end", "hooks_all_dont_ask"]
) {
  for (const cli of ["2.1.328", "2.1.332"]) {
    Deno.test(`SessionEnd as the session ends, no hook frames for it or Notification, no PermissionDenied for dontAsk, as the real CLI ${cli} (${name})`, async () => {
      assert.deepEqual(await diffWithRecording(name, { cli }), []);
    });
  }
}

Deno.test("a PreToolUse hook's updatedInput: the rewritten command in the later hooks, accepted by the hook (hooks_pretooluse_updated_input)", async () => {
  for (const cli of ["2.1.328", "2.1.332"]) {
    const diffs = await diffWithRecording("hooks_pretooluse_updated_input", { cli });
    // the real CLI ran the rewritten command; the mock's scripted output stands for it
    // (conformance/exceptions.json: pretooluse-rewritten-command-output-*)
    assert.deepEqual(
      diffs.filter((d) => !/stdout$|^message\.content\.0\.content$/.test(d.path ?? "")),
      [],
    );
  }
});
