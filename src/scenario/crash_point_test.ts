import assert from "node:assert/strict";
import { ScenarioBuilder } from "./scenario_builder.ts";
import { scenarioFromJSON } from "./scenario_from_json.ts";
import { scenarioToJSON } from "./scenario_to_json.ts";
import { validateScenario } from "./validate_scenario.ts";
import type { Step } from "./step.ts";

Deno.test("crashAfter: the number form and the placements by meaning", () => {
  const at = (...args: Parameters<ScenarioBuilder["crashAfter"]>) =>
    new ScenarioBuilder().crashAfter(...args).build().crashAfter;
  assert.deepEqual(at(4), { frames: 4, code: 1 });
  assert.deepEqual(at(4, 2), { frames: 4, code: 2 });
  assert.deepEqual(at({ assistantMessages: 2 }), { assistantMessages: 2, code: 1 });
  assert.deepEqual(at({ beforeToolResult: true }, 3), { beforeToolResult: true, code: 3 });
  assert.deepEqual(at({ midStream: 5, assistantMessages: 1, code: 7 }), {
    midStream: 5,
    assistantMessages: 1,
    code: 7,
  });
});

Deno.test("crashAfter: mistakes fail at once, naming the field", () => {
  const cases: Array<[() => unknown, ErrorConstructor, string]> = [
    [
      () => new ScenarioBuilder({ name: "x" }).crashAfter({}),
      TypeError,
      "Cannot build scenario 'x': 'crashAfter' must have one of frames, assistantMessages, beforeToolResult, midStream, got none",
    ],
    [
      () => new ScenarioBuilder().crashAfter({ frames: 2, beforeToolResult: true }),
      TypeError,
      "Cannot build scenario: 'crashAfter' has both 'frames' and 'beforeToolResult': a crash has one place (only midStream combines with assistantMessages)",
    ],
    [
      () => new ScenarioBuilder().crashAfter({ assistantMessages: 0 }),
      RangeError,
      "Cannot build scenario: 'crashAfter.assistantMessages' must be an integer >= 1, got 0",
    ],
    [
      () => new ScenarioBuilder().crashAfter({ midStream: 2, code: 2 }, 3),
      TypeError,
      "Cannot build scenario: 'crashAfter.code' is given twice (2 in the point, 3 as the second argument): give it once",
    ],
    [
      () => new ScenarioBuilder().crashAfter({ assistantMesages: 2 } as never),
      TypeError,
      "Cannot build scenario: 'crashAfter.assistantMesages' is not a crashAfter field (did you mean 'assistantMessages'?)",
    ],
    [
      () => new ScenarioBuilder().crashAfter({ beforeToolResult: false as never }),
      TypeError,
      "Cannot build scenario: 'crashAfter.beforeToolResult' must be true or an integer >= 1, got a boolean",
    ],
    [
      () => new ScenarioBuilder().crashAfter("3" as never),
      TypeError,
      "Cannot build scenario: 'crashAfter' crashAfter() point must be an object, got a string",
    ],
  ];
  for (const [run, kind, message] of cases) {
    assert.throws(run, (error: Error) => {
      assert.ok(error instanceof kind, `${error.name}: ${error.message}`);
      assert.equal(error.message, message);
      return true;
    });
  }
});

Deno.test("crash placements and strategies round-trip through scenario files", () => {
  const scenario = new ScenarioBuilder({ name: "rt" })
    .on("go").crash({ midStream: 3, code: 2 }).respond("Cut.")
    .on("tool").crash({ beforeToolResult: true }).usesBash("ls", { stdout: "a" })
    .on("stop").respond("Bye.").crash()
    .onUnmatched("warn")
    .crashAfter({ assistantMessages: 2, midStream: 4 })
    .build();
  const file = scenarioToJSON(scenario);
  assert.equal(file.unmatched, "warn");
  assert.deepEqual(file.crashAfter, { assistantMessages: 2, midStream: 4, code: 1 });
  assert.deepEqual(file.exchanges?.map((e) => e.steps[0]), [
    { crash: { midStream: 3, code: 2 } },
    { crash: { beforeToolResult: true } },
    { say: "Bye." },
  ]);
  assert.deepEqual(file.exchanges?.[2].steps[1], { crash: {} });
  const loaded = scenarioFromJSON(JSON.parse(JSON.stringify(file)));
  assert.deepEqual(scenarioToJSON(loaded), file);
  assert.deepEqual((loaded.exchanges[0].steps as readonly Step[])[0], {
    kind: "crash",
    midStream: 3,
    code: 2,
  });
  assert.equal(loaded.unmatched, "warn");
});

Deno.test("scenario files: crash steps and unmatched strategies are checked with their paths", () => {
  const load = (data: unknown) => () => scenarioFromJSON(data, { source: "s.json" });
  assert.throws(
    load({ exchanges: [{ on: "x", steps: [{ say: "a" }, { crash: { midStream: 2 } }] }] }),
    {
      name: "RangeError",
      message:
        "Cannot load scenario: 'exchanges[0].steps[1]' crash { midStream: 2 } cuts the message that follows it, but no message step follows it (put the crash before the message it cuts) (in s.json)",
    },
  );
  assert.throws(load({ exchanges: [{ on: "x", steps: [{ crash: { code: 0 } }] }] }), {
    name: "RangeError",
    message:
      "Cannot load scenario: 'exchanges[0].steps[0].crash.code' must be an integer from 1 to 255, got 0 (in s.json)",
  });
  assert.throws(load({ exchanges: [{ on: "x", steps: [{ crash: 2 }] }] }), {
    name: "TypeError",
    message:
      "Cannot load scenario: 'exchanges[0].steps[0].crash' must be an object ({code, midStream, beforeToolResult}), got a number (in s.json)",
  });
  assert.throws(load({ unmatched: "Sorry?" }), {
    name: "TypeError",
    message:
      `Cannot load scenario: 'unmatched' must be "error", "warn", a {reply} object or an array of steps, got the string "Sorry?" (to answer with a text, write {"reply": "Sorry?"}) (in s.json)`,
  });
  assert.equal(scenarioFromJSON({ unmatched: "warn" }).unmatched, "warn");
  assert.equal(scenarioFromJSON({ unmatched: "error" }).unmatched, undefined);
});

Deno.test("validateScenario: a function unmatched is code, 'warn' is data", () => {
  assert.equal(validateScenario({ exchanges: [], unmatched: "warn" }).unmatched, "warn");
  assert.throws(
    () => scenarioToJSON(new ScenarioBuilder().onUnmatched(() => "warn").build()),
    /'unmatched' is a function \(code\), which a file cannot hold/,
  );
});
