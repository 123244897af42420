import assert from "node:assert/strict";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { AssertionError } from "./assertion_error.ts";
import { assertProgress } from "./scenario_progress.ts";
import { Session } from "./session.ts";

const prompt = (content: string) =>
  JSON.stringify({
    type: "user",
    session_id: "",
    message: { role: "user", content },
    parent_tool_use_id: null,
  }) + "\n";

async function session(scenario: Scenario, prompts: string[]): Promise<Session> {
  const s = new Session(scenario);
  const writer = s.writable.getWriter();
  for (const p of prompts) await writer.write(prompt(p));
  await writer.close();
  await new Response(s.readable).text();
  await s.exited;
  return s;
}

const all = { finished: false, who: "mock 'deploy'" };
const finished = { finished: true, who: "mock 'deploy'" };
const scenario = new ScenarioBuilder({ name: "deploy" })
  .on("build").respond("Built.")
  .on("delete the build dir").respond("Deleted.")
  .on("status").times(2).respond("Green.")
  .on("logs").repeat().respond("No logs.")
  .onUnmatched("warn")
  .build();

Deno.test("assertProgress: names each exchange never used, with the closest prompt", async () => {
  const original = console.warn;
  console.warn = () => {};
  let s: Session;
  try {
    s = await session(scenario, ["build it", "delete the buld dir", "status", "status please"]);
  } finally {
    console.warn = original;
  }
  assert.throws(() => assertProgress(s, scenario, all), (error: Error) => {
    assert.ok(error instanceof AssertionError);
    assert.equal(
      error.message,
      [
        "mock 'deploy': 2 of 4 exchanges were never used:",
        `- exchanges[1] on contains "delete the build dir" (used 0 of 1 times); closest prompt: "delete the buld dir" (turn 2, which matched no exchange)`,
        `- exchanges[3] on contains "logs" (repeats, used 0 times)`,
      ].join("\n"),
    );
    return true;
  });
  assert.throws(() => assertProgress(s, scenario, finished), (error: Error) => {
    assert.equal(
      error.message,
      [
        "mock 'deploy': the scenario did not finish:",
        `- exchanges[1] on contains "delete the build dir" (used 0 of 1 times); closest prompt: "delete the buld dir" (turn 2, which matched no exchange)`,
        `- exchanges[3] on contains "logs" (repeats, used 0 times)`,
        `- user message "delete the buld dir" (turn 2) matched no exchange; closest: exchanges[1] on contains "delete the build dir" (used 0 of 1 times)`,
      ].join("\n"),
    );
    return true;
  });
});

Deno.test("assertProgress: passes when every exchange is used up and every prompt matched", async () => {
  const s = await session(scenario, [
    "build",
    "delete the build dir",
    "status",
    "status",
    "logs",
    "logs",
  ]);
  assertProgress(s, scenario, all);
  assertProgress(s, scenario, finished);
});

Deno.test("assertProgress: times(n) not used up fails 'finished' but not 'all used'", async () => {
  const s = await session(scenario, ["build", "delete the build dir", "status", "logs"]);
  assertProgress(s, scenario, all);
  assert.throws(
    () => assertProgress(s, scenario, finished),
    {
      message:
        `mock 'deploy': the scenario did not finish:\n- exchanges[2] on contains "status" (used 1 of 2 times)`,
    },
  );
});

Deno.test("assertProgress: a shadowed exchange names the prompt that went elsewhere", async () => {
  const shadowed = new ScenarioBuilder().on("deploy").respond("Deployed.")
    .on("deploy to prod").respond("Deployed to prod.").build();
  const s = await session(shadowed, ["deploy to prod"]);
  assert.throws(
    () => assertProgress(s, shadowed, { finished: false, who: "mock" }),
    {
      message:
        `mock: 1 of 2 exchanges were never used:\n- exchanges[1] on contains "deploy to prod" (used 0 of 1 times); closest prompt: "deploy to prod" (turn 1, answered by exchanges[0])`,
    },
  );
});

Deno.test("assertProgress: before any session, every exchange of this run is unused", () => {
  const runs = new ScenarioBuilder().on("a").respond("A.").on("b", { invocation: 2 })
    .respond("B.").build();
  assert.throws(
    () => assertProgress(undefined, runs, { finished: false, who: "mock" }),
    {
      message:
        `mock never ran (pass mock.spawn to the SDK or call connect()): 1 of 1 exchange was never used:\n- exchanges[0] on contains "a" (used 0 of 1 times)`,
    },
  );
  assertProgress(undefined, new ScenarioBuilder().build(), { finished: true, who: "mock" });
});
