/**
 * The fake binary's process: its arguments, environment, working directory and standard
 * streams, SIGTERM and the exit code, taken from the host runtime and handed to
 * `runCliProcess`. The standard streams go as functions over the host's handles, not as Web
 * Streams (on Deno the first stream loads the streams implementation). Deno's own API on Deno
 * (`cli.ts` run as the main module), Node's `process` on Node (`bin.ts`, the npm package's
 * `bin`). Part of the runtime seam. Internal.
 *
 * @module
 */

import { runCliProcess } from "./run_cli.ts";
import { useRealTimer } from "../timing/real_time.ts";
import { AbortLatch } from "../timing/_abort_latch.ts";
import { serialWriter, type Stdio } from "./_stdio.ts";
import { flagOn } from "./cli_env.ts";

interface DenoFile {
  write(data: Uint8Array): Promise<number>;
  isTerminal(): boolean;
}

interface DenoProcess {
  args: string[];
  env: { toObject(): Record<string, string> };
  cwd(): string;
  mainModule: string;
  stdin: {
    read(buffer: Uint8Array): Promise<number | null>;
    readSync(buffer: Uint8Array): number | null;
    isTerminal(): boolean;
  };
  stdout: DenoFile;
  stderr: DenoFile;
  uid?(): number | null;
  statSync(path: string): { isFile: boolean; isCharDevice: boolean | null };
  readLinkSync(path: string): string;
  addSignalListener(signal: "SIGTERM" | "SIGINT", handler: () => void): void;
  removeSignalListener(signal: "SIGTERM" | "SIGINT", handler: () => void): void;
  exit(code: number): never;
}

interface NodeStream {
  write(chunk: Uint8Array, done: (error?: Error | null) => void): boolean;
  on(event: "error", listener: (error: Error) => void): unknown;
}

/** Runs the fake `claude` as this process: reads its command line and stdio, then exits. */
export async function runMain(): Promise<void> {
  const deno = (globalThis as { Deno?: DenoProcess }).Deno;
  const terminated = new AbortLatch();
  // SIGINT interrupts the running turn and ends the run with exit 0, as the real CLI
  const interrupted = new AbortLatch();
  const signals = { terminated, interrupted };
  if (deno) await runOnDeno(deno, signals);
  else await runOnNode(signals);
}

/** The latches SIGTERM and SIGINT abort. */
interface Signals {
  terminated: AbortLatch;
  interrupted: AbortLatch;
}

/** The process on Deno, through Deno's own API (no Node compatibility layer). */
async function runOnDeno(deno: DenoProcess, { terminated, interrupted }: Signals): Promise<void> {
  const onTerm = () => terminated.abort();
  const onInt = () => interrupted.abort();
  const env = deno.env.toObject();
  // The SIGTERM handler (exit 143) and the SIGINT handler (an interrupt) are installed before
  // the process first waits on something outside itself: a piped stdin, a real-time timer
  // (paced output among them), live tools; at once to hang or to ignore SIGTERM. Installing
  // them costs Deno about 0.7 ms (a signal thread), and a run that never waits is over in a
  // few milliseconds more; until then a signal ends it by its default action, as it ends
  // the real CLI during its start-up.
  let armed = false;
  const arm = () => {
    if (!armed) {
      deno.addSignalListener("SIGTERM", onTerm);
      deno.addSignalListener("SIGINT", onInt);
    }
    armed = true;
  };
  if (flagOn(env.CLAUDE_MOCK_HANG) || flagOn(env.CLAUDE_MOCK_IGNORE_SIGTERM)) arm();
  useRealTimer((fn, ms) => {
    arm();
    return signalTimer(fn, ms);
  });
  const stdinIsTerminal = deno.stdin.isTerminal();
  const stdinMayStall = mayStall(() => {
    // What fd 0 is, from its /proc link where there is one: a pipe or socket may stall,
    // /dev/null ends by itself; anything else is asked of stat. (A stat makes the runtime
    // build Date objects for its times, about 0.4 ms of a cold process; the link 0.15.)
    const link = procLink(deno);
    if (link?.startsWith("pipe:") || link?.startsWith("socket:")) return false;
    if (link === "/dev/null") return true;
    const info = deno.statSync("/dev/stdin");
    return info.isFile || info.isCharDevice === true;
  });
  const code = await runCliProcess({
    argv: deno.args,
    env,
    cwd: deno.cwd(),
    binDir: folderOf(deno.mainModule, deno.cwd()),
    stdinIsTerminal,
    stdinMayStall,
    stdoutIsTerminal: deno.stdout.isTerminal(),
    // a file or /dev/null is read at once: no trip through the runtime's thread pool
    stdio: denoStdio(deno, { readAtOnce: !stdinMayStall && !stdinIsTerminal, beforeWait: arm }),
    isRoot: deno.uid?.() === 0,
    terminated,
    interrupted,
    beforeWait: arm,
  });
  if (armed) {
    deno.removeSignalListener("SIGTERM", onTerm);
    deno.removeSignalListener("SIGINT", onInt);
  }
  deno.exit(code);
}

/** The process on Node, through `node:process`. */
async function runOnNode({ terminated, interrupted }: Signals): Promise<void> {
  const onTerm = () => terminated.abort();
  const onInt = () => interrupted.abort();
  const { default: process } = await import("node:process");
  const { fstatSync, readSync } = await import("node:fs");
  const { isatty } = await import("node:tty");
  process.on("SIGTERM", onTerm);
  process.on("SIGINT", onInt);
  // `process.stdin` is made only for a stdin that may stall (a pipe, a socket): a file or
  // /dev/null is read synchronously, as on Deno (the stream and its modules cost about 4 ms of
  // a cold start)
  const stdinIsTerminal = isatty(0);
  const stdinMayStall = mayStall(() => {
    const info = fstatSync(0);
    return info.isFile() || info.isCharacterDevice();
  });
  const code = await runCliProcess({
    argv: process.argv.slice(2),
    env: { ...process.env },
    cwd: process.cwd(),
    binDir: folderOf(process.argv[1], process.cwd()),
    stdinIsTerminal,
    stdinMayStall,
    stdoutIsTerminal: process.stdout.isTTY === true,
    stdio: {
      ...(stdinMayStall || stdinIsTerminal
        ? chunksOf(() => process.stdin)
        : readsAtOnce((buffer) => readSync(0, buffer))),
      write: nodeWrite(process.stdout),
      writeErr: nodeWrite(process.stderr),
    },
    isRoot: process.getuid?.() === 0,
    terminated,
    interrupted,
  });
  process.off("SIGTERM", onTerm);
  process.off("SIGINT", onInt);
  process.exit(code);
}

/** Where `/proc/self/fd/0` points (`pipe:[…]`, `/dev/null`, a path), if the system says. */
function procLink(deno: DenoProcess): string | undefined {
  try {
    return deno.readLinkSync("/proc/self/fd/0");
  } catch {
    return undefined;
  }
}

/** Whether stdin is a pipe or socket (or unknown), not a file or device that ends by itself. */
function mayStall(endsByItself: () => boolean): boolean {
  try {
    return !endsByItself();
  } catch {
    return true;
  }
}

/**
 * Deno's standard streams through their handles: no Web Stream is made. `readAtOnce`: stdin
 * is a file (or `/dev/null`), read synchronously; else `beforeWait` is called before a read.
 */
function denoStdio(
  deno: DenoProcess,
  { readAtOnce, beforeWait }: { readAtOnce: boolean; beforeWait: () => void },
): Stdio {
  let buffer: Uint8Array | undefined;
  return {
    async read() {
      buffer ??= new Uint8Array(64 * 1024);
      if (!readAtOnce) beforeWait();
      const n = readAtOnce ? deno.stdin.readSync(buffer) : await deno.stdin.read(buffer);
      return n === null ? null : buffer.slice(0, n);
    },
    // a read in progress cannot be called off; the process exits without waiting for it
    cancelRead: () => {},
    write: serialWriter(deno.stdout),
    writeErr: serialWriter(deno.stderr),
  };
}

/** Synchronous reads of a stdin that ends by itself (a file, `/dev/null`): `null` at its end. */
function readsAtOnce(
  readSync: (buffer: Uint8Array) => number,
): Pick<Stdio, "read" | "cancelRead"> {
  let buffer: Uint8Array | undefined;
  return {
    read() {
      buffer ??= new Uint8Array(64 * 1024);
      const n = readSync(buffer);
      return Promise.resolve(n === 0 ? null : buffer.slice(0, n));
    },
    cancelRead: () => {},
  };
}

/** A Node readable's chunks, opened on the first read (stdin is not touched unless read). */
function chunksOf(
  open: () => AsyncIterable<Uint8Array>,
): Pick<Stdio, "read" | "cancelRead"> {
  let chunks: AsyncIterator<Uint8Array> | undefined;
  return {
    async read() {
      chunks ??= open()[Symbol.asyncIterator]();
      const { done, value } = await chunks.next();
      return done ? null : value;
    },
    cancelRead: () => void chunks?.return?.()?.catch(() => {}),
  };
}

/** Writes to one of Node's standard streams: each write resolves once it is handed on. */
function nodeWrite(stream: NodeStream): (chunk: Uint8Array) => Promise<void> {
  // a reader that went away (EPIPE) fails the write below, not the process
  stream.on("error", () => {});
  return (chunk) =>
    new Promise<void>((resolve, reject) => {
      stream.write(chunk, (error) => (error ? reject(error) : resolve()));
    });
}

/**
 * A timer from `AbortSignal.timeout`, for the binary's real-time waits (the silence of a piped
 * stdin, the client's answers): on Deno the first global `setTimeout` loads the Node-compatible
 * timers (about 8 ms of start-up), the signal's timer does not. Deno keeps the process alive
 * while the signal has a listener, as for an armed `setTimeout`; cancelling removes it.
 */
export function signalTimer(fn: () => void, ms: number): () => void {
  const delay = Number.isFinite(ms) && ms > 0 ? Math.ceil(ms) : 0;
  const signal = AbortSignal.timeout(delay);
  signal.addEventListener("abort", fn, { once: true });
  return () => signal.removeEventListener("abort", fn);
}

/** The folder of the binary's script (a `file:` URL or a path, relative to `cwd`). */
export function folderOf(script: string | undefined, cwd: string): string | undefined {
  if (!script) return undefined;
  let path = script;
  if (script.startsWith("file:")) {
    try {
      path = decodeURIComponent(new URL(script).pathname);
    } catch {
      return undefined;
    }
  } else if (/^[a-z][a-z0-9+.-]*:/i.test(script)) return undefined;
  if (!path.startsWith("/")) path = `${cwd.replace(/\/+$/, "")}/${path}`;
  return path.replace(/\/[^/]*$/, "") || "/";
}
