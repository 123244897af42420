// The conformance corpus (conformance/) as data: every case loads, its scenario can be served,
// and it covers what it promises: every predefined scenario, every example scenario file and
// every named failure (no real binary needed; `deno task conform` runs it).
import assert from "node:assert/strict";
import { BUILTIN_SCENARIO_NAMES, FAILURE_NAMES } from "../mod.ts";
import { serveMessagesApi } from "../messages_api.ts";
import { loadConformCases } from "../src/conform/conform_case.ts";
import { glob, loadConformExceptions } from "../src/conform/conform_exceptions.ts";
import { loadKnownDifferences } from "../src/conform/_known_differences.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const cases = await loadConformCases([`${ROOT}conformance`]);
const sources = (await Promise.all(
  cases.map(async (c) => JSON.parse(await Deno.readTextFile(c.source)).scenario),
)).map((s) => (typeof s === "string" ? s : JSON.stringify(s)));

Deno.test("conformance corpus: every case loads and the scenario API can serve its scenario", async () => {
  assert.ok(cases.length >= 60, `${cases.length} cases`);
  for (const c of cases) {
    const api = await serveMessagesApi(c.scenario);
    await api.close();
  }
  assert.ok((await loadConformExceptions(`${ROOT}conformance/exceptions.json`)).length > 0);
});

Deno.test("conformance corpus: every exception and known difference names cases the corpus has", async () => {
  const exceptions = await loadConformExceptions(`${ROOT}conformance/exceptions.json`);
  const known = await loadKnownDifferences(`${ROOT}conformance/known_differences.json`);
  const names = cases.map((c) => c.name);
  const orphans = [
    ...exceptions.map((e) => ({ entry: e.name, case: e.case ?? "*" })),
    ...known.map((k) => ({ entry: `known ${k.case}`, case: k.case })),
  ].filter((e) => !names.some((n) => glob(e.case, n)));
  assert.deepEqual(orphans, [], "an entry for a case the corpus does not have");
});

Deno.test("conformance corpus: covers every predefined scenario, example scenario file and named failure", async () => {
  for (const name of BUILTIN_SCENARIO_NAMES) {
    assert.ok(sources.includes(`builtin:${name}`), `no case runs builtin:${name}`);
  }
  for await (const entry of Deno.readDir(`${ROOT}examples/scenarios`)) {
    if (!entry.name.endsWith(".json")) continue;
    assert.ok(
      sources.includes(`../examples/scenarios/${entry.name}`),
      `no case runs examples/scenarios/${entry.name}`,
    );
  }
  for (const name of FAILURE_NAMES) {
    assert.ok(sources.some((s) => s.includes(`"failure":"${name}"`)), `no case fails with ${name}`);
  }
  const kinds = (prefix: string) => cases.filter((c) => c.name.startsWith(prefix)).length;
  for (const prefix of ["perm_", "hooks_", "mcp_", "multi_tool", "structured_output", "limit_"]) {
    assert.ok(kinds(prefix) > 0, `no ${prefix} case`);
  }
  assert.ok(cases.some((c) => c.interrupt), "no interrupt case");
  assert.ok(cases.some((c) => c.hooks === "all"), "no case registers every hook event");
});
