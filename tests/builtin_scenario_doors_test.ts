// Predefined scenarios by name through the other doors: `loadScenario("builtin:<name>")`,
// a scenario file's `"extends": "builtin:<name>"` (and its schema), and the fake binary's
// `--scenario builtin:<name>` / `CLAUDE_MOCK_SCENARIO`, with the SDK through the executable.
import assert from "node:assert/strict";
import {
  type CanUseTool,
  type Options,
  query,
  type SDKMessage,
} from "@anthropic-ai/claude-agent-sdk";
import Ajv2020 from "ajv/dist/2020.js";
import { installFakeClaude } from "../cli.ts";
import {
  BUILTIN_SCENARIO_NAMES,
  builtinScenario,
  loadScenario,
  MockTransport,
  scenarioFromJSON,
} from "../mod.ts";
import { runMock } from "./_fidelity.ts";
import { runQuery } from "./_sdk.ts";

const CWD = "/home/user/project";

/** An app that allows every tool and answers every question with its first choice. */
const allowAndAnswer: CanUseTool = (toolName, input) => {
  if (toolName !== "AskUserQuestion") {
    return Promise.resolve({ behavior: "allow", updatedInput: input });
  }
  const questions = input.questions as Array<
    { question: string; options: Array<{ label: string }> }
  >;
  const answers = Object.fromEntries(questions.map((q) => [q.question, q.options[0].label]));
  return Promise.resolve({ behavior: "allow", updatedInput: { ...input, answers } });
};

// ---- by name from files: builtin:<name> and extends -------------------------------------

Deno.test("loadScenario: builtin:<name> is the predefined scenario", async () => {
  for (const name of BUILTIN_SCENARIO_NAMES) {
    const loaded = await loadScenario(`builtin:${name}`);
    assert.equal(loaded.name, name);
    assert.equal(loaded.exchanges.length, builtinScenario(name).exchanges.length);
  }
  assert.equal((await loadScenario(new URL("builtin:multi_tool"))).cwd, CWD);
  await assert.rejects(
    () => loadScenario("builtin:multi_tools"),
    (error: Error) => {
      assert.ok(error instanceof RangeError);
      assert.equal(
        error.message,
        `Cannot load scenario: unknown builtin scenario 'multi_tools' (did you mean 'multi_tool'?); the builtin scenarios are ${
          BUILTIN_SCENARIO_NAMES.join(", ")
        } (in builtin:multi_tools)`,
      );
      return true;
    },
  );
});

Deno.test("extends: the file's exchanges first, then the builtin's; the file's fields win", async () => {
  const path = await Deno.makeTempFile({ suffix: ".json" });
  try {
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        extends: "builtin:simple_conversation",
        name: "greeter",
        model: "claude-sonnet-5-5",
        exchanges: [
          { on: "hello", steps: [{ say: "Hi from the file." }] },
          { on: "deploy", repeat: true, steps: [{ say: "Deployed." }] },
        ],
      }),
    );
    const scenario = await loadScenario(path);
    assert.equal(scenario.name, "greeter");
    assert.equal(scenario.exchanges.length, 4);
    const ours = await runMock(scenario, ["hello", "hello", "deploy", "what now?"], {});
    const results = ours.messages.flatMap((m) =>
      m.type === "result" && m.subtype === "success" ? [m.result] : []
    );
    assert.deepEqual(results, [
      "Hi from the file.", // the file's exchange, used once
      "Hello! How can I help you today?", // then the builtin's
      "Deployed.",
      "I can help with that.",
    ]);
    const inits = ours.messages.filter((m) => m.type === "system" && m.subtype === "init");
    assert.deepEqual(
      inits.map((m) => (m as { model: string }).model),
      Array(4).fill("claude-sonnet-5-5"),
    );
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("extends: the builtin's options stay unless the file sets them", () => {
  const plain = scenarioFromJSON({ extends: "builtin:compaction_event" });
  assert.deepEqual(plain.compact, builtinScenario("compaction_event").compact);
  assert.equal(plain.name, "compaction_event");
  const own = scenarioFromJSON({
    extends: "builtin:compaction_event",
    compact: { summary: "Ours." },
    unmatched: { reply: "Sorry?" },
  });
  assert.deepEqual(own.compact, { summary: "Ours." });
  assert.equal(plain.unmatched, builtinScenario("compaction_event").unmatched);
  assert.equal((own.unmatched as Array<{ kind: string }>)[0].kind, "message");
  assert.equal(
    scenarioFromJSON({ extends: "builtin:multi_tool", cwd: "/srv/app" }).cwd,
    "/srv/app",
  );
});

const SCHEMA = JSON.parse(
  await Deno.readTextFile(new URL("../src/scenario/scenario.schema.json", import.meta.url)),
);

Deno.test("extends: the schema lists every builtin; bad references fail the schema and the loader", () => {
  const ajv = new Ajv2020.default({ allErrors: true, strict: true });
  const validate = ajv.compile(SCHEMA);
  assert.deepEqual(
    SCHEMA.properties.extends.enum,
    BUILTIN_SCENARIO_NAMES.map((n) => `builtin:${n}`),
  );
  assert.ok(validate({ extends: "builtin:ask_user_question", exchanges: [] }));
  const bad: Array<[unknown, ErrorConstructor, RegExp]> = [
    [
      "builtin:ask_user_questions",
      RangeError,
      /^Cannot load scenario: 'extends' is not a builtin scenario reference: "builtin:ask_user_questions" \(did you mean 'builtin:ask_user_question'\?\) \(in bad\.json\)$/,
    ],
    [
      "base.json",
      RangeError,
      /'extends' is not a builtin scenario reference: "base\.json"; expected one of builtin:simple_conversation, builtin:tool_with_permission, /,
    ],
    [
      42,
      TypeError,
      /'extends' must be a builtin scenario reference, got a number \(in bad\.json\)$/,
    ],
  ];
  for (const [value, Class, message] of bad) {
    assert.equal(validate({ extends: value }), false, `the schema accepted ${value}`);
    assert.throws(
      () => scenarioFromJSON({ extends: value }, { source: "bad.json" }),
      (error: Error) => {
        assert.ok(error instanceof Class, String(error));
        assert.match(error.message, message);
        return true;
      },
    );
  }
});

// ---- the fake binary ---------------------------------------------------------------------

/** Runs the fake `claude` with `args` and the fake's environment plus `env`. */
async function claude(
  fake: { env: Record<string, string>; dir: string },
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command("claude", {
    args,
    env: { ...fake.env, ...env },
    cwd: fake.dir,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

Deno.test("fake binary: --scenario builtin:<name> and CLAUDE_MOCK_SCENARIO=builtin:<name>", async () => {
  await using fake = await installFakeClaude();
  assert.deepEqual(
    await claude(fake, ["-p", "hello", "--scenario", "builtin:simple_conversation"]),
    {
      code: 0,
      stdout: "Hello! How can I help you today?\n",
      stderr: "",
    },
  );
  const env = { CLAUDE_MOCK_SCENARIO: "builtin:tool_with_permission" };
  // print mode has no one to ask: the command is denied, unless allowed up front
  assert.equal(
    (await claude(fake, ["-p", "Create out.txt"], env)).stdout,
    "Understood, I won't create out.txt.\n",
  );
  assert.equal(
    (await claude(fake, ["-p", "Create out.txt", "--allowedTools", "Bash"], env)).stdout,
    "Done.\n",
  );
  const unknown = await claude(fake, ["-p", "hello", "--scenario", "builtin:nope"]);
  assert.equal(unknown.code, 1);
  assert.equal(unknown.stdout, "");
  assert.match(
    unknown.stderr,
    /^claude-mock: Cannot load scenario: unknown builtin scenario 'nope'/,
  );
  assert.match(
    unknown.stderr,
    new RegExp(`the builtin scenarios are ${BUILTIN_SCENARIO_NAMES.join(", ")}`),
  );
});

Deno.test("fake binary: the SDK through the executable gets what the in-process mock gives", async () => {
  await using fake = await installFakeClaude({ scenario: "builtin:subagent_task" });
  const options: Options = { permissionMode: "default", maxTurns: 4, canUseTool: allowAndAnswer };
  const prompt = "Use a subagent to summarize notes.txt.";
  const viaBinary: SDKMessage[] = [];
  for await (
    const m of query({
      prompt,
      options: {
        ...options,
        pathToClaudeCodeExecutable: fake.path,
        env: { ...Deno.env.toObject(), ...fake.env },
      },
    })
  ) viaBinary.push(m);
  const inProcess = await runQuery(
    new MockTransport(builtinScenario("subagent_task")),
    prompt,
    options,
  );
  const shape = (ms: SDKMessage[]) => ms.map((m) => `${m.type}/${"subtype" in m ? m.subtype : ""}`);
  assert.deepEqual(shape(viaBinary), shape(inProcess.messages));
  const result = (ms: SDKMessage[]) => {
    const r = ms.at(-1) as { result: string; num_turns: number; permission_denials: unknown[] };
    return [r.result, r.num_turns, r.permission_denials];
  };
  assert.deepEqual(result(viaBinary), result(inProcess.messages));
  const init = viaBinary[0] as { cwd: string };
  assert.equal(init.cwd, CWD, "the scenario's cwd, where its file is");
});
