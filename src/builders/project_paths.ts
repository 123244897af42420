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
  return path.replace(/[^a-zA-Z0-9]/g, "-");
}
