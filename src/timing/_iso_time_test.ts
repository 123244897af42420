import assert from "node:assert/strict";
import { isoTime } from "./_iso_time.ts";

Deno.test("isoTime writes what Date.prototype.toISOString writes", () => {
  const times = [
    0,
    -0,
    1,
    -1,
    0.5,
    -0.5,
    999.999,
    Date.UTC(2026, 10, 23, 16, 58, 35, 347),
    Date.UTC(2000, 1, 29, 23, 59, 59, 999), // a leap day of a century leap year
    Date.UTC(1900, 1, 28, 12), // 1900 is not a leap year
    Date.UTC(2100, 2, 1),
    Date.UTC(1969, 11, 31, 23, 59, 59, 999),
    -62_167_219_200_000, // 0000-01-01
    253_402_300_799_999, // 9999-12-31T23:59:59.999Z
  ];
  // every day across four centuries, at a time of day that moves
  for (let day = -146_097; day < 146_097 * 2; day += 1) times.push(day * 86_400_000 + day * 7919);
  for (const t of times) assert.equal(isoTime(t), new Date(t).toISOString(), `at ${t}`);
});

Deno.test("isoTime outside years 0-9999 and for times that are not finite is toISOString's", () => {
  for (const t of [-62_167_219_200_001, 253_402_300_800_000, 8.64e15, -8.64e15]) {
    assert.equal(isoTime(t), new Date(t).toISOString());
  }
  for (const t of [NaN, Infinity, -Infinity, 8.64e15 + 1]) {
    assert.throws(() => isoTime(t), RangeError);
  }
});

Deno.test("isoTime of the time just written, and of others between, is still toISOString's", () => {
  const times = [5, 5, 0, -0, 0, 5, 1e12, 1e12, 5, NaN, 5, 253_402_300_800_000, 5];
  for (const t of times) {
    if (Number.isNaN(t)) assert.throws(() => isoTime(t), RangeError);
    else assert.equal(isoTime(t), new Date(t).toISOString(), `at ${t}`);
  }
});
