import assert from "node:assert/strict";
import { joinPath, MAX_NESTING, nestedBeyond } from "./_nesting.ts";

function arrays(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

Deno.test("nestedBeyond: 1,000 levels pass, 1,001 name the path, any depth is measured", () => {
  assert.equal(MAX_NESTING, 1000);
  assert.equal(nestedBeyond(arrays(1000)), undefined);
  assert.equal(nestedBeyond(arrays(1001)), "[0][0][0][0][0][0][0][0]…");
  assert.equal(nestedBeyond(arrays(1_000_000)), "[0][0][0][0][0][0][0][0]…");
  assert.equal(nestedBeyond({ ok: [1], bad: { x: arrays(3) } }, 3), "bad.x[0]");
  assert.equal(nestedBeyond({ "a.b": { c: {} } }, 2), "a.b.c");
});

Deno.test("nestedBeyond: scalars, class instances and functions are leaves; a cycle is not deep", () => {
  assert.equal(nestedBeyond(3), undefined);
  assert.equal(nestedBeyond({ re: /x/, d: new Date(0), f: () => 1 }, 1), undefined);
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  assert.equal(nestedBeyond(cycle, 5), undefined);
  const getter = {
    get boom(): unknown {
      throw new Error("a getter ran");
    },
  };
  assert.equal(nestedBeyond(getter, 1), undefined, "a getter is not run");
});

Deno.test("joinPath: a path under a prefix", () => {
  assert.equal(joinPath("steps[0]", "input.a"), "steps[0].input.a");
  assert.equal(joinPath("steps", "[0]"), "steps[0]");
  assert.equal(joinPath("", "a"), "a");
  assert.equal(joinPath("a", ""), "a");
});
