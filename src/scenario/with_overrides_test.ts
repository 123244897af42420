import assert from "node:assert/strict";
import { ScenarioBuilder } from "./scenario_builder.ts";
import { withOverrides } from "./with_overrides.ts";

const base = () =>
  new ScenarioBuilder({ name: "app", seed: 1 })
    .on("deploy").respond("Deployed.")
    .on("status").repeat().respond("All green.")
    .crashAfter({ assistantMessages: 9 })
    .build();

Deno.test("withOverrides: the overrides' exchanges come first; the base is not changed", () => {
  const shared = base();
  const before = JSON.stringify(shared, (_, v) => (typeof v === "function" ? "fn" : v));
  const exchanges = [...shared.exchanges];
  const over = withOverrides(shared, (s) => s.on("deploy").failure("overloaded"));
  assert.deepEqual(over.exchanges.map((e) => e.trigger.description), [
    'contains "deploy"',
    'contains "deploy"',
    'contains "status"',
  ]);
  assert.deepEqual(over.exchanges[0].steps, [{ kind: "failure", name: "overloaded" }]);
  assert.equal(
    over.exchanges[1],
    shared.exchanges[0],
    "the base's exchanges are reused as they are",
  );
  assert.equal(over.name, "app");
  assert.equal(over.seed, 1);
  assert.deepEqual(over.crashAfter, { assistantMessages: 9, code: 1 });
  assert.deepEqual([...shared.exchanges], exchanges);
  assert.equal(JSON.stringify(shared, (_, v) => (typeof v === "function" ? "fn" : v)), before);
});

Deno.test("withOverrides: settings the overrides set replace the base's, the others stay", () => {
  const over = withOverrides(
    base(),
    (s) => s.onUnmatched("warn").crashAfter({ beforeToolResult: true }).timing("fast"),
  );
  assert.equal(over.unmatched, "warn");
  assert.deepEqual(over.crashAfter, { beforeToolResult: true, code: 1 });
  assert.equal(over.timing, "fast");
  assert.equal(over.exchanges.length, 2);
  const kept = withOverrides(
    new ScenarioBuilder().onUnmatched({ reply: "Sorry?" }).onConnect({ type: "keep_alive" })
      .build(),
    (s) => s.on("x").respond("X."),
  );
  assert.ok(Array.isArray(kept.unmatched), "the base's unmatched answer stays");
  assert.equal(kept.onConnect && (kept.onConnect as unknown[]).length, 1, "and its onConnect");
});

Deno.test("withOverrides: a scenario as the overrides", () => {
  const extra = new ScenarioBuilder({ model: "claude-sonnet-5-5" }).on("hi").respond("Hey.")
    .build();
  const over = withOverrides(base(), extra);
  assert.equal(over.exchanges.length, 3);
  assert.equal(over.exchanges[0], extra.exchanges[0]);
  assert.equal(over.model, "claude-sonnet-5-5");
  assert.equal(over.name, "app");
});

Deno.test("withOverrides: bad input fails at once, naming the base", () => {
  assert.throws(() => withOverrides(base(), 42 as never), {
    name: "TypeError",
    message:
      "Cannot override scenario 'app': the overrides must be a function (builder) => ... or a scenario, got a number",
  });
  assert.throws(() => withOverrides(base(), (s) => Promise.resolve(s.on("x").respond("X."))), {
    name: "TypeError",
    message:
      "Cannot override scenario 'app': the overrides function returned a promise; add the overrides synchronously (an async function's later changes would be lost)",
  });
  assert.throws(
    () => withOverrides(base(), (s) => s.on("x").delay(-1)),
    /^RangeError: Cannot build scenario 'app': 'exchanges\[0\]\.steps\[0\]\.ms' must be a finite number >= 0, got -1$/,
  );
  assert.throws(
    () => withOverrides({ exchanges: "no" } as never, (s) => s),
    /Cannot override scenario: 'exchanges' must be an array of exchanges, got a string/,
  );
});
