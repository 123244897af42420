/**
 * `CliIO`: what the fake binary runs with, as `runCli` and each subcommand take it; and
 * `CliProcess`, the same with the host's own standard streams as functions.
 *
 * @module
 */

import type { AbortLatch } from "../timing/_abort_latch.ts";
import type { Stdio } from "./_stdio.ts";

/** What the fake binary runs with: its command line, environment and streams. */
export interface CliIO {
  /** The arguments (without the program name). */
  argv: readonly string[];
  /** The environment. */
  env: Record<string, string | undefined>;
  /** The working directory. */
  cwd: string;
  /**
   * The folder of the running binary. When no Agent SDK is installed for the working
   * directory, the one installed beside the binary (in the project that installed it) names
   * the CLI version to impersonate.
   */
  binDir?: string;
  /** Standard input. */
  stdin: ReadableStream<Uint8Array>;
  /** Whether standard input is a terminal. */
  stdinIsTerminal: boolean;
  /**
   * Whether standard input may stay open without data (a pipe or a socket), so it is given
   * up on after 3 s of silence as the real CLI does; `false` for a file or `/dev/null`,
   * which are read to their end. Default `true`.
   */
  stdinMayStall?: boolean;
  /** Whether standard output is a terminal. */
  stdoutIsTerminal: boolean;
  /** Standard output. */
  stdout: WritableStream<Uint8Array>;
  /** Standard error. */
  stderr: WritableStream<Uint8Array>;
  /** Whether the process runs as root (uid 0). */
  isRoot?: boolean;
  /** Aborted on SIGTERM: the run ends with exit 143. */
  signal?: AbortSignal;
  /**
   * Aborted on SIGINT: as the real CLI, the running turn is interrupted (its interruption
   * frames and an `error_during_execution` result are written) and the run ends with exit 0.
   */
  interrupt?: AbortSignal;
}

/**
 * What the binary runs with when its standard streams are the host's own handles, given as
 * functions (no Web Streams): {@linkcode CliIO} without the streams, and `stdio`.
 */
export interface CliProcess
  extends Omit<CliIO, "stdin" | "stdout" | "stderr" | "signal" | "interrupt"> {
  /** Standard input, output and error. */
  stdio: Stdio;
  /**
   * Aborted on SIGTERM: the run ends with exit 143. A latch, not an `AbortSignal`: the
   * event machinery is made only if something asks for its `signal`.
   */
  terminated?: AbortLatch;
  /** Aborted on SIGINT: the running turn is interrupted and the run ends with exit 0. */
  interrupted?: AbortLatch;
  /**
   * Called before the run waits on something outside the process that `stdio` and the
   * real-time timer do not see (live tools running programs): the host installs its SIGTERM
   * handler then, if it has not yet.
   */
  beforeWait?: () => void;
}
