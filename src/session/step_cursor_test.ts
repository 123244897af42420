import assert from "node:assert/strict";
import type { Step } from "../scenario/step.ts";
import { StepCursor } from "./step_cursor.ts";

const failure: Step = { kind: "failure", name: "stream_cut_recovered" };
const message: Step = { kind: "message", parts: [] };

Deno.test("StepCursor: the message right after the current step is found on the first look", async () => {
  const cursor = new StepCursor([failure, message]);
  assert.equal((await cursor.next()).value, failure);
  assert.equal(await cursor.nextMessage(), message);
  assert.equal(await cursor.nextMessage(), message, "a second look finds it again");
  assert.equal((await cursor.next()).value, message, "looking ahead moved past nothing");
  assert.equal((await cursor.next()).done, true);
});

Deno.test("StepCursor: a message after other steps, from a generator; none at the end", async () => {
  function* steps(): Generator<Step> {
    yield failure;
    yield { kind: "delay", ms: 5 };
    yield message;
  }
  const cursor = new StepCursor(steps());
  await cursor.next();
  assert.equal(await cursor.nextMessage(), message);
  assert.equal((await cursor.next()).value?.kind, "delay");
  await cursor.next();
  assert.equal(await cursor.nextMessage(), undefined);
});
