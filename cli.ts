#!/usr/bin/env -S deno run -A
/**
 * The fake `claude` binary: `deno run -A cli.ts <claude flags>` (on Node, the npm package's
 * `claude-mock` bin, `src/cli/bin.ts`). Print mode (`-p`) with
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

import { runMain } from "./src/cli/_main.ts";

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

if ((import.meta as { main?: boolean }).main) await runMain();
