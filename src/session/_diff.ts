/**
 * Values as text and a line diff of two values, for assertion messages: objects print
 * one field a line with sorted keys and trailing commas (a changed field is one line of
 * the diff), long unchanged runs fold to `...`.
 *
 * @module
 * @internal
 */

/** Most lines a diff compares with a full LCS (beyond it: common ends, then a block). */
const LCS_LIMIT = 4_000_000;
/** Unchanged lines kept around a change before a run folds. */
const CONTEXT = 3;

/**
 * `value` as text: strings quoted as JSON, objects and arrays one entry a line (keys
 * sorted, trailing commas), Maps, Sets, Dates, RegExps, errors, functions, bigints, cycles.
 *
 * @internal
 */
export function formatValue(value: unknown): string {
  return format(value, "", new Set());
}

function format(value: unknown, indent: string, seen: Set<object>): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Object.is(value, -0) ? "-0" : String(value);
    case "bigint":
      return `${value}n`;
    case "undefined":
      return "undefined";
    case "boolean":
      return String(value);
    case "symbol":
      return value.toString();
    case "function":
      return value.name ? `[Function: ${value.name}]` : "[Function (anonymous)]";
  }
  if (value === null) return "null";
  const object = value as object;
  if (seen.has(object)) return "[Circular]";
  if (object instanceof Date) {
    return Number.isNaN(object.getTime()) ? "Invalid Date" : object.toISOString();
  }
  if (object instanceof RegExp) return String(object);
  if (object instanceof Error) return `[${object.name}: ${object.message}]`;
  seen.add(object);
  try {
    const inner = indent + "  ";
    const block = (head: string, open: string, close: string, items: string[]): string =>
      items.length === 0
        ? `${head}${open}${close}`
        : `${head}${open}\n${items.map((item) => `${inner}${item},\n`).join("")}${indent}${close}`;
    if (Array.isArray(object)) {
      return block("", "[", "]", object.map((item) => format(item, inner, seen)));
    }
    if (ArrayBuffer.isView(object) && !(object instanceof DataView)) {
      const items = Array.from(object as unknown as ArrayLike<number | bigint>);
      return block(`${object.constructor.name}(${items.length}) `, "[", "]", items.map(String));
    }
    if (object instanceof Map) {
      const items = [...object].map(([key, item]) =>
        `${format(key, inner, seen)} => ${format(item, inner, seen)}`
      );
      return block(`Map(${object.size}) `, "{", "}", items);
    }
    if (object instanceof Set) {
      return block(
        `Set(${object.size}) `,
        "{",
        "}",
        [...object].map((v) => format(v, inner, seen)),
      );
    }
    const proto = Object.getPrototypeOf(object);
    const name = proto === null
      ? "[Object: null prototype] "
      : proto === Object.prototype
      ? ""
      : `${proto.constructor?.name ?? "Object"} `;
    const items = Object.keys(object).sort().map((key) =>
      `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: ${
        format((object as Record<string, unknown>)[key], inner, seen)
      }`
    );
    return block(name, "{", "}", items);
  } finally {
    seen.delete(object);
  }
}

/**
 * The lines of a diff from `expected` to `actual`: `+ ` lines only in actual, `- ` lines
 * only in expected, `  ` lines in both; long unchanged runs fold to `  ...`. `undefined`
 * when both print the same. Multi-line strings are compared line by line, unquoted.
 *
 * @internal
 */
export function diffValues(actual: unknown, expected: unknown): string[] | undefined {
  const texts = typeof actual === "string" && typeof expected === "string" &&
    (actual.includes("\n") || expected.includes("\n"));
  const a = (texts ? actual as string : formatValue(actual)).split("\n");
  const e = (texts ? expected as string : formatValue(expected)).split("\n");
  if (a.length === e.length && a.every((line, i) => line === e[i])) return undefined;
  return fold(diffLines(a, e));
}

type Op = { op: " " | "+" | "-"; line: string };

function diffLines(a: string[], e: string[]): Op[] {
  let start = 0;
  while (start < a.length && start < e.length && a[start] === e[start]) start++;
  let endA = a.length, endE = e.length;
  while (endA > start && endE > start && a[endA - 1] === e[endE - 1]) endA--, endE--;
  const head: Op[] = a.slice(0, start).map((line) => ({ op: " ", line }));
  const tail: Op[] = a.slice(endA).map((line) => ({ op: " ", line }));
  const midA = a.slice(start, endA), midE = e.slice(start, endE);
  return [...head, ...middle(midA, midE), ...tail];
}

function middle(a: string[], e: string[]): Op[] {
  const n = a.length, m = e.length;
  if (n * m > LCS_LIMIT) {
    return [
      ...a.map((line): Op => ({ op: "+", line })),
      ...e.map((line): Op => ({ op: "-", line })),
    ];
  }
  // lengths of the longest common subsequences of the suffixes a[i..], e[j..]
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i] === e[j]
        ? lcs[(i + 1) * width + j + 1] + 1
        : Math.max(lcs[(i + 1) * width + j], lcs[i * width + j + 1]);
    }
  }
  const ops: Op[] = [];
  let i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === e[j]) {
      ops.push({ op: " ", line: a[i++] });
      j++;
    } else if (j >= m || (i < n && lcs[(i + 1) * width + j] >= lcs[i * width + j + 1])) {
      ops.push({ op: "+", line: a[i++] });
    } else {
      ops.push({ op: "-", line: e[j++] });
    }
  }
  return ops;
}

function fold(ops: Op[]): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < ops.length) {
    if (ops[i].op !== " ") {
      out.push(`${ops[i].op} ${ops[i].line}`);
      i++;
      continue;
    }
    let end = i;
    while (end < ops.length && ops[end].op === " ") end++;
    const keepBefore = i === 0 ? 0 : CONTEXT;
    const keepAfter = end === ops.length ? 0 : CONTEXT;
    if (end - i > keepBefore + keepAfter + 1) {
      for (let k = i; k < i + keepBefore; k++) out.push(`  ${ops[k].line}`);
      out.push("  ...");
      for (let k = end - keepAfter; k < end; k++) out.push(`  ${ops[k].line}`);
    } else {
      for (let k = i; k < end; k++) out.push(`  ${ops[k].line}`);
    }
    i = end;
  }
  return out;
}
