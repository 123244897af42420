/**
 * The fake `claude` binary, runtime-free: a command line, the environment and three streams
 * in, an exit code out. Print mode (`-p`) renders the engine's frames as `text`, `json` or
 * `stream-json`; `--input-format stream-json` runs the full control protocol on stdio for the
 * SDK's `pathToClaudeCodeExecutable`. The refusals, messages and exit codes are the real
 * CLI 2.1.328's (recorded from the real binary).
 *
 * @module
 */

import { NEWEST_CLI_VERSION, resolveCliVersion } from "../builders/cli_versions.ts";
import { findInstalledSdkNear } from "../adapters/installed_sdk.ts";
// its sessions answer `__mock__` command prompts (the machinery loads on the first one)
import "../mock_commands/mock_commands.ts";
import { AbortLatch } from "../timing/_abort_latch.ts";
import type { CliIO, CliProcess } from "./cli_io.ts";
import { readMockEnv } from "./cli_env.ts";
import { CliUsageError, parseArgv } from "./parse_argv.ts";
import { type Subcommand, SUBCOMMANDS } from "./subcommands.ts";
import { runSession } from "./_print_run.ts";
import { readableOf, streamStdio, writableOf } from "./_stdio.ts";

/**
 * The version the fake claims when nothing says which CLI to impersonate: the newest the
 * recordings cover. `CLAUDE_MOCK_VERSION` overrides it; an SDK that runs the fake sets
 * `CLAUDE_AGENT_SDK_VERSION` and gets the CLI it bundles; run by hand in a project with the
 * SDK installed, the fake claims that SDK's CLI (its `manifest.json`).
 */
export const CLAIMED_VERSION: string = NEWEST_CLI_VERSION;

const encoder = new TextEncoder();

/**
 * Runs the fake `claude` with `io`; resolves with the exit code. Never throws: a refused
 * command line or a bad scenario is a message on stderr and exit 1.
 *
 * @example `claude --version`
 * ```ts
 * import { runCli } from "@x/claude-mock/cli";
 * const out: string[] = [];
 * const sink = () =>
 *   new WritableStream<Uint8Array>({ write: (c) => void out.push(new TextDecoder().decode(c)) });
 * const code = await runCli({
 *   argv: ["--version"],
 *   env: {},
 *   cwd: "/",
 *   stdin: new Blob([]).stream(),
 *   stdinIsTerminal: true,
 *   stdoutIsTerminal: false,
 *   stdout: sink(),
 *   stderr: sink(),
 * });
 * console.log(code, out.join("")); // 0 2.1.332 (Claude Code)
 * ```
 */
export async function runCli(io: CliIO): Promise<number> {
  const { stdin: _in, stdout: _out, stderr: _err, signal, interrupt, ...rest } = io;
  const stdio = streamStdio(io);
  const terminated = latchOf(signal);
  const interrupted = latchOf(interrupt);
  try {
    return await runCliProcess({ ...rest, stdio, terminated, interrupted });
  } finally {
    terminated.stop();
    interrupted.stop();
    await stdio.close();
  }
}

/** A latch that follows `signal`; `stop()` stops following it. */
function latchOf(signal: AbortSignal | undefined): AbortLatch & { stop(): void } {
  const latch = new AbortLatch() as AbortLatch & { stop(): void };
  const onAbort = () => latch.abort(signal?.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) onAbort();
  latch.stop = () => signal?.removeEventListener("abort", onAbort);
  return latch;
}

/**
 * {@linkcode runCli} on the host's own standard streams (the binary's process). Internal:
 * not re-exported by the entry point.
 *
 * @example `claude --version` through functions
 * ```ts
 * import { runCliProcess } from "./run_cli.ts";
 * let out = "";
 * const code = await runCliProcess({
 *   argv: ["--version"],
 *   env: {},
 *   cwd: "/",
 *   stdinIsTerminal: true,
 *   stdoutIsTerminal: false,
 *   stdio: {
 *     read: () => Promise.resolve(null),
 *     cancelRead: () => {},
 *     write: (chunk) => Promise.resolve(void (out += new TextDecoder().decode(chunk))),
 *     writeErr: () => Promise.resolve(),
 *   },
 * });
 * console.log(code, out); // 0 2.1.332 (Claude Code)
 * ```
 */
export async function runCliProcess(io: CliProcess): Promise<number> {
  try {
    return await run(io);
  } catch (error) {
    const message = error instanceof CliUsageError
      ? error.message
      : `claude-mock: ${error instanceof Error ? error.message : String(error)}`;
    await io.stdio.writeErr(encoder.encode(`${message}\n`)).catch(() => {});
    if (error instanceof CliUsageError && error.stdout !== undefined) {
      await io.stdio.write(encoder.encode(error.stdout)).catch(() => {});
    }
    return error instanceof CliUsageError ? error.exitCode : 1;
  }
}

async function run(io: CliProcess): Promise<number> {
  const { stdio } = io;
  const sub = SUBCOMMANDS[io.argv[0] ?? ""];
  if (sub) return await runSubcommand(io, await sub());
  // the fake's own knobs, checked before anything runs: a bad value is an error, not ignored
  const knobs = readMockEnv(io.env);
  for (const warning of knobs.warnings) await stdio.writeErr(encoder.encode(`${warning}\n`));
  const parsed = parseArgv(io.argv);
  if (parsed.options.has("--version")) {
    const installedSdk = () => findInstalledSdkNear(io);
    const { cli } = resolveCliVersion({ env: io.env, installedSdk });
    await stdio.write(encoder.encode(`${cli.version} (Claude Code)\n`));
    return 0;
  }
  if (parsed.options.has("--help")) {
    const { HELP_TEXT } = await import("./help_text.ts");
    await stdio.write(encoder.encode(HELP_TEXT));
    return 0;
  }
  return await runSession(io, { parsed, knobs });
}

/** A subcommand (`claude-mock record`, `drift`, ...), on Web Streams over the process's own. */
function runSubcommand(io: CliProcess, command: Subcommand): Promise<number> {
  const { stdio } = io;
  const { terminated, interrupted: _, ...rest } = io;
  return command(io.argv.slice(1), {
    ...rest,
    ...(terminated ? { signal: terminated.signal } : {}),
    stdin: readableOf(stdio),
    stdout: writableOf(stdio.write),
    stderr: writableOf(stdio.writeErr),
  });
}
