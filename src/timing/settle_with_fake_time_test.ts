import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { settleWithFakeTime } from "./settle_with_fake_time.ts";

Deno.test("settleWithFakeTime runs timers until the promise settles, re-armed ones too", async () => {
  const fake = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  try {
    let ticks = 0;
    const done = new Promise<number>((resolve) => {
      const again = () => (++ticks === 25 ? resolve(ticks) : setTimeout(again, 1000));
      setTimeout(again, 1000);
    });
    assert.equal(await settleWithFakeTime(done, fake), 25);
    assert.equal(Date.now(), 25_000); // 25 fake seconds, no real ones
  } finally {
    fake.uninstall();
  }
});

Deno.test("settleWithFakeTime passes a rejection through", async () => {
  const fake = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout"] });
  try {
    const failing = new Promise((_, reject) => setTimeout(() => reject(new Error("boom")), 50));
    await assert.rejects(() => settleWithFakeTime(failing, fake), /boom/);
  } finally {
    fake.uninstall();
  }
});

Deno.test("settleWithFakeTime gives up instead of hanging", async () => {
  const fake = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout"] });
  try {
    const forever = new Promise(() => {
      const again = () => setTimeout(again, 10);
      again();
    });
    await assert.rejects(
      () => settleWithFakeTime(forever, fake, { maxSteps: 50 }),
      /did not settle after 50 fake timers/,
    );
    const stuck = new Promise(() => {}); // no timer at all
    await assert.rejects(
      () => settleWithFakeTime(stuck, fake, { realTimeoutMs: 30 }),
      /within 30 ms of real time/,
    );
    fake.reset();
  } finally {
    fake.uninstall();
  }
});

Deno.test("settleWithFakeTime checks its arguments", async () => {
  await assert.rejects(
    () => settleWithFakeTime(Promise.resolve(1), {} as never),
    /has no nextAsync/,
  );
  await assert.rejects(
    () =>
      settleWithFakeTime(Promise.resolve(1), { nextAsync: () => Promise.resolve() }, {
        maxSteps: 0,
      }),
    RangeError,
  );
  assert.equal(
    await settleWithFakeTime(Promise.resolve(7), { nextAsync: () => Promise.resolve() }),
    7,
  );
});

Deno.test("settleWithFakeTime drives vitest's vi and jest's jest (advanceTimersToNextTimerAsync)", async () => {
  const fake = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  try {
    // what vi and jest offer once their fake timers (sinon's, underneath) are installed
    let steps = 0;
    const vi = {
      advanceTimersToNextTimerAsync() {
        steps++;
        return fake.nextAsync().then(() => vi);
      },
    };
    const done = new Promise<string>((resolve) =>
      setTimeout(() => resolve("an hour later"), 3_600_000)
    );
    assert.equal(await settleWithFakeTime(done, vi), "an hour later");
    assert.equal(steps, 1);
    assert.equal(Date.now(), 3_600_000);
  } finally {
    fake.uninstall();
  }
});

Deno.test("settleWithFakeTime: with no fake timer pending it says so, not that one keeps re-arming", async () => {
  const fake = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout"] });
  try {
    // before: 5 empty steps, then "something keeps re-arming a timer" (there was none)
    await assert.rejects(
      () => settleWithFakeTime(new Promise(() => {}), fake, { maxSteps: 5, realTimeoutMs: 30 }),
      (error: Error) =>
        error instanceof RangeError &&
        /within 30 ms of real time .*0 timers run; no fake timer is pending/.test(error.message),
    );
    // one that a real timer settles while no fake one is pending still settles
    const late = new Promise<string>((resolve) => queueMicrotask(() => resolve("late")));
    assert.equal(await settleWithFakeTime(late, fake, { maxSteps: 1 }), "late");
  } finally {
    fake.uninstall();
  }
});

Deno.test("settleWithFakeTime: what is not a promise is refused, naming it", async () => {
  const clock = { nextAsync: () => Promise.resolve() };
  for (const [value, shown] of [[42, "number 42"], [undefined, "undefined"], [null, "null"]]) {
    await assert.rejects(
      () => settleWithFakeTime(value as never, clock),
      new TypeError(
        `Cannot drive fake time: the first argument must be a promise (what to wait for), got ${shown}`,
      ),
    );
  }
  // a function passed instead of its promise (before: "promise.then is not a function")
  await assert.rejects(
    () => settleWithFakeTime((() => Promise.resolve(1)) as never, clock),
    /got a function \(call it: settleWithFakeTime\(run\(\), clock\)\)/,
  );
  assert.equal(
    await settleWithFakeTime({ then: (r: (v: number) => void) => r(3) } as never, clock),
    3,
  );
});
