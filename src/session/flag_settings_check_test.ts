import assert from "node:assert/strict";
import { checkFlagSettings, flagSettingsWarning } from "./flag_settings_check.ts";
import { cliVersionFacts } from "../builders/cli_versions.ts";
import { Session } from "./session.ts";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";

const V332 = cliVersionFacts("2.1.332").facts;
const V328 = cliVersionFacts("2.1.328").facts;
const SOURCE = "  --settings (inline JSON)";
const FAILED_332 =
  "These settings did not load, so nothing in them is in effect, including hooks, " +
  "permission rules and sandbox settings, though environment variables they already set can stay:";
const FOOTER = "Fix each problem listed, then start Claude Code again. For settings sent with " +
  "applyFlagSettings, shown as SDK inline settings, send them again instead.";
const GUARD = " \u2014 a PreToolUse/PermissionRequest hook that cannot be loaded may be what " +
  "guards the permissions declared beside it, so nothing it sits in is applied until the entry " +
  "is fixed or removed.";

/** stderr of `claude -p hi --settings <json>` (text output), as the real CLI 2.1.332 wrote it. */
const RECORDED_332: [string, string[]][] = [
  ['{"permissions":{"allow":5}}', ["(permissions.allow): Expected array, but received number"]],
  ['{"model":null}', ["(model): Expected string, but received null"]],
  ['{"env":5}', ["(env): Expected record, but received number"]],
  ['{"permissions":5}', ["(permissions): Expected object, but received number"]],
  [
    '{"permissions":{"ask":3,"defaultMode":"zz","deny":2,"allow":1,"additionalDirectories":5}}',
    [
      "(permissions.allow): Expected array, but received number",
      "(permissions.deny): Expected array, but received number",
      "(permissions.ask): Expected array, but received number",
      '(permissions.defaultMode): Invalid value. Expected one of: "acceptEdits", "auto", ' +
      '"bypassPermissions", "default", "dontAsk", "plan"',
      "(permissions.additionalDirectories): Expected array, but received number",
    ],
  ],
  [
    '{"model":5,"env":5,"hooks":{"PreToolUse":"x"},"permissions":5,"apiKeyHelper":5,' +
    '"cleanupPeriodDays":"x","includeCoAuthoredBy":"x"}',
    [
      `(hooks.PreToolUse): Hook event "PreToolUse" must be an array of matchers; received string${GUARD}`,
      "(apiKeyHelper): Expected string, but received number",
      "(cleanupPeriodDays): Expected number, but received string",
      "(env): Expected record, but received number",
      "(includeCoAuthoredBy): Expected boolean, but received string",
      "(permissions): Expected object, but received number",
      "(model): Expected string, but received number",
      "(hooks.PreToolUse): Expected array, but received string",
    ],
  ],
  // a skipped entry is not listed when the settings do not load
  ['{"hooks":5,"model":5}', ["(model): Expected string, but received number"]],
];

Deno.test("checkFlagSettings: settings that do not load, listed as the real CLI 2.1.332 lists them", () => {
  for (const [settings, lines] of RECORDED_332) {
    const check = checkFlagSettings(settings);
    assert.equal(check.settings, undefined, settings);
    assert.equal(
      flagSettingsWarning(check, V332),
      [FAILED_332, ...lines.map((l) => `${SOURCE} ${l}`), FOOTER].join("\n") + "\n",
      settings,
    );
  }
});

Deno.test("checkFlagSettings: skipped entries leave the rest in effect", () => {
  const check = checkFlagSettings(
    '{"permissions":{"allow":[5,"Bash(ls)",6],"deny":[1]},"hooks":{"Stop":"x","Bogus":[]},"x":1}',
  );
  assert.equal(check.failed, false);
  assert.deepEqual(JSON.parse(check.settings!), {
    permissions: { allow: ["Bash(ls)"], deny: [] },
    hooks: {},
    x: 1,
  });
  const warning = flagSettingsWarning(check, V328)!.split("\n");
  // 2.1.328's heading, no closing line
  assert.equal(
    warning[0],
    "These settings entries were skipped; the rest of each file is in effect:",
  );
  assert.deepEqual(warning.slice(1, 5), [
    `${SOURCE} (permissions.allow): Non-string value in allow array was removed`,
    `${SOURCE} (permissions.deny): Non-string value in deny array was removed`,
    `${SOURCE} (hooks.Stop): Hook event "Stop" must be an array of matchers; received string. ` +
    "This entry was ignored.",
    `${SOURCE} (hooks.Bogus): Unknown hook event "Bogus" was ignored. Valid events: PreToolUse, ` +
    "PostToolUse, PostToolUseFailure, PostToolBatch, Notification, UserPromptSubmit, " +
    "UserPromptExpansion, SessionStart, SessionEnd, Stop, StopFailure, SubagentStart, SubagentStop, " +
    "PreCompact, PostCompact, PreModelSwitch, PostModelSwitch, PermissionRequest, PermissionDenied, " +
    "Setup, TeammateIdle, TaskCreated, TaskCompleted, Elicitation, ElicitationResult, ConfigChange, " +
    "WorktreeCreate, WorktreeRemove, InstructionsLoaded, CwdChanged, FileC",
  ]);
  assert.equal(warning[5], "");
  const hooks = checkFlagSettings('{"hooks":[1]}');
  assert.equal(hooks.settings, "{}");
  assert.match(
    hooks.lines[0],
    /\(hooks\): "hooks" must be an object .* received array\. This field/,
  );
  // nothing to say: the text as given
  const fine = '{"permissions":{"allow":["Read"]},"env":{"A":5},"unknownKey":1}';
  assert.deepEqual(checkFlagSettings(fine), { settings: fine, failed: false, lines: [] });
  assert.equal(checkFlagSettings("/path/settings.json").settings, "/path/settings.json");
});

Deno.test("a session given --settings of the wrong shape starts, without them", () => {
  const scenario = new ScenarioBuilder().on("hi").respond("Hi.").build();
  // before: TypeError: Cannot start a session: Cannot read --settings: 'permissions.allow' …
  const session = new Session(scenario, {
    args: ["--settings", '{"permissions":{"allow":5},"model":"haiku"}'],
  });
  // the settings' model is not in effect either
  assert.equal(session.ctx.model, "claude-opus-5-5");
  assert.equal(session.ctx.cli.facts.settingsNotice, true);
});
