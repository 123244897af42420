// Conformance against a recording: the real CLI's side of a conformance case, recorded once by
// scripts/record_conform.ts (tests/fixtures/real/conform/, normalized as `cli.ts conform`
// normalizes it), compared with the mock's run of the same case made now, the way
// `cli.ts conform` compares them. A test names the differences it is about (by path or kind)
// and asserts none of them is left.
import type { query } from "@anthropic-ai/claude-agent-sdk";
import type { Tape, TapeEntry } from "../src/cassette/tape.ts";
import { installFakeClaude } from "../src/cli/install_fake_claude.ts";
import { type ComparableRun, compareRuns, type Difference } from "../src/conform/_compare.ts";
import { duplexRun, printRun, type RecordedRun } from "../src/conform/_conform_runs.ts";
import { Normalizer } from "../src/conform/_normalize.ts";
import { type ConformCase, loadConformCase, printPlan } from "../src/conform/conform_case.ts";
import type { AgentSdk } from "../src/conform/load_agent_sdk.ts";
import type { SdkModule, ZodLike } from "../src/conform/_sdk_side.ts";

const ROOT = new URL("../", import.meta.url);

/** A recording's header. */
export interface RecordingHeader {
  case: string;
  mode: string;
  sdk_version: string;
  cli_version: string;
  ending: { code: number | null } | null;
  stdout?: string;
}

/** Reads tests/fixtures/real/conform/<case>.<mode>.v<cli>.jsonl. */
export async function readRecording(
  name: string,
  mode: string,
  cli: string,
): Promise<{ header: RecordingHeader; entries: TapeEntry[] }> {
  const file = new URL(
    `tests/fixtures/real/conform/${name}.${mode.replace(":", "-")}.v${cli}.jsonl`,
    ROOT,
  );
  const [header, ...entries] = (await Deno.readTextFile(file)).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  return { header, entries };
}

/** The Agent SDK of a version the project has (the pinned one, or `sdk-latest` for 0.3.332). */
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

function anyUid(entries: TapeEntry[]): TapeEntry[] {
  return JSON.parse(JSON.stringify(entries).replace(UID, "/claude-<uid>/"));
}

/** A run's comparable parts, normalized as conform normalizes them. */
function comparable(run: RecordedRun & { stdout?: string }, mode: string): ComparableRun {
  const normalizer = new Normalizer(run.places);
  const entries = run.tape.entries.map((entry) =>
    "frame" in entry
      ? { ...entry, frame: normalizer.normalize(entry.frame) as typeof entry.frame }
      : "raw" in entry
      ? { ...entry, raw: normalizer.text(entry.raw) }
      : { ...entry, text: normalizer.text(entry.text) }
  );
  return fromEntries(
    entries,
    run.tape.ending?.code ?? null,
    mode,
    normalizer.text(run.stdout ?? ""),
  );
}

function fromEntries(
  entries: TapeEntry[],
  exitCode: number | null,
  mode: string,
  stdout: string,
): ComparableRun {
  const stderr = entries
    .flatMap((e) => ("text" in e && e.dir === "stderr" ? e.text.split("\n") : []))
    .map((l) => l.trimEnd())
    .filter((l) => l !== "");
  return {
    entries: mode === "print:text" ? [] : anyUid(entries),
    exitCode,
    stderr,
    ...(mode === "print:text" ? { stdout } : {}),
  };
}

/**
 * The differences between the mock's run of conformance case `name` (made now) and the real
 * CLI's recorded one, in `mode`, for the CLI the recording was made with.
 */
export async function conformAgainstRecording(
  name: string,
  mode: string,
  cli: string,
): Promise<Difference[]> {
  const recording = await readRecording(name, mode, cli);
  const c = await loadConformCase(new URL(`conformance/${name}.json`, ROOT).pathname);
  const sdk = await sdkOf(recording.header.sdk_version, cli);
  const work = await Deno.makeTempDir({ prefix: "conform-recording-" });
  try {
    let run: RecordedRun & { stdout?: string };
    if (mode === "duplex") run = await duplexRun(c, "mock", sdk, work, 60_000);
    else {
      const plan = printPlan(c);
      if (!plan) throw new Error(`${name} has no print runs`);
      await using fake = await installFakeClaude({ scenario: await scenarioFile(c, work) });
      run = await printRun(
        c,
        "mock",
        {
          prompt: plan.prompt,
          args: plan.args,
          format: mode.slice("print:".length) as "text" | "json" | "stream-json",
        },
        sdk,
        fake,
        work,
        60_000,
      );
    }
    const real: Tape = {
      header: { format: "claude-mock-tape", version: 1 } as unknown as Tape["header"],
      entries: recording.entries,
    };
    return compareRuns(
      comparable(run, mode),
      fromEntries(
        real.entries,
        recording.header.ending?.code ?? null,
        mode,
        recording.header.stdout ?? "",
      ),
    );
  } finally {
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
}

/** The differences among `all` that `about` names (a path or kind pattern). */
export function differencesAbout(all: Difference[], about: RegExp): Difference[] {
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
