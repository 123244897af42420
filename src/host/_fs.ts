/**
 * The few file operations the library needs (the fake binary, tapes, conformance runs): Deno's
 * own API when it runs on Deno (loading `node:fs` costs Deno about 30 ms of start-up), Node's
 * `node:fs` on Node. The host layer: it imports nothing of the project. Internal.
 *
 * @module
 */

interface DenoFs {
  mkdirSync(path: string, options: { recursive: boolean }): void;
  readDirSync(path: string): Iterable<{ name: string }>;
  openSync(
    path: string,
    options: { append: true; create: true },
  ): {
    writeSync(data: Uint8Array): number;
    seekSync(offset: number, whence: 1): number;
    close(): void;
  };
  statSync(path: string): { isFile: boolean; mtime: Date | null; size: number };
  readTextFile(path: string): Promise<string>;
  readTextFileSync(path: string): string;
  writeFileSync(path: string, data: Uint8Array, options: { mode: number }): void;
  renameSync(from: string, to: string): void;
}

// The small operations of a run (the invocation counter, the transcript) are synchronous:
// each asynchronous one is a round trip through a thread pool, and together they cost the fake
// binary about 4 ms of start-up on Deno; on Node `node:fs/promises` (a module outside Node's
// start-up snapshot) cost more. They stay promises for the callers' sake. Node's `node:fs` comes
// from `process.getBuiltinModule` where there is one (Node 20.16+): no module to load.
const deno = (globalThis as { Deno?: DenoFs }).Deno;
type NodeFs = typeof import("node:fs/promises");
type NodeSyncFs = typeof import("node:fs");
let node: Promise<NodeFs> | undefined;
const nodeFs = () => (node ??= import("node:fs/promises"));
let nodeSync: NodeSyncFs | Promise<NodeSyncFs> | undefined;
const syncFs = (): NodeSyncFs | Promise<NodeSyncFs> =>
  nodeSync ??= (globalThis as {
    process?: { getBuiltinModule?: (id: string) => NodeSyncFs | undefined };
  }).process?.getBuiltinModule?.("node:fs") ?? import("node:fs");

/** The error code of a failed operation (`EEXIST`, `ENOENT`), on Deno and Node alike. */
export function errorCode(error: unknown): string | undefined {
  const e = error as { code?: string; name?: string };
  if (e?.code) return e.code;
  if (e?.name === "AlreadyExists") return "EEXIST";
  if (e?.name === "NotFound") return "ENOENT";
  return undefined;
}

/**
 * `mkdir -p`. On Node, one folder at a time: Node's own `recursive` loops forever where a
 * parent exists but refuses children with `ENOENT` (`/proc/x` on Node 20).
 */
export async function mkdirp(path: string): Promise<void> {
  if (deno) deno.mkdirSync(path, { recursive: true });
  else mkdirEach(await syncFs(), path);
}

/** Node's `mkdir -p` by single `mkdir`s (exported for its test). Internal. */
export function mkdirEach(
  fs: { mkdirSync(path: string): unknown; statSync(path: string): { isDirectory(): boolean } },
  path: string,
): void {
  const mkdir = (p: string) => fs.mkdirSync(p);
  const isFolder = (p: string) => {
    try {
      return fs.statSync(p).isDirectory();
    } catch {
      return false;
    }
  };
  try {
    mkdir(path);
  } catch (error) {
    const code = errorCode(error);
    if (code === "EEXIST" && isFolder(path)) return;
    const parent = path.replace(/[\\/]+[^\\/]*[\\/]*$/, "");
    if (code !== "ENOENT" || parent === "" || parent === path) throw error;
    mkdirEach(fs, parent);
    try {
      mkdir(path); // once more, now that the parent is there: its error is the answer
    } catch (again) {
      if (!(errorCode(again) === "EEXIST" && isFolder(path))) throw again;
    }
  }
}

/** The names in a folder. */
export async function readDir(path: string): Promise<string[]> {
  if (!deno) return (await syncFs()).readdirSync(path);
  return Array.from(deno.readDirSync(path), (entry) => entry.name);
}

/** The size of a file in bytes (rejects when it cannot be read). */
export async function fileSize(path: string): Promise<number> {
  if (deno) return deno.statSync(path).size;
  return (await (await nodeFs()).stat(path)).size;
}

/** Whether `path` is a file, and when it last changed (ms). */
export async function fileTime(path: string): Promise<number | undefined> {
  try {
    if (deno) {
      const info = deno.statSync(path);
      return info.isFile ? info.mtime?.getTime() ?? 0 : undefined;
    }
    const info = (await syncFs()).statSync(path);
    return info.isFile() ? info.mtimeMs : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Appends text to a file (one write, so appends of concurrent processes do not interleave).
 * On Deno through a file handle: `Deno.writeTextFile` loads the Web Streams implementation
 * (it checks whether the data is a stream), about 5 ms of start-up.
 */
export async function appendText(path: string, text: string): Promise<void> {
  if (!deno) return (await syncFs()).appendFileSync(path, text);
  const file = deno.openSync(path, { append: true, create: true });
  try {
    const bytes = new TextEncoder().encode(text);
    for (let at = 0; at < bytes.length;) at += file.writeSync(bytes.subarray(at));
  } finally {
    file.close();
  }
}

/** A file's text. */
export async function readText(path: string): Promise<string> {
  return deno ? await deno.readTextFile(path) : await (await nodeFs()).readFile(path, "utf8");
}

/** A small file's text, or `undefined` when there is no such file (read synchronously). */
export async function readSmallText(path: string): Promise<string | undefined> {
  try {
    if (deno) return deno.readTextFileSync(path);
    return (await syncFs()).readFileSync(path, "utf8");
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Replaces a small file's text whole (a new file beside it, renamed over it: a concurrent
 * reader sees the old text or the new, never a mix), readable by its owner only (`0600`).
 * Synchronous, and without `crypto` (its first use costs a process 0.2 ms): the temporary
 * name takes its uniqueness from `Math.random`.
 */
export async function replaceSmallText(path: string, text: string): Promise<void> {
  const temp = `${path}.${Math.random().toString(36).slice(2)}.tmp`;
  const bytes = new TextEncoder().encode(text);
  if (deno) {
    deno.writeFileSync(temp, bytes, { mode: 0o600 });
    deno.renameSync(temp, path);
    return;
  }
  const fs = await syncFs();
  fs.writeFileSync(temp, bytes, { mode: 0o600 });
  fs.renameSync(temp, path);
}

/**
 * Appends `record` (one write, `O_APPEND`) and returns where it landed, counted in records of
 * its size: the appends of overlapping processes never share a place (the kernel moves each
 * write to the end of the file as it writes it). On Deno the file offset after the write says
 * where; Node's `fs` has no `lseek`, so it finds the record (a unique token) in the file.
 */
export async function appendRecord(path: string, record: string): Promise<number> {
  const bytes = new TextEncoder().encode(record);
  if (deno) {
    const file = deno.openSync(path, { append: true, create: true });
    try {
      if (file.writeSync(bytes) !== bytes.length) throw new Error(`short write to ${path}`);
      return Math.floor(file.seekSync(0, 1) / bytes.length) - 1;
    } finally {
      file.close();
    }
  }
  const fs = await syncFs();
  const fd = fs.openSync(path, "a+");
  try {
    if (fs.writeSync(fd, bytes) !== bytes.length) throw new Error(`short write to ${path}`);
    // the record is near the end (later runs may have appended theirs): look there first, then
    // in more of the file, back to its start
    const size = fs.fstatSync(fd).size;
    for (let window = 64 * bytes.length;; window *= 8) {
      const from = Math.max(0, size - window);
      const tail = new Uint8Array(size - from);
      fs.readSync(fd, tail, 0, tail.length, from);
      const at = new TextDecoder("latin1").decode(tail).lastIndexOf(record);
      if (at >= 0) return Math.floor((from + at) / bytes.length);
      if (from === 0) throw new Error(`cannot find the record appended to ${path}`);
    }
  } finally {
    fs.closeSync(fd);
  }
}

// ---- files written and read as streams (tapes) ----

interface DenoFile {
  write(data: Uint8Array): Promise<number>;
  read(buffer: Uint8Array): Promise<number | null>;
  syncData(): Promise<void>;
  close(): void;
  readonly readable: ReadableStream<Uint8Array>;
}

interface DenoFiles {
  open(
    path: string,
    options: { read?: boolean; write?: boolean; createNew?: boolean },
  ): Promise<DenoFile>;
  rename(from: string, to: string): Promise<void>;
  remove(path: string): Promise<void>;
}

const denoFiles = (globalThis as { Deno?: DenoFiles }).Deno;

/** A file open for writing: each `write` reaches the OS before it resolves (no buffer here). */
export interface FileSink {
  /** Writes all of `bytes` at the end of what was written. */
  write(bytes: Uint8Array): Promise<void>;
  /** Flushes the file's data to the disk. */
  sync(): Promise<void>;
  /** Closes the file. */
  close(): Promise<void>;
}

/** Creates and opens a file that must not exist yet (throws with code `EEXIST` if it does). */
export async function openNewFile(path: string): Promise<FileSink> {
  if (denoFiles) {
    const file = await denoFiles.open(path, { write: true, createNew: true });
    return {
      async write(bytes) {
        for (let done = 0; done < bytes.length;) done += await file.write(bytes.subarray(done));
      },
      sync: () => file.syncData(),
      close: () => Promise.resolve(file.close()),
    };
  }
  const handle = await (await nodeFs()).open(path, "wx");
  return {
    async write(bytes) {
      for (let done = 0; done < bytes.length;) {
        done += (await handle.write(bytes, done, bytes.length - done)).bytesWritten;
      }
    },
    sync: () => handle.datasync(),
    close: () => handle.close(),
  };
}

/** Renames a file (atomically, within one file system), replacing `to` if it exists. */
export async function renameFile(from: string, to: string): Promise<void> {
  if (denoFiles) await denoFiles.rename(from, to);
  else await (await nodeFs()).rename(from, to);
}

/** Removes a file. */
export async function removeFile(path: string): Promise<void> {
  if (denoFiles) await denoFiles.remove(path);
  else await (await nodeFs()).rm(path);
}

/** A file's bytes as a stream of chunks (the file closes at its end or when cancelled). */
export async function readChunks(path: string): Promise<ReadableStream<Uint8Array>> {
  if (denoFiles) return (await denoFiles.open(path, { read: true })).readable;
  const handle = await (await nodeFs()).open(path, "r");
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const buffer = new Uint8Array(64 * 1024);
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) {
          await handle.close();
          controller.close();
        } else controller.enqueue(buffer.subarray(0, bytesRead));
      } catch (error) {
        await handle.close().catch(() => {});
        controller.error(error);
      }
    },
    cancel: () => handle.close(),
  });
}

// ---- what installFakeClaude and live mode need ----

interface DenoMore {
  writeTextFile(path: string, data: string): Promise<void>;
  makeTempDir(options: { prefix: string }): Promise<string>;
  remove(path: string, options: { recursive: boolean }): Promise<void>;
  chmod(path: string, mode: number): Promise<void>;
  readDir(path: string): AsyncIterable<{ name: string; isDirectory: boolean }>;
}

const denoMore = (globalThis as { Deno?: DenoMore }).Deno;

/** Writes a file's text (creating or replacing it). */
export async function writeText(path: string, text: string): Promise<void> {
  if (denoMore) await denoMore.writeTextFile(path, text);
  else await (await nodeFs()).writeFile(path, text);
}

/** Creates a new folder in the system's temporary folder; returns its path. */
export async function makeTempDir(prefix: string): Promise<string> {
  if (denoMore) return await denoMore.makeTempDir({ prefix });
  const { tmpdir } = await import("node:os");
  return await (await nodeFs()).mkdtemp(`${tmpdir().replace(/\/$/, "")}/${prefix}`);
}

/** Removes a file or a folder with all it holds. */
export async function removeTree(path: string): Promise<void> {
  if (denoMore) await denoMore.remove(path, { recursive: true });
  else await (await nodeFs()).rm(path, { recursive: true });
}

/** Changes a file's permission bits. */
export async function chmod(path: string, mode: number): Promise<void> {
  if (denoMore) await denoMore.chmod(path, mode);
  else await (await nodeFs()).chmod(path, mode);
}

/** A folder's entries: names, and which are folders. */
export async function listDir(path: string): Promise<{ name: string; isDirectory: boolean }[]> {
  if (!denoMore) {
    const entries = await (await nodeFs()).readdir(path, { withFileTypes: true });
    return entries.map((e) => ({ name: e.name, isDirectory: e.isDirectory() }));
  }
  const entries: { name: string; isDirectory: boolean }[] = [];
  for await (const e of denoMore.readDir(path)) {
    entries.push({ name: e.name, isDirectory: e.isDirectory });
  }
  return entries;
}

/** Writes `text` to `path` whole: a new file beside it, then renamed over it (atomic). */
export async function writeWhole(path: string, text: string): Promise<void> {
  const suffix = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16))
    .join("");
  const temp = `${path}.${suffix}.tmp`;
  const file = await openNewFile(temp);
  try {
    await file.write(new TextEncoder().encode(text));
    await file.close();
    await renameFile(temp, path);
  } catch (error) {
    await file.close().catch(() => {});
    await removeFile(temp).catch(() => {});
    throw error;
  }
}
