import assert from "node:assert/strict";
import { LoopBudget, YIELD_EVERY } from "./real_time.ts";

Deno.test("LoopBudget: due every n-th unit of work, however long the work took", () => {
  const budget = new LoopBudget(4);
  const seen: boolean[] = [];
  for (let i = 0; i < 9; i++) {
    // a slow unit of work (a loaded machine) does not make a yield come sooner
    const until = performance.now() + (i === 1 ? 6 : 0);
    while (performance.now() < until) { /* busy */ }
    seen.push(budget.due());
  }
  assert.deepEqual(seen, [false, false, false, true, false, false, false, true, false]);
  assert.equal(new LoopBudget().maybeYield(), undefined);
  const every = new LoopBudget();
  let yields = 0;
  for (let i = 0; i < YIELD_EVERY * 3; i++) if (every.due()) yields++;
  assert.equal(yields, 3);
  assert.throws(() => new LoopBudget(0), /'every' must be a positive integer, got 0/);
});
