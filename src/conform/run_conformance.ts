/**
 * `runConformance(cases, options)`: each case through the real Agent SDK twice, with the mock
 * and with the real CLI against the scenario's Messages API, and in print mode with the mock
 * binary and the real binary; both directions of each wire compared after normalizing what
 * legitimately differs; every difference identical, explained by a named exception, or
 * reported.
 *
 * @module
 */

import type { Tape } from "../cassette/tape.ts";
import { installFakeClaude } from "../fake_claude/install_fake_claude.ts";
import { makeTempDir, removeTree, writeText } from "../host/_fs.ts";
import { compareRuns, type Difference } from "./_compare.ts";
import { comparable } from "./_comparable.ts";
import { duplexRun, printRun, type RecordedRun } from "./_conform_runs.ts";
import { type ConformCase, printPlan } from "./conform_case.ts";
import { type ConformException, explain } from "./conform_exceptions.ts";
import type { AgentSdk } from "./load_agent_sdk.ts";

/** How one mode of one case compared. */
export interface ModeResult {
  /** `duplex`, `print:text`, `print:json` or `print:stream-json`. */
  mode: string;
  /** `identical`, `explained` (every difference has an exception), `different`, or `error`. */
  status: "identical" | "explained" | "different" | "error";
  /** Every difference, with the exception that explains it where one does. */
  differences: Difference[];
  /** What went wrong when a run could not be made or compared. */
  error?: string;
  /** What the app's query threw, per side (an error result ends `query()` with a throw). */
  thrown?: { mock?: string; real?: string };
  /** Milliseconds each side took. */
  ms: { mock: number; real: number };
  /** The normalized tapes (for the side-by-side timeline). */
  tapes?: { mock: Tape; real: Tape };
}

/** How one case compared. */
export interface CaseResult {
  /** The case's name. */
  case: string;
  /** Its file. */
  source: string;
  /** The worst status of its modes. */
  status: ModeResult["status"];
  /** Each mode. */
  modes: ModeResult[];
}

/** A whole conformance run. */
export interface ConformReport {
  /** The SDK version driven. */
  sdk: string;
  /** The real CLI's version (as the SDK's package says). */
  cli?: string;
  /** The real binary that ran. */
  claude: string;
  /** The cases. */
  cases: CaseResult[];
  /** Milliseconds the run took. */
  ms: number;
}

/** Options for {@linkcode runConformance}. */
export interface RunConformanceOptions {
  /** The SDK (and real binary) to drive. */
  sdk: AgentSdk;
  /** The explained differences. */
  exceptions?: readonly ConformException[];
  /** Which modes (default both). */
  modes?: ReadonlyArray<"duplex" | "print">;
  /** Milliseconds one run may take (default 120000). */
  timeoutMs?: number;
  /** Where the runs' folders go (default a new temp folder, removed after). */
  workDir?: string;
  /** Keep the runs' folders (tapes, journals). */
  keep?: boolean;
  /** Progress lines. */
  log?: (line: string) => void;
  /** Called with each case's result as it completes. */
  onCase?: (result: CaseResult) => void;
  /** Stops the run: the running CLIs are ended, no further case starts. */
  signal?: AbortSignal;
}

/** Milliseconds one run may take unless the options say. */
const DEFAULT_TIMEOUT_MS = 120_000;

const RANK: Record<ModeResult["status"], number> = {
  identical: 0,
  explained: 1,
  different: 2,
  error: 3,
};

/**
 * Runs the conformance cases; the report says per case and mode whether the mock and the real
 * CLI are identical, explained or different, with every difference.
 *
 * @example Running the corpus against the project's SDK
 * ```ts ignore
 * import { loadAgentSdk, loadConformCases, runConformance } from "@x/claude-mock/cli";
 * const report = await runConformance(await loadConformCases(["conformance"]), {
 *   sdk: await loadAgentSdk(),
 * });
 * console.log(report.cases.map((c) => `${c.case}: ${c.status}`).join("\n"));
 * ```
 */
export async function runConformance(
  cases: readonly ConformCase[],
  options: RunConformanceOptions,
): Promise<ConformReport> {
  const started = Date.now();
  const work = options.workDir ?? await makeTempDir("claude-mock-conform-");
  const results: CaseResult[] = [];
  try {
    for (const c of cases) {
      if (options.signal?.aborted) break;
      const result = await runCase(c, { options, dir: `${work}/${c.name}` });
      results.push(result);
      options.onCase?.(result);
    }
  } finally {
    if (!options.keep && !options.workDir) await removeTree(work).catch(() => {});
  }
  return {
    sdk: options.sdk.version,
    ...(options.sdk.cliVersion ? { cli: options.sdk.cliVersion } : {}),
    claude: options.sdk.claude,
    cases: results,
    ms: Date.now() - started,
  };
}

/** One case's run: the options, and the case's folder. */
interface CaseRun {
  options: RunConformanceOptions;
  dir: string;
}

/** Runs one case in each of its modes; its status is the worst of theirs. */
async function runCase(c: ConformCase, run: CaseRun): Promise<CaseResult> {
  const modes = run.options.modes ?? ["duplex", "print"];
  const caseModes: ModeResult[] = [];
  if (modes.includes("duplex") && c.duplex !== false) caseModes.push(await duplexMode(c, run));
  if (modes.includes("print")) caseModes.push(...await printModes(c, run));
  const status = caseModes.reduce<ModeResult["status"]>(
    (worst, m) => (RANK[m.status] > RANK[worst] ? m.status : worst),
    "identical",
  );
  return { case: c.name, source: c.source, status, modes: caseModes };
}

/** The case through the SDK's `query()`, with the mock and with the real CLI. */
async function duplexMode(c: ConformCase, { options, dir }: CaseRun): Promise<ModeResult> {
  options.log?.(`${c.name}: duplex`);
  const run = (side: "mock" | "real") =>
    duplexRun(c, {
      side,
      sdk: options.sdk,
      work: `${dir}/duplex-${side}`,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      stop: options.signal,
    });
  return await compareMode(
    c,
    "duplex",
    options,
    async () => [await run("mock"), await run("real")],
  );
}

/** The case in print mode, each of its formats, with the mock binary and the real one. */
async function printModes(c: ConformCase, { options, dir }: CaseRun): Promise<ModeResult[]> {
  const plan = printPlan(c);
  if (!plan) return [];
  const source = typeof c.scenarioSource === "string"
    ? c.scenarioSource
    : await writeScenario(`${dir}.scenario.json`, c.scenarioSource.json);
  // (no `await using`: Node 20 and 22, which run the npm package's bundle, cannot parse it)
  const fake = await installFakeClaude({ scenario: source });
  const results: ModeResult[] = [];
  try {
    for (const format of plan.formats) {
      if (options.signal?.aborted) break;
      options.log?.(`${c.name}: print ${format}`);
      const print = {
        prompt: plan.prompt,
        args: plan.args,
        format,
        ...(plan.stdin ? { stdin: plan.stdin } : {}),
      };
      const run = (side: "mock" | "real") =>
        printRun(c, {
          side,
          sdk: options.sdk,
          work: `${dir}/print-${format}-${side}`,
          timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          stop: options.signal,
          print,
          fake,
        });
      results.push(
        await compareMode(c, `print:${format}`, options, async () => [
          await run("mock"),
          await run("real"),
        ]),
      );
    }
  } finally {
    await fake[Symbol.asyncDispose]();
  }
  return results;
}

async function writeScenario(path: string, json: unknown): Promise<string> {
  await writeText(path, JSON.stringify(json));
  return path;
}

async function compareMode(
  c: ConformCase,
  mode: string,
  options: RunConformanceOptions,
  run: () => Promise<[RecordedRun & { stdout?: string }, RecordedRun & { stdout?: string }]>,
): Promise<ModeResult> {
  let mock: RecordedRun & { stdout?: string };
  let real: RecordedRun & { stdout?: string };
  try {
    [mock, real] = await run();
  } catch (error) {
    return {
      mode,
      status: "error",
      differences: [],
      error: error instanceof Error ? error.message : String(error),
      ms: { mock: 0, real: 0 },
    };
  }
  const mockSide = comparable(mock, mode);
  const realSide = comparable(real, mode);
  const differences = compareRuns(mockSide.run, realSide.run);
  const context = { case: c.name, mode, sdk: options.sdk.version };
  for (const d of differences) {
    const by = explain(d, context, options.exceptions ?? []);
    if (by) d.explainedBy = by;
  }
  const unexplained = differences.filter((d) => !d.explainedBy).length;
  const timedOut = [mock.error, real.error].find((e) =>
    e?.startsWith("timed out") || e === "stopped"
  );
  return {
    mode,
    status: timedOut
      ? "error"
      : differences.length === 0
      ? "identical"
      : unexplained === 0
      ? "explained"
      : "different",
    differences,
    ...(timedOut ? { error: timedOut } : {}),
    ...(mock.error || real.error
      ? {
        thrown: {
          ...(mock.error ? { mock: mock.error } : {}),
          ...(real.error ? { real: real.error } : {}),
        },
      }
      : {}),
    ms: { mock: mock.ms, real: real.ms },
    tapes: { mock: mockSide.tape, real: realSide.tape },
  };
}
