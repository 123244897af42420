/**
 * Explained differences: named, reasoned exceptions, as data, that say which differences
 * between the mock and the real CLI are legitimate (what the two runs cannot share, such as
 * where an interrupt lands in a stream). An exception matches a difference by case, mode, SDK
 * version, frame kind, difference type and key path (globs), and optionally by the two values.
 *
 * @module
 */

import { readJsonFile } from "./_json_file.ts";
import type { Difference } from "./_compare.ts";

/** One named, reasoned exception. */
export interface ConformException {
  /** A short name, reported with each difference it explains. */
  name: string;
  /** Why the difference is legitimate (required: an exception without a reason is refused). */
  reason: string;
  /** Case names it applies to (a glob; default every case). */
  case?: string;
  /** Modes (`duplex`, `print:text`, `print:json`, `print:stream-json`; a glob; default all). */
  mode?: string;
  /** SDK versions (a glob; default all). */
  sdk?: string;
  /** Frame kinds (`cli->sdk assistant`, `stderr`, `exit`; a glob; default all). */
  kind?: string;
  /** Difference types (`missing`, `extra`, `keys`, `value`, `exit`, `stderr`, `stdout`). */
  type?: Difference["type"] | Array<Difference["type"]>;
  /** Key paths (a glob: `*` within a segment, `**` across segments; default all). */
  path?: string;
  /** Only when the mock's value is this (compared as JSON). */
  mock?: unknown;
  /** Only when the real CLI's value is this (compared as JSON). */
  real?: unknown;
}

/** Where a difference was found. */
export interface DifferenceContext {
  /** The case's name. */
  case: string;
  /** The mode. */
  mode: string;
  /** The SDK version. */
  sdk: string;
}

const FIELDS = new Set([
  "name",
  "reason",
  "case",
  "mode",
  "sdk",
  "kind",
  "type",
  "path",
  "mock",
  "real",
]);

/**
 * Loads an exceptions file: a JSON array of exceptions (or `{ "exceptions": [...] }`), each
 * with a unique `name` and a non-empty `reason`.
 *
 * @throws {TypeError} A malformed file, naming the entry and field.
 *
 * @example Loading a file
 * ```ts
 * import { loadConformExceptions } from "@x/claude-mock/cli";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/exceptions.json`, JSON.stringify([{
 *   name: "interrupt-point",
 *   reason: "Where an interrupt lands in a streamed reply depends on real time.",
 *   case: "interrupt*",
 * }]));
 * console.log((await loadConformExceptions(`${dir}/exceptions.json`))[0].name); // interrupt-point
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @example An exception
 * ```json
 * [{
 *   "name": "interrupt-point",
 *   "reason": "Where an interrupt lands in a streamed reply depends on real time.",
 *   "case": "interrupt*",
 *   "kind": "cli->sdk assistant",
 *   "path": "message.content.0.text"
 * }]
 * ```
 */
export async function loadConformExceptions(path: string): Promise<ConformException[]> {
  return checkExceptions(await readJsonFile(path, "the conformance exceptions"), path);
}

/** Checks parsed exceptions (see {@linkcode loadConformExceptions}). */
export function checkExceptions(data: unknown, source = "exceptions"): ConformException[] {
  const list = Array.isArray(data) ? data : typeof data === "object" && data !== null &&
      Array.isArray((data as { exceptions?: unknown }).exceptions)
    ? (data as { exceptions: unknown[] }).exceptions
    : undefined;
  if (!list) {
    throw new TypeError(`Cannot load the conformance exceptions ${source}: expected an array`);
  }
  const names = new Set<string>();
  return list.map((entry, i) => {
    const fail = (what: string): never => {
      throw new TypeError(`Cannot load the conformance exceptions ${source}: entry ${i} ${what}`);
    };
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      fail("must be an object");
    }
    const e = entry as Record<string, unknown>;
    for (const key of Object.keys(e)) if (!FIELDS.has(key)) fail(`has an unknown field '${key}'`);
    if (typeof e.name !== "string" || e.name === "") fail("needs a name");
    if (typeof e.reason !== "string" || e.reason.trim().length < 10) {
      fail(`('${e.name}') needs a reason: why the difference is legitimate`);
    }
    if (names.has(e.name as string)) fail(`repeats the name '${e.name}'`);
    names.add(e.name as string);
    for (const key of ["case", "mode", "sdk", "kind", "path"]) {
      if (e[key] !== undefined && typeof e[key] !== "string") {
        fail(`('${e.name}'): '${key}' must be a string`);
      }
    }
    return e as unknown as ConformException;
  });
}

/** The name of the first exception that explains `difference`, if one does. */
export function explain(
  difference: Difference,
  context: DifferenceContext,
  exceptions: readonly ConformException[],
): string | undefined {
  for (const e of exceptions) {
    if (e.case !== undefined && !glob(e.case, context.case)) continue;
    if (e.mode !== undefined && !glob(e.mode, context.mode)) continue;
    if (e.sdk !== undefined && !glob(e.sdk, context.sdk)) continue;
    if (e.kind !== undefined && !glob(e.kind, difference.kind)) continue;
    if (
      e.type !== undefined && !(Array.isArray(e.type) ? e.type : [e.type]).includes(difference.type)
    ) {
      continue;
    }
    if (e.path !== undefined && !glob(e.path, difference.path ?? "", true)) continue;
    if ("mock" in e && JSON.stringify(e.mock) !== JSON.stringify(difference.mock)) continue;
    if ("real" in e && JSON.stringify(e.real) !== JSON.stringify(difference.real)) continue;
    return e.name;
  }
  return undefined;
}

/** Whether `text` matches `pattern` (`*`: any run, within a path segment when `dotted`; `**`: any). */
export function glob(pattern: string, text: string, dotted = false): boolean {
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "*" && pattern[i + 1] === "*") {
      re += ".*";
      i++;
    } else if (c === "*") re += dotted ? "[^.]*" : ".*";
    else if (c === "?") re += ".";
    else re += c.replace(/[\\^$.|+()[\]{}]/g, "\\$&");
  }
  return new RegExp(`^${re}$`).test(text);
}
