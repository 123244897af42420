// Step is one union of its kinds (no named kind types on the surface): object-literal steps are
// checked as strictly as when each kind was an interface of its own.
import assert from "node:assert/strict";
import type { Step, StepSource } from "./step.ts";

Deno.test("an object-literal step is checked by its kind", () => {
  const steps: Step[] = [
    { kind: "crash", midStream: 3, code: 2 },
    { kind: "delay", ms: 5 },
    { kind: "result", options: { subtype: "error_max_turns" } },
    { kind: "failure", name: "overloaded" },
    // @ts-expect-error: a delay's ms is a number
    { kind: "delay", ms: "5" },
    // @ts-expect-error: no such kind
    { kind: "pause", ms: 5 },
    // @ts-expect-error: a crash has no `ms`
    { kind: "crash", ms: 5 },
    // @ts-expect-error: a result needs its options
    { kind: "result" },
    // @ts-expect-error: no such named failure
    { kind: "failure", name: "no_such_failure" },
  ];
  const lazy: StepSource = function* (turn) {
    yield { kind: "raw", line: turn.text };
  };
  assert.equal(steps.length, 9);
  assert.equal(typeof lazy, "function");
});

Deno.test("one kind of step is Extract<Step, { kind }>", () => {
  const crash: Extract<Step, { kind: "crash" }> = { kind: "crash", beforeToolResult: true };
  // @ts-expect-error: a crash step is no delay step
  const wrong: Extract<Step, { kind: "crash" }> = { kind: "delay", ms: 1 };
  assert.equal(crash.beforeToolResult, true);
  assert.equal(wrong.kind, "delay");
});
