/**
 * The fake binary's own environment variables (`CLAUDE_MOCK_*`), read and checked in one
 * place before a run starts. A value the binary cannot use is refused with an error that
 * names the variable and says what it accepts (exit 1), never ignored: a fault-injection test
 * must not pass without its fault. A `CLAUDE_MOCK_*` name the project does not know (a typo)
 * is reported on stderr with the closest known name.
 *
 * @module
 */

import { editDistance } from "../scenario/_checks.ts";
import { SCENARIO_LIMITS } from "../scenario/scenario_limits.ts";
import type { TimingProfileName } from "../timing/timing_profile.ts";
import { LIVE_TOOLS } from "./live_tools.ts";
import { CliUsageError } from "./parse_argv.ts";

/** What `--mock-commands` / `CLAUDE_MOCK_COMMANDS` accept (see `SessionOptions.mockCommands`). */
export const MOCK_COMMANDS_MODES: readonly ["on", "off", "live"] = ["on", "off", "live"];

/** The binary's knobs, checked. */
export interface MockEnv {
  /** `CLAUDE_MOCK_CRASH_AFTER`: exit 1 once this many stdout lines were written (else `Infinity`). */
  crashAfter: number;
  /** `CLAUDE_MOCK_SPEED`: the speed factor, when set. */
  speed?: number;
  /** `CLAUDE_MOCK_SEED`: the seed, when set. */
  seed?: bigint;
  /** `CLAUDE_MOCK_TIMING`: a timing profile on the real clock, when set. */
  timing?: TimingProfileName;
  /** `CLAUDE_MOCK_LIVE`: run all live tools (`true`), none (`false`), or these; unset: the scenario's. */
  live?: boolean | string[];
  /** `CLAUDE_MOCK_HANG`: stay alive after the result. */
  hang: boolean;
  /** `CLAUDE_MOCK_IGNORE_SIGTERM`: only SIGKILL ends the run. */
  ignoreSigterm: boolean;
  /** `CLAUDE_MOCK_COMMANDS`: how `__mock__` prompts are taken, when set. */
  commands?: "on" | "off" | "live";
  /** `CLAUDE_MOCK_COMMAND_HOOKS`: whether the settings' command hooks run (default on). */
  commandHooks: boolean;
  /** Warnings for the run's stderr (unknown `CLAUDE_MOCK_*` names). */
  warnings: string[];
}

/**
 * Every `CLAUDE_MOCK_*` variable of the project (the binary's, and the library's that a
 * binary may inherit from a test process), with what it accepts.
 */
export const MOCK_ENV_VARIABLES: Readonly<Record<string, string>> = {
  CLAUDE_MOCK_SCENARIO: "a scenario file path or builtin:<name>",
  CLAUDE_MOCK_FAILURE: "a named failure",
  CLAUDE_MOCK_CAPTURE: "a file path",
  CLAUDE_MOCK_STATE_DIR: "a folder path the binary can write to",
  CLAUDE_MOCK_VERSION: "a version text",
  CLAUDE_MOCK_STDERR: "lines for stderr (\\n between them)",
  CLAUDE_MOCK_CRASH_AFTER: "a whole number of stdout lines (0 or more)",
  CLAUDE_MOCK_SPEED: `a number from 0 to ${SCENARIO_LIMITS.maxSpeedFactor} (the speed factor)`,
  CLAUDE_MOCK_SEED: "an integer (decimal digits, an optional minus sign)",
  CLAUDE_MOCK_TIMING: "instant, fast, realistic or slow",
  CLAUDE_MOCK_LIVE: `1, true, 0, false, or a comma-separated list of ${LIVE_TOOLS.join(", ")}`,
  CLAUDE_MOCK_HANG: "1 or 0 (true or false)",
  CLAUDE_MOCK_IGNORE_SIGTERM: "1 or 0 (true or false)",
  CLAUDE_MOCK_COMMANDS: "on, off or live",
  CLAUDE_MOCK_COMMAND_HOOKS: "1 or 0 (true or false)",
  CLAUDE_MOCK_RECORD: "1 or 0 (true or false)",
  CLAUDE_MOCK_REAL_CLAUDE: "a command path",
};

const TIMINGS: readonly string[] = ["instant", "fast", "realistic", "slow"];

/** Whether a 1/0 variable is on: `1` or `true` (case-insensitive); unset, `""`, `0`, `false` are off. */
export function flagOn(value: string | undefined): boolean {
  return value !== undefined && (value === "1" || value.toLowerCase() === "true");
}

/**
 * Reads and checks the `CLAUDE_MOCK_*` variables of `env`.
 *
 * @throws {CliUsageError} Naming the first variable whose value the binary cannot use, and
 *   what it accepts.
 */
export function readMockEnv(env: Record<string, string | undefined>): MockEnv {
  const refuse = (name: string, value: string): never => {
    throw new CliUsageError(
      `claude-mock: ${name} must be ${MOCK_ENV_VARIABLES[name]}, got ${JSON.stringify(value)}`,
    );
  };
  const set = (name: string) => {
    const value = env[name];
    return value === undefined || value === "" ? undefined : value;
  };
  const flag = (name: string): boolean => {
    const value = set(name);
    if (value === undefined) return false;
    if (!/^(1|0|true|false)$/i.test(value)) refuse(name, value);
    return flagOn(value);
  };
  const out: MockEnv = {
    crashAfter: Infinity,
    hang: flag("CLAUDE_MOCK_HANG"),
    ignoreSigterm: flag("CLAUDE_MOCK_IGNORE_SIGTERM"),
    commandHooks: set("CLAUDE_MOCK_COMMAND_HOOKS") === undefined ||
      flag("CLAUDE_MOCK_COMMAND_HOOKS"),
    warnings: [],
  };
  flag("CLAUDE_MOCK_RECORD");
  const crash = set("CLAUDE_MOCK_CRASH_AFTER");
  if (crash !== undefined) {
    if (!/^\d+$/.test(crash.trim()) || !Number.isSafeInteger(Number(crash))) {
      refuse("CLAUDE_MOCK_CRASH_AFTER", crash);
    }
    out.crashAfter = Number(crash);
  }
  const speed = set("CLAUDE_MOCK_SPEED");
  if (speed !== undefined) {
    const n = Number(speed);
    if (
      speed.trim() === "" || !Number.isFinite(n) || n < 0 || n > SCENARIO_LIMITS.maxSpeedFactor
    ) {
      refuse("CLAUDE_MOCK_SPEED", speed);
    }
    out.speed = n;
  }
  const seed = set("CLAUDE_MOCK_SEED");
  if (seed !== undefined) {
    if (!/^\s*-?\d+\s*$/.test(seed)) refuse("CLAUDE_MOCK_SEED", seed);
    out.seed = BigInt(seed.trim());
  }
  const timing = set("CLAUDE_MOCK_TIMING");
  if (timing !== undefined) {
    if (!TIMINGS.includes(timing)) refuse("CLAUDE_MOCK_TIMING", timing);
    out.timing = timing as TimingProfileName;
  }
  const live = set("CLAUDE_MOCK_LIVE");
  if (live !== undefined) {
    if (/^(1|true)$/i.test(live)) out.live = true;
    else if (/^(0|false)$/i.test(live)) out.live = false;
    else {
      const tools = live.split(",").map((t) => t.trim());
      if (tools.some((t) => !LIVE_TOOLS.includes(t))) refuse("CLAUDE_MOCK_LIVE", live);
      out.live = tools;
    }
  }
  const commands = set("CLAUDE_MOCK_COMMANDS");
  if (commands !== undefined) {
    if (!(MOCK_COMMANDS_MODES as readonly string[]).includes(commands)) {
      refuse("CLAUDE_MOCK_COMMANDS", commands);
    }
    out.commands = commands as MockEnv["commands"];
  }
  out.warnings.push(...unknownNames(env));
  return out;
}

/** Warnings for the `CLAUDE_MOCK_*` names of `env` the project does not know (typos). */
function unknownNames(env: Record<string, string | undefined>): string[] {
  const warnings: string[] = [];
  for (const name of Object.keys(env)) {
    if (!name.startsWith("CLAUDE_MOCK_") || name in MOCK_ENV_VARIABLES || env[name] === undefined) {
      continue;
    }
    const closest = closestName(name);
    warnings.push(
      `claude-mock: warning: ${name} is not a claude-mock variable, and is ignored${
        closest ? ` (did you mean ${closest}?)` : ""
      }`,
    );
  }
  return warnings;
}

/** The known name nearest to `name` (edit distance at most 3), if any. */
function closestName(name: string): string | undefined {
  let best: string | undefined;
  let bestDistance = 4;
  for (const known of Object.keys(MOCK_ENV_VARIABLES)) {
    const d = editDistance(name, known);
    if (d < bestDistance) [best, bestDistance] = [known, d];
  }
  return best;
}
