import assert from "node:assert/strict";
// the real @std/testing FakeTime, vendored for the tests (JSR is out of reach)
import { FakeTime } from "../../tests/vendor/std/testing/time.ts";
import FakeTimers from "@sinonjs/fake-timers";
import { SystemClock } from "./system_clock.ts";

Deno.test("SystemClock looks the timers up at call time (fake timers installed after creation)", async () => {
  const clock = new SystemClock();
  const fake = FakeTimers.install({ now: 10_000, toFake: ["setTimeout", "clearTimeout", "Date"] });
  try {
    assert.equal(clock.now(), 10_000);
    let done = false;
    const slept = clock.sleep(250).then(() => (done = true));
    await fake.tickAsync(249);
    assert.equal(done, false);
    await fake.tickAsync(1);
    await slept;
    assert.equal(done, true);
    assert.equal(clock.now(), 10_250);
  } finally {
    fake.uninstall();
  }
});

Deno.test("SystemClock re-arms when a timer fires before the deadline", async () => {
  const fake = FakeTimers.install({ now: 0, toFake: ["setTimeout", "clearTimeout", "Date"] });
  try {
    const clock = new SystemClock();
    let done = false;
    const slept = clock.sleepUntil(100).then(() => (done = true));
    // Move Date back 40 ms behind the timers' back: the timer fires when Date says 60.
    fake.setSystemTime(-40);
    await fake.tickAsync(100);
    assert.equal(done, false);
    assert.equal(clock.now(), 60);
    await fake.tickAsync(40);
    await slept;
    assert.equal(done, true);
    assert.equal(clock.now(), 100);
  } finally {
    fake.uninstall();
  }
});

Deno.test("SystemClock.sleep clears its timer when aborted", async () => {
  const clock = new SystemClock();
  const controller = new AbortController();
  const slept = clock.sleep(60_000, { signal: controller.signal });
  controller.abort(new Error("cancelled"));
  await assert.rejects(slept, /cancelled/);
  // Deno's sanitizers fail this test if the 60 s timer were still pending.
});

Deno.test("SystemClock converges under std FakeTime, which floors delays", () => {
  using time = new FakeTime(0);
  // count FakeTime's setTimeout calls (tick() does not install its functions again)
  const fakeSetTimeout = globalThis.setTimeout;
  let armed = 0;
  globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
    armed++;
    return fakeSetTimeout(...args);
  }) as typeof setTimeout;
  const clock = new SystemClock();
  let done = false;
  clock.sleep(2.5).then(() => (done = true));
  // The old clock re-armed forever on the 0.5 ms remainder inside one tick.
  time.tick(2);
  assert.ok(armed <= 2, `re-armed ${armed} times`);
  time.tick(1);
  assert.equal(time.next(), false, "no timer left");
  return Promise.resolve().then(() => assert.equal(done, true));
});

Deno.test("SystemClock does not spin on a fake that fires timers without moving time", async () => {
  const g = globalThis as unknown as Record<string, unknown>;
  const saved = { setTimeout: g.setTimeout, now: Date.now };
  let armed = 0;
  g.setTimeout = (fn: () => void) => {
    armed++;
    queueMicrotask(fn);
    return armed;
  };
  Date.now = () => 1000;
  try {
    await new SystemClock().sleep(50);
    assert.ok(armed <= 3, `re-armed ${armed} times`);
  } finally {
    g.setTimeout = saved.setTimeout;
    Date.now = saved.now;
  }
});

Deno.test("SystemClock refuses non-finite times", () => {
  const clock = new SystemClock();
  assert.throws(() => clock.sleep(NaN), /finite number, got NaN/);
  assert.throws(() => clock.sleepUntil(Infinity), RangeError);
});
