import assert from "node:assert/strict";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import { Session } from "./session.ts";

const scenario = new ScenarioBuilder().on("hi", { repeat: true }).respond("Hello!").build();

/** The `tools` of each turn's `system/init` of a session spawned with `args`. */
async function initTools(args: string[], prompts = 1): Promise<string[][]> {
  const session = new Session(scenario, { args, recordSent: true, output: () => {} });
  for (let i = 0; i < prompts; i++) {
    session.write('{"type":"user","message":{"role":"user","content":"hi"}}\n');
  }
  session.endInput();
  await session.exited;
  return session.sent()
    .filter((f) => f.type === "system" && f.subtype === "init")
    .map((f) => f.tools as string[]);
}

Deno.test("built-in tools: sessions of different options get their own lists, of the same options equal ones", async () => {
  const [plain] = await initTools([]);
  const [again] = await initTools([]);
  assert.deepEqual(again, plain);
  assert.ok(plain.includes("Bash") && !plain.includes("Glob"));
  const [chosen] = await initTools(["--tools", "Read,Grep"]);
  assert.deepEqual(chosen, ["Grep", "Read"]);
  const [denied] = await initTools(["--disallowedTools", "Bash"]);
  assert.ok(!denied.includes("Bash") && denied.includes("Glob") && denied.includes("Grep"));
  const [asking] = await initTools(["--permission-prompt-tool", "stdio"]);
  assert.ok(asking.length > plain.length);
  const [model] = await initTools(["--model", "claude-sonnet-3-7"]);
  // the default list again after the others (no list leaked from one configuration to another)
  const [last] = await initTools([]);
  assert.deepEqual(last, plain);
  assert.ok(Array.isArray(model));
});

Deno.test("built-in tools: a session's init frames never hold a list another session can change", async () => {
  const [first] = await initTools([], 2);
  first.push("Mutated");
  const [other] = await initTools([]);
  assert.notEqual(other, first);
  assert.ok(!other.includes("Mutated"));
});
