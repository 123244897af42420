/**
 * What a mock session is set up with besides its command line: the options `MockTransport`
 * takes, and `Session` takes with the command line (`SessionOptions`).
 *
 * @module
 */

import type { Clock } from "../timing/clock.ts";
import type { Timing } from "../timing/timing_profile.ts";
import type { BuildContext } from "../builders/build_context.ts";
import type { ToolCall } from "../builders/tools.ts";
import type { HookCommandRunner } from "./command_hooks.ts";
import type { SessionStore } from "./session_store.ts";

/**
 * How a mock session behaves, besides the command line and environment its client gives:
 * the CLI version it impersonates, its clock, seed and timing, time limits, and where its
 * output goes. `MockTransport` takes these; `Session` takes them with `args` and `env`.
 *
 * @example Pinning the impersonated CLI and the seed
 * ```ts
 * import { MockTransport, ScenarioBuilder, type SessionSettings } from "@x/claude-mock";
 * const settings: SessionSettings = { cliVersion: "2.1.328", seed: 7 };
 * const mock = new MockTransport(new ScenarioBuilder().on("hi").respond("Hello!").build(), settings);
 * console.log(typeof mock.spawn); // function
 * ```
 */
export interface SessionSettings {
  /**
   * The CLI version to impersonate (`--version`, `system/init`, `initialize`, and every
   * behaviour that differs between versions). Default: `CLAUDE_MOCK_VERSION` of `env`, else
   * the CLI of the SDK that spawned the process (its `CLAUDE_AGENT_SDK_VERSION`), else the
   * installed SDK's, else the newest version the mock knows (`resolveCliVersion`).
   */
  cliVersion?: string;
  /**
   * The Agent SDK installed where the process runs, if one was found: its version and the
   * CLI version its `manifest.json` names (the adapters look it up).
   */
  installedSdk?:
    | { version: string; cliVersion: string }
    | (() => { version: string; cliVersion: string } | undefined);
  /**
   * Where the process's stderr goes: the lines the real CLI writes there (a malformed
   * stream's `Could not parse message into JSON: …`). Default: nowhere.
   */
  stderr?: (text: string) => void;
  /**
   * Whether the process runs as root (default: whether this process does, as the real CLI
   * reads its own uid). As root the real CLI refuses to skip permissions (`bypassPermissions`,
   * `--dangerously-skip-permissions`, `--allow-dangerously-skip-permissions`) unless the
   * environment has `IS_SANDBOX=1`: it writes why to stderr and exits 1 before anything else,
   * and so does the mock. Set it to pin a test's outcome whoever runs it (a CI container
   * runs as root).
   */
  root?: boolean;
  /** The clock for scripted time: a {@linkcode Clock}, `virtual` (default) or `system`. */
  clock?: Clock | "virtual" | "system";
  /** Seed for ids and jitter (default: the scenario's, else the global default). */
  seed?: bigint | number;
  /** Timing profile (default: the scenario's, else the global default). */
  timing?: Timing;
  /** Speed factor (default: the scenario's, else the global default). */
  speedFactor?: number;
  /**
   * How long to wait for the client to answer a control request or to write what a
   * `waitForWrite` step waits for, in real milliseconds whatever the clock (default
   * 60 000). A live answer within the limit always wins; past it the turn fails with an
   * error naming the request. Tests of a client that never answers shorten it.
   */
  controlTimeoutMs?: number;
  /** Keep every frame the session writes, for `sent()` (`mock.session.sent()`) (default false). */
  recordSent?: boolean;
  /**
   * Which run of the binary this is (default 1): exchanges scripted for another
   * `invocation` do not answer.
   */
  invocation?: number;
  /**
   * Runs allowed tool uses for real instead of giving their scripted results (the fake
   * binary's live mode); `undefined` from it keeps the scripted result.
   */
  runTool?: ToolRunner;
  /**
   * Whether the command of a stdio MCP server the CLI runs (`--mcp-config`, `.mcp.json`,
   * `initialize`, `mcp_set_servers`) can be started: `found`, `missing` (a name not on `PATH`,
   * a path not there), or `denied` (there, but not an executable file). One that cannot is
   * `failed` with the real CLI's error. The fake binary and `MockTransport` look on the `PATH`
   * of the process's environment and in its folder; without this, every command is found.
   */
  mcpCommandCheck?: (command: string) => "found" | "missing" | "denied";
  /**
   * The text of the project's `.mcp.json` (in the folder the process runs in), if it has one:
   * its servers are the session's (`source: "project"`) unless `--strict-mcp-config`, as the
   * real CLI's. The fake binary and `MockTransport` read it; text that is not JSON configures
   * nothing.
   */
  projectMcpConfig?: string;
  /**
   * Runs the command hooks of the settings (`--settings`, the SDK's `settings`, the project's
   * `.claude/settings.json` and `.claude/settings.local.json` as `--setting-sources` allows),
   * as the real CLI does: the fake binary and `MockTransport` give the host's runner on Deno and
   * Node; the browser has none. Without a runner, command hooks are not run.
   */
  runHookCommand?: HookCommandRunner;
  /**
   * Whether the settings' command hooks run (default `true` where the host can run them;
   * `CLAUDE_MOCK_COMMAND_HOOKS=0` in the environment turns them off too): `false` for tests that
   * want the scripted session without the project's hooks.
   */
  commandHooks?: boolean;
  /**
   * How a prompt whose whole text is a `__mock__` command is taken (default `"on"`): `"on"`
   * runs it as the command (a tool use it asks for gets the command's result, never a live
   * run); `"off"` takes it as an ordinary prompt, matched against the exchanges like any
   * other (for sessions whose users' text must never drive the mock); `"live"` runs it, and
   * lets a tool use it asks for run live when the session runs tools live (`runTool`, the
   * fake binary's `CLAUDE_MOCK_LIVE`), after the usual permission checks: a prompt can then
   * run a real shell command, so it must be asked for.
   */
  mockCommands?: "on" | "off" | "live";
  /**
   * Where the session's stdout goes instead of its readable side: each
   * stream-json line's bytes (newline included), in order. A promise it returns holds
   * further output back until it settles (up to 16 lines in flight); a rejection or a
   * throw is a reader that went away (a broken pipe). Then `readable` throws a
   * `TypeError`, and no Web Stream is made: hosts that write their stdout themselves (the
   * fake binary) use it with the session's `write()` and `endInput()` (`@x/claude-mock/session`).
   */
  output?: (line: Uint8Array) => void | Promise<void>;
  /**
   * The transcripts the session sees and keeps (default: none, a session with no earlier
   * ones): with a store, `resume` (`--resume`), `continue`, `forkSession`, `sessionId` and
   * `resumeSessionAt` act as the real CLI's on its config folder. A resume of a session the
   * store holds goes on from it (its results' `modelUsage` and `total_cost_usd` include the
   * earlier ones'); of one it does not hold, the session writes `No conversation found with
   * session ID: <id>` to stderr and an `error_during_execution` result, and exits 1; a
   * `sessionId` it holds already is refused (`Error: Session ID <id> is already in use.`,
   * exit 1). The session adds its own transcript as it runs, unless the client passed
   * `--no-session-persistence` (`persistSession: false`). Sessions given one store see each
   * other's: `mockClaude()` gives every query it intercepts its own mock's store.
   */
  sessionStore?: SessionStore;
}

/**
 * Runs a tool use for real and gives its result, or `undefined` to use the scenario's
 * scripted result (a tool it does not run live).
 */
export type ToolRunner = (
  use: { name: string; input: Record<string, unknown>; ctx: BuildContext },
) => Promise<ToolCall["result"] | undefined>;
