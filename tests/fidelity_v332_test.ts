// Fidelity to CLI 2.1.332 (SDK 0.3.332) and what changed since 2.1.328: the recordings
// tests/fixtures/real/v33*_* (FINDINGS_v332.md) replayed through the real SDK of their version,
// the mock impersonating the CLI that SDK bundles.
import assert from "node:assert/strict";
import type { HookCallback, Options } from "@anthropic-ai/claude-agent-sdk";
import { compareTape, readTape, recAllow } from "./_fidelity.ts";
import { ScenarioBuilder } from "../mod.ts";

const MARKER = "Hello! The marker says skill-shell-ran.";

/** The scenario of the skill_shell recordings: a project skill with one shell command. */
const skillScenario = () =>
  new ScenarioBuilder({ skills: { greet: { shell: ["echo skill-shell-ran"] } } })
    .on("/greet").respond(MARKER, { outputTokens: 25 }).build();

/** The recordings' hooks: PreSkillShellCommand answers `answer`, PreToolUse lets all pass. */
function skillHooks(answer: "allow" | "deny"): Options["hooks"] {
  const shell: HookCallback = () =>
    Promise.resolve(
      answer === "deny"
        ? {
          hookSpecificOutput: {
            hookEventName: "PreSkillShellCommand",
            permissionDecision: "deny",
            permissionDecisionReason: "No shell in skills.",
          },
        }
        : { continue: true },
    ) as never;
  return {
    PreSkillShellCommand: [{ hooks: [shell] }],
    PreToolUse: [{ hooks: [() => Promise.resolve({ continue: true })] }],
  } as Options["hooks"];
}

for (
  const [tape, env] of [
    ["v332_skill_shell_allow", undefined],
    ["v332_skill_shell_deny", undefined],
    // the same conversation as CLI 2.1.331 and 2.1.328 had it: no hook is asked
    ["v331_skill_shell_deny", { CLAUDE_MOCK_VERSION: "2.1.331" }],
    ["v328_skill_shell_deny", undefined],
  ] as const
) {
  Deno.test(`PreSkillShellCommand as recorded in ${tape}`, async () => {
    const { canUseTool } = recAllow();
    const { ours } = await compareTape(tape, skillScenario(), {
      maxTurns: 2,
      settingSources: ["project"],
      canUseTool,
      hooks: skillHooks(tape.includes("allow") ? "allow" : "deny"),
    }, env ? { env: { ...Deno.env.toObject(), ...env } } : {});
    const asked = ours.out.filter((f) =>
      f.type === "control_request" &&
      (f.request as { input?: { hook_event_name?: string } }).input?.hook_event_name ===
        "PreSkillShellCommand"
    );
    assert.equal(asked.length, tape.startsWith("v332") ? 1 : 0);
  });
}

Deno.test("CLI 2.1.332 through SDK 0.3.332: initialize answer, init frame and result as recorded (v332_hello)", async () => {
  const { ours } = await compareTape(
    "v332_hello",
    new ScenarioBuilder().on(/hello/).respond("Hello! How can I help you today?").build(),
    { maxTurns: 1 },
  );
  const tape = await readTape("v332_hello");
  const realInit = tape.lines.find((l) => l.frame.subtype === "init")!.frame;
  const init = ours.out.find((f) => f.subtype === "init")!;
  // every key in the recorded order, the version and capabilities of 2.1.332
  assert.deepEqual(Object.keys(init), Object.keys(realInit));
  assert.equal(init.claude_code_version, "2.1.332");
  assert.deepEqual(init.capabilities, realInit.capabilities);
  const answer = (frames: Array<Record<string, unknown>>) =>
    (frames.find((f) => f.type === "control_response")!.response as {
      response: Record<string, unknown>;
    }).response;
  const realAnswer = answer(tape.lines.map((l) => l.frame));
  const ourAnswer = answer(ours.out);
  assert.deepEqual(Object.keys(ourAnswer), Object.keys(realAnswer));
  for (const key of ["claude_code_version", "capabilities", "sandbox_enabled"]) {
    assert.deepEqual(ourAnswer[key], realAnswer[key], key);
  }
});
