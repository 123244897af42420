/**
 * The fake binary's process: its arguments, environment, working directory and standard
 * streams, SIGTERM and the exit code, taken from the host runtime and handed to `runCli`.
 * Deno's own API on Deno (`cli.ts` run as the main module), Node's `process` on Node
 * (`bin.ts`, the npm package's `bin`). Part of the runtime seam. Internal.
 *
 * @module
 */

import { type CliIO, runCli } from "./run_cli.ts";

interface DenoProcess {
  args: string[];
  env: { toObject(): Record<string, string> };
  cwd(): string;
  stdin: { readable: ReadableStream<Uint8Array>; isTerminal(): boolean };
  stdout: { writable: WritableStream<Uint8Array>; isTerminal(): boolean };
  stderr: { writable: WritableStream<Uint8Array> };
  uid?(): number | null;
  statSync(path: string): { isFile: boolean; isCharDevice: boolean | null };
  addSignalListener(signal: "SIGTERM", handler: () => void): void;
  removeSignalListener(signal: "SIGTERM", handler: () => void): void;
  exit(code: number): never;
}

/** Runs the fake `claude` as this process: reads its command line and stdio, then exits. */
export async function runMain(): Promise<void> {
  const deno = (globalThis as { Deno?: DenoProcess }).Deno;
  const abort = new AbortController();
  const onTerm = () => abort.abort();
  if (deno) {
    deno.addSignalListener("SIGTERM", onTerm);
    const code = await runCli({
      argv: deno.args,
      env: deno.env.toObject(),
      cwd: deno.cwd(),
      stdin: deno.stdin.readable,
      stdinIsTerminal: deno.stdin.isTerminal(),
      stdinMayStall: mayStall(() => {
        const info = deno.statSync("/dev/stdin");
        return info.isFile || info.isCharDevice === true;
      }),
      stdoutIsTerminal: deno.stdout.isTerminal(),
      stdout: deno.stdout.writable,
      stderr: deno.stderr.writable,
      isRoot: deno.uid?.() === 0,
      signal: abort.signal,
    });
    deno.removeSignalListener("SIGTERM", onTerm);
    deno.exit(code);
  }
  const { default: process } = await import("node:process");
  const { fstatSync } = await import("node:fs");
  const { Readable } = await import("node:stream");
  process.on("SIGTERM", onTerm);
  const io: CliIO = {
    argv: process.argv.slice(2),
    env: { ...process.env },
    cwd: process.cwd(),
    stdin: lazyReadable(() => Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>),
    stdinIsTerminal: process.stdin.isTTY === true,
    stdinMayStall: mayStall(() => {
      const info = fstatSync(0);
      return info.isFile() || info.isCharacterDevice();
    }),
    stdoutIsTerminal: process.stdout.isTTY === true,
    stdout: nodeWritable(process.stdout),
    stderr: nodeWritable(process.stderr),
    isRoot: process.getuid?.() === 0,
    signal: abort.signal,
  };
  const code = await runCli(io);
  process.off("SIGTERM", onTerm);
  process.exit(code);
}

/** Whether stdin is a pipe or socket (or unknown), not a file or device that ends by itself. */
function mayStall(endsByItself: () => boolean): boolean {
  try {
    return !endsByItself();
  } catch {
    return true;
  }
}

/** A stream that opens its source on the first read (stdin is not touched unless read). */
function lazyReadable(open: () => ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      reader ??= open().getReader();
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader?.cancel(reason),
  }, { highWaterMark: 0 });
}

/** One of Node's standard streams as a Web stream: each write resolves once it is handed on. */
function nodeWritable(stream: {
  write(chunk: Uint8Array, done: (error?: Error | null) => void): boolean;
  on(event: "error", listener: (error: Error) => void): unknown;
}): WritableStream<Uint8Array> {
  // a reader that went away (EPIPE) fails the write below, not the process
  stream.on("error", () => {});
  return new WritableStream<Uint8Array>({
    write: (chunk) =>
      new Promise<void>((resolve, reject) => {
        stream.write(chunk, (error) => (error ? reject(error) : resolve()));
      }),
  });
}
