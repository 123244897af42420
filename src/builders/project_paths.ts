/**
 * Where the CLI keeps a project's files: the home directory the mock reports and the
 * CLI's project slug of a path.
 *
 * @module
 */

/** The home directory the mock reports (as scrubbed in the recordings). */
export const DEFAULT_HOME = "/home/user";

/**
 * The CLI's project slug of a path: every character other than a letter or digit becomes
 * `-` (`/home/user/project` → `-home-user-project`).
 *
 * @example A project slug
 * ```ts
 * import { projectSlug } from "./project_paths.ts";
 * console.log(projectSlug("/home/user/project")); // -home-user-project
 * ```
 */
export function projectSlug(path: string): string {
  // every character but [a-zA-Z0-9] becomes "-" (by char codes: no RegExp on the binary's
  // start-up path, where the first one costs about 0.1 ms)
  let slug = "";
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    const keep = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    slug += keep ? path[i] : "-";
  }
  return slug;
}

/**
 * The CLI's own temporary folder, as it names it: `claude-<uid>` in `CLAUDE_CODE_TMPDIR`,
 * else in the system's temp folder (`TMPDIR`, else `/tmp`).
 *
 * @example With and without CLAUDE_CODE_TMPDIR
 * ```ts
 * import { cliTempDir } from "./project_paths.ts";
 * console.log(cliTempDir({}, 1000)); // /tmp/claude-1000
 * console.log(cliTempDir({ CLAUDE_CODE_TMPDIR: "/var/cc/" }, 0)); // /var/cc/claude-0
 * ```
 */
export function cliTempDir(env: Readonly<Record<string, string | undefined>>, uid: number): string {
  const base = env.CLAUDE_CODE_TMPDIR || env.TMPDIR || "/tmp";
  return `${base.replace(/\/+$/, "") || "/"}/claude-${uid}`;
}
