// The mock against a recording of the real CLI, compared as `cli.ts conform` compares: a
// conformance case of conformance/ runs through the real SDK's query() with the mock (in
// process), its wire is normalized, and compared with the real CLI's run of the same case kept
// in tests/fixtures/real/conform/ (made by scripts/conform_fixture.ts). Offline and fast: the
// real CLI is not run.
import type { query } from "@anthropic-ai/claude-agent-sdk";
import { compareRuns, type Difference } from "../src/conform/_compare.ts";
import { comparable } from "../src/conform/_comparable.ts";
import { duplexRun } from "../src/conform/_conform_runs.ts";
import type { SdkModule } from "../src/conform/_sdk_side.ts";
import { loadConformCase } from "../src/conform/conform_case.ts";
import { parseTape } from "../src/cassette/parse_tape.ts";

/** The SDK a recording was made with: the pinned one, or the latest (0.3.332). */
async function sdkOf(version: string): Promise<SdkModule> {
  const module = version === "0.3.332"
    ? await import("sdk-latest")
    : await import("@anthropic-ai/claude-agent-sdk");
  return module as unknown as SdkModule & { query: typeof query };
}

/**
 * Every difference between the mock's run of conformance case `name` and the real CLI's
 * recorded run `tests/fixtures/real/conform/<tape>.duplex.jsonl` (`v328_<name>` by default).
 */
export async function diffWithRecording(
  name: string,
  options: { tape?: string } = {},
): Promise<Difference[]> {
  const root = new URL("../", import.meta.url);
  const file = new URL(
    `tests/fixtures/real/conform/${options.tape ?? `v328_${name}`}.duplex.jsonl`,
    root,
  );
  const real = parseTape(await Deno.readTextFile(file));
  const sdkVersion = String(real.header.sdk_version);
  const c = await loadConformCase(new URL(`conformance/${name}.json`, root).pathname);
  const work = await Deno.makeTempDir({ prefix: "claude-mock-conform-test-" });
  const cli = String(real.header.cli_version);
  try {
    const run = await duplexRun(
      c,
      "mock",
      {
        module: await sdkOf(sdkVersion),
        version: sdkVersion,
        cliVersion: cli,
        entry: "",
        claude: "/usr/local/bin/claude",
      },
      work,
      60_000,
    );
    const mock = comparable(run, "duplex").run;
    const stderr = real.entries.flatMap((e) =>
      "text" in e && e.dir === "stderr" ? e.text.split("\n") : []
    ).filter((l) => l.trim() !== "");
    return compareRuns(mock, {
      entries: real.entries,
      exitCode: real.ending?.code ?? null,
      stderr,
    });
  } finally {
    await Deno.remove(work, { recursive: true });
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
