// The mock against the real CLI's recorded runs of the hook conformance cases of custom slash
// commands (UserPromptExpansion), the compaction's, StopFailure's and SessionEnd's hook
// outputs, and hook_progress (tests/fixtures/real/conform/, scripts/record_conform.ts; the
// findings in tests/fixtures/real/FINDINGS_hooks.md). A hook command runs for real here.
import assert from "node:assert/strict";
import { diffWithRecording } from "../scripts/_conform_recording.ts";

const CASES = [
  "hooks_prompt_expansion",
  "hooks_prompt_expansion_block",
  "hooks_prompt_expansion_stop",
  "hooks_prompt_expansion_context",
  "hooks_command_prompt_expansion_exit2",
  "hooks_prompt_expansion_model",
  "hooks_command_compact_block",
  "hooks_compact_block",
  "hooks_compact_block_message",
  "hooks_stop_failure_outputs",
  "hooks_command_stop_failure_outputs",
  "hooks_command_session_end_outputs",
];

for (const name of CASES) {
  for (const cli of ["2.1.328", "2.1.332"]) {
    Deno.test(`${name}: the mock's run is the real CLI ${cli}'s`, async () => {
      assert.deepEqual(await diffWithRecording(name, { cli }), []);
    });
  }
}

Deno.test("hooks_command_compact_outputs: the mock's run is the real CLI's but for post_tokens (the paths' lengths)", async () => {
  for (const cli of ["2.1.328", "2.1.332"]) {
    const diffs = await diffWithRecording("hooks_command_compact_outputs", { cli });
    assert.deepEqual(diffs.map((d) => d.path), ["compact_metadata.post_tokens"]);
  }
});
