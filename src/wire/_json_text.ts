/**
 * `JSON.stringify(value)` without recursion: the same text for any value `JSON.stringify`
 * encodes (`toJSON`, skipped `undefined` / function / symbol members, `null` for them in
 * arrays, non-finite numbers as `null`, boxed primitives), for values nested deeper than the
 * call stack allows (`JSON.stringify` recurses: a tool input nested 10,000 deep overflows it
 * depending on how deep the caller already is). A cycle is a `TypeError` naming the path.
 * Internal.
 *
 * @module
 */

interface Level {
  /** The container being written. */
  value: Record<string, unknown> | unknown[];
  /** Its keys (objects) or `undefined` (arrays). */
  keys?: string[];
  /** The next member to write. */
  next: number;
  /** Whether a member was written (a comma goes before the next). */
  wrote: boolean;
  /** Its key in its parent, for cycle messages. */
  key: string;
}

/**
 * The JSON text of `value`, as `JSON.stringify(value)` gives it (`undefined` when that gives
 * `undefined`), at any depth.
 *
 * @throws {TypeError} For a cycle (naming the path) or a `BigInt`, as `JSON.stringify` does.
 */
export function jsonText(value: unknown): string | undefined {
  const top = prepare(value, "");
  if (!isContainer(top)) return scalar(top);
  const out: string[] = [];
  const stack: Level[] = [];
  const onPath = new Set<object>();
  const enter = (container: Record<string, unknown> | unknown[], key: string) => {
    if (onPath.has(container)) {
      throw new TypeError(
        `Converting circular structure to JSON: ${
          [...stack.map((l) => l.key), key].filter((k) => k !== "").join(".") || "(root)"
        } refers back to an object that contains it`,
      );
    }
    onPath.add(container);
    const isArray = Array.isArray(container);
    out.push(isArray ? "[" : "{");
    stack.push({
      value: container,
      keys: isArray ? undefined : Object.keys(container),
      next: 0,
      wrote: false,
      key,
    });
  };
  enter(top, "");
  while (stack.length > 0) {
    const level = stack[stack.length - 1];
    const { keys } = level;
    const length = keys ? keys.length : (level.value as unknown[]).length;
    if (level.next >= length) {
      out.push(keys ? "}" : "]");
      onPath.delete(level.value);
      stack.pop();
      continue;
    }
    const index = level.next++;
    const key = keys ? keys[index] : String(index);
    const member = prepare((level.value as Record<string, unknown>)[key], key);
    if (
      keys && (member === undefined || typeof member === "function" || typeof member === "symbol")
    ) {
      continue; // an object member JSON leaves out
    }
    if (level.wrote) out.push(",");
    level.wrote = true;
    if (keys) out.push(JSON.stringify(key), ":");
    if (isContainer(member)) enter(member, key);
    else out.push(scalar(member) ?? "null");
  }
  return out.join("");
}

/** The value after `toJSON` and unboxing, as `JSON.stringify` sees it. */
function prepare(value: unknown, key: string): unknown {
  if (typeof value === "bigint") throw new TypeError("Do not know how to serialize a BigInt");
  if (value !== null && typeof value === "object") {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") value = toJSON.call(value, key);
  }
  if (value instanceof Number || value instanceof String || value instanceof Boolean) {
    return value.valueOf();
  }
  if (typeof value === "bigint") throw new TypeError("Do not know how to serialize a BigInt");
  return value;
}

function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return value !== null && typeof value === "object";
}

/** A scalar's text (`undefined` for what JSON leaves out). */
function scalar(value: unknown): string | undefined {
  return JSON.stringify(value);
}
