import assert from "node:assert/strict";
import { FakeTimerId, useFakeTimerIds } from "./_fake_timer_ids.ts";

Deno.test("useFakeTimerIds: number ids gain unref and still clear; nested uses restore once", () => {
  const g = globalThis as unknown as Record<string, unknown>;
  const saved = { setTimeout: g.setTimeout, clearTimeout: g.clearTimeout };
  const armed = new Map<number, () => void>();
  let next = 1;
  g.setTimeout = (fn: () => void) => {
    armed.set(next, fn);
    return next++;
  };
  g.clearTimeout = (id: unknown) => armed.delete(id as number);
  const fake = { setTimeout: g.setTimeout, clearTimeout: g.clearTimeout };
  try {
    const outer = useFakeTimerIds();
    const inner = useFakeTimerIds();
    const id = setTimeout(() => {}, 10) as unknown as FakeTimerId;
    assert.ok(id instanceof FakeTimerId);
    assert.equal(id.unref(), id);
    assert.equal(id.hasRef(), true);
    assert.equal(+id, 1);
    clearTimeout(id as unknown as number);
    assert.equal(armed.size, 0, "cleared through the wrapped id");
    inner();
    assert.notEqual(g.setTimeout, fake.setTimeout, "still wrapped for the outer use");
    outer();
    outer();
    assert.equal(g.setTimeout, fake.setTimeout, "the fake's own functions are back");
    assert.equal(g.clearTimeout, fake.clearTimeout);
  } finally {
    g.setTimeout = saved.setTimeout;
    g.clearTimeout = saved.clearTimeout;
  }
});

// The real @std/testing FakeTime (vendored for the tests: JSR is out of reach).
import { FakeTime } from "../../tests/vendor/std/testing/time.ts";

Deno.test("useFakeTimerIds under std FakeTime: ids keep unref after FakeTime re-installs its globals", async () => {
  using time = new FakeTime(0);
  const restore = useFakeTimerIds();
  try {
    let ran = 0;
    setTimeout(() => ran++, 10);
    // nextAsync waits through FakeTime.restoreFor, which assigns FakeTime's functions again
    assert.equal(await time.nextAsync(), true);
    assert.equal(ran, 1);
    const id = setTimeout(() => ran++, 10) as unknown as FakeTimerId;
    assert.ok(id instanceof FakeTimerId, "still wrapped after nextAsync");
    assert.equal(id.unref(), id);
    await time.runAllAsync();
    assert.equal(ran, 2);
    // and when FakeTime runs the timer that arms another (the SDK's abort, then its grace period)
    let inner: unknown;
    setTimeout(() => (inner = setTimeout(() => {}, 5)), 1);
    await time.nextAsync();
    assert.ok(inner instanceof FakeTimerId);
    (inner as FakeTimerId).unref();
  } finally {
    restore();
  }
  assert.equal(typeof setTimeout(() => {}, 0), "number", "FakeTime's own functions are back");
  assert.equal(time.next(), true);
  assert.equal(time.next(), true);
  assert.equal(time.next(), false);
});

Deno.test("useFakeTimerIds under std FakeTime: tick, next, runAll, intervals and clearing wrapped ids work", () => {
  using time = new FakeTime(1_000);
  const restore = useFakeTimerIds();
  try {
    const calls: string[] = [];
    const a = setTimeout((x: string) => calls.push(x), 100, "a");
    setTimeout(() => calls.push("b"), 200);
    const cancelled = setTimeout(() => calls.push("never"), 150);
    clearTimeout(cancelled);
    const every = setInterval(() => calls.push(`i${Date.now() - 1_000}`), 120);
    assert.ok((a as unknown) instanceof FakeTimerId);
    assert.ok((every as unknown) instanceof FakeTimerId);
    time.tick(100);
    assert.deepEqual(calls, ["a"]);
    assert.equal(time.next(), true); // the interval at 120
    assert.deepEqual(calls, ["a", "i120"]);
    time.tick(150); // to 270: b at 200, the interval at 240
    assert.deepEqual(calls, ["a", "i120", "b", "i240"]);
    clearInterval(every);
    time.runAll();
    assert.deepEqual(
      calls,
      ["a", "i120", "b", "i240"],
      "the cleared timeout and interval never ran",
    );
    assert.equal(time.now, 1_270);
    assert.equal(Date.now(), 1_270);
  } finally {
    restore();
  }
});

Deno.test("useFakeTimerIds under std FakeTime: FakeTime restored first, then the helper", () => {
  const host = globalThis.setTimeout;
  const time = new FakeTime(0);
  const restore = useFakeTimerIds();
  const id = setTimeout(() => {}, 10) as unknown as FakeTimerId;
  assert.ok(id instanceof FakeTimerId);
  time.restore();
  restore();
  assert.equal(globalThis.setTimeout, host, "the host's setTimeout is back");
  const real = setTimeout(() => {}, 0);
  assert.equal(typeof real, "object", "a real (Node) Timeout, not wrapped");
  clearTimeout(real);
});

Deno.test("useFakeTimerIds under std FakeTime: an id kept past the wrap is cleared by a later wrap, not by FakeTime's own clearTimeout", () => {
  using time = new FakeTime(0);
  const ran: string[] = [];
  let restore = useFakeTimerIds();
  const first = setTimeout(() => ran.push("first"), 10);
  const second = setTimeout(() => ran.push("second"), 20);
  restore();
  clearTimeout(first); // FakeTime's own: it takes numbers only (docs/time.md says so)
  restore = useFakeTimerIds();
  clearTimeout(second);
  restore();
  time.tick(20);
  assert.deepEqual(ran, ["first"]);
});
