/**
 * Drift: whether the frames of tapes still fit the Agent SDK's types — checked by the
 * TypeScript compiler itself, against the installed SDK's `.d.ts`.
 *
 * @module
 */

import {
  type Block,
  checkSource,
  formatPath,
  NEVER,
  normalizeFrame,
  setAt,
  type Step,
  type Tree,
  typeFor,
} from "./_drift_source.ts";
import type { Tape, TapeDirection } from "./tape.ts";

/** What kind of drift a finding is. */
export type DriftCode =
  | "parse-error"
  | "unknown-kind"
  | "dropped-content"
  | "unmodeled-field"
  | "missing-field"
  | "type-mismatch";

/** One frame that does not fit the SDK's types, and how. */
export interface DriftFinding {
  /** The tape's `source` (its path), when it has one. */
  source?: string;
  /** The frame's line in the tape (0 when built in memory). */
  line: number;
  /** The frame's kind: `assistant`, `system/init`, `control_request/can_use_tool`, … */
  kind: string;
  /** What kind of drift. */
  code: DriftCode;
  /** Where in the frame (`message.content[0].citations`), `""` for the frame itself. */
  path: string;
  /** What the type checker said (or why the line is not a frame). */
  message: string;
}

/** A type checker's diagnostic about the source it was given (1-based positions). */
export interface TypeDiagnostic {
  /** The line. */
  line: number;
  /** The column. */
  column: number;
  /** The TypeScript error code (`2353`, …). */
  code: number;
  /** The message's lines, the first being the headline (elaborations follow). */
  message: string;
}

/**
 * Type-checks one TypeScript module's source and resolves with its diagnostics (none when it
 * checks). It must reject when it cannot check at all. The `drift` subcommand's checker runs
 * `deno check` in a subprocess.
 */
export type TypeChecker = (source: string) => Promise<TypeDiagnostic[]>;

/** How {@linkcode driftCheck} checks. */
export interface DriftOptions {
  /** The type checker (see {@linkcode TypeChecker}). */
  typeCheck: TypeChecker;
  /**
   * The module the generated source imports the SDK's types from, as the checker resolves it.
   * Default `"@anthropic-ai/claude-agent-sdk"`.
   */
  sdk?: string;
  /** Which directions to check. Default `["cli->sdk"]` (what the SDK parses). */
  directions?: readonly TapeDirection[];
  /**
   * At most this many checker runs. A run reports about one problem per frame; the next run
   * checks the frames again with what was reported taken out. Default 8.
   */
  rounds?: number;
}

/** A distinct frame shape and where it occurs. */
interface Shape {
  tree: Tree;
  type: string;
  kind: string;
  at: Array<{ source?: string; line: number }>;
  found: Array<{ code: DriftCode; path: string; message: string }>;
  done: boolean;
}

/** A frame's kind as shown: its type and its subtype (or request, response or event type). */
function frameKind(frame: Record<string, unknown>): string {
  const sub = (v: unknown) => (v as { subtype?: unknown; type?: unknown } | undefined);
  const subtype = frame.subtype ?? sub(frame.request)?.subtype ?? sub(frame.response)?.subtype ??
    (frame.type === "stream_event" ? sub(frame.event)?.type : undefined);
  return typeof subtype === "string" ? `${frame.type}/${subtype}` : String(frame.type);
}

/**
 * Checks each frame of `tapes` against the Agent SDK's types by type-checking: every distinct
 * frame (frames equal but for ids, long texts and numbers are checked once) becomes a `const`
 * annotated with the SDK's type for its kind (its `SDKMessage` member by `type`/`subtype`,
 * `SDKControlRequest` narrowed by the request's `subtype`, `SDKControlResponse`, … — all
 * taken from what the SDK's `Transport` reads), and `options.typeCheck` checks the lot in one
 * run; each object's field names are checked too, so every unmodeled field shows at once.
 * The diagnostics map back to tape lines and JSON paths: `unknown-kind` (no SDK type for this
 * frame's `type`/`subtype`), `dropped-content` (a content block, stream event, delta … whose
 * `type` the SDK's types do not have, so an app typed on them drops it), `unmodeled-field` (a
 * field the SDK's type does not have), `missing-field` (a field it requires), `type-mismatch`,
 * and `parse-error` for lines that are not JSON. A run reports about one problem per frame
 * object, so frames with findings are checked again, with what was found taken out, until
 * nothing new turns up.
 *
 * Rejects with an `Error` when the checker cannot run, or reports a problem outside the frames
 * (the SDK's types did not load).
 *
 * @example Drift found by a checker (here a stand-in that flags the `"mesage"` line)
 * ```ts
 * import { driftCheck, type Tape, type TypeChecker } from "@x/claude-mock/cassette";
 * const tape: Tape = {
 *   header: { version: 1 },
 *   entries: [{ t: 0, dir: "cli->sdk", line: 7, frame: { type: "assistant", mesage: {} } }],
 *   source: "hello.jsonl",
 * };
 * const typeCheck: TypeChecker = (source) => {
 *   const line = source.split("\n").findIndex((l) => l.includes('"mesage"')) + 1;
 *   return Promise.resolve(line === 0 ? [] : [{
 *     line,
 *     column: 3,
 *     code: 2353,
 *     message: "Object literal may only specify known properties, and '\"mesage\"' does not exist in type 'SDKAssistantMessage'.",
 *   }]);
 * };
 * const [finding] = await driftCheck(tape, { typeCheck });
 * console.log(finding.source, finding.line, finding.kind, finding.code, finding.path);
 * // hello.jsonl 7 assistant unmodeled-field mesage
 * ```
 */
export async function driftCheck(
  tapes: Tape | readonly Tape[],
  options: DriftOptions,
): Promise<DriftFinding[]> {
  const list: readonly Tape[] = Array.isArray(tapes) ? tapes : [tapes as Tape];
  const rounds = options.rounds ?? 8;
  if (!Number.isInteger(rounds) || rounds < 1) {
    throw new RangeError(`Cannot check drift: rounds must be a positive integer, not ${rounds}`);
  }
  const { shapes, findings } = shapesOf(list, options.directions ?? ["cli->sdk"]);
  const sdk = options.sdk ?? "@anthropic-ai/claude-agent-sdk";
  for (let round = 0; round < rounds; round++) {
    const pending = shapes.map((shape, id) => ({ shape, id })).filter(({ shape }) => !shape.done);
    if (pending.length === 0) break;
    const { source, blocks } = checkSource(
      pending.map(({ shape, id }) => ({
        id,
        tree: shape.tree,
        type: shape.type,
        keys: round === 0,
      })),
      sdk,
    );
    const located = (await options.typeCheck(source)).map((d) => locate(d, { blocks, sdk }));
    const touched = takeFieldNames(located, shapes);
    takeDiagnostics(located, { shapes, pending, touched });
    for (const { shape } of pending) if (!touched.has(shape)) shape.done = true;
  }
  for (const shape of shapes) {
    for (const at of shape.at) {
      for (const f of shape.found) findings.push({ ...at, kind: shape.kind, ...f });
    }
  }
  const order = new Map(list.map((t, i) => [t.source, i]));
  return findings.sort((a, b) =>
    (order.get(a.source) ?? 0) - (order.get(b.source) ?? 0) || a.line - b.line
  );
}

/**
 * The distinct frame shapes of the tapes in `directions`, each with the lines it occurs at;
 * a line that is not a JSON object is a `parse-error` finding.
 */
function shapesOf(
  tapes: readonly Tape[],
  directions: readonly TapeDirection[],
): { shapes: Shape[]; findings: DriftFinding[] } {
  const findings: DriftFinding[] = [];
  const shapes = new Map<string, Shape>();
  for (const tape of tapes) {
    for (const entry of tape.entries) {
      if (entry.dir === "stderr" || !directions.includes(entry.dir)) continue;
      const at = {
        ...(tape.source !== undefined ? { source: tape.source } : {}),
        line: entry.line,
      };
      if ("raw" in entry) {
        findings.push({
          ...at,
          kind: "raw",
          code: "parse-error",
          path: "",
          message: `The ${entry.dir} line is not a JSON object: ${entry.raw.slice(0, 60)}`,
        });
        continue;
      }
      const tree = normalizeFrame(entry.frame);
      const key = JSON.stringify(tree);
      const shape = shapes.get(key);
      if (shape) shape.at.push(at);
      else {
        const type = typeFor(entry.frame);
        shapes.set(key, {
          tree,
          type,
          kind: frameKind(entry.frame),
          at: [at],
          found: [],
          done: false,
        });
      }
    }
  }
  return { shapes: [...shapes.values()], findings };
}

/** A diagnostic with the block (the frame) and the JSON path it is about. */
interface Located {
  d: TypeDiagnostic;
  block: Block;
  path: Step[];
}

/** Where a diagnostic is; one outside the frames means the check itself failed. */
function locate(d: TypeDiagnostic, { blocks, sdk }: { blocks: Block[]; sdk: string }): Located {
  const block = blockAt(blocks, d.line);
  if (!block) {
    throw new Error(
      `Cannot check drift: the type checker reports TS${d.code} outside the frames (line ${d.line}): ${
        d.message.split("\n")[0]
      } (did the SDK's types load from "${sdk}"?)`,
    );
  }
  return { d, block, path: block.paths[d.line - block.start] ?? [] };
}

/**
 * The diagnostics about field names (the first round checks each object's keys): every
 * unmodeled field at once, each taken out of its frame. Returns the paths taken, by shape.
 */
function takeFieldNames(
  located: readonly Located[],
  shapes: readonly Shape[],
): Map<Shape, Step[][]> {
  const touched = new Map<Shape, Step[][]>();
  for (const { d, block, path } of located.filter((l) => l.block.keys)) {
    const first = d.line === block.start || d.line === block.start + block.paths.length - 1;
    if (first || block.paths.length === 1) continue; // not about a field name
    const shape = shapes[block.id];
    shape.found.push({
      code: "unmodeled-field",
      path: formatPath(path),
      message: noField(d, path),
    });
    setAt(shape.tree, path, undefined);
    touched.set(shape, [...touched.get(shape) ?? [], path]);
  }
  return touched;
}

/**
 * The other diagnostics: each a finding, and what it is about taken out of the frame (a field
 * removed, a value made `never`) for the next round; a shape that makes no progress is done.
 */
function takeDiagnostics(
  located: readonly Located[],
  { shapes, pending, touched }: {
    shapes: readonly Shape[];
    pending: ReadonlyArray<{ shape: Shape }>;
    touched: Map<Shape, Step[][]>;
  },
): void {
  const before = new Map(pending.map(({ shape }) => [shape, shape.found.length]));
  for (const { d, block, path: at } of located.filter((l) => !l.block.keys)) {
    const shape = shapes[block.id];
    const finding = classify(d, at);
    const path = formatPath(finding.path);
    const handled = touched.get(shape) ?? [];
    touched.set(shape, handled);
    // a diagnostic about (or inside) a value already reported this run is its echo
    if (handled.some((p) => within(p, finding.path))) continue;
    const known = shape.found.findIndex((f) => f.code === finding.code && f.path === path);
    if (known >= 0 && known < (before.get(shape) ?? 0)) {
      shape.done = true; // no progress: the same finding as a run before
      continue;
    }
    handled.push(finding.path);
    if (known < 0) shape.found.push({ ...finding, path });
    if (finding.code === "unknown-kind" && finding.path.length === 0) shape.done = true;
    else if (finding.code === "unmodeled-field") {
      if (!setAt(shape.tree, finding.path, undefined)) shape.done = true;
    } else if (!setAt(shape.tree, finding.path, NEVER)) shape.done = true;
  }
}

/** Whether `path` is `outer` or inside it. */
const within = (outer: readonly Step[], path: readonly Step[]) =>
  outer.length <= path.length && outer.every((step, i) => path[i] === step);

/** The block holding source line `line`. */
function blockAt(blocks: readonly Block[], line: number): Block | undefined {
  let lo = 0;
  let hi = blocks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const b = blocks[mid];
    if (line < b.start) hi = mid - 1;
    else if (line >= b.start + b.paths.length) lo = mid + 1;
    else return b;
  }
  return undefined;
}

/** Shortens a TypeScript message's quoted types: `'{ a: string; … }'` → `'{…}'`, long ones cut. */
const shorten = (text: string) =>
  text.replace(
    /'(\{[^']*\}|[^']{120,})'/g,
    (_m, t: string) => t.startsWith("{") ? "'{…}'" : `'${t.slice(0, 60)}…'`,
  );

/** The message for a field name its type does not have (`Type '"x"' is not assignable …`). */
function noField(d: TypeDiagnostic, path: readonly Step[]): string {
  const name = JSON.stringify(String(path[path.length - 1]));
  const m = /is not assignable to type '(.*?)'\.(?: Did you mean '"?(.*?)"?'\?)?$/
    .exec(d.message.split("\n")[0]);
  const target = m?.[1] ?? "";
  const hint = m?.[2] ? ` (did you mean ${JSON.stringify(m[2])}?)` : "";
  const owner = /^keyof (\w+)$/.exec(target)?.[1];
  if (owner) return `The SDK's ${owner} has no field ${name}${hint}`;
  const fields = target.length > 100 ? `${target.slice(0, 100)}…` : target;
  return `The SDK's type has no field ${name}${hint || ` (its fields: ${fields})`}`;
}

/** TypeScript's "Object literal may only specify known properties" (a field the type lacks). */
const TS_EXCESS_PROPERTY = 2353;

/** TypeScript's "Property … is missing in type", "Type … is missing the following properties". */
const TS_MISSING_PROPERTIES: readonly number[] = [2739, 2740, 2741];

/** What a diagnostic at `path` means. */
function classify(
  d: TypeDiagnostic,
  path: Step[],
): { code: DriftCode; path: Step[]; message: string } {
  const lines = d.message.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  const headline = lines[0] ?? "";
  const detail = lines.at(-1) ?? headline;
  const message = shorten(detail);
  if (d.code === TS_EXCESS_PROPERTY) {
    const key = /known properties, and '"?([^"']+)"?' does not exist/.exec(headline)?.[1];
    const last = path[path.length - 1];
    const at = key !== undefined && last !== key ? [...path, key] : path;
    return { code: "unmodeled-field", path: at, message };
  }
  if (/to type 'never'/.test(headline)) {
    return {
      code: "unknown-kind",
      path,
      message: `The SDK's types have no such frame: ${message}`,
    };
  }
  const last = path[path.length - 1];
  const literal = /^Type '"([^"]*)"' is not assignable to type '("[^']*)'\.$/.exec(headline);
  if (literal && (last === "type" || last === "subtype") && path.length > 1) {
    const known = literal[2].length > 100 ? `${literal[2].slice(0, 100)}…` : literal[2];
    return {
      code: "dropped-content",
      path: path.slice(0, -1),
      message: `The SDK's types have no ${last} "${literal[1]}" here (they have ${known})`,
    };
  }
  if (
    TS_MISSING_PROPERTIES.includes(d.code) ||
    /is missing in type|missing the following/.test(detail)
  ) {
    return { code: "missing-field", path, message };
  }
  return { code: "type-mismatch", path, message };
}
