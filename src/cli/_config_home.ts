/**
 * What the real CLI keeps in its config folder besides the transcripts, kept by the fake binary
 * as the real one keeps it (surveyed with the real CLI 2.1.328 and 2.1.332, which agree):
 *
 * - `.claude.json`, made at the first run that gets past the command line (a refused flag or
 *   `--version` makes nothing; a refused mode, a missing prompt or an unknown `--resume` do):
 *   first start time and version, machine and user ids, migrations, the built-in plugins' usage.
 *   Its first text is kept as `backups/.claude.json.backup.<ms>`; a later run changes nothing.
 *   A file lacking some of these keys gets them, its old text kept as the backup.
 * - A file that is not JSON stops the run (exit 1) with the real CLI's message, kept as
 *   `backups/.claude.json.corrupted.<ms>`; an empty one is noted on stderr and started anew.
 * - `plugins/store/cc-plugin-agents-md_builtin-b049b47b3618.json`, written by every session
 *   (with `--no-session-persistence` too): the session's id.
 *
 * Times come from the run's clock (the virtual epoch unless the timing is paced) and ids from
 * its seed: the same run leaves the same files. Internal.
 *
 * @module
 */

import { mkdirp, readDir, readSmallText, replaceSmallText } from "../host/_fs.ts";
import { randomSeeded } from "../random/pcg32.ts";
import { isoTime } from "../timing/_iso_time.ts";
import { CliUsageError } from "./parse_argv.ts";

/** What the config folder's files are made of. */
export interface ConfigHomeOptions {
  /** The CLI version the run impersonates (`firstStartVersion`). */
  version: string;
  /** The run's clock reading (ms since the epoch). */
  now: number;
  /** The run's seed: the machine and user ids. */
  seed: bigint;
}

/** The built-in plugins whose usage `.claude.json` counts, as CLI 2.1.328–2.1.332 list them. */
const BUILTIN_PLUGINS = [
  "cc-plugin-agents-md@builtin",
  "cc-plugin-privacy@builtin",
  "cc-plugin-plugin-authoring@builtin",
];
/** The store file of the built-in agents-md plugin (the same name in 2.1.328 and 2.1.332). */
export const PLUGIN_STORE_FILE = "plugins/store/cc-plugin-agents-md_builtin-b049b47b3618.json";
/** `migrationVersion` of CLI 2.1.328–2.1.332. */
const MIGRATION_VERSION = 15;

/**
 * Makes or completes `.claude.json` in `dir` as the real CLI does at start-up; resolves with
 * a notice for stderr (an empty file), or rejects with the real CLI's error (a file that is
 * not JSON).
 */
export async function prepareConfigHome(
  dir: string,
  options: ConfigHomeOptions,
): Promise<string | undefined> {
  const path = `${dir}/.claude.json`;
  const text = await readSmallText(path);
  if (text === undefined) {
    await mkdirp(`${dir}/backups`);
    const first = firstStart(options);
    // the real CLI writes the first keys, then the rest: the backup holds the first write
    await replaceSmallText(`${dir}/backups/.claude.json.backup.${options.now}`, pretty(first));
    await replaceSmallText(path, pretty(completed(first, options)));
    return undefined;
  }
  if (text.trim() === "") {
    const fresh = { installMethod: "unknown", autoUpdates: true, ...firstStart(options) };
    await mkdirp(`${dir}/backups`);
    await replaceSmallText(`${dir}/backups/.claude.json.backup.${options.now}`, pretty(fresh));
    await replaceSmallText(path, pretty(completed(fresh, options)));
    return `Claude configuration file at ${path} was empty and no backup holds anything: ` +
      "starting with defaults.\n";
  }
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (error) {
    throw await corrupted(dir, { text, error, now: options.now });
  }
  // an array or a scalar is read as an object of its own keys, as the real CLI reads it
  const prior: Record<string, unknown> = typeof config === "object" && config !== null
    ? { ...config }
    : {};
  const next = withoutDefaults(completed({ ...prior, ...firstStart(options, prior) }, options));
  if (JSON.stringify(next) === JSON.stringify(config)) return undefined;
  await mkdirp(`${dir}/backups`);
  await replaceSmallText(`${dir}/backups/.claude.json.backup.${options.now}`, text);
  await replaceSmallText(path, pretty(next));
  return undefined;
}

/** Notes a session in the built-in plugins' store, as every real session does. */
export async function notePluginUse(dir: string, sessionId: string): Promise<void> {
  const path = `${dir}/${PLUGIN_STORE_FILE}`;
  await mkdirp(path.slice(0, path.lastIndexOf("/")));
  await replaceSmallText(
    path,
    `${pretty({ "usage-rows-queued": `${sessionId} claude-md-or-agents-md ok` })}\n`,
  );
}

function firstStart(
  { version, now }: ConfigHomeOptions,
  prior: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    firstStartTime: prior.firstStartTime ?? isoTime(now),
    firstStartVersion: prior.firstStartVersion ?? version,
  };
}

/**
 * The global settings' defaults of CLI 2.1.328–2.1.332 (the same in both): a key whose value is
 * its default (compared as JSON text, so key order counts) is left out when the CLI writes the
 * file (`"theme": "dark"`, `"verbose": false`, `"numStartups": 0`, …), as surveyed.
 */
const GLOBAL_DEFAULTS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries({
    numStartups: 0,
    theme: "dark",
    preferredNotifChannel: "auto",
    verbose: false,
    editorMode: "normal",
    autoCompactEnabled: true,
    autoScrollEnabled: true,
    showTurnDuration: true,
    externalEditorContext: false,
    showMessageTimestamps: false,
    hasSeenTasksHint: false,
    hasUsedStash: false,
    hasUsedBackgroundTask: false,
    queuedCommandUpHintCount: 0,
    diffTool: "auto",
    customApiKeyResponses: { approved: [], rejected: [] },
    env: {},
    tipsHistory: {},
    memoryUsageCount: 0,
    promptQueueUseCount: 0,
    btwUseCount: 0,
    todoFeatureEnabled: true,
    showExpandedTodos: false,
    briefTranscript: false,
    messageIdleNotifThresholdMs: 60000,
    autoConnectIde: false,
    autoInstallIdeExtension: true,
    fileCheckpointingEnabled: true,
    terminalProgressBarEnabled: true,
    cachedDynamicConfigs: {},
    cachedFeatureFlags: {},
    respectGitignore: true,
    copyFullResponse: false,
  }).map(([key, value]) => [key, JSON.stringify(value)]),
);

/** `config` without the keys whose values are the CLI's defaults. */
function withoutDefaults(config: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(config).filter(([key, value]) =>
      !Object.hasOwn(GLOBAL_DEFAULTS, key) || JSON.stringify(value) !== GLOBAL_DEFAULTS[key]
    ),
  );
}

/** The keys every run's `.claude.json` has after start-up, added where missing. */
function completed(
  config: Record<string, unknown>,
  { now, seed }: ConfigHomeOptions,
): Record<string, unknown> {
  const random = randomSeeded(seed);
  const hex = () =>
    Array.from({ length: 32 }, () => Math.floor(random() * 256).toString(16).padStart(2, "0"))
      .join("");
  const machineID = hex();
  const userID = hex();
  const startups = typeof config.numStartups === "number" ? config.numStartups : 0;
  const usage = (config.pluginUsage ?? {}) as Record<string, unknown>;
  return {
    ...config,
    machineID: config.machineID ?? machineID,
    opusProMigrationComplete: true,
    seenNotifications: config.seenNotifications ?? {},
    hasResetAutoModeOptInForDefaultOffer: true,
    migrationVersion: Math.max(Number(config.migrationVersion) || 0, MIGRATION_VERSION),
    userID: typeof config.userID === "string" && /^[0-9a-f]{64}$/.test(config.userID)
      ? config.userID
      : userID,
    pluginUsage: Object.fromEntries([
      ...Object.entries(usage),
      ...BUILTIN_PLUGINS.filter((name) => !(name in usage)).map((name) => [name, {
        usageCount: 0,
        lastUsedAt: now,
        lastUsedNumStartups: startups,
      }]),
    ]),
  };
}

/** The real CLI's error for a `.claude.json` that is not JSON; keeps the file's text aside. */
async function corrupted(
  dir: string,
  { text, error, now }: { text: string; error: unknown; now: number },
): Promise<CliUsageError> {
  const path = `${dir}/.claude.json`;
  const kept = `${dir}/backups/.claude.json.corrupted.${now}`;
  await mkdirp(`${dir}/backups`);
  const names = await readDir(`${dir}/backups`).catch(() => [] as string[]);
  // as the real CLI: a text kept by an earlier run is not kept again (2.1.332)
  const already = await keptBefore(dir, names, text);
  if (!already) await replaceSmallText(kept, text);
  const reason = `JSON Parse error: ${jsonParseError(text, error)}`;
  const backups = names
    .filter((name) => /^\.claude\.json\.backup\.\d+$/.test(name))
    .sort((a, b) => Number(a.slice(19)) - Number(b.slice(19)));
  const backup = backups.length > 0 ? `${dir}/backups/${backups.at(-1)}` : undefined;
  const lines = [
    "",
    `Claude configuration file at ${path} is corrupted: ${reason}`,
    already
      ? "The corrupted file has already been backed up."
      : `The corrupted file has been backed up to: ${kept}`,
    ...(backup === undefined ? [] : [
      `A backup file exists at: ${backup}`,
      `You can manually restore it by running: cp -f "${backup}" "${path}"`,
    ]),
    "",
    `Configuration error in ${path}: ${reason}`,
    ...(backup === undefined
      ? [
        "No backup of this file was found.",
        `Fix the JSON in ${path}, or move the file aside to start with default settings.`,
      ]
      : []),
  ];
  return new CliUsageError(lines.join("\n"));
}

/** Whether a `.claude.json.corrupted.<ms>` among `names` in `dir/backups` holds `text`. */
async function keptBefore(dir: string, names: string[], text: string): Promise<boolean> {
  for (const name of names) {
    if (!/^\.claude\.json\.corrupted\.\d+$/.test(name)) continue;
    const earlier = await readSmallText(`${dir}/backups/${name}`).catch(() => undefined);
    if (earlier === text) return true;
  }
  return false;
}

/**
 * The real CLI's words for a JSON text it cannot parse (its runtime's JSON parser): V8's
 * message read back into them for the common faults, the parser's general words otherwise.
 */
export function jsonParseError(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/non-whitespace character after JSON/.test(message)) return "Unable to parse JSON string";
  if (/double-quoted property name/.test(message)) return "Property name must be a string literal";
  if (/property name or '\}'/.test(message)) return "Expected '}'";
  // the real parser reads a word as an identifier before it finds what else is wrong
  const word = bareWord(text);
  if (word !== undefined) return `Unexpected identifier "${word}"`;
  if (/end of JSON input|Unterminated string/.test(message)) return "Unexpected EOF";
  const expected = /Expected ',' or '([\]}])'/.exec(message)?.[1];
  if (expected !== undefined) return `Expected '${expected}'`;
  const escaped = /Bad escaped character in JSON at position (\d+)/.exec(message)?.[1];
  if (escaped !== undefined) return `Invalid escape character ${text[Number(escaped)]}`;
  const token = /Unexpected token '(.)'/.exec(message)?.[1];
  if (token !== undefined) return `Unrecognized token '${token}'`;
  return "Unable to parse JSON string";
}

/** The first word outside strings that is not `true`, `false` or `null`. */
function bareWord(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      continue;
    }
    const word = /^[A-Za-z_$][\w$]*/.exec(text.slice(i, i + 256))?.[0];
    if (word === undefined) continue;
    if (word !== "true" && word !== "false" && word !== "null") return word;
    i += word.length - 1;
  }
  return undefined;
}

function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
