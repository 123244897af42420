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
