import FakeTimers from "@sinonjs/fake-timers";
import assert from "node:assert/strict";
import { VirtualClock } from "./virtual_clock.ts";

Deno.test("VirtualClock.sleep moves virtual time without waiting", async () => {
  const clock = new VirtualClock({ start: 1000 });
  // an hour's sleep resolves on promise reactions alone: before the event loop's next turn,
  // so before a timer of 0 ms (no real time is waited, however fast or slow the machine)
  let turned = false;
  const timer = setTimeout(() => (turned = true), 0);
  try {
    await clock.sleep(3_600_000);
    assert.equal(turned, false, "the sleep waited for the event loop");
  } finally {
    clearTimeout(timer);
  }
  assert.equal(clock.now(), 3_601_000);
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

Deno.test("VirtualClock sleeps need no timer: they work with fake timers installed", async () => {
  const fake = FakeTimers.install({ now: 0 });
  try {
    const clock = new VirtualClock({ start: 0 });
    await clock.sleep(30_000);
    await clock.sleep(5);
    assert.equal(clock.now(), 30_005);
    assert.equal(fake.countTimers(), 0);
  } finally {
    fake.uninstall();
  }
});

Deno.test("VirtualClock: a long run of sleeps lets the app's timers fire meanwhile", async () => {
  const clock = new VirtualClock({ start: 0 });
  let fired = -1;
  let i = 0;
  const timer = setTimeout(() => (fired = i), 0);
  try {
    for (; i < 200_000 && fired < 0; i++) await clock.sleep(1);
  } finally {
    clearTimeout(timer);
  }
  assert.ok(fired >= 0 && fired < 200_000, `the timer fired only after the run (at ${fired})`);
});

Deno.test("VirtualClock refuses non-finite times instead of spinning on them", async () => {
  const clock = new VirtualClock({ start: 0 });
  assert.throws(() => clock.sleep(NaN), /finite number, got NaN/);
  assert.throws(() => clock.sleepUntil(Infinity), RangeError);
  assert.throws(() => clock.advance(-Infinity), RangeError);
  await clock.sleep(-5); // a negative delay is no delay
  assert.equal(clock.now(), 0);
});

Deno.test("VirtualClock rejects a non-finite start", () => {
  assert.throws(() => new VirtualClock({ start: NaN }), RangeError);
});
