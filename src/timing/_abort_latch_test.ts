import assert from "node:assert/strict";
import { AbortLatch } from "./_abort_latch.ts";

Deno.test("AbortLatch: listeners run once, in order, with the reason; removed ones do not", () => {
  const latch = new AbortLatch();
  const calls: string[] = [];
  latch.onAbort((r) => calls.push(`a:${r}`));
  const remove = latch.onAbort(() => calls.push("removed"));
  latch.onAbort((r) => calls.push(`b:${r}`));
  remove();
  assert.equal(latch.aborted, false);
  assert.equal(latch.reason, undefined);
  latch.abort("why");
  latch.abort("again");
  assert.deepEqual(calls, ["a:why", "b:why"]);
  assert.equal(latch.aborted, true);
  assert.equal(latch.reason, "why");
  // as for an abort event: a listener added once aborted is never called
  latch.onAbort(() => calls.push("late"))();
  assert.deepEqual(calls, ["a:why", "b:why"]);
});

Deno.test("AbortLatch: its signal is made on demand and follows it, before or after the abort", () => {
  const before = new AbortLatch();
  const signal = before.signal;
  assert.equal(before.signal, signal, "one signal");
  let heard: unknown;
  signal.addEventListener("abort", () => heard = signal.reason);
  const error = new Error("ended");
  before.abort(error);
  assert.equal(signal.aborted, true);
  assert.equal(heard, error);

  const after = new AbortLatch();
  after.abort(error);
  assert.equal(after.signal.aborted, true);
  assert.equal(after.signal.reason, error);
});

Deno.test("AbortLatch: no reason is an AbortError, as for AbortController", () => {
  const latch = new AbortLatch();
  latch.abort();
  assert.ok(latch.reason instanceof DOMException);
  assert.equal((latch.reason as DOMException).name, "AbortError");
  assert.equal(latch.signal.reason, latch.reason);
});

Deno.test("AbortLatch: aborting again from a listener changes nothing and the rest still run", () => {
  const latch = new AbortLatch();
  const calls: number[] = [];
  latch.onAbort(() => {
    calls.push(1);
    latch.abort("nested"); // ignored: already aborted
  });
  latch.onAbort(() => calls.push(2));
  latch.abort("first");
  assert.deepEqual(calls, [1, 2]);
  assert.equal(latch.reason, "first");
});
