/**
 * What the real CLI (2.1.328 to 2.1.332) says of a project's shared settings
 * (`.claude/settings.json` in the working directory) when the workspace is not trusted: with
 * project settings among its sources (the default; `--setting-sources` without `project` skips
 * them), each `permissions.allow` entry there is ignored, and one line on stderr says so and how
 * to trust the folder. `deny` and `ask` entries, and `.claude/settings.local.json`, draw no
 * warning. Internal.
 *
 * @internal
 * @module
 */

import { readText } from "../host/_fs.ts";

/** Where the settings and the trust are read, and the folder the session reports. */
export interface ProjectPlaces {
  /** The folder on disk the project's `.claude/settings.json` is read from. */
  dir: string;
  /** The working directory the session reports (named in the warning). */
  cwd: string;
  /** The config folder (its `.claude.json` says which projects are trusted). */
  config: string;
  /** `--setting-sources`, if given. */
  sources?: string;
}

/** The stderr warning of ignored project permission rules, or `undefined` for none. */
export async function untrustedSettingsWarning(
  places: ProjectPlaces,
): Promise<string | undefined> {
  if (places.sources !== undefined && !places.sources.split(",").includes("project")) {
    return undefined;
  }
  const settings = await readJson(`${places.dir}/.claude/settings.json`);
  const allow = (settings?.permissions as { allow?: unknown } | undefined)?.allow;
  if (!Array.isArray(allow) || allow.length === 0) return undefined;
  const config = `${places.config}/.claude.json`;
  const projects = (await readJson(config))?.projects as
    | Record<string, { hasTrustDialogAccepted?: unknown }>
    | undefined;
  if (projects?.[places.cwd]?.hasTrustDialogAccepted === true) return undefined;
  const entries = allow.length === 1
    ? "1 permissions.allow entry"
    : `${allow.length} permissions.allow entries`;
  return `Ignoring ${entries} from .claude/settings.json: this workspace has not been trusted. ` +
    `Run Claude Code interactively here once and accept the trust dialog, or set ` +
    `projects[${JSON.stringify(places.cwd)}].hasTrustDialogAccepted: true in ${config}.\n`;
}

/** A JSON object file's content; `undefined` when it is missing or not a JSON object. */
async function readJson(path: string): Promise<Record<string, unknown> | undefined> {
  try {
    const data = JSON.parse(await readText(path));
    return data !== null && typeof data === "object" && !Array.isArray(data) ? data : undefined;
  } catch {
    return undefined;
  }
}
