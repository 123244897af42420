/**
 * `--settings` as the real CLI reads it before anything runs: JSON given as an object, or a file
 * path whose JSON replaces it; and its words when the config folder's settings cannot be read.
 *
 * @module
 */

import { CliUsageError, type ParsedArgv } from "./parse_argv.ts";

/**
 * The engine's arguments, with `--settings` resolved as the real CLI resolves it: JSON as
 * object given, anything else a file path (relative to the cwd) whose JSON replaces it. A file that
 * is not there is the real CLI's error (`Error: Settings file not found: <path>`, exit 1),
 * before anything runs: `--settings '{not json'` is such a path.
 */
export async function withSettingsFile(
  parsed: ParsedArgv,
  cwd: string,
  readText: (path: string) => Promise<string>,
): Promise<string[]> {
  const args = [...parsed.args];
  const value = parsed.options.get("--settings");
  if (typeof value !== "string") return args;
  try {
    // (JSON that is no object, `[1]`, `5`, `null`, is a path too: 2.1.332)
    const json = JSON.parse(value);
    if (typeof json === "object" && json !== null && !Array.isArray(json)) return args;
  } catch {
    // not JSON: a path
  }
  const path = value.startsWith("/") ? value : `${cwd}/${value}`;
  let text: string;
  try {
    text = await readText(path);
  } catch {
    throw new CliUsageError(`Error: Settings file not found: ${path}`);
  }
  try {
    JSON.parse(text);
  } catch (error) {
    throw new CliUsageError(
      `Error: Settings file ${path} is not valid JSON: ${(error as Error).message}`,
    );
  }
  // the settings as the engine reads them: `--settings <json>` (the last one given wins)
  args.push("--settings", text);
  return args;
}

/** The real CLI's words (text output) when its config folder is a file, not a folder. */
export function settingsNotLoaded(home: string): string {
  return "These settings did not load, so nothing in them is in effect, including hooks, " +
    "permission rules and sandbox settings, though environment variables they already set can " +
    `stay:\n  ${home}/settings.json: Settings file could not be read: ENOTDIR: not a ` +
    `directory, stat '${home}/settings.json'\nFix each problem listed, then start Claude Code ` +
    "again. For settings sent with applyFlagSettings, shown as SDK inline settings, send them " +
    "again instead.\n";
}
