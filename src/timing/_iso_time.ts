/**
 * `new Date(ms).toISOString()` by arithmetic: the first `Date` of a Deno process costs about
 * 0.3 ms (the runtime sets up its date cache), and frames are stamped on every run of the fake
 * binary. Internal.
 *
 * @module
 */

const DAY = 86_400_000;
/** 10000-01-01T00:00:00.000Z: beyond it (and before year 0) `toISOString` adds a sign. */
const END = 253_402_300_800_000;
/** 0000-01-01T00:00:00.000Z. */
const START = -62_167_219_200_000;

/**
 * The ISO 8601 UTC form of `time` (ms since the epoch), exactly as `Date.prototype.toISOString`
 * writes it (which it falls back to outside years 0–9999, throwing its `RangeError` for a
 * time that is not finite).
 */
export function isoTime(time: number): string {
  // frames of a turn are mostly stamped with the same time (the virtual clock stands still)
  if (time === lastTime) return lastText;
  if (!(time >= START && time < END)) return new Date(time).toISOString();
  const text = civilTime(time);
  lastTime = time;
  lastText = text;
  return text;
}

/** The last time written, and its text. */
let lastTime = NaN;
let lastText = "";

function civilTime(time: number): string {
  const ms = Math.trunc(time) + 0; // as the Date constructor clips it (and no -0)
  const days = Math.floor(ms / DAY);
  const inDay = ms - days * DAY;
  // days to a civil date (H. Hinnant's algorithm), eras of 400 years from 0000-03-01
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra -
    (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const m = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * m + 2) / 5) + 1;
  const month = m < 10 ? m + 3 : m - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${
    pad(Math.floor(inDay / 3_600_000), 2)
  }:${pad(Math.floor(inDay / 60_000) % 60, 2)}:${pad(Math.floor(inDay / 1000) % 60, 2)}.${
    pad(inDay % 1000, 3)
  }Z`;
}

function pad(n: number, width: number): string {
  const s = String(n);
  return s.length >= width ? s : "0".repeat(width - s.length) + s;
}
