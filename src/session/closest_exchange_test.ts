import assert from "node:assert/strict";
import { any, contains, exact, glob, predicate, regex } from "../scenario/matcher.ts";
import { closestPrompt, closestTrigger, newBudget, triggerDistance } from "./closest_exchange.ts";

const distance = (m: Parameters<typeof triggerDistance>[0], text: string) =>
  triggerDistance(m, text, { budget: newBudget() });

Deno.test("triggerDistance: 0 for a match, small for a typo, large for nothing in common", () => {
  assert.equal(distance(contains("delete the build dir"), "please delete the build dir"), 0);
  assert.equal(distance(contains("delete the build dir"), "delete the buld dir"), 1 / 20);
  assert.equal(distance(contains("Build"), "BUILD it"), 0, "ignoring case");
  assert.ok(distance(contains("weather"), "tell me a joke")! > 0.5);
  assert.equal(distance(exact("hello"), "helo"), 1 / 5);
  assert.ok(distance(exact("hello"), "hello there, how are you")! > 0.6, "exact compares it all");
  assert.equal(distance(glob("deploy *"), "deploy prod"), 0);
  assert.ok(distance(glob("deploy *"), "deplyo prod")! <= 0.4);
  assert.ok(distance(regex(/^run (the )?tests$/), "run the test")! < 0.3);
  assert.equal(distance(any(), "anything"), 0);
  assert.equal(
    distance(predicate(() => false, "a predicate"), "x"),
    undefined,
    "code is not guessed",
  );
});

Deno.test("triggerDistance: a trigger that throws, or a spent budget, gives no distance", () => {
  const throwing = {
    ...contains("x"),
    test: () => {
      throw new Error("boom");
    },
  };
  assert.equal(triggerDistance(throwing, "x", { budget: newBudget() }), undefined);
  assert.equal(
    triggerDistance(contains("abc"), "xyz", { budget: { cells: 1 } }),
    undefined,
  );
});

Deno.test("closestTrigger: the lowest distance, then the first; none when nothing is close", () => {
  const triggers = [
    contains("status"),
    contains("delete the build dir"),
    contains("delete the build"),
  ];
  const found = closestTrigger((i) => triggers[i], "delete the buld dir", { order: [0, 1, 2] });
  assert.deepEqual(found, { index: 1, distance: 1 / 20 });
  assert.equal(
    closestTrigger((i) => triggers[i], "tell me a joke", { order: [0, 1, 2] }),
    undefined,
  );
});

Deno.test("closestTrigger: bounded work on huge prompts and many exchanges", () => {
  const triggers = Array.from({ length: 20_000 }, (_, i) => contains(`exchange number ${i} `));
  const looked: number[] = [];
  for (const filler of [1_000_000, 1_000]) {
    const prompt = "x".repeat(filler) + "exchange number 19999";
    let count = 0;
    const found = closestTrigger((i) => (count++, triggers[i]), prompt, { order: triggers.keys() });
    assert.equal(found, undefined, "the budget ran out before exchange 19999");
    looked.push(count);
  }
  // a fixed amount of work, not of time: matching a huge prompt costs a pass over it, comparing
  // costs its cut text times the trigger's, and the search stops when the budget is spent
  assert.deepEqual(looked, [29, 215]);
});

Deno.test("closestPrompt: the prompt an exchange probably waited for", () => {
  const prompts = ["build it", "delete the buld dir", "status"];
  assert.deepEqual(closestPrompt(contains("delete the build dir"), prompts), {
    index: 1,
    distance: 1 / 20,
  });
  assert.equal(closestPrompt(contains("release notes"), prompts), undefined);
});
