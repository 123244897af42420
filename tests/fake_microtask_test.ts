import assert from "node:assert/strict";
import { ScenarioBuilder } from "../src/scenario/scenario_builder.ts";
import { runQuery } from "../src/testing/run_query.ts";
import { MockTransport } from "../src/adapters/mock_transport.ts";

// jest's fake timers (`jest.useFakeTimers()`, its defaults) replace `queueMicrotask` with one
// that runs a callback only when the test advances the fake clock: the process the SDK spawns
// must not wait on it, or every query hangs under them.
Deno.test("a query ends while queueMicrotask is faked and never run", async () => {
  const real = globalThis.queueMicrotask;
  const held: VoidFunction[] = [];
  globalThis.queueMicrotask = (fn: VoidFunction) => void held.push(fn);
  try {
    const mock = new MockTransport(new ScenarioBuilder().on("hi").respond("Hello").build());
    const { result, exit } = await runQuery(mock, "hi");
    assert.equal(result?.subtype === "success" && result.result, "Hello");
    assert.deepEqual(exit, { code: 0, signal: null });
  } finally {
    globalThis.queueMicrotask = real;
  }
  for (const fn of held) fn();
});
