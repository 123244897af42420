/**
 * `claude-mock drift <tapes or folders…>`: checks every frame of the tapes against the
 * installed Agent SDK's types (`deno check` on generated TypeScript, see `driftCheck`) and
 * prints what does not fit, per tape. A baseline file lists known findings that do not fail.
 *
 * @module
 */

import { driftCheck, type DriftFinding, type TypeChecker } from "../cassette/drift.ts";
import { loadTape } from "../cassette/load_tape.ts";
import type { Tape, TapeDirection } from "../cassette/tape.ts";
import { denoTypeChecker } from "./_deno_check.ts";
import { fileTime, readDir, readText, writeWhole } from "../host/_fs.ts";
import { onDeno } from "../host/_process.ts";
import { projectTypescript, tscTypeChecker } from "./_tsc_check.ts";
import type { CliIO } from "./cli_io.ts";

/** The usage text of `drift`. */
const DRIFT_USAGE: string = `Usage: claude-mock drift [options] <tape or folder>...

Type-checks every CLI->SDK frame of the tapes against the installed Agent SDK's types
(generated TypeScript, checked by deno check on Deno; on Node by the project's TypeScript,
else by deno from PATH) and prints each frame that does not fit: tape:line, frame kind, what
drifted. A folder means its *.jsonl tapes (not *.messages.jsonl).
Exit 0 when nothing new drifted, 1 on drift, 2 for no tapes, a bad command line, or a check
that could not run.
  --baseline <file>      known findings (JSON) that do not fail the run
  --update-baseline      write the current findings to the --baseline file, exit 0
  --sdk <specifier>      where the SDK's types come from (default: @anthropic-ai/claude-agent-sdk,
                         resolved from the working directory)
  --config <deno.json>   the config deno check resolves the SDK with (deno check only)
  --both-directions      check SDK->CLI frames too
  -v, --verbose          print known findings too
  -h, --help             this text
`;

const encoder = new TextEncoder();

interface DriftArgs {
  paths: string[];
  baseline?: string;
  update: boolean;
  sdk?: string;
  config?: string;
  directions: TapeDirection[];
  verbose: boolean;
}

class UsageError extends Error {}

function parseDriftArgs(argv: readonly string[]): DriftArgs | "help" {
  const args: DriftArgs = { paths: [], update: false, directions: ["cli->sdk"], verbose: false };
  const valued: Record<string, "baseline" | "sdk" | "config"> = {
    "--baseline": "baseline",
    "--sdk": "sdk",
    "--config": "config",
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "-h" || arg === "--help") return "help";
    if (arg === "--") {
      args.paths.push(...argv.slice(i + 1));
      break;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const name = valued[flag];
    if (name !== undefined) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || value === "") throw new UsageError(`${flag} needs a value`);
      if (args[name] !== undefined) throw new UsageError(`${flag} is given twice`);
      args[name] = value;
    } else if (arg === "--update-baseline") args.update = true;
    else if (arg === "--both-directions") args.directions = ["cli->sdk", "sdk->cli"];
    else if (arg === "-v" || arg === "--verbose") args.verbose = true;
    else if (arg.startsWith("-") && arg !== "-") throw new UsageError(`unknown option ${arg}`);
    else args.paths.push(arg);
  }
  if (args.paths.length === 0) throw new UsageError("missing the tapes or folders to check");
  if (args.update && args.baseline === undefined) {
    throw new UsageError("--update-baseline needs --baseline <file>");
  }
  return args;
}

/** A relative path resolved against the working directory. */
function resolve(path: string, cwd: string): string {
  return path.startsWith("/") ? path : `${cwd.replace(/\/+$/, "")}/${path.replace(/^\.\//, "")}`;
}

/** The tapes the arguments name: files as they are, folders' `*.jsonl` (not `.messages.`). */
async function findTapes(paths: readonly string[], cwd: string): Promise<string[]> {
  const found: string[] = [];
  for (const path of paths) {
    const full = resolve(path, cwd);
    if (await fileTime(full) !== undefined) {
      found.push(path);
      continue;
    }
    let names: string[];
    try {
      names = await readDir(full);
    } catch {
      throw new UsageError(`${path} is neither a tape file nor a folder`);
    }
    const tapes = names.filter((n) => /\.(jsonl|ndjson)$/.test(n) && !/\.messages\.jsonl$/.test(n));
    for (const name of tapes.sort()) {
      const file = `${path.replace(/\/+$/, "")}/${name}`;
      if (await fileTime(resolve(file, cwd)) !== undefined) found.push(file);
    }
  }
  return [...new Set(found)];
}

/** A known finding in a baseline file: what it is, not where. */
interface KnownFinding {
  kind: string;
  code: string;
  /** The path with array indices as `[]`. */
  path: string;
  message: string;
  /** Why it is known (kept when the baseline is rewritten). */
  note?: string;
}

const keyOf = (f: { kind: string; code: string; path: string; message: string }) =>
  JSON.stringify([f.kind, f.code, f.path.replace(/\[\d+\]/g, "[]"), f.message]);

async function readBaseline(path: string): Promise<KnownFinding[]> {
  let text: string;
  try {
    text = await readText(path);
  } catch (error) {
    throw new Error(
      `Cannot read baseline ${path}: ${error instanceof Error ? error.message : error}`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new SyntaxError(`Cannot read baseline ${path}: not JSON (${(error as Error).message})`);
  }
  const findings = (data as { findings?: unknown } | null)?.findings;
  if (!Array.isArray(findings)) {
    throw new TypeError(`Cannot read baseline ${path}: no "findings" array`);
  }
  findings.forEach((f, i) => {
    for (const k of ["kind", "code", "path", "message"]) {
      if (typeof (f as Record<string, unknown>)?.[k] !== "string") {
        throw new TypeError(`Cannot read baseline ${path}: findings[${i}].${k} is not a string`);
      }
    }
  });
  return findings as KnownFinding[];
}

function baselineText(findings: readonly DriftFinding[], old: readonly KnownFinding[]): string {
  const notes = new Map(old.filter((k) => k.note).map((k) => [keyOf(k), k.note]));
  const known = new Map<string, KnownFinding>();
  for (const f of findings) {
    const key = keyOf(f);
    if (known.has(key)) continue;
    const note = notes.get(key);
    known.set(key, {
      kind: f.kind,
      code: f.code,
      path: f.path.replace(/\[\d+\]/g, "[]"),
      message: f.message,
      ...(note ? { note } : {}),
    });
  }
  const sorted = [...known.values()].sort((a, b) => keyOf(a) < keyOf(b) ? -1 : 1);
  return `${
    JSON.stringify(
      {
        about: "Known drift: frames of these tapes that the Agent SDK's types " +
          "do not model. `claude-mock drift --baseline <this file>` reports " +
          "them without failing; `--update-baseline` rewrites this file " +
          "(keeping notes).",
        findings: sorted,
      },
      null,
      2,
    )
  }\n`;
}

const line = (f: DriftFinding) =>
  `${f.source ?? "(tape)"}:${f.line}  ${f.kind}  ${f.code}${
    f.path ? ` at ${f.path}` : ""
  }: ${f.message}\n`;

/** Options of {@linkcode driftCommand} beyond the command line (for tests). */
export interface DriftCommandOptions {
  /**
   * The type checker; default `deno check` in the working directory on Deno, and on Node the
   * project's TypeScript, else `deno` from `PATH`.
   */
  typeCheck?: TypeChecker;
  /** The `PATH` to look for `deno` in on Node (default the process's). */
  path?: string;
}

/** Whether an executable `deno` is in one of `path`'s folders. */
async function denoOnPath(path: string): Promise<boolean> {
  for (const dir of path.split(":").filter((d) => d !== "")) {
    if (await fileTime(`${dir}/deno`) !== undefined) return true;
  }
  return false;
}

/** The type checker a run uses when none is given (see {@linkcode DriftCommandOptions}). */
async function defaultTypeChecker(
  cwd: string,
  config: string | undefined,
  path: string,
): Promise<TypeChecker> {
  const deno = () => denoTypeChecker({ cwd, ...(config !== undefined ? { config } : {}) });
  if (onDeno) return deno();
  const ts = await projectTypescript(cwd);
  if (ts) return tscTypeChecker(ts, cwd);
  if (await denoOnPath(path)) return deno();
  throw new Error(
    "no type checker: drift checks the tapes against the SDK's types with the project's " +
      `TypeScript or with deno, and found neither (typescript resolved from ${cwd}, deno on ` +
      "PATH); install TypeScript in the project (npm install --save-dev typescript) or put " +
      "deno on PATH",
  );
}

/**
 * The `drift` subcommand: finds the tapes, checks them with `driftCheck` in one batch, prints
 * the findings that the baseline does not know, tape by tape, and a summary line. Exit 0 when
 * nothing new drifted (or after `--update-baseline`), 1 on drift, 2 when no tapes are found,
 * for a wrong command line, an unreadable baseline, or when the check cannot run.
 *
 * @example Checking a tape with a stand-in type checker (the real one runs `deno check`)
 * ```ts
 * import { driftCommand } from "./drift_command.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(
 *   `${dir}/t.jsonl`,
 *   '{"version":1}\n{"t":3,"dir":"cli->sdk","frame":{"type":"result","subtype":"success"}}\n',
 * );
 * const out: string[] = [];
 * const sink = () =>
 *   new WritableStream<Uint8Array>({ write: (c) => void out.push(new TextDecoder().decode(c)) });
 * const io = {
 *   argv: [], env: {}, cwd: dir, stdin: new Blob([]).stream(), stdinIsTerminal: true,
 *   stdoutIsTerminal: false, stdout: sink(), stderr: sink(),
 * };
 * const code = await driftCommand(["."], io, { typeCheck: () => Promise.resolve([]) });
 * console.log(code, out.join("")); // 0 drift: no drift in 1 tape
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function driftCommand(
  argv: readonly string[],
  io: CliIO,
  options: DriftCommandOptions = {},
): Promise<number> {
  const out = io.stdout.getWriter();
  const err = io.stderr.getWriter();
  const say = (writer: WritableStreamDefaultWriter<Uint8Array>, text: string) =>
    writer.write(encoder.encode(text));
  try {
    let args: DriftArgs | "help";
    let files: string[];
    try {
      args = parseDriftArgs(argv);
      if (args === "help") {
        await say(out, DRIFT_USAGE);
        return 0;
      }
      files = await findTapes(args.paths, io.cwd);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      await say(err, `claude-mock drift: ${error.message}\n\n${DRIFT_USAGE}`);
      return 2;
    }
    if (files.length === 0) {
      await say(
        err,
        `claude-mock drift: no tapes found in ${
          args.paths.join(", ")
        } (a folder's tapes are its *.jsonl files, not *.messages.jsonl)\n`,
      );
      return 2;
    }
    let checked: { findings: DriftFinding[]; known: KnownFinding[] };
    try {
      checked = await checkTapes(files, { args, io, options });
    } catch (error) {
      await say(err, `claude-mock drift: ${error instanceof Error ? error.message : error}\n`);
      return 2;
    }
    const { findings, known } = checked;
    if (args.update && args.baseline !== undefined) {
      const text = baselineText(findings, known);
      await writeWhole(resolve(args.baseline, io.cwd), text);
      const count = (JSON.parse(text).findings as unknown[]).length;
      await say(out, `drift: wrote ${count} known findings to ${args.baseline}\n`);
      return 0;
    }
    const { text, code } = report(findings, { known, args, tapes: files.length });
    await say(out, text);
    return code;
  } finally {
    out.releaseLock();
    err.releaseLock();
  }
}

/** The tapes of `files`; one that cannot be read is a `parse-error` finding. */
async function loadTapes(
  files: readonly string[],
  cwd: string,
): Promise<{ tapes: Tape[]; broken: DriftFinding[] }> {
  const tapes: Tape[] = [];
  const broken: DriftFinding[] = [];
  for (const file of files) {
    try {
      tapes.push({ ...await loadTape(resolve(file, cwd)), source: file });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const at = Number(/\bline (\d+)/.exec(message)?.[1] ?? 0);
      broken.push({ source: file, line: at, kind: "tape", code: "parse-error", path: "", message });
    }
  }
  return { tapes, broken };
}

/**
 * Every finding of the tapes, in the order of the files and their lines, with the baseline's
 * known findings (none when `--update-baseline` makes the file).
 */
async function checkTapes(
  files: readonly string[],
  { args, io, options }: { args: DriftArgs; io: CliIO; options: DriftCommandOptions },
): Promise<{ findings: DriftFinding[]; known: KnownFinding[] }> {
  const { tapes, broken } = await loadTapes(files, io.cwd);
  const baseline = args.baseline !== undefined ? resolve(args.baseline, io.cwd) : undefined;
  let known: KnownFinding[] = [];
  if (baseline !== undefined && (!args.update || await fileTime(baseline) !== undefined)) {
    known = await readBaseline(baseline);
  }
  const typeCheck = options.typeCheck ??
    await defaultTypeChecker(
      io.cwd,
      args.config !== undefined ? resolve(args.config, io.cwd) : undefined,
      options.path ?? io.env.PATH ?? "",
    );
  const order = new Map(files.map((file, i) => [file, i]));
  const findings = [
    ...broken,
    ...await driftCheck(tapes, {
      typeCheck,
      directions: args.directions,
      ...(args.sdk !== undefined ? { sdk: args.sdk } : {}),
    }),
  ].sort((a, b) =>
    (order.get(a.source ?? "") ?? 0) - (order.get(b.source ?? "") ?? 0) || a.line - b.line
  );
  return { findings, known };
}

/** What the run prints (the findings the baseline does not know, a summary) and its exit code. */
function report(
  findings: readonly DriftFinding[],
  { known, args, tapes }: { known: readonly KnownFinding[]; args: DriftArgs; tapes: number },
): { text: string; code: number } {
  const knownKeys = new Set(known.map(keyOf));
  const fresh = findings.filter((f) => !knownKeys.has(keyOf(f)));
  let text = "";
  for (const f of args.verbose ? findings : fresh) {
    text += args.verbose && !fresh.includes(f) ? `(known) ${line(f)}` : line(f);
  }
  const seen = new Set(findings.map(keyOf));
  const stale = known.filter((k) => !seen.has(keyOf(k))).length;
  const of = `${tapes} tape${tapes === 1 ? "" : "s"}`;
  const knownNote = findings.length > fresh.length
    ? ` (${findings.length - fresh.length} known in ${args.baseline})`
    : "";
  const staleNote = stale > 0
    ? `; ${stale} baseline entr${stale === 1 ? "y is" : "ies are"} no longer found`
    : "";
  if (fresh.length === 0) {
    return { text: `${text}drift: no drift in ${of}${knownNote}${staleNote}\n`, code: 0 };
  }
  const drifted = new Set(fresh.map((f) => f.source)).size;
  const count = `${fresh.length} finding${fresh.length === 1 ? "" : "s"}`;
  return {
    text: `${text}drift: ${count} in ${drifted} of ${of}${knownNote}${staleNote}\n`,
    code: 1,
  };
}
