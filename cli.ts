#!/usr/bin/env -S deno run -A
/**
 * The fake `claude` binary: `deno run -A cli.ts <claude flags>` (on Node, the npm package's
 * `claude-mock` bin, `src/cli/bin.ts`). Print mode (`-p`) with
 * `--output-format text | json | stream-json`, and the SDK's duplex mode
 * (`--input-format stream-json --output-format stream-json --verbose`), on the same engine
 * and scenarios as the in-process mock. Its own options: `--scenario <file>`
 * (`CLAUDE_MOCK_SCENARIO`), `--failure <name>` (`CLAUDE_MOCK_FAILURE`).
 *
 * @example A print-mode run of the fake binary, in process
 * ```ts
 * import { runCli } from "@x/claude-mock/cli";
 *
 * let out = "";
 * const code = await runCli({
 *   argv: ["-p", "hello"],
 *   env: {},
 *   cwd: "/",
 *   stdin: new Blob([]).stream(),
 *   stdinIsTerminal: true,
 *   stdoutIsTerminal: false,
 *   stdout: new WritableStream({ write: (c) => void (out += new TextDecoder().decode(c)) }),
 *   stderr: new WritableStream(),
 * });
 * console.log(code, out); // 0 Hello! How can I help?
 * ```
 *
 * As a program: `deno run -A jsr:@x/claude-mock/cli -p hello`, or `installFakeClaude()` to put
 * a `claude` on `PATH` for the code under test.
 *
 * @module
 */

import { runMain } from "./src/cli/_main.ts";

// the `__mock__` commands, with their machinery loaded at once (the fake binary's bundle loads
// it on the first command prompt): every session this entry point makes answers them
import "./src/mock_commands/_eager.ts";

export { CLAIMED_VERSION, runCli } from "./src/cli/run_cli.ts";
export type { CliIO } from "./src/cli/cli_io.ts";
export { CliUsageError } from "./src/cli/parse_argv.ts";
export { type CapturedInvocation, CaptureLog, readCapture } from "./src/fake_claude/capture.ts";
export {
  type FakeClaude,
  installFakeClaude,
  type InstallFakeClaudeOptions,
} from "./src/fake_claude/install_fake_claude.ts";

// conformance: the mock against the real CLI the installed SDK ships (`claude-mock conform`)
export {
  type AppRequest,
  type BeforeRun,
  type ConformCase,
  type HookAnswer,
  loadConformCase,
  loadConformCases,
  type McpToolData,
  type PermissionAnswer,
  type PrintFormat,
} from "./src/conform/conform_case.ts";
export {
  type ConformException,
  type DifferenceContext,
  loadConformExceptions,
} from "./src/conform/conform_exceptions.ts";
export type { Difference } from "./src/conform/_compare.ts";
export {
  type AgentSdk,
  loadAgentSdk,
  type LoadAgentSdkOptions,
} from "./src/conform/load_agent_sdk.ts";
export { resolveClaudeBinary } from "./src/conform/resolve_claude.ts";
export {
  type CaseResult,
  type ConformReport,
  type ModeResult,
  runConformance,
  type RunConformanceOptions,
} from "./src/conform/run_conformance.ts";
export { conformancePassed, reportText } from "./src/conform/conform_report.ts";

// not awaited: a top-level await would keep `require("@x/claude-mock/cli")` from loading it
if ((import.meta as { main?: boolean }).main) void runMain();

// Types the signatures above show, from the layers they belong to (`deno doc --lint` of this
// entry point on its own wants each of them exported here).
export { type Tape } from "./src/cassette/tape.ts";
export { type TapeEnding } from "./src/cassette/tape.ts";
export { type TapeEntry } from "./src/cassette/tape.ts";
export { type TapeHeader } from "./src/cassette/tape.ts";
export { type TapeFrameEntry } from "./src/cassette/tape.ts";
export { type TapeRawEntry } from "./src/cassette/tape.ts";
export { type TapeStderrEntry } from "./src/cassette/tape.ts";
export { type TapeDirection } from "./src/cassette/tape.ts";
// the types its signatures show, shared with the other entry points
export * from "./src/scenario/scenario_types.ts";
