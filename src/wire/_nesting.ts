/**
 * Internal: the one nesting limit of the whole product ({@linkcode MAX_NESTING}) and the
 * iterative check that applies it where data comes in (scenario files and built scenarios,
 * `emit` frames, `__mock__` commands, tape lines). Inside, data is walked by recursive code
 * (`JSON.stringify`, `structuredClone`, freezing, scrubbing, diffs); a value nested within the
 * limit is safe for all of it at any call depth, one nested 200,000 deep is refused at the door
 * with a message naming where, not a `Maximum call stack size exceeded` from deep inside.
 *
 * @module
 */

/**
 * How deep a JSON value may nest: 1,000 levels of objects and arrays (the outermost object is
 * level 1). Real frames nest under 20; recursion over 1,000 levels stays far from any stack limit.
 */
export const MAX_NESTING = 1000;

/** How the limit reads in messages: "1,000". */
export const MAX_NESTING_TEXT = "1,000";

/** Why the limit is there, as messages say it. */
export const NESTING_WHY = "the most claude-mock takes: its frames are walked recursively";

/** The most path segments a message shows of a too-deep value's path. */
const SHOWN_SEGMENTS = 8;

/**
 * The path (from `value`, as `a[0].b`, or "" for `value` itself) of a member of `value` nested
 * deeper than `max` levels, shortened to its first segments and an ellipsis; `undefined` when
 * none is. Plain objects and arrays count as levels (other objects, functions and values are
 * leaves); a cycle is not followed (it is not deep, it is a cycle: encoding reports it), nor is
 * a getter run. Walks without recursion, so any depth is measured.
 */
export function nestedBeyond(value: unknown, max: number = MAX_NESTING): string | undefined {
  if (!isLevel(value)) return undefined;
  // one frame per open container: its keys and the next one to visit
  const stack: { value: Record<string, unknown>; keys: string[]; next: number; key: string }[] = [];
  const onPath = new Set<object>();
  const enter = (container: Record<string, unknown>, key: string) => {
    onPath.add(container);
    stack.push({ value: container, keys: Object.keys(container), next: 0, key });
  };
  enter(value, "");
  while (stack.length > 0) {
    if (stack.length > max) return pathOf(stack.map((level) => level.key).slice(1));
    const level = stack[stack.length - 1];
    if (level.next >= level.keys.length) {
      onPath.delete(level.value);
      stack.pop();
      continue;
    }
    const key = level.keys[level.next++];
    // a data property only: checking never runs a getter (JSON.stringify does, later, if at all)
    const member = Object.getOwnPropertyDescriptor(level.value, key)?.value;
    if (isLevel(member) && !onPath.has(member)) {
      enter(member, Array.isArray(level.value) ? `[${key}]` : key);
    }
  }
  return undefined;
}

/** `prefix` and `path` joined as a JSON path: ("steps[0]", "input.a") → "steps[0].input.a". */
export function joinPath(prefix: string, path: string): string {
  if (prefix === "") return path;
  if (path === "") return prefix;
  return path.startsWith("[") ? `${prefix}${path}` : `${prefix}.${path}`;
}

function isLevel(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function pathOf(keys: string[]): string {
  const shown = keys.slice(0, SHOWN_SEGMENTS);
  let path = "";
  for (const key of shown) {
    path = key.startsWith("[") ? `${path}${key}` : path === "" ? key : `${path}.${key}`;
  }
  return keys.length > SHOWN_SEGMENTS ? `${path}…` : path;
}
