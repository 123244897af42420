import assert from "node:assert/strict";
import { text } from "../builders/assistant.ts";
import { readTool, taskTool } from "../builders/tools.ts";
import { any } from "../scenario/matcher.ts";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import { serveMessagesApi } from "./serve_messages_api.ts";

type Json = Record<string, unknown>;

/** A request as the real CLI sends it, a subagent's when `subagent` (its billing block says so). */
function body(prompt: string, options: { subagent?: boolean; after?: Json[] } = {}): Json {
  const billing = options.subagent ? "cc_is_subagent=true;" : "cc_version=2.1.332;";
  return {
    model: "claude-opus-5-5",
    max_tokens: 128000,
    stream: false,
    system: [{ type: "text", text: `x-anthropic-billing-header: ${billing}` }],
    messages: [
      { role: "user", content: [{ type: "text", text: prompt }] },
      ...(options.after ?? []),
    ],
  };
}

Deno.test("the scenario API serves a subagent's own subagent (a nested Agent call's scripted run)", async () => {
  const scenario = new ScenarioBuilder({ cwd: "/home/user/project" }).on(any())
    .respond((ctx) =>
      taskTool(ctx, "Delegate", {
        prompt: "Delegate the reading.",
        result: "The inner agent read it.",
        tools: [
          taskTool(ctx, "Read notes", {
            prompt: "Read notes.txt.",
            result: "notes.txt holds notes.",
            tools: [readTool(ctx, "/home/user/project/notes.txt", { content: "notes\n" })],
          }),
        ],
      })
    )
    .respond(text("Delegated twice."))
    .build();
  await using api = await serveMessagesApi(scenario);
  const post = async (payload: Json) => {
    const response = await fetch(`${api.url}/v1/messages?beta=true`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "k" },
      body: JSON.stringify(payload),
    });
    return { status: response.status, json: await response.json() };
  };
  await post(body("delegate twice"));
  // before the outer subagent calls the Agent tool, the nested one is not known
  assert.equal((await post(body("Read notes.txt.", { subagent: true }))).status, 400);
  const outer = await post(body("Delegate the reading.", { subagent: true }));
  assert.equal(outer.json.content[0].name, "Agent");
  const inner = await post(body("Read notes.txt.", { subagent: true }));
  assert.equal(inner.status, 200);
  assert.equal(inner.json.content[0].name, "Read");
  const report = await post(body("Read notes.txt.", {
    subagent: true,
    after: [
      { role: "assistant", content: inner.json.content },
      {
        role: "user",
        content: [{
          type: "tool_result",
          tool_use_id: inner.json.content[0].id,
          content: "1\tnotes",
        }],
      },
    ],
  }));
  assert.deepEqual(report.json.content, [{ type: "text", text: "notes.txt holds notes." }]);
});
