import assert from "node:assert/strict";
import { VirtualClock } from "./virtual_clock.ts";

Deno.test("VirtualClock.sleep moves virtual time without waiting", async () => {
  const clock = new VirtualClock({ start: 1000 });
  const wallStart = performance.now();
  await clock.sleep(3_600_000);
  assert.equal(clock.now(), 3_601_000);
  assert.ok(performance.now() - wallStart < 1000);
});

Deno.test("VirtualClock resolves concurrent sleepers in deadline order", async () => {
  const clock = new VirtualClock({ start: 0 });
  const order: string[] = [];
  await Promise.all([
    clock.sleep(300).then(() => order.push(`c@${clock.now()}`)),
    clock.sleep(100).then(() => order.push(`a@${clock.now()}`)),
    clock.sleep(200).then(() => order.push(`b@${clock.now()}`)),
  ]);
  assert.deepEqual(order, ["a@100", "b@200", "c@300"]);
});

Deno.test("VirtualClock.sleepUntil in the past resolves at once without moving time back", async () => {
  const clock = new VirtualClock({ start: 500 });
  await clock.sleepUntil(100);
  assert.equal(clock.now(), 500);
});

Deno.test("VirtualClock.sleep rejects with the abort reason", async () => {
  const clock = new VirtualClock({ start: 0 });
  const controller = new AbortController();
  const slept = clock.sleep(100, { signal: controller.signal });
  controller.abort(new Error("stop"));
  await assert.rejects(slept, /stop/);
  await assert.rejects(clock.sleep(1, { signal: controller.signal }), /stop/);
});

Deno.test("VirtualClock.timeout fires after the event loop goes quiet and jumps to the deadline", async () => {
  const clock = new VirtualClock({ start: 0, idleTurns: 3 });
  await clock.timeout(30_000);
  assert.equal(clock.now(), 30_000);
});

Deno.test("VirtualClock.timeout loses to an answer that arrives while input keeps coming", async () => {
  const clock = new VirtualClock({ start: 0, idleTurns: 5 });
  const controller = new AbortController();
  let fired = false;
  const wait = clock.timeout(1000, { signal: controller.signal }).then(
    () => (fired = true),
    () => {},
  );
  // Activity for a while (touch on every turn), then the "answer" cancels the timeout.
  for (let i = 0; i < 20; i++) {
    clock.touch();
    await new Promise((r) => setTimeout(r, 0));
  }
  controller.abort();
  await wait;
  assert.equal(fired, false);
  assert.equal(clock.now(), 0);
});

Deno.test("VirtualClock rejects a non-finite start", () => {
  assert.throws(() => new VirtualClock({ start: NaN }), RangeError);
});
