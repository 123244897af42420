// The mock against a recording of the real CLI, compared as `cli.ts conform` compares: a
// conformance case of conformance/ runs through the real SDK's query() with the mock (in
// process; print modes through the mock's binary), its wire is normalized, and compared with
// the real CLI's run of the same case kept in tests/fixtures/real/conform/ (made by
// scripts/record_conform.ts; README.md there). Offline and fast: the real CLI is not run.
import type { query } from "@anthropic-ai/claude-agent-sdk";
import { parseTape } from "../src/cassette/parse_tape.ts";
import type { Tape } from "../src/cassette/tape.ts";
import { installFakeClaude } from "../src/fake_claude/install_fake_claude.ts";
import { comparable } from "../src/conform/_comparable.ts";
import { type ComparableRun, compareRuns, type Difference } from "../src/conform/_compare.ts";
import { duplexRun, printRun, type RecordedRun } from "../src/conform/_conform_runs.ts";
import { Normalizer } from "../src/conform/_normalize.ts";
import { type ConformCase, loadConformCase, printPlan } from "../src/conform/conform_case.ts";
import type { AgentSdk } from "../src/conform/load_agent_sdk.ts";
import type { SdkModule, ZodLike } from "../src/conform/_sdk_side.ts";

const ROOT = new URL("../", import.meta.url);

/** Which recording: the run's mode and the CLI it was made with. */
export interface RecordingChoice {
  /** `duplex` (default) or `print:<format>`. */
  mode?: string;
  /** The CLI's version (default `2.1.328`, the pinned SDK's). */
  cli?: string;
}

/**
 * The file of a recording: `tests/fixtures/real/conform/<case>.<mode>.v<cli>.jsonl` (`print:text`
 * as `print-text`).
 */
export function recordingFile(name: string, mode: string, cli: string): URL {
  return new URL(
    `tests/fixtures/real/conform/${name}.${mode.replace(":", "-")}.v${cli}.jsonl`,
    ROOT,
  );
}

/** The SDK of a version the project has (the pinned one, or `sdk-latest` for 0.3.332). */
async function sdkOf(version: string, cli: string): Promise<AgentSdk> {
  const module = version === "0.3.332"
    ? await import("sdk-latest")
    : await import("@anthropic-ai/claude-agent-sdk");
  const zod = await import("zod");
  return {
    module: module as unknown as SdkModule & { query: typeof query },
    version,
    cliVersion: cli,
    entry: "",
    claude: "/nonexistent/claude",
    zod: zod.z as unknown as ZodLike,
  };
}

/** The CLI's temp folder names the user id (`claude-0` as recorded): any user's compares. */
const UID = /\/claude-\d+\//g;

function anyUid(run: ComparableRun): ComparableRun {
  return {
    ...run,
    entries: JSON.parse(JSON.stringify(run.entries).replace(UID, "/claude-<uid>/")),
  };
}

/**
 * A run normalized as conform compares it (ids, times, paths, the gateway): its tape, what it
 * printed (text mode) and the app's error.
 */
export function normalizedRun(run: RecordedRun & { stdout?: string }, mode: string): {
  tape: Tape;
  stdout?: string;
  error?: string;
} {
  const { run: compared, tape } = comparable(run, mode);
  return {
    tape,
    ...(compared.stdout !== undefined ? { stdout: compared.stdout } : {}),
    ...(run.error !== undefined ? { error: new Normalizer(run.places).text(run.error) } : {}),
  };
}

/**
 * Runs conformance case `c` on one side (`real`: the SDK's `claude`; `mock`: the mock) in
 * `mode`, in the folder `work`, as `cli.ts conform` runs it.
 */
export async function runCase(
  c: ConformCase,
  side: "real" | "mock",
  how: { mode: string; sdk: AgentSdk; work: string; timeoutMs: number },
): Promise<RecordedRun & { stdout?: string }> {
  const run = { side, sdk: how.sdk, work: how.work, timeoutMs: how.timeoutMs };
  if (how.mode === "duplex") return await duplexRun(c, run);
  const plan = printPlan(c);
  if (!plan) throw new Error(`${c.name}: the case has no print runs`);
  await using fake = await installFakeClaude({ scenario: await scenarioFile(c, how.work) });
  const format = how.mode.slice("print:".length) as "text" | "json" | "stream-json";
  return await printRun(c, {
    ...run,
    print: {
      prompt: plan.prompt,
      args: plan.args,
      format,
      ...(plan.stdin ? { stdin: plan.stdin } : {}),
    },
    fake,
  });
}

/**
 * Every difference between the mock's run of conformance case `name` (made now) and the real
 * CLI's recorded run of it, in `mode`, for the CLI the recording was made with.
 */
export async function diffWithRecording(
  name: string,
  choice: RecordingChoice = {},
): Promise<Difference[]> {
  const mode = choice.mode ?? "duplex";
  const real = parseTape(
    await Deno.readTextFile(recordingFile(name, mode, choice.cli ?? "2.1.328")),
  );
  const sdk = await sdkOf(String(real.header.sdk_version), String(real.header.cli_version));
  const c = await loadConformCase(new URL(`conformance/${name}.json`, ROOT).pathname);
  const work = await Deno.makeTempDir({ prefix: "claude-mock-conform-test-" });
  try {
    const run = await runCase(c, "mock", { mode, sdk, work, timeoutMs: 60_000 });
    const stderr = real.entries
      .flatMap((e) => ("text" in e && e.dir === "stderr" ? e.text.split("\n") : []))
      .map((l) => l.trimEnd())
      .filter((l) => l !== "");
    return compareRuns(
      anyUid(comparable(run, mode).run),
      anyUid({
        entries: mode === "print:text" ? [] : real.entries,
        exitCode: real.ending?.code ?? null,
        stderr,
        ...(mode === "print:text"
          ? { stdout: typeof real.header.stdout === "string" ? real.header.stdout : "" }
          : {}),
      }),
    );
  } finally {
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
}

/** The differences at `path` (a key path, or a prefix of one) or of frames of `kind`. */
export function at(
  diffs: readonly Difference[],
  where: { path?: string | RegExp; kind?: string },
): Difference[] {
  return diffs.filter((d) =>
    (where.kind === undefined || d.kind === where.kind) &&
    (where.path === undefined ||
      (typeof where.path === "string"
        ? d.path !== undefined && (d.path === where.path || d.path.startsWith(`${where.path}.`))
        : d.path !== undefined && where.path.test(d.path)))
  );
}

/** The differences whose `kind type path` matches `about`. */
export function differencesAbout(all: readonly Difference[], about: RegExp): Difference[] {
  return all.filter((d) => about.test(`${d.kind} ${d.type} ${d.path ?? ""}`));
}

/** The scenario of a case as the fake binary reads it (a builtin name, or a file), as conform does. */
async function scenarioFile(c: ConformCase, dir: string): Promise<string> {
  if (typeof c.scenarioSource === "string") return c.scenarioSource;
  await Deno.mkdir(dir, { recursive: true });
  const path = `${dir}.scenario.json`;
  await Deno.writeTextFile(path, JSON.stringify(c.scenarioSource.json));
  return path;
}
