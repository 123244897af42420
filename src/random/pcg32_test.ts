import assert from "node:assert/strict";
import { Pcg32, randomIntegerBetween, randomSeeded } from "./pcg32.ts";

// Vectors published with @std/random (randomSeeded / randomIntegerBetween docs and tests).
Deno.test("Pcg32 matches @std/random's u32 vectors for seed 0", () => {
  const pcg = new Pcg32(0n);
  assert.deepEqual([pcg.nextU32(), pcg.nextU32(), pcg.nextU32()], [
    298703107,
    4236525527,
    336081875,
  ]);
});

Deno.test("randomSeeded matches @std/random's float vectors for seed 1n", () => {
  const prng = randomSeeded(1n);
  assert.deepEqual([prng(), prng(), prng()], [
    0.20176767697557807,
    0.4911644416861236,
    0.7924694607499987,
  ]);
});

Deno.test("randomIntegerBetween matches @std/random for seed 42 in [1, 100]", () => {
  const prng = randomSeeded(42n);
  const rolls = Array.from({ length: 5 }, () => randomIntegerBetween(1, 100, { prng }));
  assert.deepEqual(rolls, [80, 78, 12, 99, 37]);
});

Deno.test("Pcg32 accepts number seeds like bigint seeds", () => {
  const a = new Pcg32(42);
  const b = new Pcg32(42n);
  for (let i = 0; i < 100; i++) assert.equal(a.nextU32(), b.nextU32());
});

Deno.test("Pcg32 reduces negative and huge seeds mod 2^64", () => {
  assert.equal(new Pcg32(-1n).nextU32(), new Pcg32((1n << 64n) - 1n).nextU32());
  assert.equal(new Pcg32(1n << 64n).nextU32(), new Pcg32(0n).nextU32());
});

Deno.test("Pcg32 rejects unsafe number seeds", () => {
  assert.throws(() => new Pcg32(0.5), RangeError);
  assert.throws(() => new Pcg32(2 ** 60), /safe integer/);
});

Deno.test("Pcg32.nextFloat stays in [0, 1)", () => {
  const pcg = new Pcg32(7);
  for (let i = 0; i < 10_000; i++) {
    const x = pcg.nextFloat();
    assert.ok(x >= 0 && x < 1);
  }
});

Deno.test("randomIntegerBetween rejects an empty range", () => {
  assert.throws(() => randomIntegerBetween(5, 4), RangeError);
});
