/**
 * The TypeScript that `driftCheck` type-checks: every distinct frame as a `const` annotated
 * with the SDK's type for its kind, one property or element per line so that a diagnostic's
 * line says which JSON path it is about. Internal.
 *
 * @module
 */

/** A value that checks as anything (`null as never`): what a finding already reported is. */
export const NEVER: unique symbol = Symbol("never");

/** A frame as checked: JSON, with {@linkcode NEVER} where checking stops. */
export type Tree =
  | null
  | boolean
  | number
  | string
  | Tree[]
  | { [key: string]: Tree }
  | typeof NEVER;

/** A step of a JSON path. */
export type Step = string | number;

const OWN = { enumerable: true, writable: true, configurable: true } as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * How deep a frame is type-checked: below it values check as anything ({@linkcode NEVER}).
 * No SDK type nests this deep (what is deeper is a tool's own input, typed `unknown`), and
 * TypeScript's parser recurses: a literal nested 1,000 deep overflows its stack.
 */
export const CHECKED_DEPTH = 64;

/**
 * A frame with what no SDK type tells apart made equal, so that frames of the same shape are
 * checked once: UUIDs become one UUID, strings over 64 characters `"…"`, numbers `0`, what
 * nests below {@linkcode CHECKED_DEPTH} {@linkcode NEVER}.
 */
export function normalizeFrame(value: unknown, depth = 0): Tree {
  if (typeof value === "string") {
    return UUID.test(value)
      ? "00000000-0000-0000-0000-000000000000"
      : value.length > 64
      ? "…"
      : value;
  }
  if (typeof value === "number") return 0;
  if (typeof value === "boolean" || value === null) return value;
  if (typeof value === "object" && depth >= CHECKED_DEPTH) return NEVER;
  if (Array.isArray(value)) return value.map((v) => normalizeFrame(v, depth + 1));
  if (typeof value === "object") {
    const out: { [key: string]: Tree } = {};
    for (const [k, v] of Object.entries(value)) {
      // defined, not assigned: a "__proto__" key stays a key
      if (v !== undefined) {
        Object.defineProperty(out, k, { value: normalizeFrame(v, depth + 1), ...OWN });
      }
    }
    return out;
  }
  return null;
}

/** `a.b[0]["x-y"]`: a path as it is shown. */
export function formatPath(path: readonly Step[]): string {
  let out = "";
  for (const step of path) {
    if (typeof step === "number") out += `[${step}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(step)) out += out === "" ? step : `.${step}`;
    else out += `[${JSON.stringify(step)}]`;
  }
  return out;
}

/** Replaces (or, with `undefined`, deletes) the value at `path`; `false` if there is none. */
export function setAt(tree: Tree, path: readonly Step[], value: Tree | undefined): boolean {
  if (path.length === 0) return false;
  let node: Tree = tree;
  for (const step of path.slice(0, -1)) {
    if (node === null || typeof node !== "object") return false;
    node = (node as Record<string, Tree>)[step as string];
  }
  const last = path[path.length - 1];
  if (node === null || typeof node !== "object" || !(String(last) in node)) return false;
  if (value !== undefined) (node as Record<string, Tree>)[last as string] = value;
  else if (Array.isArray(node)) node[last as number] = NEVER;
  else delete (node as Record<string, Tree>)[last as string];
  return true;
}

/** The SDK type a frame is checked against (names from {@linkcode PRELUDE}). */
export function typeFor(frame: Record<string, unknown>): string {
  const lit = (v: unknown) => typeof v === "string" ? JSON.stringify(v) : "undefined";
  if (typeof frame.type !== "string") return "never";
  if (frame.type === "control_request") {
    return `Req<${lit((frame.request as { subtype?: unknown } | undefined)?.subtype)}>`;
  }
  return `Msg<${lit(frame.type)}, ${lit(frame.subtype)}>`;
}

/**
 * The helper types: `Out` is all the CLI may write, as the SDK's `Transport` reads it; `Msg`
 * and `Req` pick a frame's type; `F`, `E` and `Nr` walk into a type (a field, an element, the
 * union member a `type`/`subtype` names, or `unknown` when none has that name); `Keys` are the
 * fields a type has (any, when it is open: `unknown`, a record, `{}`).
 */
const PRELUDE =
  `type Out = Sdk.Transport["readMessages"] extends () => AsyncGenerator<infer T, unknown, unknown>
  ? T
  : never;
type Pick1<M, T, S> = M extends { type: T }
  ? M extends { subtype: infer X } ? ([S] extends [X] ? M : never) : [S] extends [undefined] ? M : never
  : never;
type Msg<T extends string, S extends string | undefined> = Pick1<Out, T, S>;
type CReq = Extract<Out, { type: "control_request" }>;
type Inner<M, S> = M extends { subtype: infer X } ? ([S] extends [X] ? M : never) : never;
type Req<S extends string | undefined> = CReq & { request: Inner<CReq["request"], S> };
type F<T, K> = T extends unknown ? (K extends keyof T ? NonNullable<T[K]> : never) : never;
type E<T> = T extends readonly (infer X)[] ? NonNullable<X> : never;
type Nr1<T, K extends string, V> = T extends { [P in K]: infer X } ? ([V] extends [X] ? T : never)
  : never;
type Nr<T, K extends string, V> = [Nr1<T, K, V>] extends [never]
  ? ([T] extends [{ [P in K]: unknown }] ? unknown : T)
  : Nr1<T, K, V>;
type Open<K> = [K] extends [never] ? string : K;
type Keys1<T> = unknown extends T ? string
  : T extends object ? (T extends readonly unknown[] ? never : Open<keyof T>)
  : never;
type Keys<T> = Open<Keys1<T>>;
`;

/** One checked frame (or one object's fields) in the generated source. */
export interface Block {
  /** The caller's id for the frame. */
  id: number;
  /** Whether this block checks an object's field names (a line per field) or the frame. */
  keys: boolean;
  /** 1-based line where the block starts in the source. */
  start: number;
  /** The JSON path of each line from `start` on. */
  paths: Step[][];
}

/** A frame to check: the caller's id, the frame, its SDK type, and whether to check names. */
export interface CheckedFrame {
  /** The caller's id. */
  id: number;
  /** The frame (as normalized). */
  tree: Tree;
  /** Its SDK type (from {@linkcode typeFor}). */
  type: string;
  /** Whether to check every object's field names too (a line per field). */
  keys: boolean;
}

/** The source that checks `frames` against the SDK imported from `sdk`, and where each is. */
export function checkSource(
  frames: readonly CheckedFrame[],
  sdk: string,
): { source: string; blocks: Block[] } {
  const lines = [
    "// Generated by claude-mock drift: tape frames typed as the Agent SDK types them.",
    `import type * as Sdk from ${JSON.stringify(sdk)};`,
    ...PRELUDE.trimEnd().split("\n"),
  ];
  const blocks: Block[] = [];
  for (const { id, tree, type, keys } of frames) {
    const paths: Step[][] = [];
    const body: string[] = [];
    print(tree, [], "", body, paths);
    body[0] = `const f${id}: ${type} = ${body[0]}`;
    body[body.length - 1] += ";";
    blocks.push({ id, keys: false, start: lines.length + 1, paths });
    lines.push(...body);
    if (keys) fieldChecks(id, tree, type, lines, blocks);
  }
  return { source: `${lines.join("\n")}\nexport {};\n`, blocks };
}

/** The type of a value at a path step, narrowed by the value's own `type` and `subtype`. */
function stepType(parent: string, step: Step, value: Tree): string {
  let type = typeof step === "number" ? `E<${parent}>` : `F<${parent}, ${JSON.stringify(step)}>`;
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const k of ["type", "subtype"]) {
      const v = (value as Record<string, Tree>)[k];
      if (typeof v === "string") type = `Nr<${type}, "${k}", ${JSON.stringify(v)}>`;
    }
  }
  return type;
}

/** A block per object of `tree` saying each of its field names must be one its type has. */
function fieldChecks(id: number, tree: Tree, type: string, lines: string[], blocks: Block[]) {
  let n = 0;
  const visit = (value: Tree, path: Step[], alias: string) => {
    if (value === null || typeof value !== "object") return;
    const entries: Array<[Step, Tree]> = Array.isArray(value)
      ? value.map((v, i) => [i, v])
      : Object.entries(value);
    if (!Array.isArray(value) && entries.length > 0) {
      const paths: Step[][] = [path];
      lines.push(`const k${id}_${n++}: Keys<${alias}>[] = [`);
      for (const [key] of entries) {
        lines.push(`  ${JSON.stringify(key)},`);
        paths.push([...path, key]);
      }
      lines.push("];");
      paths.push(path);
      blocks.push({ id, keys: true, start: lines.length - paths.length + 1, paths });
    }
    for (const [step, v] of entries) {
      if (v === null || typeof v !== "object") continue;
      const child = `T${id}_${n++}`;
      lines.push(`type ${child} = ${stepType(alias, step, v)};`);
      blocks.push({ id, keys: true, start: lines.length, paths: [[...path, step]] });
      visit(v, [...path, step], child);
    }
  };
  lines.push(`type T${id}_root = ${type};`);
  blocks.push({ id, keys: true, start: lines.length, paths: [[]] });
  visit(tree, [], `T${id}_root`);
}

/** Prints `value` one property or element per line, recording each line's path. */
function print(value: Tree, path: Step[], indent: string, out: string[], paths: Step[][]): void {
  const open = (text: string) => {
    out.push(text);
    paths.push(path);
  };
  if (value === NEVER) return void open("(null as never)");
  if (value === null || typeof value !== "object") return void open(JSON.stringify(value));
  const entries: Array<[Step, Tree]> = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value);
  if (entries.length === 0) return void open(Array.isArray(value) ? "[]" : "{}");
  open(Array.isArray(value) ? "[" : "{");
  const inner = `${indent}  `;
  for (const [step, v] of entries) {
    const from = out.length;
    print(v, [...path, step], inner, out, paths);
    const key = typeof step === "number" ? "" : `${JSON.stringify(step)}: `;
    out[from] = `${inner}${key}${out[from]}`;
    out[out.length - 1] += ",";
  }
  out.push(`${indent}${Array.isArray(value) ? "]" : "}"}`);
  paths.push(path);
}
