/**
 * The first member name an object of JSON text repeats. `JSON.parse` keeps the last of two
 * members of one name and says nothing, so a scenario file with two `say`s in one step (a
 * copy and paste) would run half of what it shows; the loader refuses it instead, naming the
 * member. A scan without recursion (any depth) over text `JSON.parse` has accepted. Internal.
 *
 * @module
 */

/** A member name an object repeats: where the object is, the name, where the repeat starts. */
export interface DuplicateKey {
  /** The object's path in the document (`exchanges[0].steps[1]`; `""` for the top). */
  readonly path: string;
  /** The repeated member name. */
  readonly key: string;
  /** The offset in the text of the repeat's opening quote. */
  readonly offset: number;
}

interface Container {
  /** The container's path. */
  readonly path: string;
  /** The names seen so far (objects) or `undefined` (arrays). */
  readonly keys?: Set<string>;
  /** The next element's index (arrays). */
  index: number;
  /** The name of the member whose value comes next (objects). */
  key: string;
  /** Whether a name comes next (objects: after `{` and `,`). */
  expectKey: boolean;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `path` with `key` appended as the loader's messages write paths. */
function member(path: string, key: string): string {
  if (IDENTIFIER.test(key)) return path === "" ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

/** The offset just past the string whose opening quote is at `start`. */
function stringEnd(text: string, start: number): number {
  let at = start + 1;
  for (;;) {
    const quote = text.indexOf('"', at);
    if (quote < 0) return text.length;
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === 92) slashes++;
    if (slashes % 2 === 0) return quote + 1;
    at = quote + 1;
  }
}

/**
 * The first repeated member name in `text` (valid JSON), or `undefined` when every object's
 * names are distinct. Names compare after unescaping (`"a"` and `"\u0061"` are one name).
 */
export function duplicateKey(text: string): DuplicateKey | undefined {
  const stack: Container[] = [];
  const valuePath = (): string => {
    const top = stack[stack.length - 1];
    if (top === undefined) return "";
    return top.keys ? member(top.path, top.key) : `${top.path}[${top.index}]`;
  };
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === 123 /* { */ || c === 91 /* [ */) {
      stack.push({
        path: valuePath(),
        keys: c === 123 ? new Set() : undefined,
        index: 0,
        key: "",
        expectKey: c === 123,
      });
      i++;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      stack.pop();
      i++;
    } else if (c === 44 /* , */) {
      if (top?.keys) top.expectKey = true;
      else if (top) top.index++;
      i++;
    } else if (c === 34 /* " */) {
      const end = stringEnd(text, i);
      if (top?.keys && top.expectKey) {
        const raw = text.slice(i + 1, end - 1);
        const key = raw.includes("\\") ? JSON.parse(text.slice(i, end)) as string : raw;
        if (top.keys.has(key)) return { path: top.path, key, offset: i };
        top.keys.add(key);
        top.key = key;
        top.expectKey = false;
      }
      i = end;
    } else {
      i++;
    }
  }
  return undefined;
}
