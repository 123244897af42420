/**
 * A process handed out before it exists: `spawnClaudeCodeProcess` must return at once, but
 * the real CLI run against a scenario starts only once its Messages API listens. Writes wait
 * for the child, its output flows through once it runs, `kill()` before it starts stops it
 * from starting, a failure to start is an `error` event as a failed spawn is, and `exit` comes
 * after `cleanup` (the API closed, the sandbox removed). Internal.
 *
 * @internal
 * @module
 */

import { EventEmitter } from "node:events";
import { PassThrough, Writable } from "node:stream";
import type { ProcessExitListener, SpawnedProcessLike } from "./spawned_process.ts";

/** A process that starts once `start` resolves; `cleanup` runs after it exits. */
export function deferredProcess(
  start: Promise<SpawnedProcessLike>,
  cleanup: () => Promise<void>,
): SpawnedProcessLike {
  const events = new EventEmitter();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const input = deferredStdin();
  const state: ProcessState = {
    child: undefined,
    killedEarly: undefined,
    exitCode: null,
    signalCode: null,
  };
  const finish = (code: number | null, signal: NodeJS.Signals | null) => {
    state.exitCode = code;
    state.signalCode = signal;
    cleanup().catch(() => {}).finally(() => events.emit("exit", code, signal));
  };
  start.then((child) => {
    state.child = child;
    child.stdout.pipe(stdout);
    if (child.stderr) child.stderr.pipe(stderr);
    else stderr.end();
    child.once("exit", finish);
    child.on("error", (error) => {
      if (events.listenerCount("error") > 0) events.emit("error", error);
    });
    input.attach(child);
    if (state.killedEarly) child.kill(state.killedEarly);
  }, (error: Error) => {
    input.release();
    stdout.end();
    stderr.end();
    cleanup().catch(() => {}).finally(() => {
      // as a spawn that failed: an error event, no exit
      const failed = Object.assign(error, { syscall: "spawn" });
      if (events.listenerCount("error") > 0) events.emit("error", failed);
    });
  });
  return processView({ stdin: input.stdin, stdout, stderr }, { events, state });
}

/** What the process knows of its child: none before it starts, how it ended once it has. */
interface ProcessState {
  child: SpawnedProcessLike | undefined;
  /** The signal `kill()` sent before the child started. */
  killedEarly: NodeJS.Signals | undefined;
  exitCode: number | null;
  signalCode: NodeJS.Signals | null;
}

/** A stdin that holds what is written (and its end) until the child is attached. */
function deferredStdin(): {
  stdin: Writable;
  /** Writes what is held to the child's stdin, and from now on everything. */
  attach(child: SpawnedProcessLike): void;
  /** The child never came: what is held counts as written. */
  release(): void;
} {
  let child: SpawnedProcessLike | undefined;
  const pending: Array<
    { chunk: unknown; encoding: BufferEncoding; done: (e?: Error | null) => void }
  > = [];
  let ended: (() => void) | undefined;
  const stdin = new Writable({
    decodeStrings: false,
    write(chunk, encoding, done) {
      if (child) child.stdin.write(chunk, encoding, (error) => done(error ?? null));
      else pending.push({ chunk, encoding, done });
    },
    final(done) {
      if (child) child.stdin.end(() => done());
      else ended = () => done();
    },
  });
  const attach = (started: SpawnedProcessLike) => {
    child = started;
    started.stdin.on("error", (error) => stdin.destroy(error));
    for (const { chunk, encoding, done } of pending.splice(0)) {
      started.stdin.write(chunk as string, encoding, (error) => done(error ?? null));
    }
    if (ended) started.stdin.end(ended);
  };
  const release = () => {
    for (const { done } of pending.splice(0)) done();
    ended?.();
  };
  return { stdin, attach, release };
}

/** The process the caller holds: its streams, and its state and events through the child's. */
function processView(
  { stdin, stdout, stderr }: Pick<SpawnedProcessLike, "stdin" | "stdout" | "stderr">,
  { events, state }: { events: EventEmitter; state: ProcessState },
): SpawnedProcessLike {
  const process: SpawnedProcessLike & { readonly pid?: number } = {
    stdin,
    stdout,
    stderr,
    get killed() {
      return state.child ? state.child.killed : state.killedEarly !== undefined;
    },
    get exitCode() {
      return state.exitCode;
    },
    get signalCode() {
      return state.signalCode;
    },
    get pid() {
      return (state.child as { pid?: number } | undefined)?.pid;
    },
    kill(signal?: NodeJS.Signals) {
      if (state.child) return state.child.kill(signal);
      state.killedEarly = signal ?? "SIGTERM";
      return true;
    },
    on(event: "exit" | "error", listener: (...args: never[]) => void) {
      events.on(event, listener as (...args: unknown[]) => void);
      return process;
    },
    once(event: "exit" | "error", listener: (...args: never[]) => void) {
      events.once(event, listener as (...args: unknown[]) => void);
      return process;
    },
  } as SpawnedProcessLike & { readonly pid?: number };
  Object.defineProperty(process, "off", {
    value: (event: "exit" | "error", listener: ProcessExitListener) => {
      events.off(event, listener as (...args: unknown[]) => void);
      return process;
    },
  });
  return process;
}
