import assert from "node:assert/strict";
import {
  BUILTIN_SCENARIO_NAMES,
  builtinScenario,
  type BuiltinScenarioName,
} from "./builtin_scenarios.ts";
import { scenarioFromJSON } from "./scenario_from_json.ts";
import { scenarioToJSON } from "./scenario_to_json.ts";
import { validateScenario } from "./validate_scenario.ts";

Deno.test("builtinScenario: every name builds a valid scenario named after it, fresh each call", () => {
  assert.equal(new Set(BUILTIN_SCENARIO_NAMES).size, 8);
  for (const name of BUILTIN_SCENARIO_NAMES) {
    const scenario = builtinScenario(name);
    assert.equal(scenario.name, name);
    assert.ok(scenario.exchanges.length > 0, name);
    assert.equal(validateScenario(scenario), scenario);
    // every exchange repeats: any number of turns
    assert.ok(scenario.exchanges.every((e) => e.repeat === true), name);
    // the last one answers any prompt
    assert.equal(scenario.exchanges.at(-1)!.trigger.kind, "any", name);
    const again = builtinScenario(name);
    assert.notEqual(again, scenario);
    assert.notEqual(again.exchanges[0].steps, scenario.exchanges[0].steps);
  }
});

Deno.test("builtinScenario: options override the scenario's own fields", () => {
  const scenario = builtinScenario("multi_tool", {
    name: "tools",
    seed: 3,
    cwd: "/srv/app",
    model: "claude-sonnet-5-5",
  });
  assert.equal(scenario.name, "tools");
  assert.equal(scenario.seed, 3);
  assert.equal(scenario.cwd, "/srv/app");
  assert.equal(scenario.model, "claude-sonnet-5-5");
  assert.deepEqual(builtinScenario("compaction_event", { compact: { summary: "S." } }).compact, {
    summary: "S.",
  });
  assert.equal(builtinScenario("multi_tool").cwd, "/home/user/project");
  assert.equal(builtinScenario("tool_with_permission").cwd, undefined, "any cwd works");
});

Deno.test("builtinScenario: bad options fail with the builder's checks", () => {
  assert.throws(
    () => builtinScenario("simple_conversation", { seed: 1.5 }),
    (error: Error) =>
      error instanceof RangeError &&
      /^Cannot build scenario 'simple_conversation': 'seed'/.test(error.message),
  );
  assert.throws(
    () => builtinScenario("simple_conversation", 5 as unknown as object),
    new TypeError(
      "Cannot make the builtin scenario 'simple_conversation': the options must be an object, got a number",
    ),
  );
  assert.throws(
    () => builtinScenario("simple_conversation", { exchanges: [] } as object),
    /'exchanges' is set with the builder's methods/,
  );
});

Deno.test("builtinScenario: an unknown name lists the names and the closest one", () => {
  const list = BUILTIN_SCENARIO_NAMES.join(", ");
  const cases: Array<[string, string]> = [
    ["multi_tools", "multi_tool"],
    ["Simple-Conversation", "simple_conversation"],
    ["interrupt", "interrupt_mid_stream"],
    ["subagent", "subagent_task"],
    ["compact", "compaction_event"],
    ["api_eror_retry", "api_error_retry"],
    ["xyz", "multi_tool"],
  ];
  for (const [name, closest] of cases) {
    assert.throws(
      () => builtinScenario(name as BuiltinScenarioName),
      new RangeError(
        `Unknown builtin scenario '${name}' (did you mean '${closest}'?); the builtin scenarios are ${list}`,
      ),
    );
  }
  for (const name of ["toString", "__proto__", ""]) {
    assert.throws(() => builtinScenario(name as BuiltinScenarioName), RangeError);
  }
  assert.throws(
    () => builtinScenario(undefined as unknown as BuiltinScenarioName),
    new TypeError(
      `Cannot make a builtin scenario: the name must be a string (one of ${list}), got undefined`,
    ),
  );
});

Deno.test("builtinScenario: all but subagent_task save as files and load back the same", () => {
  for (const name of BUILTIN_SCENARIO_NAMES) {
    if (name === "subagent_task") {
      // its subagent's tool use is code
      assert.throws(() => scenarioToJSON(builtinScenario(name)), /Cannot save scenario/);
      continue;
    }
    const file = scenarioToJSON(builtinScenario(name));
    assert.equal(file.name, name);
    assert.deepEqual(scenarioToJSON(scenarioFromJSON(JSON.parse(JSON.stringify(file)))), file);
  }
});
