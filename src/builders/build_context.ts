/**
 * What frame builders need to fill in the fields every frame carries: ids, the session
 * id, the model, the working directory and the time.
 *
 * @module
 */

import type { Clock } from "../timing/clock.ts";
import { VIRTUAL_EPOCH } from "../timing/virtual_clock.ts";
import { IdGenerator } from "./ids.ts";
import { type CliVersion, cliVersionFacts, NEWEST_CLI_VERSION } from "./cli_versions.ts";

/** The default model name the mock reports (as the real CLI 2.1.328 did). */
export const DEFAULT_MODEL = "claude-opus-5-5";
/**
 * The CLI version the mock reports when nothing says which to impersonate: the newest
 * version the recordings cover (see `resolveCliVersion`).
 */
export const CLAUDE_CODE_VERSION: string = NEWEST_CLI_VERSION;
/** The default working directory the mock reports. */
export const DEFAULT_CWD = "/home/user/project";
/** The CLI's own temporary folder by default: `claude-<uid>` in `/tmp` (as recorded, uid 0). */
export const DEFAULT_TEMP_DIR = "/tmp/claude-0";

/**
 * The shared state frame builders read. Mutable on purpose: the engine changes `model`
 * and `permissionMode` when the SDK asks it to, and later frames report the change.
 */
export interface BuildContext {
  /** Id source. */
  ids: IdGenerator;
  /** The session id every frame carries. */
  sessionId: string;
  /** The model frames report. */
  model: string;
  /**
   * The model as the session was asked for it (`--model`, the settings' `model`) when the
   * CLI resolved it to another name (an alias, a remapped legacy id, spaces around it).
   */
  requestedModel?: string;
  /** The permission mode frames report. */
  permissionMode: string;
  /** The working directory frames report. */
  cwd: string;
  /**
   * The CLI's own temporary folder, where it keeps task output: `claude-<uid>` in
   * `CLAUDE_CODE_TMPDIR`, else in the system's temp folder (default {@linkcode DEFAULT_TEMP_DIR}).
   */
  tempDir?: string;
  /** Milliseconds since the epoch, for `timestamp` fields. */
  now(): number;
  /** The CLI version the frames impersonate, and its behaviour. */
  readonly cli: CliVersion;
}

/** Options for {@linkcode createBuildContext}. */
export interface BuildContextOptions {
  /** Seed for ids (default 0). */
  seed?: bigint | number;
  /** An id generator to use instead of one made from `seed`. */
  ids?: IdGenerator;
  /** The session id (default: drawn from the ids). */
  sessionId?: string;
  /** The model (default {@linkcode DEFAULT_MODEL}). */
  model?: string;
  /** The model as the session was asked for it, when it resolved to another name. */
  requestedModel?: string;
  /** The permission mode (default `default`). */
  permissionMode?: string;
  /** The working directory (default {@linkcode DEFAULT_CWD}). */
  cwd?: string;
  /** The CLI's own temporary folder (default {@linkcode DEFAULT_TEMP_DIR}). */
  tempDir?: string;
  /** A clock for timestamps (default: frozen at {@linkcode VIRTUAL_EPOCH}). */
  clock?: Pick<Clock, "now">;
  /**
   * The CLI version to impersonate (default {@linkcode CLAUDE_CODE_VERSION}): a version
   * string, or what `cliVersionFacts` returned.
   */
  cliVersion?: string | CliVersion;
}

/**
 * Makes a {@linkcode BuildContext}.
 *
 * @example A context for builders
 * ```ts
 * import { createBuildContext } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1, model: "claude-sonnet-5-5" });
 * console.log(ctx.sessionId, ctx.model);
 * ```
 */
export function createBuildContext(options: BuildContextOptions = {}): BuildContext {
  const ids = options.ids ?? new IdGenerator({ seed: options.seed ?? 0 });
  const clock = options.clock;
  return {
    ids,
    sessionId: options.sessionId ?? ids.sessionId(),
    model: options.model ?? DEFAULT_MODEL,
    ...(options.requestedModel !== undefined ? { requestedModel: options.requestedModel } : {}),
    permissionMode: options.permissionMode ?? "default",
    cwd: options.cwd ?? DEFAULT_CWD,
    tempDir: options.tempDir ?? DEFAULT_TEMP_DIR,
    now: clock ? () => clock.now() : () => VIRTUAL_EPOCH,
    cli: typeof options.cliVersion === "object"
      ? options.cliVersion
      : cliVersionFacts(options.cliVersion ?? CLAUDE_CODE_VERSION),
  };
}
