/**
 * The process a `spawnClaudeCodeProcess` function starts, as `recordingSpawn` takes
 * and returns it: the SDK's spawn options, the process, its `exit` listeners.
 *
 * @module
 */

import type { Readable, Writable } from "node:stream";

/** What the SDK hands to `spawnClaudeCodeProcess` (its `SpawnOptions`). */
export interface ProcessSpawnOptions {
  /** The command to run. */
  command: string;
  /** Its arguments. */
  args: string[];
  /** The working directory. */
  cwd?: string;
  /** The environment. */
  env: Record<string, string | undefined>;
  /** Aborted by the SDK (after its graceful close) to kill the process. */
  signal: AbortSignal;
}

/** A process as `spawnClaudeCodeProcess` returns it (the SDK's `SpawnedProcess`), with stderr if it has one. */
export interface SpawnedProcessLike {
  /** stdin. */
  stdin: Writable;
  /** stdout. */
  stdout: Readable;
  /** stderr, when the process has one (a `ChildProcess` does). */
  stderr?: Readable | null;
  /** Whether it was killed. */
  readonly killed: boolean;
  /** Its exit code once exited. */
  readonly exitCode: number | null;
  /** The signal that ended it. */
  readonly signalCode?: NodeJS.Signals | null;
  /** Sends a signal. */
  kill(signal?: NodeJS.Signals): boolean;
  /** Adds an `exit` listener. */
  on(event: "exit", listener: ProcessExitListener): unknown;
  /** Adds an `error` listener. */
  on(event: "error", listener: (error: Error) => void): unknown;
  /** Adds a one-time `exit` listener. */
  once(event: "exit", listener: ProcessExitListener): unknown;
  /** Adds a one-time `error` listener. */
  once(event: "error", listener: (error: Error) => void): unknown;
}

/** A listener for a process's `exit` event. */
export type ProcessExitListener = (code: number | null, signal: NodeJS.Signals | null) => void;
