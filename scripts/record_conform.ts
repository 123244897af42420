/**
 * Records the real CLI's side of conformance cases as test data: each case of `conformance/`
 * runs with the real `claude` an Agent SDK ships (through the SDK's `query()` in duplex mode,
 * or the binary in print mode) against the case's scenario Messages API, exactly as
 * `cli.ts conform` runs its real side; the run is normalized as conform compares runs (ids,
 * times, paths, the gateway and the API's port replaced by placeholders) and written as a tape
 * to `tests/fixtures/real/conform/<case>.<mode>.v<cli>.jsonl` (`print:text` as `print-text`;
 * a print run's stdout in the header). `scripts/_conform_recording.ts` compares the mock's run of
 * the same case with it.
 *
 * ```sh
 * deno run -A scripts/record_conform.ts <case> [<case> …] [--sdk 0.3.332]
 *   [--mode duplex|print:text|print:json|print:stream-json]
 * ```
 *
 * `--sdk` installs that SDK version with npm into the conform cache (default: the pinned one);
 * without `--mode`, every mode the case runs in.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { serializeTape } from "../src/cassette/parse_tape.ts";
import { loadConformCase, printPlan } from "../src/conform/conform_case.ts";
import { loadAgentSdk } from "../src/conform/load_agent_sdk.ts";
import { normalizedRun, recordingFile, runCase } from "./_conform_recording.ts";

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
const root = new URL("../", import.meta.url);
const work = await Deno.makeTempDir({ prefix: "claude-mock-record-conform-" });
try {
  for (const name of positionals) {
    const c = await loadConformCase(new URL(`conformance/${name}.json`, root).pathname);
    const plan = printPlan(c);
    const modes = values.mode ?? [
      ...(c.duplex !== false ? ["duplex"] : []),
      ...(plan ? plan.formats.map((f) => `print:${f}`) : []),
    ];
    for (const mode of modes) {
      const dir = `${work}/${name}-${mode.replace(":", "-")}`;
      const raw = await runCase(c, "real", { mode, sdk, work: dir, timeoutMs: 120_000 });
      if (raw.error?.startsWith("timed out")) throw new Error(`${name} (${mode}): ${raw.error}`);
      const run = normalizedRun(raw, mode);
      const tape = run.tape;
      tape.header = {
        format: "claude-mock-tape",
        version: 1,
        cli_version: cli,
        sdk_version: sdk.version,
        scenario: name,
        mode,
        recorded_at: new Date().toISOString(),
        args: raw.tape.header.args,
        note:
          `The real claude ${cli} of the Agent SDK ${sdk.version}, run in ${mode} mode, through ` +
          `conformance case conformance/${name}.json against its scenario Messages API, ` +
          "recorded by scripts/record_conform.ts and normalized as cli.ts conform compares runs.",
        ...(run.error !== undefined ? { app_error: run.error } : {}),
        ...(run.stdout !== undefined ? { stdout: run.stdout } : {}),
      };
      const file = recordingFile(name, mode, cli);
      await Deno.writeTextFile(file, serializeTape(tape));
      console.log(`${file.pathname.slice(root.pathname.length)}: ${tape.entries.length} entries`);
    }
  }
} finally {
  await Deno.remove(work, { recursive: true }).catch(() => {});
}
