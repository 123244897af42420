import assert from "node:assert/strict";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { Session } from "./session.ts";
import { userPrompt } from "../builders/user.ts";

/** Runs one turn of `scenario` with `console.warn` captured: what it warned. */
async function warned(scenario: Scenario): Promise<string[]> {
  const warnings: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => void warnings.push(args.join(" "));
  try {
    const session = new Session(scenario, {
      args: ["--permission-mode", "bypassPermissions"],
      root: false, // as any user but root: skipping permissions is allowed
    });
    const writer = session.writable.getWriter();
    await writer.write(
      `${JSON.stringify(userPrompt("go"))}\n`,
    );
    await writer.close();
    await new Response(session.readable).text();
  } finally {
    console.warn = original;
  }
  return warnings;
}

Deno.test("a reply after a reply without tool uses: one warning per step and scenario", async () => {
  const scenario = new ScenarioBuilder({ name: "chat" }).on("go").repeat()
    .respond("First.").respond("Second.").apiError(500).build();
  const tail = "follows a reply without tool uses: the real CLI ends the turn at that reply and " +
    "never reaches it (script it after a tool use, or in the next turn)";
  assert.deepEqual(await warned(scenario), [
    `claude-mock: warning: exchanges[0].steps[1] of scenario 'chat' (message) ${tail}`,
    `claude-mock: warning: exchanges[0].steps[2] of scenario 'chat' (apiError) ${tail}`,
  ]);
  // another session of the same scenario: already said
  assert.deepEqual(await warned(scenario), []);
});

Deno.test("a reply after a tool use, a budget that runs out after a reply: no warning", async () => {
  const scenario = new ScenarioBuilder({ name: "tools" }).on("go")
    .usesBash("ls", { stdout: "a" }).respond("Listed.").failure("max_budget").build();
  assert.deepEqual(await warned(scenario), []);
});
