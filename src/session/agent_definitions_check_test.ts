import assert from "node:assert/strict";
import { agentDefinitionIssues } from "./agent_definitions_check.ts";

// each message as the real claude 2.1.332 printed it for `claude -p --agents '<json>'`
const ok = { description: "d", prompt: "p" };

Deno.test("valid definitions have no issues; unchecked fields pass", () => {
  assert.deepEqual(agentDefinitionIssues({}), []);
  assert.deepEqual(agentDefinitionIssues({ x: ok }), []);
  assert.deepEqual(
    agentDefinitionIssues({
      x: {
        ...ok,
        prompt: "",
        description: " ",
        tools: [],
        effort: -1,
        criticalSystemReminder_EXPERIMENTAL: 5,
        bogus: 1,
      },
    }),
    [],
  );
});

Deno.test("what is not a record of objects is named", () => {
  assert.deepEqual(agentDefinitionIssues([1]), ["Invalid input: expected record, received array"]);
  assert.deepEqual(agentDefinitionIssues("str"), [
    "Invalid input: expected record, received string",
  ]);
  assert.deepEqual(agentDefinitionIssues({ x: 5 }), [
    "x: Invalid input: expected object, received number",
  ]);
  assert.deepEqual(agentDefinitionIssues({ x: null }), [
    "x: Invalid input: expected object, received null",
  ]);
});

Deno.test("each field's message, as the CLI words it", () => {
  const one = (fields: Record<string, unknown>) =>
    agentDefinitionIssues({ x: { ...ok, ...fields } });
  assert.deepEqual(one({ description: "" }), ["x.description: Description cannot be empty"]);
  assert.deepEqual(one({ model: "" }), ["x.model: Model cannot be empty"]);
  assert.deepEqual(one({ tools: "Read" }), [
    "x.tools: Invalid input: expected array, received string",
  ]);
  assert.deepEqual(one({ tools: [1] }), [
    "x.tools.0: Invalid input: expected string, received number",
  ]);
  assert.deepEqual(one({ maxTurns: 0 }), ["x.maxTurns: Too small: expected number to be >0"]);
  assert.deepEqual(one({ maxTurns: 2.5 }), [
    "x.maxTurns: Invalid input: expected int, received number",
  ]);
  assert.deepEqual(one({ maxTurns: Infinity }), [
    "x.maxTurns: Invalid input: expected number, received Infinity",
  ]);
  assert.deepEqual(one({ autoCompactWindow: 0 }), [
    "x.autoCompactWindow: Too small: expected number to be >=100000",
  ]);
  assert.deepEqual(one({ permissionMode: "bogus" }), [
    'x.permissionMode: Invalid option: expected one of "acceptEdits"|"auto"|"bypassPermissions"|"default"|"dontAsk"|"plan"',
  ]);
  assert.deepEqual(one({ memory: "x" }), [
    'x.memory: Invalid option: expected one of "user"|"project"|"local"',
  ]);
  assert.deepEqual(one({ effort: "huge" }), ["x.effort: Invalid input"]);
  assert.deepEqual(one({ effort: 1.5 }), ["x.effort: Invalid input"]);
  assert.deepEqual(one({ mcpServers: [5] }), ["x.mcpServers.0: Invalid input"]);
  assert.deepEqual(one({ background: "yes" }), [
    "x.background: Invalid input: expected boolean, received string",
  ]);
});

Deno.test("issues come in the CLI's field order, entry by entry", () => {
  assert.deepEqual(
    agentDefinitionIssues({ x: { prompt: 5, tools: "Read" }, y: { description: "d" } }),
    [
      "x.description: Invalid input: expected string, received undefined",
      "x.tools: Invalid input: expected array, received string",
      "x.prompt: Invalid input: expected string, received number",
      "y.prompt: Invalid input: expected string, received undefined",
    ],
  );
  const all = agentDefinitionIssues({
    x: {
      prompt: 5,
      model: 5,
      description: 5,
      maxTurns: "a",
      tools: 5,
      disallowedTools: 5,
      mcpServers: 5,
      skills: 5,
      initialPrompt: 5,
      autoCompactWindow: "a",
      background: 5,
      omitClaudeMd: 5,
      memory: 5,
      effort: "z",
      permissionMode: 5,
      observer: 5,
      observerMessage: 5,
    },
  }).map((line) => line.slice(2, line.indexOf(":")));
  assert.deepEqual(all, [
    "description",
    "tools",
    "disallowedTools",
    "prompt",
    "model",
    "effort",
    "permissionMode",
    "mcpServers",
    "maxTurns",
    "autoCompactWindow",
    "skills",
    "initialPrompt",
    "memory",
    "background",
    "omitClaudeMd",
    "observer",
    "observerMessage",
  ]);
});

Deno.test("agentDefinitionIssues: a name starting with '-' is refused as 2.1.332 refuses it", () => {
  const def = { description: "d", prompt: "p" };
  assert.deepEqual(agentDefinitionIssues({ "-y": def, "a-": def, "--x": def }), [
    "-y: agent names must not start with '-'",
    "--x: agent names must not start with '-'",
  ]);
});
