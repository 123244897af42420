// Fidelity round five: permission prompts no one can answer, and the effort level. Each
// recording of the real CLI 2.1.328 in tests/fixtures/real/r5_* replayed through the real SDK
// and the mock, both directions compared frame by frame.
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
