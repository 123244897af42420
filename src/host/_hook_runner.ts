/**
 * The host's runner of command hooks (Deno or Node): `sh -c <command>` in the project folder,
 * the hook input on stdin, the environment the engine gives over the host's, in a process
 * group of its own so that an abort (the session's real-time deadline for the hook, or an
 * interrupt) kills the command and whatever it started (`sleep 30 &` included), and every wait
 * ends with it. Internal: the fake
 * binary and `MockTransport` give it to their sessions.
 *
 * @module
 */

// The shapes of the engine's `HookCommandRunner` (src/session/command_hooks.ts), structurally:
// the host sits below the engine and imports nothing from it.

/** One run of a command hook. */
interface HookCommand {
  command: string;
  stdin: string;
  env: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** How many bytes of stdout, and of stderr, to keep (default {@linkcode HOOK_OUTPUT_LIMIT}). */
  outputLimit?: number;
}

/** How it ended. */
interface HookCommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
  chunks?: { ms: number; stream: "stdout" | "stderr"; text: string }[];
  ms?: number;
}

type OutputStream = "stdout" | "stderr";

/**
 * What a run wrote, chunk by chunk, with when (real milliseconds since it started): each
 * stream's first `limit` bytes, the rest read and dropped.
 */
class TimedOutput {
  readonly started = Date.now();
  readonly chunks: { ms: number; stream: OutputStream; text: string }[] = [];
  stdout = "";
  stderr = "";
  #decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
  #left: Record<OutputStream, number>;
  constructor(limit: number) {
    this.#left = { stdout: limit, stderr: limit };
  }
  add(stream: OutputStream, chunk: Uint8Array): void {
    const left = this.#left[stream];
    if (left <= 0) return;
    const kept = chunk.byteLength > left ? chunk.subarray(0, left) : chunk;
    this.#left[stream] = left - kept.byteLength;
    this.#text(stream, this.#decoders[stream].decode(kept, { stream: true }));
  }
  #text(stream: OutputStream, text: string): void {
    if (text === "") return;
    this.chunks.push({ ms: Date.now() - this.started, stream, text });
    this[stream] += text;
  }
  /** The result's output fields, with the run's duration. */
  result(code: number | null): HookCommandResult {
    this.#text("stdout", this.#decoders.stdout.decode());
    this.#text("stderr", this.#decoders.stderr.decode());
    const { stdout, stderr, chunks } = this;
    return { code, stdout, stderr, chunks, ms: Date.now() - this.started };
  }
}

/** Reads a stream into `output` as it arrives. */
async function readInto(
  stream: ReadableStream<Uint8Array>,
  output: TimedOutput,
  name: OutputStream,
): Promise<void> {
  for await (const chunk of stream) output.add(name, chunk);
}

/** The runner the engine is given. */
interface HookCommandRunner {
  readonly cwd: string;
  run(command: HookCommand): Promise<HookCommandResult>;
  readText(path: string): string | undefined;
  listFiles(dir: string): string[] | undefined;
  readonly configDir?: string;
}

interface DenoChild {
  pid: number;
  stdin: WritableStream<Uint8Array>;
  stdout: ReadableStream<Uint8Array>;
  stderr: ReadableStream<Uint8Array>;
  status: Promise<{ code: number; signal: string | null }>;
}

interface DenoHost {
  Command: new (cmd: string, options: {
    args: string[];
    cwd: string;
    env: Record<string, string>;
    stdin: "piped";
    stdout: "piped";
    stderr: "piped";
    detached: boolean;
  }) => { spawn(): DenoChild };
  kill(pid: number, signal: string): void;
}

const deno = (globalThis as { Deno?: DenoHost }).Deno;

/**
 * How much of a hook's stdout, and of its stderr, is kept: a command that prints without end
 * (`yes`) runs until its timeout, as with the real CLI (which took 100 MB of a hook's output
 * whole, and reports an endless one as not answering in time); past this the rest is read and
 * dropped, so the process neither holds gigabytes nor fails on a string too long to make.
 */
export const HOOK_OUTPUT_LIMIT: number = 128 * 1024 * 1024;

/**
 * The host's {@linkcode HookCommandRunner} for a project folder: runs hooks there and reads
 * the project's settings files. `exists`: a check that a path is there which costs less than a
 * failed read (Node's `existsSync`, where its module is loaded anyway): a session's first turn
 * looks for two settings files most projects do not have, and on Deno a read that fails costs
 * tens of microseconds.
 */
export function hostHookRunner(
  cwd: string,
  options: { exists?: (path: string) => boolean; configDir?: string } = {},
): HookCommandRunner {
  const exists = options.exists;
  const full = (path: string) => path.startsWith("/") ? path : `${cwd.replace(/\/+$/, "")}/${path}`;
  return {
    cwd,
    ...(options.configDir ? { configDir: options.configDir } : {}),
    run: (command) => (deno ? runOnDeno(deno, cwd, command) : runOnNode(cwd, command)),
    readText: (path) => {
      const file = full(path);
      return exists && !exists(file) ? undefined : readTextNow(file);
    },
    listFiles: (dir) => {
      const folder = full(dir);
      return exists && !exists(folder) ? undefined : listFilesNow(folder);
    },
  };
}

/** The entries of a folder, read synchronously: names, and which are folders. */
function readDirNow(path: string): { name: string; folder: boolean }[] {
  if (deno) {
    const d = deno as unknown as {
      readDirSync(p: string): Iterable<{ name: string; isDirectory: boolean }>;
    };
    return Array.from(d.readDirSync(path), (e) => ({ name: e.name, folder: e.isDirectory }));
  }
  const proc = (globalThis as { process?: { getBuiltinModule?(id: string): unknown } }).process;
  const fs = proc?.getBuiltinModule?.("node:fs") as
    | {
      readdirSync(
        p: string,
        o: { withFileTypes: true },
      ): { name: string; isDirectory(): boolean }[];
    }
    | undefined;
  if (!fs) return [];
  return fs.readdirSync(path, { withFileTypes: true }).map((e) => ({
    name: e.name,
    folder: e.isDirectory(),
  }));
}

/**
 * The files under a folder (its subfolders' too), as paths relative to it, sorted; `undefined`
 * when it cannot be read (none there, not a folder).
 */
function listFilesNow(path: string): string[] | undefined {
  const found: string[] = [];
  const walk = (dir: string, prefix: string, depth: number) => {
    for (const entry of readDirNow(dir)) {
      if (entry.folder) {
        if (depth < 8) walk(`${dir}/${entry.name}`, `${prefix}${entry.name}/`, depth + 1);
      } else found.push(`${prefix}${entry.name}`);
    }
  };
  try {
    walk(path.replace(/\/+$/, ""), "", 0);
  } catch {
    return found.length > 0 ? found.sort() : undefined;
  }
  return found.sort();
}

/**
 * A file's text, read synchronously (Deno, or Node's `process.getBuiltinModule`), or
 * `undefined` when it cannot be read (none there, a folder, no way to read synchronously).
 */
function readTextNow(path: string): string | undefined {
  try {
    if (deno) {
      return (deno as unknown as { readTextFileSync(p: string): string }).readTextFileSync(path);
    }
    const proc = (globalThis as {
      process?: { getBuiltinModule?(id: string): unknown };
    }).process;
    const fs = proc?.getBuiltinModule?.("node:fs") as
      | { readFileSync(p: string, encoding: "utf8"): string }
      | undefined;
    return fs?.readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** Kills a process group, if it still runs. */
function killGroup(kill: (pid: number) => void, pid: number): void {
  try {
    kill(-pid);
  } catch {
    // already gone
  }
}

/** Kills the group when `signal` aborts (the hook's time is up, or the turn was interrupted). */
function onAbort(
  signal: AbortSignal | undefined,
  kill: () => void,
): { killed: () => boolean; stop: () => void } {
  let killed = false;
  const abort = () => {
    killed = true;
    kill();
  };
  if (signal?.aborted) abort();
  signal?.addEventListener("abort", abort, { once: true });
  return {
    killed: () => killed,
    stop: () => signal?.removeEventListener("abort", abort),
  };
}

async function runOnDeno(
  host: DenoHost,
  cwd: string,
  command: HookCommand,
): Promise<HookCommandResult> {
  const child = new host.Command("sh", {
    args: ["-c", command.command],
    cwd,
    env: command.env,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).spawn();
  const limits = onAbort(
    command.signal,
    () => killGroup((pid) => host.kill(pid, "SIGKILL"), child.pid),
  );
  try {
    const writer = child.stdin.getWriter();
    // a hook that does not read its stdin may end before it is written: a broken pipe
    const wrote = writer.write(new TextEncoder().encode(command.stdin))
      .then(() => writer.close())
      .catch(() => writer.abort().catch(() => {}));
    const output = new TimedOutput(command.outputLimit ?? HOOK_OUTPUT_LIMIT);
    const [, , status] = await Promise.all([
      readInto(child.stdout, output, "stdout"),
      readInto(child.stderr, output, "stderr"),
      child.status,
      wrote,
    ]);
    return output.result(limits.killed() ? null : status.code);
  } finally {
    limits.stop();
  }
}

/** The Node way (`node:child_process`), exported for its test under Deno. */
export async function runOnNode(cwd: string, command: HookCommand): Promise<HookCommandResult> {
  const { spawn } = await import("node:child_process");
  const proc = (globalThis as unknown as {
    process: { env: Record<string, string | undefined>; kill(pid: number, s: string): void };
  }).process;
  const child = spawn("sh", ["-c", command.command], {
    cwd,
    env: { ...proc.env, ...command.env },
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const limits = onAbort(command.signal, () => {
    if (child.pid !== undefined) killGroup((pid) => proc.kill(pid, "SIGKILL"), child.pid);
  });
  try {
    const output = new TimedOutput(command.outputLimit ?? HOOK_OUTPUT_LIMIT);
    child.stdout.on("data", (d: Uint8Array) => output.add("stdout", d));
    child.stderr.on("data", (d: Uint8Array) => output.add("stderr", d));
    child.stdin.on("error", () => {});
    child.stdin.end(command.stdin);
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (c: number | null) => resolve(c));
    });
    return output.result(limits.killed() ? null : code);
  } finally {
    limits.stop();
  }
}
