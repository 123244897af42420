/**
 * Whether a stdio MCP server's command can be started, as the real CLI finds out before it
 * starts one: a bare name is looked up on the `PATH` of the environment given; a path (a name
 * with a slash, relative to the cwd) must be an executable file. The host layer: it imports
 * nothing of the project. Internal.
 *
 * @module
 */

/** What a path is: an executable file, something else that is there, or nothing. */
export type PathKind = "executable" | "other" | "missing";

/** Whether a command can be started: `found`, `missing`, or there but `denied`. */
export type CommandState = "found" | "missing" | "denied";

/** The state of `command` (a bare name on `path`, or a path relative to `cwd`). */
export function commandState(
  command: string,
  { path, cwd, kind = pathKind }: { path: string | undefined; cwd: string; kind?: typeof pathKind },
): CommandState {
  if (command === "") return "missing";
  if (command.includes("/")) {
    const found = kind(normalized(command.startsWith("/") ? command : `${cwd}/${command}`));
    return found === "executable" ? "found" : found === "missing" ? "missing" : "denied";
  }
  for (const dir of (path ?? "").split(":")) {
    if (dir !== "" && kind(`${dir.replace(/\/$/, "")}/${command}`) === "executable") return "found";
  }
  return "missing";
}

/** An absolute path without `.` and `..` segments or doubled slashes. */
function normalized(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return `/${out.join("/")}`;
}

interface StatLike {
  isFile?: boolean | (() => boolean);
  mode?: number | null;
}

/** What `path` is (Deno's or Node's synchronous stat); with no way to look, an executable. */
export function pathKind(path: string): PathKind {
  const g = globalThis as {
    Deno?: { statSync(path: string): StatLike };
    process?: { getBuiltinModule?: (id: string) => { statSync(path: string): StatLike } };
  };
  const stat = g.Deno?.statSync ?? g.process?.getBuiltinModule?.("node:fs")?.statSync;
  if (!stat) return "executable";
  let s: StatLike;
  try {
    s = stat(path);
  } catch {
    return "missing";
  }
  const file = typeof s.isFile === "function" ? s.isFile() : s.isFile;
  return file === true && ((s.mode ?? 0o777) & 0o111) !== 0 ? "executable" : "other";
}
