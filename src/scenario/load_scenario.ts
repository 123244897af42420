/**
 * {@linkcode loadScenario}: reads a scenario file (a path or a URL) into a
 * {@linkcode Scenario}.
 *
 * @module
 */

import { utf8Text } from "../wire/_utf8.ts";
import { sourceSuffix } from "./_checks.ts";
import { duplicateKey } from "./_duplicate_key.ts";
import type { Scenario } from "./scenario.ts";
import { scenarioFromJSON } from "./scenario_from_json.ts";
import { builtinFromReference, isBuiltinReference } from "./_builtin_reference.ts";
import { realTimeout } from "../timing/real_time.ts";

/** Options for {@linkcode loadScenario}. */
export interface LoadScenarioOptions {
  /**
   * Real milliseconds a URL's server has to give the whole file (default 30 000): past it
   * the load fails with an error naming the URL, rather than waiting forever.
   */
  timeoutMs?: number;
}

/**
 * Reads a scenario file and makes its {@linkcode Scenario} with
 * {@linkcode scenarioFromJSON}. A `string` without a scheme is a file path; a `file:` URL
 * (string or `URL`) is read from disk, any other URL (`http:`, `https:`, `data:`) with
 * `fetch`; `builtin:<name>` is a predefined scenario (`builtinScenario`), and an
 * unknown name a `RangeError` listing the names. Errors name the file: text that is not JSON throws a `SyntaxError` with the
 * line and column, a file that does not fit the format the error `scenarioFromJSON`
 * throws (naming the JSON path), a file that cannot be read an `Error` whose `cause` is
 * the reader's error. Works in Deno and in Node.
 *
 * @example Loading a file
 * ```ts
 * import { loadScenario } from "@x/claude-mock";
 * import { Session } from "@x/claude-mock/session";
 * const path = await Deno.makeTempFile({ suffix: ".json" });
 * await Deno.writeTextFile(path, JSON.stringify({
 *   name: "chat",
 *   exchanges: [{ on: "hello", steps: [{ say: "Hello!" }] }],
 * }));
 * const scenario = await loadScenario(path);
 * await Deno.remove(path);
 * console.log(scenario.name, new Session(scenario).scenario === scenario); // chat true
 * ```
 *
 * @example A predefined scenario
 * ```ts
 * import { loadScenario } from "@x/claude-mock";
 * const scenario = await loadScenario("builtin:multi_tool");
 * console.log(scenario.name); // multi_tool
 * ```
 *
 * @example Text that is not JSON
 * ```ts
 * import { loadScenario } from "@x/claude-mock";
 * const url = "data:application/json," + encodeURIComponent('{\n  "name": "x",\n  exchanges: []\n}');
 * try {
 *   await loadScenario(url);
 * } catch (error) {
 *   console.log(error instanceof SyntaxError); // true
 *   // Cannot load scenario: invalid JSON at line 3, column 3: Expected double-quoted
 *   // property name (in a data: URL)
 * }
 * ```
 */
export async function loadScenario(
  pathOrUrl: string | URL,
  options: LoadScenarioOptions = {},
): Promise<Scenario> {
  if (isBuiltinReference(pathOrUrl)) return builtinFromReference(String(pathOrUrl));
  const url = asUrl(pathOrUrl);
  const source = url?.protocol === "data:" ? "a data: URL" : String(pathOrUrl);
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new RangeError(
      `Cannot load scenario: 'timeoutMs' must be a number of ms above 0, got ${timeoutMs}`,
    );
  }
  let text: string;
  try {
    text = url && url.protocol !== "file:"
      ? await fetchText(url, timeoutMs)
      : await readTextFile(url ?? String(pathOrUrl));
  } catch (error) {
    throw new Error(
      `Cannot load scenario: cannot read ${source} (${(error as Error).message})`,
      { cause: error },
    );
  }
  return scenarioFromJSON(parseJson(text, source), { source });
}

/** A URL if `value` is one (a scheme of two letters or more: `C:\...` is a path). */
function asUrl(value: string | URL): URL | undefined {
  if (value instanceof URL) return value;
  if (typeof value !== "string") {
    throw new TypeError(
      `Cannot load scenario: expected a file path or URL, got ${
        value === null ? "null" : typeof value
      }`,
    );
  }
  if (value === "") throw new TypeError("Cannot load scenario: the path is empty");
  return /^[a-z][a-z0-9+.-]+:/i.test(value) ? new URL(value) : undefined;
}

/**
 * GETs `url`'s text within `timeoutMs` of real time (answer and body): a server that
 * accepts the connection and never answers is an error, not a hang.
 */
async function fetchText(url: URL, timeoutMs: number): Promise<string> {
  const controller = new AbortController();
  const cancel = realTimeout(
    () => controller.abort(new Error(`no complete answer within ${timeoutMs} ms of real time`)),
    timeoutMs,
  );
  try {
    const response = await fetch(url, { signal: controller.signal });
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`GET answered ${response.status} ${response.statusText}`.trim());
    }
    return utf8Text(new Uint8Array(await response.arrayBuffer()));
  } catch (error) {
    throw controller.signal.aborted ? controller.signal.reason : error;
  } finally {
    cancel();
  }
}

/** The runtime seam: Deno's reader, else Node's `fs/promises` (both take a path or a file URL). */
async function readTextFile(path: string | URL): Promise<string> {
  const deno = (globalThis as {
    Deno?: { readFile?: (path: string | URL) => Promise<Uint8Array> };
  }).Deno;
  if (deno?.readFile) return utf8Text(await deno.readFile(path));
  const fs = await import("node:fs/promises");
  return utf8Text(new Uint8Array(await fs.readFile(path)));
}

/**
 * `JSON.parse`, with a `SyntaxError` naming the line and column of the problem; a member name
 * an object repeats is one too (`JSON.parse` would keep the last and drop the other unseen).
 */
function parseJson(text: string, source: string): unknown {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch (error) {
    const message = (error as Error).message;
    const at = /\(line (\d+) column (\d+)\)/.exec(message);
    const position = /at position (\d+)/.exec(message);
    const [line, column] = at
      ? [Number(at[1]), Number(at[2])]
      : lineColumn(body, position ? Number(position[1]) : errorOffset(body));
    // V8 adds the position, or a quoted excerpt of the text: the line and column say where.
    const reason = message.replace(/,? (in JSON )?at position \d+.*$/s, "")
      .replace(/, (\.\.\.)?".*" is not valid JSON$/s, "")
      .replace(/^JSON\.parse: /, "");
    throw new SyntaxError(
      `Cannot load scenario: invalid JSON at line ${line}, column ${column}: ${reason}${
        sourceSuffix(source)
      }`,
      { cause: error },
    );
  }
  const repeated = duplicateKey(body);
  if (repeated !== undefined) {
    const [line, column] = lineColumn(body, repeated.offset);
    const where = repeated.path === "" ? "the top object" : `'${repeated.path}'`;
    throw new SyntaxError(
      `Cannot load scenario: ${where} has the member ${
        JSON.stringify(repeated.key)
      } twice (the second at line ${line}, column ${column}): JSON keeps only the last${
        sourceSuffix(source)
      }`,
    );
  }
  return data;
}

/**
 * Where JSON text first goes wrong (for engines whose message has no position): a small
 * scan of the JSON grammar that stops at the first character it cannot accept.
 */
function errorOffset(text: string): number {
  let i = 0;
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const expect = (c: string) => text[i] === c ? i++ : fail();
  const string = () => {
    expect('"');
    while (i < text.length && text[i] !== '"') {
      if (text[i] < " ") fail();
      if (text[i] === "\\") {
        i++;
        if (text[i] === "u") {
          for (let k = 1; k <= 4; k++) if (!/[0-9a-f]/i.test(text[i + k] ?? "")) fail();
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? "x")) fail();
      }
      i++;
    }
    expect('"');
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === "{") {
      i++;
      space();
      if (text[i] === "}") return void i++;
      for (;;) {
        space();
        string();
        space();
        expect(":");
        value();
        space();
        if (text[i] === ",") i++;
        else return void expect("}");
      }
    }
    if (c === "[") {
      i++;
      space();
      if (text[i] === "]") return void i++;
      for (;;) {
        value();
        space();
        if (text[i] === ",") i++;
        else return void expect("]");
      }
    }
    if (c === '"') return string();
    const literal = /^(true|false|null|-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?)/.exec(text.slice(i));
    if (!literal) fail();
    i += literal![0].length;
  };
  try {
    value();
    space();
    return i;
  } catch (offset) {
    if (typeof offset !== "number") throw offset;
    return offset;
  }
}

function lineColumn(text: string, offset: number): [number, number] {
  const before = text.slice(0, offset).split("\n");
  return [before.length, before[before.length - 1].length + 1];
}
