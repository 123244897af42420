import assert from "node:assert/strict";
import { flagOn, MOCK_ENV_VARIABLES, readMockEnv } from "./cli_env.ts";

Deno.test("readMockEnv: every knob's value is checked, the error names it and what it accepts", () => {
  const cases: Array<[string, string, RegExp]> = [
    [
      "CLAUDE_MOCK_CRASH_AFTER",
      "three",
      /a whole number of stdout lines \(0 or more\), got "three"/,
    ],
    ["CLAUDE_MOCK_CRASH_AFTER", "-1", /got "-1"/],
    ["CLAUDE_MOCK_CRASH_AFTER", "2.5", /got "2\.5"/],
    ["CLAUDE_MOCK_SPEED", "fast", /a number from 0 to 1000 \(the speed factor\), got "fast"/],
    ["CLAUDE_MOCK_SPEED", "-2", /got "-2"/],
    ["CLAUDE_MOCK_SPEED", "Infinity", /got "Infinity"/],
    ["CLAUDE_MOCK_SEED", "abc", /an integer \(decimal digits, an optional minus sign\), got "abc"/],
    ["CLAUDE_MOCK_SEED", "1.5", /got "1\.5"/],
    ["CLAUDE_MOCK_TIMING", "quick", /instant, fast, realistic or slow, got "quick"/],
    [
      "CLAUDE_MOCK_LIVE",
      "Bogus",
      /1, true, 0, false, or a comma-separated list of Read, Write, Edit, Bash, Glob, Grep, got "Bogus"/,
    ],
    ["CLAUDE_MOCK_LIVE", "Bash,Frob", /got "Bash,Frob"/],
    ["CLAUDE_MOCK_HANG", "yes", /CLAUDE_MOCK_HANG must be 1 or 0 \(true or false\), got "yes"/],
    ["CLAUDE_MOCK_IGNORE_SIGTERM", "2", /CLAUDE_MOCK_IGNORE_SIGTERM must be 1 or 0/],
    ["CLAUDE_MOCK_COMMANDS", "maybe", /CLAUDE_MOCK_COMMANDS must be on, off or live, got "maybe"/],
    ["CLAUDE_MOCK_RECORD", "please", /CLAUDE_MOCK_RECORD must be 1 or 0/],
  ];
  for (const [name, value, message] of cases) {
    assert.throws(
      () => readMockEnv({ [name]: value }),
      (error: Error) =>
        error.name === "CliUsageError" &&
        error.message.startsWith(`claude-mock: ${name} must be `) &&
        message.test(error.message),
      `${name}=${value}`,
    );
  }
});

Deno.test("readMockEnv: good values, and unset or empty ones, give the knobs", () => {
  assert.deepEqual(readMockEnv({}), {
    crashAfter: Infinity,
    hang: false,
    ignoreSigterm: false,
    commandHooks: true,
    warnings: [],
  });
  const knobs = readMockEnv({
    CLAUDE_MOCK_CRASH_AFTER: "3",
    CLAUDE_MOCK_SPEED: "0.5",
    CLAUDE_MOCK_SEED: "-42",
    CLAUDE_MOCK_TIMING: "slow",
    CLAUDE_MOCK_LIVE: "Bash,Read",
    CLAUDE_MOCK_HANG: "true",
    CLAUDE_MOCK_IGNORE_SIGTERM: "0",
    CLAUDE_MOCK_COMMANDS: "off",
    CLAUDE_MOCK_COMMAND_HOOKS: "0",
    CLAUDE_MOCK_SPEED_UNUSED: undefined,
  });
  assert.deepEqual(knobs, {
    crashAfter: 3,
    speed: 0.5,
    seed: -42n,
    timing: "slow",
    live: ["Bash", "Read"],
    hang: true,
    ignoreSigterm: false,
    commands: "off",
    commandHooks: false,
    warnings: [],
  });
  assert.equal(readMockEnv({ CLAUDE_MOCK_COMMAND_HOOKS: "TRUE" }).commandHooks, true);
  assert.throws(
    () => readMockEnv({ CLAUDE_MOCK_COMMAND_HOOKS: "no" }),
    /CLAUDE_MOCK_COMMAND_HOOKS must be 1 or 0 \(true or false\), got "no"/,
  );
  assert.equal(readMockEnv({ CLAUDE_MOCK_LIVE: "1" }).live, true);
  assert.equal(readMockEnv({ CLAUDE_MOCK_LIVE: "false" }).live, false);
  assert.equal(readMockEnv({ CLAUDE_MOCK_CRASH_AFTER: "" }).crashAfter, Infinity);
  assert.deepEqual([flagOn("1"), flagOn("TRUE"), flagOn("0"), flagOn(undefined)], [
    true,
    true,
    false,
    false,
  ]);
  assert.equal(Object.keys(MOCK_ENV_VARIABLES).every((n) => n.startsWith("CLAUDE_MOCK_")), true);
});

Deno.test("readMockEnv: a CLAUDE_MOCK_* name it does not know is a warning naming the closest", () => {
  const { warnings } = readMockEnv({ CLAUDE_MOCK_CRASHAFTER: "2", CLAUDE_MOCK_ZZZZZZZZZZZZ: "1" });
  assert.deepEqual(warnings, [
    "claude-mock: warning: CLAUDE_MOCK_CRASHAFTER is not a claude-mock variable, and is ignored (did you mean CLAUDE_MOCK_CRASH_AFTER?)",
    "claude-mock: warning: CLAUDE_MOCK_ZZZZZZZZZZZZ is not a claude-mock variable, and is ignored",
  ]);
});
