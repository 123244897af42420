import assert from "node:assert/strict";
import {
  CLI_VERSION_HISTORY,
  cliVersionFacts,
  cliVersionOfSdk,
  KNOWN_CLI_VERSIONS,
  NEWEST_CLI_VERSION,
  resolveCliVersion,
} from "./cli_versions.ts";

Deno.test("cliVersionFacts: a known version has its own facts; others those of the nearest known below", () => {
  assert.deepEqual(KNOWN_CLI_VERSIONS, ["2.1.328", "2.1.331", "2.1.332"]);
  assert.equal(NEWEST_CLI_VERSION, "2.1.332");
  assert.equal(cliVersionFacts("2.1.328").facts.sandboxFields, false);
  assert.equal(cliVersionFacts("2.1.331").facts.sandboxFields, true);
  assert.equal(cliVersionFacts("2.1.331").facts.preSkillShellCommand, false);
  assert.equal(cliVersionFacts("2.1.332").facts.preSkillShellCommand, true);
  // between two known versions: the older one's facts, its own number
  const between = cliVersionFacts("2.1.330");
  assert.equal(between.version, "2.1.330");
  assert.equal(between.basis, "2.1.328");
  // newer than every known one: the newest's facts
  assert.equal(cliVersionFacts("2.2.0").basis, "2.1.332");
  assert.equal(cliVersionFacts("2.1.332-beta.1").basis, "2.1.332");
  // older than every known one: the oldest's
  assert.equal(cliVersionFacts("2.0.9").basis, "2.1.328");
  assert.throws(() => cliVersionFacts("two"), /Unknown CLI version "two"/);
});

Deno.test("cliVersionFacts: asked again, the same facts; they cannot be changed for the next asker", () => {
  const first = cliVersionFacts("2.1.330");
  assert.equal(cliVersionFacts("2.1.330"), first);
  assert.ok(Object.isFrozen(first) && Object.isFrozen(first.facts));
  assert.throws(() => {
    (first as { version: string }).version = "9.9.9";
  }, TypeError);
  assert.equal(cliVersionFacts("2.1.330").version, "2.1.330");
  // other versions their own answers, also after many versions were asked (a bounded cache)
  for (let n = 0; n < 200; n++) assert.equal(cliVersionFacts(`3.0.${n}`).version, `3.0.${n}`);
  assert.equal(cliVersionFacts("2.1.331").basis, "2.1.331");
  assert.equal(cliVersionFacts("2.1.330").basis, "2.1.328");
});

Deno.test("CLI_VERSION_HISTORY: the first row has every fact, later rows only change them", () => {
  const [first, ...later] = CLI_VERSION_HISTORY;
  const keys = Object.keys(first.changes).sort();
  for (const row of later) {
    for (const key of Object.keys(row.changes)) assert.ok(keys.includes(key), key);
  }
  for (const version of KNOWN_CLI_VERSIONS) {
    assert.deepEqual(Object.keys(cliVersionFacts(version).facts).sort(), keys);
  }
});

Deno.test("cliVersionOfSdk: the known pairs, then SDK 0.3.N bundles CLI 2.1.N", () => {
  assert.equal(cliVersionOfSdk("0.3.328"), "2.1.328");
  assert.equal(cliVersionOfSdk("0.3.345"), "2.1.345");
  assert.equal(cliVersionOfSdk("0.4.1"), undefined);
});

Deno.test("resolveCliVersion: option, CLAUDE_MOCK_VERSION, the SDK's env, the installed SDK, the newest", () => {
  const sdk = { version: "0.3.331", cliVersion: "2.1.331" };
  assert.deepEqual(
    [resolveCliVersion({ version: "2.1.328", env: { CLAUDE_MOCK_VERSION: "2.1.331" } })]
      .map((r) => [r.cli.version, r.source]),
    [["2.1.328", "option"]],
  );
  const env = { CLAUDE_MOCK_VERSION: "2.1.331", CLAUDE_AGENT_SDK_VERSION: "0.3.328" };
  assert.equal(resolveCliVersion({ env }).source, "CLAUDE_MOCK_VERSION");
  let looked = 0;
  const lookup = () => (looked++, sdk);
  const bySdk = resolveCliVersion({
    env: { CLAUDE_AGENT_SDK_VERSION: "0.3.328" },
    installedSdk: lookup,
  });
  assert.deepEqual([bySdk.cli.version, bySdk.source, looked], [
    "2.1.328",
    "CLAUDE_AGENT_SDK_VERSION",
    0,
  ]);
  const installed = resolveCliVersion({ env: {}, installedSdk: lookup });
  assert.deepEqual([installed.cli.version, installed.source, looked], [
    "2.1.331",
    "installed SDK",
    1,
  ]);
  const none = resolveCliVersion({ env: {}, installedSdk: () => undefined });
  assert.deepEqual([none.cli.version, none.source], [NEWEST_CLI_VERSION, "default"]);
  // an empty override counts as none
  assert.equal(resolveCliVersion({ env: { CLAUDE_MOCK_VERSION: "" } }).source, "default");
  assert.throws(
    () => resolveCliVersion({ env: { CLAUDE_MOCK_VERSION: "v2" } }),
    /Cannot impersonate CLI version "v2" \(CLAUDE_MOCK_VERSION\)/,
  );
});

Deno.test("cliVersionFacts: 2.1.331's context baseline, its deferred tools as 2.1.332's", () => {
  // /context on the real 2.1.331 (tests/fixtures/real/conform/slash_context.*.v2.1.331.jsonl):
  // the deferred tools 3994 under the SDK, 3993 in print mode; the built-in tools as 2.1.328
  const facts = cliVersionFacts("2.1.331").facts.contextUsage;
  assert.equal(facts.plain.systemToolsDeferred, 3993);
  assert.equal(
    facts.plain.systemTools,
    cliVersionFacts("2.1.328").facts.contextUsage.plain.systemTools,
  );
  assert.equal(facts.withPermissionPrompts.systemToolsDeferred, 4724);
});
