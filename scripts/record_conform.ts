// Records the real CLI's side of conformance cases as test data: each case of conformance/ run
// with the real `claude` of an SDK (through the SDK's query() in duplex mode, or the binary in
// print mode) against the scenario's Messages API, exactly as `cli.ts conform` runs it, the
// tape normalized as conform compares it (ids, times, paths and the API's port replaced), and
// written to tests/fixtures/real/conform/<case>.<mode>.v<cli>.jsonl (a header line, then the
// tape's entries; print runs add their stdout to the header). tests/conform_recordings_test.ts
// compares the mock's run of the same case with it.
//
//   deno run -A scripts/record_conform.ts <case> [<case> …] [--sdk 0.3.332]
//                                        [--mode duplex|print:text|print:json|print:stream-json]
import { parseArgs } from "node:util";
import { installFakeClaude } from "../src/cli/install_fake_claude.ts";
import { type ConformCase, loadConformCase, printPlan } from "../src/conform/conform_case.ts";
import { duplexRun, printRun, type RecordedRun } from "../src/conform/_conform_runs.ts";
import { loadAgentSdk } from "../src/conform/load_agent_sdk.ts";
import { Normalizer } from "../src/conform/_normalize.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: { sdk: { type: "string" }, mode: { type: "string", multiple: true } },
});
if (positionals.length === 0) {
  console.error("usage: record_conform.ts <case> [<case> …] [--sdk VERSION] [--mode M]");
  Deno.exit(2);
}
const sdk = await loadAgentSdk(values.sdk ? { version: values.sdk } : {});
const cli = sdk.cliVersion ?? sdk.version;
const out = `${ROOT}tests/fixtures/real/conform`;
await Deno.mkdir(out, { recursive: true });
const work = await Deno.makeTempDir({ prefix: "record-conform-" });
try {
  for (const name of positionals) {
    const c = await loadConformCase(`${ROOT}conformance/${name}.json`);
    const plan = printPlan(c);
    const modes = values.mode ?? [
      ...(c.duplex !== false ? ["duplex"] : []),
      ...(plan ? plan.formats.map((f) => `print:${f}`) : []),
    ];
    for (const mode of modes) {
      const dir = `${work}/${name}-${mode.replace(":", "-")}`;
      let run: RecordedRun & { stdout?: string };
      if (mode === "duplex") run = await duplexRun(c, "real", sdk, dir, 120_000);
      else {
        if (!plan) throw new Error(`${name} has no print runs`);
        await using fake = await installFakeClaude({ scenario: await scenarioFile(c, dir) });
        const format = mode.slice("print:".length) as "text" | "json" | "stream-json";
        run = await printRun(
          c,
          "real",
          { prompt: plan.prompt, args: plan.args, format },
          sdk,
          fake,
          dir,
          120_000,
        );
      }
      const normalizer = new Normalizer(run.places);
      const entries = run.tape.entries.map((entry) =>
        "frame" in entry
          ? { ...entry, frame: normalizer.normalize(entry.frame) }
          : "raw" in entry
          ? { ...entry, raw: normalizer.text(entry.raw) }
          : { ...entry, text: normalizer.text(entry.text) }
      );
      const header = {
        format: "claude-mock-conform-recording",
        case: name,
        mode,
        sdk_version: sdk.version,
        cli_version: cli,
        recorded_at: new Date().toISOString(),
        args: run.tape.header.args,
        ending: run.tape.ending ?? null,
        ...(run.error ? { error: normalizer.text(run.error) } : {}),
        ...(run.stdout !== undefined ? { stdout: normalizer.text(run.stdout) } : {}),
      };
      const file = `${out}/${name}.${mode.replace(":", "-")}.v${cli}.jsonl`;
      await Deno.writeTextFile(
        file,
        [header, ...entries].map((line) => JSON.stringify(line)).join("\n") + "\n",
      );
      console.log(`${file.slice(ROOT.length)}: ${entries.length} entries`);
    }
  }
} finally {
  await Deno.remove(work, { recursive: true }).catch(() => {});
}

/** The scenario of a case as the fake binary reads it (a builtin name, or a file), as conform does. */
async function scenarioFile(c: ConformCase, dir: string): Promise<string> {
  if (typeof c.scenarioSource === "string") return c.scenarioSource;
  await Deno.mkdir(dir, { recursive: true });
  const path = `${dir}.scenario.json`;
  await Deno.writeTextFile(path, JSON.stringify(c.scenarioSource.json));
  return path;
}
