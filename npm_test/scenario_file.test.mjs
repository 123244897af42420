// Scenario files under Node: loadScenario from a path, the shipped JSON schema, errors that
// name the file and the JSON path, builtin scenarios, and scenarioToJSON round trips.
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, test } from "node:test";
import {
  builtinScenario,
  loadScenario,
  MockTransport,
  PermissionRecorder,
  ScenarioBuilder,
  scenarioFromJSON,
} from "@x/claude-mock";
import { scenarioToJSON } from "@x/claude-mock/scenario-file";
import { collect } from "./_helpers.mjs";

let dir;
before(async () => (dir = await mkdtemp(join(tmpdir(), "claude-mock-scenarios-"))));
after(() => rm(dir, { recursive: true }));

const deploy = {
  $schema: "https://jsr.io/@x/claude-mock/0.1.0/src/scenario/scenario.schema.json",
  name: "deploy",
  exchanges: [
    {
      on: { glob: "deploy *" },
      steps: [
        {
          bash: { command: "make deploy", stdout: "ok" },
          permission: "ask",
          ifDenied: "I am not allowed to deploy.",
        },
        { say: "Deployed." },
      ],
    },
    { on: "status", repeat: true, steps: [{ say: "All green." }] },
  ],
};

test("loadScenario(path) drives the SDK; canUseTool decides the branch", async () => {
  const file = join(dir, "deploy.json");
  await writeFile(file, JSON.stringify(deploy));
  for (
    const [permissions, answer] of [
      [PermissionRecorder.allowAll(), "Deployed."],
      [PermissionRecorder.denyAll(), "I am not allowed to deploy."],
    ]
  ) {
    const mock = new MockTransport(await loadScenario(file));
    const { messages, error } = await collect("deploy staging", {
      ...mock.options(),
      canUseTool: permissions.canUseTool,
    });
    assert.equal(error, undefined);
    assert.equal(messages.at(-1).result, answer);
    permissions.assertAsked("Bash", 1);
  }
});

test("the JSON schema ships as @x/claude-mock/scenario.schema.json", async () => {
  const path = fileURLToPath(import.meta.resolve("@x/claude-mock/scenario.schema.json"));
  const schema = JSON.parse(await readFile(path, "utf8"));
  assert.equal(schema.$schema, "https://json-schema.org/draft/2020-12/schema");
  assert.ok(schema.properties.exchanges);
});

test("a bad scenario file names the file and the JSON path", async () => {
  const file = join(dir, "bad.json");
  await writeFile(file, JSON.stringify({ name: "bad", exchanges: [{ on: "x", steps: 3 }] }));
  await assert.rejects(loadScenario(file), (error) => {
    assert.match(error.message, /exchanges\[0\]\.steps/);
    assert.match(error.message, /bad\.json/);
    return true;
  });
  await writeFile(file, "{ not json");
  await assert.rejects(loadScenario(file), SyntaxError);
});

test("builtin scenarios and scenarioToJSON round trips", async () => {
  const mock = new MockTransport(builtinScenario("simple_conversation"));
  const { messages } = await collect("hello", mock.options());
  assert.equal(messages.at(-1).result, "Hello! How can I help you today?");
  const built = new ScenarioBuilder({ name: "rt" }).on("hi").respond("Hey").build();
  const again = scenarioFromJSON(JSON.parse(JSON.stringify(scenarioToJSON(built))));
  const ran = await collect("hi", new MockTransport(again).options());
  assert.equal(ran.messages.at(-1).result, "Hey");
});
