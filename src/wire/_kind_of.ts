/**
 * Internal: how error messages name the kind of a bad value. Not part of the public API.
 *
 * @module
 */

/** "null", "undefined", "an array", "an object", "a string", "a number", ... */
export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
}
