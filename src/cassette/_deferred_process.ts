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
  let child: SpawnedProcessLike | undefined;
  let killedEarly: NodeJS.Signals | undefined;
  let exitCode: number | null = null;
  let signalCode: NodeJS.Signals | null = null;
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
  const finish = (code: number | null, signal: NodeJS.Signals | null) => {
    exitCode = code;
    signalCode = signal;
    cleanup().catch(() => {}).finally(() => events.emit("exit", code, signal));
  };
  start.then((started) => {
    child = started;
    child.stdout.pipe(stdout);
    if (child.stderr) child.stderr.pipe(stderr);
    else stderr.end();
    child.stdin.on("error", (error) => stdin.destroy(error));
    child.once("exit", finish);
    child.on("error", (error) => {
      if (events.listenerCount("error") > 0) events.emit("error", error);
    });
    for (const { chunk, encoding, done } of pending.splice(0)) {
      child.stdin.write(chunk as string, encoding, (error) => done(error ?? null));
    }
    if (ended) child.stdin.end(ended);
    if (killedEarly) child.kill(killedEarly);
  }, (error: Error) => {
    for (const { done } of pending.splice(0)) done();
    ended?.();
    stdout.end();
    stderr.end();
    cleanup().catch(() => {}).finally(() => {
      // as a spawn that failed: an error event, no exit
      const failed = Object.assign(error, { syscall: "spawn" });
      if (events.listenerCount("error") > 0) events.emit("error", failed);
    });
  });
  const process: SpawnedProcessLike & { readonly pid?: number } = {
    stdin,
    stdout,
    stderr,
    get killed() {
      return child ? child.killed : killedEarly !== undefined;
    },
    get exitCode() {
      return exitCode;
    },
    get signalCode() {
      return signalCode;
    },
    get pid() {
      return (child as { pid?: number } | undefined)?.pid;
    },
    kill(signal?: NodeJS.Signals) {
      if (child) return child.kill(signal);
      killedEarly = signal ?? "SIGTERM";
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
