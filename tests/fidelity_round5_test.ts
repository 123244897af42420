// Fidelity rounds five and six: permission prompts no one can answer, the effort level, the
// budget. Each recording of the real CLI 2.1.328 in tests/fixtures/real/r5_* and r6_* replayed
// through the real SDK and the mock, both directions compared frame by frame.
import assert from "node:assert/strict";
import type { HookCallback } from "@anthropic-ai/claude-agent-sdk";
import { ScenarioBuilder } from "../mod.ts";
import { compareTape, recAllow } from "./_fidelity.ts";

const CWD = "/home/user/project";
const NOTES =
  "Project notes\n=============\n1. The build uses make.\n2. Tests live in tests/.\n3. Release on Fridays.\n";
const base = { permissionMode: "default" as const, maxTurns: 3 };

Deno.test("r5 fidelity: without canUseTool, uses that need a prompt are denied when the tools run", async () => {
  await compareTape(
    "r5_no_prompt_denials",
    new ScenarioBuilder()
      .on("Change things.")
      .usesTogether((t) =>
        t.usesWrite(`${CWD}/out.txt`, { content: "x" })
          .usesEdit(`${CWD}/notes.txt`, {
            oldString: "make",
            newString: "cmake",
            originalFile: NOTES,
          })
          .usesTool("WebFetch", { url: "https://example.com", prompt: "x" })
          .usesBash("curl https://example.com", { description: "Fetch" })
      )
      .respond("Could not.")
      .build(),
    base,
  );
});

for (const name of ["r5_permission_prompts_none", "r5_permission_prompts_none_bash"]) {
  Deno.test(`r5 fidelity: ${name}: --permission-prompts none denies at once, canUseTool unasked`, async () => {
    const { canUseTool, calls } = recAllow();
    const scenario = name === "r5_permission_prompts_none"
      ? new ScenarioBuilder().on("Write a file.").usesWrite(`${CWD}/out.txt`, { content: "x" })
        .respond("Could not write.").build()
      : new ScenarioBuilder().on("Fetch.")
        .usesTogether((t) =>
          t.usesBash("curl https://example.com", { description: "Fetch" })
            .usesEdit(`${CWD}/notes.txt`, {
              oldString: "make",
              newString: "cmake",
              originalFile: NOTES,
            })
        )
        .respond("Could not.").build();
    await compareTape(name, scenario, { ...base, permissionPrompts: "none", canUseTool });
    assert.deepEqual(calls, []);
  });
}

Deno.test("r5 fidelity: --effort reaches the hooks' input", async () => {
  const seen: unknown[] = [];
  const hook: HookCallback = (input) => {
    seen.push((input as { effort?: unknown }).effort);
    return Promise.resolve({ continue: true });
  };
  await compareTape(
    "r5_effort_high",
    new ScenarioBuilder().on("Show me notes.txt.").usesRead(`${CWD}/notes.txt`, { content: NOTES })
      .respond("Here it is.").build(),
    { ...base, effort: "high", hooks: { PreToolUse: [{ matcher: "Read", hooks: [hook] }] } },
  );
  assert.deepEqual(seen, [{ level: "high" }]);
});

Deno.test("r6 fidelity: a reply that spends the budget ends the turn before its tools run", async () => {
  // the recording's fake API reports 25 output tokens a reply: 0.00098 USD a call
  const read = { content: NOTES, outputTokens: 25 };
  const { ours } = await compareTape(
    "r6_max_budget",
    new ScenarioBuilder().on("Read notes three times.")
      .usesRead(`${CWD}/notes.txt`, read)
      .usesRead(`${CWD}/notes.txt`, read)
      .usesRead(`${CWD}/notes.txt`, read)
      .respond("Done.").build(),
    { permissionMode: "default", maxTurns: 8, maxBudgetUsd: 0.0015 },
  );
  const result = ours.messages.at(-1) as { subtype: string; num_turns: number };
  assert.equal(result.subtype, "error_max_budget_usd");
  assert.equal(result.num_turns, 2, "the second reply's Read never ran");
});
