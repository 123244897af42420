/**
 * `claude-mock conform <cases or folders> [--claude PATH] [--sdk VERSION] [--html out.html]
 * [--exceptions FILE] [--json FILE] [--mode duplex|print] [--only NAMES] [--timeout MS]
 * [--keep DIR]`: runs each conformance case through the real Agent SDK with the mock and with
 * the real CLI, compares both wires, prints per case "identical" or the first differences, and
 * exits 0 only when every difference is identical or explained.
 *
 * @module
 */

import { type ConformCase, loadConformCases } from "../conform/conform_case.ts";
import { type ConformException, loadConformExceptions } from "../conform/conform_exceptions.ts";
import {
  judgeWithKnown,
  type KnownDifference,
  loadKnownDifferences,
} from "../conform/_known_differences.ts";
import {
  caseLines,
  conformancePassed,
  reportHtml,
  summaryLine,
} from "../conform/conform_report.ts";
import { type AgentSdk, loadAgentSdk } from "../conform/load_agent_sdk.ts";
import { type ConformReport, runConformance } from "../conform/run_conformance.ts";
import { fileTime, mkdirp, writeWhole } from "../host/_fs.ts";
import {
  integerFlag,
  openSubcommand,
  parseSubcommandArgs,
  type SubcommandArgs,
  SubcommandUsageError,
} from "./_subcommand_args.ts";
import type { CliIO } from "./cli_io.ts";

const USAGE =
  "Usage: claude-mock conform <cases or folders> [--claude PATH] [--sdk VERSION] [--html out.html] " +
  "[--exceptions FILE] [--known FILE] [--json FILE] [--mode duplex|print] [--only NAMES] " +
  "[--timeout MS] [--keep DIR]";

const HELP = `${USAGE}

Runs each conformance case (a case file, a scenario file, or every *.json in a folder)
through the real Agent SDK's query() twice: with the mock (in process), and with the real
claude against a local Messages API serving the scenario; then, for single-prompt cases,
in print mode (-p, text, json and stream-json --verbose) with the mock binary and the real
binary. Each run has a fresh working directory and config folder. Both directions of each
wire are compared after normalizing what legitimately differs (ids, timestamps, durations,
paths, the API's port). Prints per case "identical", "explained" or the first differences
with their frame numbers (mock/real). Exits 0 only when every case is identical or
explained, 1 otherwise.

  --claude PATH      the real claude to run (default: the SDK's own platform binary)
  --sdk VERSION      the Agent SDK version to drive, installed with npm into a cache folder
                     (default: the one this project resolves)
  --exceptions FILE  the named, reasoned exceptions (default: exceptions.json in a given
                     folder, if there is one)
  --known FILE       the known differences: cases (and modes, SDK versions) where the mock
                     does not match the real CLI yet, each with its reason
  --html FILE        write an index page and a side-by-side timeline per case and mode
  --json FILE        write the whole report as JSON
  --mode M           only duplex (SDK) or only print runs
  --only NAMES       only these cases (comma-separated)
  --timeout MS       the longest one run may take (default 120000)
  --keep DIR         keep every run's folder (tapes, sandboxes) in DIR
`;

const encoder = new TextEncoder();

/** The `conform` subcommand. */
export async function conformCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const out = io.stdout.getWriter();
  const err = io.stderr.getWriter();
  const say = (w: WritableStreamDefaultWriter<Uint8Array>, text: string) =>
    w.write(encoder.encode(text)).catch(() => {});
  try {
    const opened = await openSubcommand(() => conformArgs(argv), {
      usage: USAGE,
      help: HELP,
      out: (text) => say(out, text),
      err: (text) => say(err, text),
    });
    if (typeof opened === "number") return opened;
    const args = opened;
    const at = (p: string) => (p.startsWith("/") ? p : `${io.cwd.replace(/\/+$/, "")}/${p}`);
    let loaded: Awaited<ReturnType<typeof loadRun>>;
    try {
      loaded = await loadRun(args, { at, log: (line) => void say(err, `${line}\n`) });
    } catch (error) {
      await say(
        err,
        `claude-mock conform: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      return 1;
    }
    const { cases, exceptions, known, sdk } = loaded;
    await say(
      out,
      `conform: ${cases.length} cases, SDK ${sdk.version}${
        sdk.cliVersion ? ` (CLI ${sdk.cliVersion})` : ""
      }, ${sdk.claude}\n`,
    );
    const keep = args.flags.keep !== undefined ? at(args.flags.keep) : undefined;
    if (keep) await mkdirp(keep);
    // a stop (SIGTERM) ends the running CLIs and the run: the binary arms its handler before it waits
    (io as CliIO & { beforeWait?: () => void }).beforeWait?.();
    const report = await runConformance(cases, {
      sdk,
      ...(io.signal ? { signal: io.signal } : {}),
      exceptions,
      ...(args.flags.mode ? { modes: [args.flags.mode as "duplex" | "print"] } : {}),
      ...(args.timeoutMs !== undefined ? { timeoutMs: args.timeoutMs } : {}),
      ...(keep ? { workDir: keep, keep: true } : {}),
      onCase: (result) => void say(out, `${caseLines(result).join("\n")}\n`),
    });
    await say(out, `${summaryLine(report)}\n`);
    if (args.flags.json) await writeJson(report, at(args.flags.json));
    if (args.flags.html) await say(out, `${await writeHtml(report, at(args.flags.html))}\n`);
    if (io.signal?.aborted) {
      await say(err, "claude-mock conform: stopped\n");
      return 143;
    }
    if (known) return await judged(report, known, (text) => say(out, text));
    return conformancePassed(report) ? 0 : 1;
  } finally {
    out.releaseLock();
    err.releaseLock();
  }
}

/** The subcommand's arguments, with `--timeout` as a number. */
type ConformArgs = SubcommandArgs & { timeoutMs?: number };

/** Parses and checks the arguments (a `SubcommandUsageError` names what is wrong). */
function conformArgs(argv: readonly string[]): ConformArgs {
  const args = parseSubcommandArgs("conform", argv, {
    claude: "string",
    sdk: "string",
    html: "string",
    exceptions: "string",
    known: "string",
    json: "string",
    mode: "string",
    only: "string",
    timeout: "string",
    keep: "string",
  });
  if (args.help) return args;
  if (args.positional.length === 0) {
    throw new SubcommandUsageError("claude-mock conform: give case files or folders");
  }
  if (args.flags.mode !== undefined && !["duplex", "print"].includes(args.flags.mode)) {
    throw new SubcommandUsageError(
      `claude-mock conform: --mode must be duplex or print, got ${JSON.stringify(args.flags.mode)}`,
    );
  }
  const timeoutMs = integerFlag("conform", "timeout", args.flags.timeout, {
    min: 1000,
    max: 3_600_000,
  });
  return { ...args, ...(timeoutMs !== undefined ? { timeoutMs } : {}) };
}

/** The cases (`--only` of them), their exceptions and the SDK to drive. */
async function loadRun(
  args: ConformArgs,
  { at, log }: { at: (path: string) => string; log: (line: string) => void },
): Promise<{
  cases: ConformCase[];
  exceptions: ConformException[];
  known?: { file: string; entries: KnownDifference[] };
  sdk: AgentSdk;
}> {
  const paths = args.positional.map(at);
  let cases = await loadConformCases(paths);
  if (args.flags.only) {
    const wanted = new Set(args.flags.only.split(",").map((s) => s.trim()));
    const all = cases;
    const unknown = [...wanted].filter((n) => !all.some((c) => c.name === n));
    if (unknown.length) throw new Error(`no case named ${unknown.join(", ")}`);
    cases = cases.filter((c) => wanted.has(c.name));
  }
  if (cases.length === 0) throw new Error(`no cases in ${args.positional.join(", ")}`);
  const exceptionsFile = args.flags.exceptions !== undefined
    ? at(args.flags.exceptions)
    : await firstExisting(paths.map((p) => `${p.replace(/\/+$/, "")}/exceptions.json`));
  const exceptions = exceptionsFile ? await loadConformExceptions(exceptionsFile) : [];
  const knownFile = args.flags.known !== undefined ? at(args.flags.known) : undefined;
  const known = knownFile
    ? { file: knownFile, entries: await loadKnownDifferences(knownFile) }
    : undefined;
  const sdk = await loadAgentSdk({
    ...(args.flags.sdk !== undefined ? { version: args.flags.sdk } : {}),
    ...(args.flags.claude !== undefined ? { claude: at(args.flags.claude) } : {}),
    log,
  });
  return { cases, exceptions, ...(known ? { known } : {}), sdk };
}

/** `--known`: the report read with the known differences; resolves with the exit code. */
async function judged(
  report: ConformReport,
  known: { file: string; entries: KnownDifference[] },
  say: (text: string) => Promise<void>,
): Promise<number> {
  const verdict = judgeWithKnown(report, known.entries);
  const lines = [
    `known differences (${known.file}): ${verdict.known.length} mode${
      verdict.known.length === 1 ? "" : "s"
    } known to differ, ${verdict.unexpected.length} not known`,
  ];
  for (const u of verdict.unexpected) lines.push(`  not known: ${u.case} ${u.mode}`);
  for (const k of verdict.stale) {
    lines.push(`  matches now, remove its entry: ${k.case}${k.mode ? ` ${k.mode}` : ""}`);
  }
  await say(`${lines.join("\n")}\n`);
  return verdict.passed ? 0 : 1;
}

/** `--json`: the whole report, without the tapes. */
async function writeJson(report: ConformReport, file: string): Promise<void> {
  await mkdirp(file.slice(0, file.lastIndexOf("/")) || "/");
  const slim = {
    ...report,
    cases: report.cases.map((c) => ({ ...c, modes: c.modes.map(({ tapes: _t, ...m }) => m) })),
  };
  await writeWhole(file, `${JSON.stringify(slim, null, 1)}\n`);
}

/** `--html`: the index page and a timeline page per case and mode; resolves with the index. */
async function writeHtml(report: ConformReport, index: string): Promise<string> {
  const base = index.replace(/\.html?$/, "");
  const folder = `${base}.pages`;
  const name = (c: string, mode: string) =>
    `${folder.slice(folder.lastIndexOf("/") + 1)}/${c}.${mode.replace(":", "-")}.html`;
  const html = reportHtml(report, name);
  await mkdirp(folder);
  for (const [page, text] of html.pages) {
    await writeWhole(`${index.slice(0, index.lastIndexOf("/"))}/${page}`, text);
  }
  await writeWhole(index, html.index);
  return index;
}

async function firstExisting(paths: string[]): Promise<string | undefined> {
  for (const path of paths) if ((await fileTime(path)) !== undefined) return path;
  return undefined;
}
