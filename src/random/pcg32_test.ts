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

Deno.test("Pcg32's 32-bit stepping matches a BigInt reference over 100,000 draws", () => {
  const M = (1n << 64n) - 1n;
  // Reference: the textbook 64-bit PCG32 step on BigInts, seeded like @std/random.
  const step = (s: bigint, inc: bigint) => (s * 6364136223846793005n + inc) & M;
  const out = (s: bigint) => {
    const rot = Number(s >> 59n);
    const x = Number((((s >> 18n) ^ s) >> 27n) & 0xffffffffn);
    return ((x >>> rot) | (x << ((32 - rot) & 31))) >>> 0;
  };
  for (const seed of [0n, 1n, 42n, 123456789n, (1n << 64n) - 1n]) {
    let s = step(seed, 11634580027462260723n);
    const words: number[] = [];
    for (let i = 0; i < 4; i++) {
      words.push(out(s));
      s = step(s, 11634580027462260723n);
    }
    const state = BigInt(words[0]) | (BigInt(words[1]) << 32n);
    const inc = (BigInt(words[2]) | (BigInt(words[3]) << 32n)) | 1n;
    let ref = step((state + inc) & M, inc);
    const pcg = new Pcg32(seed);
    for (let i = 0; i < 20_000; i++) {
      assert.equal(pcg.nextU32(), out(ref));
      ref = step(ref, inc);
    }
  }
});
