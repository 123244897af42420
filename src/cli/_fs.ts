/**
 * The few file operations the fake binary needs: Deno's own API when it runs on Deno (loading
 * `node:fs` costs Deno about 30 ms of start-up), `node:fs/promises` on Node. Internal.
 *
 * @module
 */

interface DenoFs {
  mkdir(path: string, options: { recursive: boolean }): Promise<void>;
  readDir(path: string): AsyncIterable<{ name: string }>;
  open(path: string, options: { write: boolean; createNew: boolean }): Promise<{ close(): void }>;
  stat(path: string): Promise<{ isFile: boolean; mtime: Date | null }>;
  writeTextFile(path: string, data: string, options: { append: boolean }): Promise<void>;
  readTextFile(path: string): Promise<string>;
}

const deno = (globalThis as { Deno?: DenoFs }).Deno;
type NodeFs = typeof import("node:fs/promises");
let node: Promise<NodeFs> | undefined;
const nodeFs = () => (node ??= import("node:fs/promises"));

/** The error code of a failed operation (`EEXIST`, `ENOENT`), on Deno and Node alike. */
export function errorCode(error: unknown): string | undefined {
  const e = error as { code?: string; name?: string };
  if (e?.code) return e.code;
  if (e?.name === "AlreadyExists") return "EEXIST";
  if (e?.name === "NotFound") return "ENOENT";
  return undefined;
}

/** `mkdir -p`. */
export async function mkdirp(path: string): Promise<void> {
  if (deno) await deno.mkdir(path, { recursive: true });
  else await (await nodeFs()).mkdir(path, { recursive: true });
}

/** The names in a folder. */
export async function readDir(path: string): Promise<string[]> {
  if (!deno) return await (await nodeFs()).readdir(path);
  const names: string[] = [];
  for await (const entry of deno.readDir(path)) names.push(entry.name);
  return names;
}

/** Creates a file that must not exist yet (throws with code `EEXIST` if it does). */
export async function createNew(path: string): Promise<void> {
  if (deno) (await deno.open(path, { write: true, createNew: true })).close();
  else await (await (await nodeFs()).open(path, "wx")).close();
}

/** Whether `path` is a file, and when it last changed (ms). */
export async function fileTime(path: string): Promise<number | undefined> {
  try {
    if (deno) {
      const info = await deno.stat(path);
      return info.isFile ? info.mtime?.getTime() ?? 0 : undefined;
    }
    const info = await (await nodeFs()).stat(path);
    return info.isFile() ? info.mtimeMs : undefined;
  } catch {
    return undefined;
  }
}

/** Appends text to a file (one write). */
export async function appendText(path: string, text: string): Promise<void> {
  if (deno) await deno.writeTextFile(path, text, { append: true });
  else await (await nodeFs()).appendFile(path, text);
}

/** A file's text. */
export async function readText(path: string): Promise<string> {
  return deno ? await deno.readTextFile(path) : await (await nodeFs()).readFile(path, "utf8");
}
