/**
 * `ClaudeSpawn`: the type of every `spawnClaudeCodeProcess` function the library hands out
 * (a cassette's, an interception mock's), the Agent SDK's own shape, so it goes into the
 * SDK's options with no cast.
 *
 * @module
 */

import type { Readable, Writable } from "node:stream";
import type { ErrorListener, ExitListener, SpawnOptionsLike } from "./mock_process.ts";

/**
 * A process as the Agent SDK's `spawnClaudeCodeProcess` returns it (the SDK's
 * `SpawnedProcess`): a `MockProcess`, a recorded process, or a real `ChildProcess`.
 *
 * @example A mock process is one
 * ```ts
 * import { type ClaudeProcess, MockProcess, ScenarioBuilder, Session } from "@x/claude-mock";
 * const child: ClaudeProcess = new MockProcess(new Session(new ScenarioBuilder().build()));
 * child.stdout.resume();
 * child.stdin.end();
 * await new Promise((resolve) => child.once("exit", resolve));
 * console.log(child.exitCode); // 0
 * ```
 */
export interface ClaudeProcess {
  /** stdin: the SDK writes stream-json here. */
  stdin: Writable;
  /** stdout: the SDK reads stream-json here. */
  stdout: Readable;
  /** Whether it was killed. */
  readonly killed: boolean;
  /** Its exit code once it exited, else `null`. */
  readonly exitCode: number | null;
  /** The signal that ended it, if any. */
  readonly signalCode?: NodeJS.Signals | null;
  /** Sends a signal. */
  kill(signal?: NodeJS.Signals): boolean;
  /** Adds an `exit` listener. */
  on(event: "exit", listener: ExitListener): unknown;
  /** Adds an `error` listener. */
  on(event: "error", listener: ErrorListener): unknown;
  /** Adds a one-time `exit` listener. */
  once(event: "exit", listener: ExitListener): unknown;
  /** Adds a one-time `error` listener. */
  once(event: "error", listener: ErrorListener): unknown;
  /** Removes an `exit` listener. */
  off(event: "exit", listener: ExitListener): unknown;
  /** Removes an `error` listener. */
  off(event: "error", listener: ErrorListener): unknown;
}

/**
 * A `spawnClaudeCodeProcess` function: what the SDK's option takes, so any of the library's
 * spawns goes into `query()`'s options as it is.
 *
 * @example Typing a spawn of your own
 * ```ts
 * import { type ClaudeSpawn, MockTransport, ScenarioBuilder } from "@x/claude-mock";
 * const mock = new MockTransport(new ScenarioBuilder().on("hi").respond("Hello!").build());
 * const spawn: ClaudeSpawn = (options) => mock.spawn(options);
 * console.log(typeof spawn); // function
 * ```
 */
export type ClaudeSpawn = (options: SpawnOptionsLike) => ClaudeProcess;
