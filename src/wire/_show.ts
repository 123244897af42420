/**
 * Internal: how messages and reports quote a value. Not part of the public API.
 *
 * @module
 */

/** How {@linkcode show} quotes a value. */
export interface ShowOptions {
  /**
   * The longest text, in characters, ellipsis included (default 80, what fits in an error
   * message's line). Reports that print one value per line or cell pass more.
   */
  max?: number;
}

/**
 * A value as a message quotes it: JSON text (a string quoted), a number as written (`NaN`,
 * `Infinity`), `undefined`, `a function`, or its string form when it cannot be serialized;
 * cut to `options.max` characters with `…`.
 */
export function show(value: unknown, options: ShowOptions = {}): string {
  const max = options.max ?? 80;
  const text = textOf(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function textOf(value: unknown): string {
  if (typeof value === "function") return "a function";
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
