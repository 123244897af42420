// Thinking as the real CLI (2.1.328 and 2.1.332) reports it when the session's thinking is turned
// off (conformance cases thinking_off_sonnet(_partial), tests/fixtures/real/FINDINGS_tools.md).
import assert from "node:assert/strict";
import { MockTransport, runQuery, ScenarioBuilder } from "../mod.ts";

function thinkingFrames(messages: readonly unknown[]): Array<Record<string, unknown>> {
  return (messages as Array<Record<string, unknown>>).filter((m) =>
    JSON.stringify((m.message as { content?: unknown })?.content ?? (m.event ?? "")).includes(
      "thinking",
    ) || (m.event as { type?: string })?.type === "message_start"
  );
}

for (const partial of [false, true]) {
  Deno.test(`thinking turned off (maxThinkingTokens 0 on Sonnet 4.5): no thinking_display${partial ? ", partial messages" : ""}`, async () => {
    const scenario = new ScenarioBuilder().on("q").respond("4", { thinking: "2+2" }).build();
    const run = (options: Record<string, unknown>) =>
      runQuery(new MockTransport(scenario), "q", { includePartialMessages: partial, ...options });
    const off = thinkingFrames(
      (await run({ model: "claude-sonnet-4-5", maxThinkingTokens: 0 }))
        .messages,
    );
    assert.ok(off.length >= (partial ? 3 : 1));
    assert.deepEqual(off.filter((f) => "thinking_display" in f), []);
    // on: a budget, or a model whose thinking is always on
    for (
      const options of [{ model: "claude-sonnet-4-5", maxThinkingTokens: 2048 }, {
        maxThinkingTokens: 0,
      }]
    ) {
      const on = thinkingFrames((await run(options)).messages);
      assert.deepEqual(on.map((f) => f.thinking_display), on.map(() => "updates"));
    }
  });
}
