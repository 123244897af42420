/**
 * Records conformance cases with the real CLI, for the tests that compare the mock with a
 * recording (`tests/conform_recorded_test.ts`): each case of `conformance/` runs through the
 * real Agent SDK's `query()` with the real `claude` that SDK ships, against the case's
 * scenario Messages API (as `cli.ts conform` runs its real side), and the run is written
 * normalized as conform compares it (ids, times, paths, the gateway, the socket replaced by
 * placeholders) to `tests/fixtures/real/conform/v<cli>_<case>.duplex.jsonl`.
 *
 * ```sh
 * deno run -A scripts/conform_fixture.ts perm_default_readonly hooks_all_tools [--sdk 0.3.332]
 * ```
 *
 * `--sdk` installs that SDK version with npm into the conform cache (default: the pinned one).
 *
 * @module
 */

import { parseArgs } from "node:util";
import { duplexRun } from "../src/conform/_conform_runs.ts";
import { comparable } from "../src/conform/_comparable.ts";
import { loadConformCase } from "../src/conform/conform_case.ts";
import { loadAgentSdk } from "../src/conform/load_agent_sdk.ts";
import { serializeTape } from "../src/cassette/parse_tape.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  options: { sdk: { type: "string" } },
  allowPositionals: true,
});
if (positionals.length === 0) {
  console.error("usage: conform_fixture.ts <case names> [--sdk VERSION]");
  Deno.exit(2);
}
const sdk = await loadAgentSdk(values.sdk ? { version: values.sdk } : {});
const cli = sdk.cliVersion ?? "unknown";
const root = new URL("../", import.meta.url);
const work = await Deno.makeTempDir({ prefix: "claude-mock-conform-fixture-" });
try {
  for (const name of positionals) {
    const c = await loadConformCase(new URL(`conformance/${name}.json`, root).pathname);
    const run = await duplexRun(c, "real", sdk, `${work}/${name}`, 120_000);
    if (run.error?.startsWith("timed out")) throw new Error(`${name}: ${run.error}`);
    const { tape } = comparable(run, "duplex");
    tape.header = {
      format: "claude-mock-tape",
      version: 1,
      cli_version: cli,
      sdk_version: sdk.version,
      scenario: name,
      note: `The real claude ${cli} driven by the Agent SDK ${sdk.version}'s query() through ` +
        `conformance case conformance/${name}.json against its scenario Messages API, ` +
        "recorded by scripts/conform_fixture.ts and normalized as cli.ts conform compares runs.",
      ...(run.error ? { app_error: run.error } : {}),
    };
    const out = new URL(
      `tests/fixtures/real/conform/v${cli.split(".").at(-1)}_${name}.duplex.jsonl`,
      root,
    );
    await Deno.mkdir(new URL(".", out), { recursive: true });
    await Deno.writeTextFile(out, serializeTape(tape));
    console.log(`${name}: ${out.pathname}`);
  }
} finally {
  await Deno.remove(work, { recursive: true });
}
