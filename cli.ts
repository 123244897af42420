#!/usr/bin/env -S deno run -A
/**
 * The fake `claude` binary: `deno run -A cli.ts <claude flags>`. Print mode (`-p`) with
 * `--output-format text | json | stream-json`, and the SDK's duplex mode
 * (`--input-format stream-json --output-format stream-json --verbose`), on the same engine
 * and scenarios as the in-process mock. Its own options: `--scenario <file>`
 * (`CLAUDE_MOCK_SCENARIO`), `--failure <name>` (`CLAUDE_MOCK_FAILURE`).
 *
 * @example Running the fake binary from code
 * ```ts
 * import { runCli } from "@x/claude-mock/cli";
 * console.log(typeof runCli); // function
 * ```
 *
 * @module
 */

import { runCli } from "./src/cli/run_cli.ts";

export {
  CLAIMED_VERSION,
  type CliIO,
  DEFAULT_REPLY,
  defaultScenario,
  runCli,
} from "./src/cli/run_cli.ts";
export { CliUsageError, parseArgv, type ParsedArgv } from "./src/cli/parse_argv.ts";
export { CLI_OPTIONS, type CliOption, type CliOptionKind } from "./src/cli/cli_options.ts";
export { type CapturedInvocation, CaptureLog, readCapture } from "./src/cli/capture.ts";
export {
  type FakeClaude,
  installFakeClaude,
  type InstallFakeClaudeOptions,
} from "./src/cli/install_fake_claude.ts";

/** Whether stdin is a pipe or socket (or unknown), not a file or device that ends by itself. */
function stdinMayStall(): boolean {
  try {
    const info = Deno.statSync("/dev/stdin");
    return !(info.isFile || info.isCharDevice);
  } catch {
    return true;
  }
}

if (import.meta.main) {
  const abort = new AbortController();
  const onTerm = () => abort.abort();
  Deno.addSignalListener("SIGTERM", onTerm);
  const code = await runCli({
    argv: Deno.args,
    env: Deno.env.toObject(),
    cwd: Deno.cwd(),
    stdin: Deno.stdin.readable,
    stdinIsTerminal: Deno.stdin.isTerminal(),
    stdinMayStall: stdinMayStall(),
    stdoutIsTerminal: Deno.stdout.isTerminal(),
    stdout: Deno.stdout.writable,
    stderr: Deno.stderr.writable,
    isRoot: Deno.uid?.() === 0,
    signal: abort.signal,
  });
  Deno.removeSignalListener("SIGTERM", onTerm);
  Deno.exit(code);
}
