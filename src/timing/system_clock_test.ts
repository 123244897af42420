import assert from "node:assert/strict";
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

Deno.test("SystemClock.timeout is a plain timer on real time", async () => {
  const fake = FakeTimers.install({ now: 0, toFake: ["setTimeout", "clearTimeout", "Date"] });
  try {
    const clock = new SystemClock();
    const t = clock.timeout(1000);
    await fake.tickAsync(1000);
    await t;
    assert.equal(clock.now(), 1000);
  } finally {
    fake.uninstall();
  }
});
