/**
 * A seeded PCG32 generator, bit-for-bit the one `@std/random` uses (a port of Rust
 * `rand_pcg::Lcg64Xsh32`), so `seed: 42` here yields the same numbers as
 * `randomSeeded(42n)` there.
 *
 * @module
 */

const MASK64 = (1n << 64n) - 1n;
const MULTIPLIER = 6364136223846793005n;
const SEED_INCREMENT = 11634580027462260723n;

/** A source of floats in `[0, 1)`, like `Math.random`. */
export type Prng = () => number;

/** Seeded states by seed: sessions seeded alike skip the BigInt seeding. */
const SEEDED = new Map<bigint, readonly [number, number, number, number]>();

function seededState(seed: bigint): readonly [number, number, number, number] {
  const cached = SEEDED.get(seed);
  if (cached) return cached;
  // Seed a throwaway generator from the seed, draw 16 bytes, use them as state and stream.
  const seeder = new Pcg32State(((seed % (1n << 64n)) + (1n << 64n)) & MASK64, SEED_INCREMENT);
  seeder.step();
  const bytes = new Uint8Array(16);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < 4; i++) view.setUint32(i * 4, seeder.next(), true);
  const state = view.getBigUint64(0, true);
  const inc = view.getBigUint64(8, true) | 1n;
  const start = (((state + inc) & MASK64) * MULTIPLIER + inc) & MASK64;
  const result = [
    Number(start >> 32n),
    Number(start & 0xffffffffn),
    Number(inc >> 32n),
    Number(inc & 0xffffffffn),
  ] as const;
  if (SEEDED.size >= 1024) SEEDED.clear();
  SEEDED.set(seed, result);
  return result;
}

/**
 * The PCG32 generator (64-bit state, XSH-RR output).
 *
 * @example Same seed, same numbers
 * ```ts
 * import { Pcg32 } from "@x/claude-mock/wire";
 * const a = new Pcg32(42n);
 * const b = new Pcg32(42n);
 * if (a.nextU32() !== b.nextU32()) throw new Error("not deterministic");
 * ```
 */
export class Pcg32 {
  // 64-bit state and increment as 32-bit halves: stepping with Math.imul is ~20x faster
  // than BigInt arithmetic and gives the same bits.
  #hi = 0;
  #lo = 0;
  #incHi = 0;
  #incLo = 0;

  /**
   * Seeds the generator the way `@std/random`'s `randomSeeded(seed)` does.
   *
   * @param seed A bigint, or a safe integer (anything else throws: a `TypeError` for
   *   another type, a `RangeError` for a float or an unsafe integer, naming `seed`).
   */
  constructor(seed: bigint | number) {
    if (typeof seed === "number") {
      if (!Number.isSafeInteger(seed)) {
        throw new RangeError(
          `Cannot seed PCG32: 'seed' must be a bigint or a safe integer, got ${seed}`,
        );
      }
      seed = BigInt(seed);
    } else if (typeof seed !== "bigint") {
      const kind = seed === null ? "null" : Array.isArray(seed) ? "an array" : typeof seed;
      throw new TypeError(
        `Cannot seed PCG32: 'seed' must be a bigint or a safe integer, got ${
          kind === "null" || kind === "an array"
            ? kind
            : `${/^[aeiou]/.test(kind) ? "an" : "a"} ${kind}`
        }`,
      );
    }
    const seeded = seededState(seed);
    this.#hi = seeded[0];
    this.#lo = seeded[1];
    this.#incHi = seeded[2];
    this.#incLo = seeded[3];
  }

  /** The next 32-bit unsigned integer. */
  nextU32(): number {
    const hi = this.#hi;
    const lo = this.#lo;
    // output from the old state: XSH-RR
    const xorHi = hi ^ (hi >>> 18);
    const xorLo = lo ^ ((lo >>> 18) | (hi << 14));
    const x = ((xorLo >>> 27) | (xorHi << 5)) >>> 0;
    const rot = hi >>> 27;
    const out = ((x >>> rot) | (x << ((32 - rot) & 31))) >>> 0;
    // state = state * MULTIPLIER + inc (mod 2^64)
    const mulLo = MUL_LO;
    const mulHi = MUL_HI;
    const a0 = lo & 0xffff, a1 = lo >>> 16;
    const b0 = mulLo & 0xffff, b1 = mulLo >>> 16;
    const p00 = a0 * b0;
    const p01 = a0 * b1;
    const p10 = a1 * b0;
    const p11 = a1 * b1;
    const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
    const low = ((mid << 16) | (p00 & 0xffff)) >>> 0;
    const carry = (mid >>> 16) + (p01 >>> 16) + (p10 >>> 16) + p11;
    const high = (carry + Math.imul(lo, mulHi) + Math.imul(hi, mulLo)) >>> 0;
    const sumLo = low + this.#incLo;
    this.#lo = sumLo >>> 0;
    this.#hi = (high + this.#incHi + (sumLo > 0xffffffff ? 1 : 0)) >>> 0;
    return out;
  }

  /** The next float in `[0, 1)` (`u32 / 2^32`, as `@std/random`). */
  nextFloat(): number {
    return this.nextU32() / 2 ** 32;
  }

  /**
   * The next integer in `[min, max]` (inclusive), computed as `@std/random`'s
   * `randomIntegerBetween`.
   */
  nextIntBetween(min: number, max: number): number {
    return randomIntegerBetween(min, max, { prng: () => this.nextFloat() });
  }
}

const MUL_LO = Number(MULTIPLIER & 0xffffffffn);
const MUL_HI = Number(MULTIPLIER >> 32n);

/** Options for {@linkcode randomIntegerBetween}. */
export interface RandomIntegerOptions {
  /** The float source; defaults to `Math.random`. */
  prng?: Prng;
}

/**
 * An integer in `[min, max]` (inclusive), as `@std/random`'s `randomIntegerBetween`.
 *
 * @example Dice from a seed
 * ```ts
 * import { randomIntegerBetween, randomSeeded } from "@x/claude-mock/wire";
 * const prng = randomSeeded(42n);
 * const roll = randomIntegerBetween(1, 6, { prng });
 * if (roll < 1 || roll > 6) throw new Error("out of range");
 * ```
 */
export function randomIntegerBetween(
  min: number,
  max: number,
  options: RandomIntegerOptions = {},
): number {
  const lo = Math.ceil(min);
  const hi = Math.floor(max);
  if (lo > hi) {
    throw new RangeError(`Cannot pick an integer between ${min} and ${max}: empty range`);
  }
  const x = (options.prng ?? Math.random)();
  return Math.floor(lo * (1 - x) + (hi + 1) * x);
}

/**
 * A `Math.random`-like function from a seed, as `@std/random`'s `randomSeeded`.
 *
 * @example Seeded floats
 * ```ts
 * import { randomSeeded } from "@x/claude-mock/wire";
 * const prng = randomSeeded(1n);
 * console.log(prng()); // 0.20176767697557807
 * ```
 */
export function randomSeeded(seed: bigint | number): Prng {
  const pcg = new Pcg32(seed);
  return () => pcg.nextFloat();
}

class Pcg32State {
  constructor(public state: bigint, public inc: bigint) {}
  step(): void {
    this.state = (this.state * MULTIPLIER + this.inc) & MASK64;
  }
  next(): number {
    const s = this.state;
    this.step();
    return output(s);
  }
}

function output(s: bigint): number {
  const rot = Number(s >> 59n);
  const x = Number((((s >> 18n) ^ s) >> 27n) & 0xffffffffn);
  return ((x >>> rot) | (x << ((32 - rot) & 31))) >>> 0;
}
