import assert from "node:assert/strict";
import { AGENT_RUN, agentResult, type AgentRun } from "../builders/_agent_run.ts";
import { createBuildContext } from "../builders/build_context.ts";
import { readTool, taskTool } from "../builders/tools.ts";
import { limitTurns } from "./subagent_turn_limit.ts";

function runOf(reads: number): AgentRun {
  const ctx = createBuildContext({ seed: 1 });
  const tools = Array.from(
    { length: reads },
    (_, i) => readTool(ctx, `/p/${i}.txt`, { content: `${i}\n` }),
  );
  const call = taskTool(ctx, "Read", { prompt: "Read them.", result: "All read.", tools });
  return (call as unknown as { [AGENT_RUN]: AgentRun })[AGENT_RUN];
}

Deno.test("limitTurns: a run that ends within the limit is left as scripted", () => {
  const run = runOf(2);
  assert.equal(limitTurns(run, undefined).run, run);
  assert.equal(limitTurns(run, 3).run, run);
  assert.equal(limitTurns(run, 3).stopped, undefined);
});

Deno.test("limitTurns: at the limit, the first maxTurns tool calls and the CLI's note", () => {
  // two tool calls and the report are three calls: maxTurns 2 stops it before its report
  for (const maxTurns of [1, 2]) {
    const { run, stopped } = limitTurns(runOf(2), maxTurns);
    assert.equal(stopped, maxTurns);
    assert.equal(run.tools.length, maxTurns);
    assert.match(
      run.options.result,
      new RegExp(`^NOTE: this agent stopped at its ${maxTurns}-turn limit`),
    );
    // its last call's tokens: 120 in, the Read block's out
    assert.equal(
      run.totalTokens,
      120 + Math.ceil(JSON.stringify(run.tools.at(-1)!.block.input).length / 4),
    );
  }
});

Deno.test("agentResult with a turn limit: the note in place of the hand-back frame and report", () => {
  const ctx = createBuildContext({ seed: 1 });
  const { run, stopped } = limitTurns(runOf(2), 1);
  const result = agentResult(ctx, run, { turnLimit: stopped });
  const tur = result.toolUseResult as { harnessNoteCount: number; content: { text: string }[] };
  assert.equal(tur.harnessNoteCount, 2);
  assert.equal(tur.content[1].text, run.options.result);
  const text = (result.content as { text: string }[])[0].text;
  assert.ok(
    text.startsWith("  <tools-used-before-summary>Read</tools-used-before-summary>\n  \n  NOTE:"),
  );
  assert.ok(!text.includes("[Subagent hand-back]"));
});
