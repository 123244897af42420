// Fidelity round four: structured output (the SDK's `outputFormat`, `--json-schema`). Each
// recording of the real CLI 2.1.328 in tests/fixtures/real/r4_* replayed through the real SDK
// and the mock, both directions compared frame by frame.
import assert from "node:assert/strict";
import type { Options } from "@anthropic-ai/claude-agent-sdk";
import { ScenarioBuilder } from "../mod.ts";
import { compareTape } from "./_fidelity.ts";
import type { Frame } from "../wire.ts";

/** The result frames' keys, in order, of the tape and of the mock. */
function resultKeys(real: Frame[], mine: Frame[]): [string[], string[]] {
  const keys = (frames: Frame[]) => Object.keys(frames.find((f) => f.type === "result") ?? {});
  return [keys(mine), keys(real)];
}

const person = {
  type: "object",
  properties: { name: { type: "string" }, age: { type: "number" } },
  required: ["name", "age"],
};
const schema = (s: Record<string, unknown>): Options["outputFormat"] => ({
  type: "json_schema",
  schema: s,
});

Deno.test("r4 fidelity: a fitting StructuredOutput ends the turn with structured_output", async () => {
  const { ours, real, mine } = await compareTape(
    "r4_structured_ok",
    new ScenarioBuilder()
      .on("Give me a person.")
      .usesTool("StructuredOutput", { name: "Ada", age: 36 })
      .respond("never written: the CLI makes no further API call")
      .build(),
    {
      maxTurns: 4,
      outputFormat: schema({ ...person, additionalProperties: false }),
    },
  );
  const result = ours.messages.at(-1) as { structured_output?: unknown; result?: string };
  assert.deepEqual(result.structured_output, { name: "Ada", age: 36 });
  assert.equal(result.result, '{"name":"Ada","age":36}');
  const init = ours.out.find((f) => f.subtype === "init") as unknown as { tools: string[] };
  assert.ok(init.tools.includes("StructuredOutput"));
  assert.deepEqual(...resultKeys(real, mine));
});

Deno.test("r4 fidelity: a reply without the tool gets one synthetic request for it", async () => {
  await compareTape(
    "r4_structured_text_first",
    new ScenarioBuilder()
      .on("Give me a person.")
      .respond("Here is a person: Ada, 36.")
      .usesTool("StructuredOutput", { name: "Ada", age: 36 })
      .build(),
    { maxTurns: 5, outputFormat: schema(person) },
  );
});

Deno.test("r4 fidelity: after the one request, a second text reply ends the turn as it is", async () => {
  await compareTape(
    "r4_structured_never",
    new ScenarioBuilder()
      .on("Give me a person.")
      .respond("Reply 1, no tool.")
      .respond("Reply 2, no tool.")
      .build(),
    {
      maxTurns: 12,
      outputFormat: schema({
        type: "object",
        properties: { name: { type: "string" } },
        required: ["name"],
      }),
    },
  );
});

Deno.test("r4 fidelity: outputs that do not fit are errors in Ajv's words, retried", async () => {
  await compareTape(
    "r4_structured_invalid",
    new ScenarioBuilder()
      .on("Give me a person.")
      .usesTool("StructuredOutput", { name: "Ada" })
      .usesTool("StructuredOutput", { name: "Ada", age: "old" })
      .usesTool("StructuredOutput", { name: "Ada", age: 36 })
      .build(),
    { maxTurns: 6, outputFormat: schema(person) },
  );
});

Deno.test("r4 fidelity: the fifth misfit ends with error_max_structured_output_retries", async () => {
  const builder = new ScenarioBuilder().on("Give me a person.");
  for (let i = 0; i < 6; i++) builder.usesTool("StructuredOutput", { nom: i });
  const { ours, real, mine } = await compareTape(
    "r4_structured_always_invalid",
    builder.build(),
    {
      maxTurns: 12,
      outputFormat: schema({
        type: "object",
        properties: { name: { type: "string" } },
        required: ["name"],
      }),
    },
  );
  assert.match(
    String(ours.error?.message),
    /Failed to provide valid structured output after 5 attempts/,
  );
  assert.deepEqual(...resultKeys(real, mine));
});
