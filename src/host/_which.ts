/**
 * Whether a command can be found as a program to run: a bare name on the `PATH` of the
 * environment given (the real CLI's check before it starts a stdio MCP server); a name with a
 * slash is taken as found. The host layer: it imports nothing of the project. Internal.
 *
 * @module
 */

/** Whether `path` is an executable file. */
export type IsExecutable = (path: string) => boolean;

/** Whether `command` is found on `PATH` (a name with a `/` always is). */
export function commandOnPath(
  command: string,
  { path, isExecutable = isExecutableFile }: {
    path: string | undefined;
    isExecutable?: IsExecutable;
  },
): boolean {
  if (command.includes("/")) return true;
  if (command === "") return false;
  for (const dir of (path ?? "").split(":")) {
    if (dir !== "" && isExecutable(`${dir.replace(/\/$/, "")}/${command}`)) return true;
  }
  return false;
}

interface StatLike {
  isFile?: boolean | (() => boolean);
  mode?: number | null;
}

/** Whether `path` is a file anyone may execute (Deno's or Node's synchronous stat). */
export function isExecutableFile(path: string): boolean {
  const g = globalThis as {
    Deno?: { statSync(path: string): StatLike };
    process?: { getBuiltinModule?: (id: string) => { statSync(path: string): StatLike } };
  };
  const stat = g.Deno?.statSync ?? g.process?.getBuiltinModule?.("node:fs")?.statSync;
  // no way to look: every command is taken as there
  if (!stat) return true;
  try {
    const s = stat(path);
    const file = typeof s.isFile === "function" ? s.isFile() : s.isFile;
    return file === true && ((s.mode ?? 0o777) & 0o111) !== 0;
  } catch {
    return false;
  }
}
