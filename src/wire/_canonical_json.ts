/**
 * Internal: JSON with sorted keys, so two values that are equal whatever their key order
 * serialize the same.
 *
 * @module
 */

/** JSON of `value` with every object's keys sorted (`undefined` members left out, as JSON does). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, sortKeys);
}

/** Whether two JSON values are equal, key order ignored. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return a === b || canonicalJson(a) === canonicalJson(b);
}

function sortKeys(_key: string, v: unknown): unknown {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return v;
  const o = v as Record<string, unknown>;
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
}
