/**
 * What an engine is built from, checked and worked out as the session starts: the clock, the
 * seeded generators, the timing, the CLI version, the build context. A bad option fails the
 * start, saying which and why.
 *
 * @module
 */

import { checkFlagSettings, type FlagSettingsCheck } from "./flag_settings_check.ts";
import { parseAgentsFlag } from "./session_agents.ts";
import { type BuildContext, createBuildContext, DEFAULT_MODEL } from "../builders/build_context.ts";
import { IdGenerator } from "../builders/ids.ts";
import { cliTempDir } from "../builders/project_paths.ts";
import { modelCatalogOf, resolveSessionModel } from "../builders/model_catalog.ts";
import { resolveCliVersion } from "../builders/cli_versions.ts";
import { Pcg32 } from "../random/pcg32.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { SCENARIO_LIMITS } from "../scenario/scenario_limits.ts";
import { rulesFromSettings } from "../scenario/permission_rules.ts";
import type { Clock } from "../timing/clock.ts";
import { getDefaults } from "../timing/defaults.ts";
import { SystemClock } from "../timing/system_clock.ts";
import { type TimingProfile, timingProfile } from "../timing/timing_profile.ts";
import { VirtualClock } from "../timing/virtual_clock.ts";
import type { CliFlags } from "./cli_args.ts";
import type { WriteLog } from "./write_log.ts";
import type { SessionSettings } from "./session_settings.ts";

/** What the engine is built from: the session's settings, its scenario and command line. */
export interface EngineOptions extends SessionSettings {
  /** The scenario (validated). */
  scenario: Scenario;
  /** The parsed command line. */
  flags: CliFlags;
  /** The environment the client spawned the process with. */
  env: Record<string, string | undefined>;
  /** The write log the session exposes. */
  writes: WriteLog;
}

/** The options an engine starts from, checked and worked out. */
export interface EngineStart {
  /** How `__mock__` prompts are taken. */
  mockCommands: "on" | "off" | "live";
  /** The session clock. */
  clock: Clock;
  /** The session's timing profile. */
  profile: TimingProfile;
  /** The speed factor. */
  speed: number;
  /** Real-time limit for the client's answers (ms). */
  controlTimeoutMs: number;
  /** Ids, session id, model, permission mode, cwd, time. */
  ctx: BuildContext;
  /** The timing jitter's generator (its own stream of the seed). */
  jitter: Pcg32;
  /** What the check of `--settings` found (entries skipped, or the settings not loaded). */
  settingsCheck: FlagSettingsCheck;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Checks and works out what an engine starts from, in the order the options fail. */
export function engineStart(options: EngineOptions): EngineStart {
  const { scenario, flags } = options;
  const defaults = getDefaults();
  const mockCommands = checkMockCommands(options.mockCommands ?? "on");
  const clock = options.clock === "system"
    ? new SystemClock()
    : options.clock === "virtual" || options.clock === undefined
    ? new VirtualClock()
    : options.clock;
  const seed = options.seed ?? scenario.seed ?? defaults.seed;
  const profile = timingProfile(options.timing ?? scenario.timing ?? defaults.timing);
  const speed = checkSpeed(options.speedFactor ?? scenario.speedFactor ?? defaults.speedFactor);
  // as the CLI: entries it cannot use skipped, or none of the settings in effect
  const settingsCheck = checkFlagSettings(flags.settings);
  if (settingsCheck.settings === undefined) delete flags.settings;
  else flags.settings = settingsCheck.settings;
  checkSettings(flags.settings);
  if (flags.agents !== undefined) parseAgentsFlag(flags.agents);
  const controlTimeoutMs = checkControlTimeout(options.controlTimeoutMs ?? 60_000);
  const cli = cliVersionOf(options);
  const pcg = seededPcg(seed);
  const jitter = new Pcg32(
    typeof seed === "bigint" ? seed ^ 0x9e3779b9n : BigInt(seed) + 0x9e3779b9n,
  );
  // as the CLI: --model (or the settings' model) resolved (an alias, a remapped legacy id)
  const asked = flags.model ?? settingsModel(flags.settings);
  const chosen = scenario.model === undefined && asked !== undefined
    ? resolveSessionModel(asked, modelCatalogOf(cli), options.env ?? {})
    : undefined;
  const ctx = createBuildContext({
    ids: new IdGenerator({ prng: () => pcg.nextFloat() }),
    // as the real CLI: a resumed session keeps its id, unless --fork-session
    sessionId: scenario.sessionId ?? flags.sessionId ??
      (flags.resume !== undefined && UUID.test(flags.resume) && !flags.forkSession
        ? flags.resume
        : undefined),
    model: scenario.model ?? chosen?.model ?? DEFAULT_MODEL,
    ...(chosen && chosen.model !== asked ? { requestedModel: asked } : {}),
    permissionMode: flags.permissionMode ?? "default",
    cwd: scenario.cwd,
    tempDir: cliTempDir(options.env, processUid()),
    clock,
    cliVersion: cli,
  });
  return { mockCommands, clock, profile, speed, controlTimeoutMs, ctx, jitter, settingsCheck };
}

function checkMockCommands(commands: unknown): "on" | "off" | "live" {
  if (commands !== "on" && commands !== "off" && commands !== "live") {
    throw new RangeError(
      `Cannot start a session: 'mockCommands' must be "on", "off" or "live", got ${
        JSON.stringify(commands)
      }`,
    );
  }
  return commands;
}

function checkSpeed(speed: number): number {
  const maxSpeed = SCENARIO_LIMITS.maxSpeedFactor;
  if (typeof speed !== "number" || !(speed >= 0) || !(speed <= maxSpeed)) {
    throw new RangeError(
      `Cannot start a session: 'speedFactor' must be a number from 0 to ${maxSpeed}, got ${speed}`,
    );
  }
  return speed;
}

/** Reads `--settings` now, so a bad one fails the start, not a turn that blames its steps. */
function checkSettings(settings: string | undefined): void {
  try {
    rulesFromSettings(settings);
  } catch (error) {
    const Class = error instanceof SyntaxError ? SyntaxError : TypeError;
    throw new Class(`Cannot start a session: ${(error as Error).message}`);
  }
}

function checkControlTimeout(controlTimeoutMs: number): number {
  if (
    typeof controlTimeoutMs !== "number" || !Number.isFinite(controlTimeoutMs) ||
    controlTimeoutMs <= 0 || controlTimeoutMs > 2 ** 31 - 1
  ) {
    throw new RangeError(
      `Cannot start a session: 'controlTimeoutMs' must be a number of ms from 1 to 2147483647, got ${controlTimeoutMs}`,
    );
  }
  return controlTimeoutMs;
}

/** The CLI version the session impersonates. */
function cliVersionOf(options: EngineOptions): ReturnType<typeof resolveCliVersion>["cli"] {
  try {
    return resolveCliVersion({
      version: options.cliVersion,
      env: options.env,
      installedSdk: options.installedSdk,
    }).cli;
  } catch (error) {
    throw new TypeError(`Cannot start a session: ${(error as Error).message}`);
  }
}

/** The ids' generator for `seed`. */
function seededPcg(seed: bigint | number): Pcg32 {
  try {
    return new Pcg32(seed);
  } catch (error) {
    const Class = error instanceof TypeError ? TypeError : RangeError;
    throw new Class(`Cannot start a session: ${(error as Error).message}`);
  }
}

/** The model a `--settings` JSON names, as given (resolved as `--model` is). */
function settingsModel(settings: string | undefined): string | undefined {
  if (!settings || !settings.trim().startsWith("{")) return undefined;
  try {
    const model = (JSON.parse(settings) as { model?: unknown }).model;
    return typeof model === "string" && model !== "" ? model : undefined;
  } catch {
    return undefined;
  }
}

/** The user id this process runs as (0 where the runtime does not tell, or may not). */
function processUid(): number {
  // asked by every session: once per process
  return uid ??= readUid();
}

let uid: number | undefined;

function readUid(): number {
  try {
    // Deno's own first: on Deno, `globalThis.process` loads the Node compatibility layer
    const deno = (globalThis as { Deno?: { uid?: () => number | null } }).Deno;
    if (deno) return deno.uid?.() ?? 0;
    const process = (globalThis as { process?: { getuid?: () => number } }).process;
    return process?.getuid?.() ?? 0;
  } catch {
    return 0;
  }
}
