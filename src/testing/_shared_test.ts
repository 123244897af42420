import assert from "node:assert/strict";
import { AssertionError } from "../session/assertion_error.ts";
import { assertCount, type CountCheck } from "./_shared.ts";

const check = (count: number, times: number | undefined): CountCheck => ({
  where: 'R.assertX("a")',
  count,
  times,
  expected: "a to be called",
  verb: "called",
  calls: () => "Calls: none",
});

Deno.test("assertCount passes on an exact count, or on any call when times is omitted", () => {
  assertCount(check(2, 2));
  assertCount(check(0, 0));
  assertCount(check(3, undefined));
});

Deno.test("assertCount names both counts and lists the calls", () => {
  assert.throws(() => assertCount(check(0, undefined)), (e: unknown) => {
    assert.ok(e instanceof AssertionError);
    assert.equal(
      e.message,
      "Expected a to be called at least once, but it was called 0 times.\nCalls: none",
    );
    return true;
  });
  assert.throws(
    () => assertCount(check(1, 2)),
    { message: "Expected a to be called 2 times, but it was called 1 time.\nCalls: none" },
  );
});

Deno.test("assertCount refuses a times that is not a non-negative integer", () => {
  for (const times of [-1, 1.5, NaN]) {
    assert.throws(() => assertCount(check(1, times)), {
      name: "RangeError",
      message: `R.assertX("a"): times must be a non-negative integer, got ${times}`,
    });
  }
});
