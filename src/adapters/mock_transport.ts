/**
 * `MockTransport`: the object a test holds. It starts one mock `claude` session for a
 * scenario, hands it to the Agent SDK (`spawn`, or `options()`: the SDK options that run
 * `query()` against it) or to any client (`connect`), and keeps what the client wrote for
 * assertions.
 *
 * @module
 */

import { existsSync, readFileSync } from "node:fs";
import { Readable } from "node:stream";
// its sessions answer `__mock__` command prompts (the machinery loads on the first one)
import "../mock_commands/mock_commands.ts";
import type { Scenario } from "../scenario/scenario.ts";
import type { WriteEntry } from "../session/write_log.ts";
import { assertProgress } from "../session/scenario_progress.ts";
import { type ExitStatus, Session } from "../session/session.ts";
import type { SessionSettings } from "../session/session_settings.ts";
import { claimRun } from "../session/session_store.ts";
import { getDefaults } from "../timing/defaults.ts";
import type { Frame } from "../wire/frame.ts";
import { ClientAnswerLog } from "./_client_answer_log.ts";
import type {
  ClientAnswer,
  ClientHookAnswer,
  ClientMcpAnswer,
  ClientPermissionAnswer,
} from "./client_answers.ts";
import { findInstalledSdk } from "./installed_sdk.ts";
import { commandHooksAllowed } from "../session/command_hooks.ts";
import { hostHookRunner } from "../host/_hook_runner.ts";
import { commandState } from "../host/_which.ts";
import type { MockSession } from "./mock_session.ts";
import { directStdio, MockProcess, type SpawnOptionsLike } from "./mock_process.ts";

/**
 * What `pathToClaudeCodeExecutable` is set to by `mock.options()`. The SDK never runs it (the
 * mock's spawn function replaces the process); it only stops the SDK from looking for its
 * optional native binary first.
 *
 * @example The placeholder
 * ```ts
 * import { MOCK_EXECUTABLE_PATH } from "@x/claude-mock";
 * console.log(MOCK_EXECUTABLE_PATH); // claude
 * ```
 */
export const MOCK_EXECUTABLE_PATH = "claude";

/**
 * The Agent SDK options for a mock session (`mock.options()`): spread them into `query()`'s
 * `options`. Without `pathToClaudeCodeExecutable` the SDK looks for its native `claude`
 * binary (an optional dependency) before it calls `spawnClaudeCodeProcess`, and refuses to
 * start when `npm install --omit=optional` left it out.
 *
 * @example Spreading them
 * ```ts
 * import { type MockSdkOptions, MockTransport, ScenarioBuilder } from "@x/claude-mock";
 * const mock = new MockTransport(new ScenarioBuilder().on("hi").respond("Hello!").build());
 * const options: MockSdkOptions = mock.options();
 * console.log(Object.keys({ ...options, maxTurns: 3 }));
 * // [ "spawnClaudeCodeProcess", "pathToClaudeCodeExecutable", "maxTurns" ]
 * ```
 */
export interface MockSdkOptions {
  /** The mock's spawn function ({@linkcode MockTransport.spawn}). */
  spawnClaudeCodeProcess: MockTransport["spawn"];
  /** {@linkcode MOCK_EXECUTABLE_PATH}: never run, it only keeps the SDK from its binary lookup. */
  pathToClaudeCodeExecutable: string;
}

/**
 * Options for {@linkcode MockTransport}: the session's settings ({@linkcode SessionSettings});
 * the command line and environment come from the client that spawns it.
 */
export type MockTransportOptions = SessionSettings;

/** A Web Streams duplex: the process's stdout (`readable`) and stdin (`writable`). */
export interface MockDuplex {
  /**
   * stdout: stream-json lines, a chunk each. As with Node's pooled `Buffer`s, a chunk is a view
   * of its own bytes in a buffer other chunks share: read it, copy it (`chunk.slice()`) before
   * transferring its `buffer`.
   */
  readable: ReadableStream<Uint8Array>;
  /** stdin: stream-json lines. */
  writable: WritableStream<Uint8Array | string>;
}

/**
 * One mock Claude Code session for a scenario. Pass `mock.spawn` as the Agent SDK's
 * `spawnClaudeCodeProcess`, or call `mock.connect()` for the raw duplex. A transport
 * runs one process: connect once, make a new transport for the next query. Transports given
 * one `sessionStore` (a `SessionStore`) see each other's sessions, so that a query can
 * resume, continue or fork an earlier one as with the real CLI; one given none is a process
 * with no earlier sessions.
 *
 * @example With the Agent SDK
 * ```ts ignore
 * import { query } from "@anthropic-ai/claude-agent-sdk";
 * import { MockTransport, ScenarioBuilder } from "@x/claude-mock";
 *
 * const mock = new MockTransport(new ScenarioBuilder().on("hello").respond("Hi!").build());
 * for await (const message of query({ prompt: "hello", options: { spawnClaudeCodeProcess: mock.spawn } })) {
 *   console.log(message.type);
 * }
 * mock.assertWrote(/"hello"/);
 * ```
 *
 * @example With the raw duplex
 * ```ts
 * import { MockTransport, ScenarioBuilder } from "@x/claude-mock";
 * const mock = new MockTransport(new ScenarioBuilder().on("hello").respond("Hi!").build());
 * const { readable, writable } = mock.connect();
 * const writer = writable.getWriter();
 * await writer.write('{"type":"user","session_id":"","message":{"role":"user","content":"hello"},"parent_tool_use_id":null}\n');
 * await writer.close();
 * const lines = (await new Response(readable).text()).trim().split("\n");
 * console.log(JSON.parse(lines.at(-2)!).result); // Hi!
 * mock.assertWroteJson((f) => f.type === "user");
 * ```
 */
export class MockTransport {
  /** The scenario. */
  readonly scenario: Scenario;
  #options: MockTransportOptions;
  #session?: Session;
  #closedEarly = false;
  #connectedBy?: string;
  #exited: Promise<ExitStatus>;
  #resolveExited!: (status: ExitStatus) => void;
  #answers = new ClientAnswerLog();

  /**
   * Prepares a session for `scenario`; nothing runs until `spawn` or `connect`. Without a
   * scenario the session has no exchanges: `__mock__` commands drive it, and any other
   * prompt gets the usual unmatched-message error.
   */
  constructor(scenario?: Scenario, options: MockTransportOptions = {}) {
    if (scenario !== undefined && (typeof scenario !== "object" || scenario === null)) {
      throw new TypeError(
        `Cannot create a MockTransport: the scenario must be an object (ScenarioBuilder's build(), loadScenario's result) or absent, got ${
          scenario === null ? "null" : typeof scenario
        }`,
      );
    }
    if (typeof options !== "object" || options === null || Array.isArray(options)) {
      throw new TypeError(
        `Cannot create a MockTransport: the options must be an object, got ${
          options === null ? "null" : Array.isArray(options) ? "an array" : typeof options
        }`,
      );
    }
    this.scenario = scenario ?? { exchanges: [] };
    this.#options = options;
    this.#exited = new Promise((resolve) => (this.#resolveExited = resolve));
  }

  /**
   * The `spawnClaudeCodeProcess` function for the Agent SDK (bound: pass it as is).
   * The SDK's arguments reach the session (`--include-partial-messages`, `--model`,
   * `--max-turns`, `--permission-mode`, ...).
   */
  readonly spawn = (options: SpawnOptionsLike): MockProcess => {
    // the process's stderr (what the CLI writes there: a malformed stream's lines, ...)
    const stderr = new Readable({ read() {} });
    // the SDK's Node streams wired straight to the session (no Web Streams in between),
    // unless the session's lines go to an `output` function of the caller's
    const direct = this.#options.output ? undefined : directStdio();
    const session = this.#start(options.args ?? [], "spawn()", options.env, {
      cwd: options.cwd,
      stderr: (text) => stderr.push(text),
      ...(direct ? { output: direct.output } : {}),
    });
    this.#answers.attach(session);
    return new MockProcess(session, {
      signal: options.signal,
      stderr,
      ...(direct ? { stdio: direct.attach(session) } : {}),
    });
  };

  /**
   * The Agent SDK options that run `query()` against this mock: spread them into `options`
   * (`{ ...mock.options(), canUseTool }`). `spawnClaudeCodeProcess` is `spawn`;
   * `pathToClaudeCodeExecutable` keeps the SDK from looking for its optional native binary,
   * without which (`npm install --omit=optional`) it refuses to start even with a spawn
   * function. The path is never run.
   */
  options(): MockSdkOptions {
    return { spawnClaudeCodeProcess: this.spawn, pathToClaudeCodeExecutable: MOCK_EXECUTABLE_PATH };
  }

  /** Starts the session and returns its stdout and stdin as Web Streams. */
  connect(
    options: { args?: readonly string[]; env?: Record<string, string | undefined> } = {},
  ): MockDuplex {
    const session = this.#start(options.args ?? [], "connect()", options.env);
    this.#answers.attach(session);
    return { readable: session.readable, writable: session.writable };
  }

  /**
   * What a test reads from the running session (after `spawn` or `connect`); the engine
   * itself is `sessionOf(mock)` of `@x/claude-mock/session`.
   */
  get session(): MockSession {
    return this.#running();
  }

  #running(): Session {
    if (!this.#session) {
      throw new TypeError(
        `MockTransport${this.#label()} has no session yet: call spawn() (pass it to the SDK) or connect() first`,
      );
    }
    return this.#session;
  }

  /** Resolves with the exit status once the process has exited. */
  get exited(): Promise<ExitStatus> {
    return this.#exited;
  }

  /** Writes a frame now. */
  inject(frame: Frame): void {
    this.#running().inject(frame);
  }

  /** Fails the running turn with an error result carrying `message`. */
  injectError(message: string): void {
    this.#running().injectError(message);
  }

  /** Every line the client wrote, parsed and raw, with session-clock timestamps. */
  writes(): WriteEntry[] {
    return this.#session ? this.#session.writes.entries() : [];
  }

  /** Every frame the client wrote (parsed). */
  writtenMessages(): Frame[] {
    return this.#session ? this.#session.writes.frames() : [];
  }

  /** Asserts that the client wrote a line containing / matching `pattern`. */
  assertWrote(pattern: string | RegExp): WriteEntry {
    return this.#running().writes.assertWrote(pattern);
  }

  /** Asserts that the client wrote a frame satisfying `predicate`; returns it. */
  assertWroteJson(predicate: (frame: Frame) => boolean, description?: string): Frame {
    return this.#running().writes.assertWroteJson(predicate, description);
  }

  /**
   * The client's answers to the mock's `can_use_tool` requests (what the app's
   * `canUseTool` decided), each with the request it answered, in answer order.
   *
   * @example What the app's canUseTool decided
   * ```ts
   * import { MockTransport, PermissionRecorder, runQuery, ScenarioBuilder } from "@x/claude-mock";
   * const mock = new MockTransport(
   *   new ScenarioBuilder().on("clean").usesBash("rm -rf build", { permission: "ask" }).build(),
   * );
   * await runQuery(mock, "clean", { canUseTool: PermissionRecorder.denyAll("No rm.").canUseTool });
   * const [decision] = mock.permissionDecisions();
   * console.log(decision.toolName, decision.input, decision.behavior, decision.message);
   * // Bash { command: "rm -rf build" } deny No rm.
   * ```
   */
  permissionDecisions(): ClientPermissionAnswer[] {
    return this.#answers.permissionDecisions(this.writes());
  }

  /** The client's answers to the mock's `hook_callback` requests (hook outputs), in order. */
  hookOutputs(): ClientHookAnswer[] {
    return this.#answers.hookOutputs(this.writes());
  }

  /** The client's answers to the mock's `mcp_message` requests (in-process MCP tools). */
  mcpResults(): ClientMcpAnswer[] {
    return this.#answers.mcpResults(this.writes());
  }

  /** Every answer the client gave to a control request of the mock, with the request. */
  clientAnswers(): ClientAnswer[] {
    return this.#answers.answers(this.writes());
  }

  /**
   * Asserts that every exchange of the scenario answered at least once (in this run of the
   * binary: exchanges scripted for another `invocation` are left out), like nock's
   * `isDone()`. Throws an `AssertionError` naming each exchange never used, with its trigger,
   * its use count and the closest prompt the session got.
   *
   * @example An exchange the app never reached
   * ```ts
   * import { MockTransport, ScenarioBuilder } from "@x/claude-mock";
   * const mock = new MockTransport(
   *   new ScenarioBuilder({ name: "deploy" }).on("build").respond("Built.")
   *     .on("delete the build dir").respond("Deleted.").onUnmatched("error").build(),
   * );
   * const { readable, writable } = mock.connect();
   * const stdin = writable.getWriter();
   * for (const text of ["build it", "delete the buld dir"]) {
   *   await stdin.write(JSON.stringify({ type: "user", message: { role: "user", content: text } }) + "\n");
   * }
   * await stdin.close();
   * await new Response(readable).text();
   * try {
   *   mock.assertAllExchangesUsed();
   * } catch (error) {
   *   console.log((error as Error).message);
   *   // MockTransport 'deploy': 1 of 2 exchanges were never used:
   *   // - exchanges[1] on contains "delete the build dir" (used 0 of 1 times); closest prompt:
   *   //   "delete the buld dir" (turn 2, which matched no exchange)
   * }
   * ```
   */
  assertAllExchangesUsed(): void {
    assertProgress(this.#session, this.scenario, {
      finished: false,
      who: `MockTransport${this.#label()}`,
      invocation: this.#options.invocation,
    });
  }

  /**
   * Asserts that the scenario ran to its end, like the OpenAI Agents SDK's scripted model's
   * `assert_complete`: every exchange used up (`times(n)`: n times; `repeat()`: at least
   * once), no user message unmatched (under `onUnmatched("warn")` or a reply too), and the
   * scenario's `crashAfter` point reached. Throws an `AssertionError` listing each problem
   * with the exchange, its trigger and the closest candidate.
   *
   * @example A finished scenario
   * ```ts
   * import { MockTransport, ScenarioBuilder } from "@x/claude-mock";
   * const mock = new MockTransport(new ScenarioBuilder().on("hi").respond("Hello!").build());
   * const { readable, writable } = mock.connect();
   * const stdin = writable.getWriter();
   * await stdin.write('{"type":"user","message":{"role":"user","content":"hi"}}\n');
   * await stdin.close();
   * await new Response(readable).text();
   * mock.assertScenarioFinished(); // passes
   * ```
   */
  assertScenarioFinished(): void {
    assertProgress(this.#session, this.scenario, {
      finished: true,
      who: `MockTransport${this.#label()}`,
      invocation: this.#options.invocation,
    });
  }

  /** Ends the process now (like SIGTERM); resolves with its exit status. */
  close(): Promise<ExitStatus> {
    if (!this.#session) {
      this.#closedEarly = true;
      this.#resolveExited({ code: null, signal: "SIGTERM" });
      return this.#exited;
    }
    this.#session.kill("SIGTERM");
    return this.#exited;
  }

  #start(
    args: readonly string[],
    by: string,
    env: Record<string, string | undefined> | undefined,
    io: {
      cwd?: string;
      stderr?: (text: string) => void;
      output?: (line: Uint8Array) => void | Promise<void>;
    } = {},
  ): Session {
    if (this.#closedEarly) {
      throw new TypeError(
        `MockTransport${this.#label()} was closed before it connected: make a new MockTransport for the next query`,
      );
    }
    if (this.#session) {
      throw new TypeError(
        `MockTransport${this.#label()} is already connected (by ${this.#connectedBy}): one transport runs one process; make a new MockTransport for the next query`,
      );
    }
    this.#connectedBy = by;
    const store = this.#options.sessionStore;
    if (store && this.#options.invocation === undefined) {
      // sessions sharing a store are runs of one binary: the n-th draws ids of its own
      const n = claimRun(store);
      const seed = this.#options.seed ?? this.scenario.seed ?? getDefaults().seed;
      this.#options = {
        ...this.#options,
        invocation: n,
        ...(n > 1 ? { seed: BigInt(seed) + BigInt(n - 1) } : {}),
      };
    }
    // the CLI it impersonates: that of the SDK that spawned it (its env), else the installed one
    const installedSdk = () => findInstalledSdk(currentDir());
    const session = new Session(this.scenario, {
      installedSdk,
      ...(io.stderr ? { stderr: io.stderr } : {}),
      ...hookRunnerOption(this.#options, env ?? {}, io.cwd),
      // a stdio MCP server whose command is not on the PATH the SDK spawns with (or a path
      // that is not an executable file) failed
      mcpCommandCheck: (command: string) =>
        commandState(command, { path: env?.PATH ?? processPath(), cwd: io.cwd || currentDir() }),
      ...projectMcpOption(io.cwd || currentDir()),
      ...this.#options,
      args,
      env,
      ...(io.output ? { output: io.output } : {}),
    });
    this.#session = session;
    session.exited.then((status) => this.#resolveExited(status));
    return session;
  }

  #label(): string {
    return this.scenario.name ? ` '${this.scenario.name}'` : "";
  }
}

/**
 * The host's runner of the settings' command hooks, in the process's folder (the SDK's `cwd`,
 * else this process's), unless the options give one, turn them off (`commandHooks: false`), or
 * the environment does (`CLAUDE_MOCK_COMMAND_HOOKS=0`).
 */
function hookRunnerOption(
  options: MockTransportOptions,
  env: Record<string, string | undefined>,
  cwd: string | undefined,
): Pick<MockTransportOptions, "runHookCommand"> {
  if (options.runHookCommand || options.commandHooks === false) return {};
  if (!commandHooksAllowed(env)) return {};
  // node:fs is loaded with node:stream here: its check saves failed reads of absent files
  return {
    runHookCommand: hostHookRunner(cwd || currentDir() || ".", {
      exists: existsSync,
      // the user's own slash commands: only a config folder the SDK's environment names
      ...(env.CLAUDE_CONFIG_DIR ? { configDir: env.CLAUDE_CONFIG_DIR } : {}),
    }),
  };
}

/** The project's `.mcp.json` in the process's folder, as the real CLI reads it. */
function projectMcpOption(cwd: string): { projectMcpConfig?: string } {
  if (!cwd) return {};
  const path = `${cwd.replace(/\/$/, "")}/.mcp.json`;
  // most projects have none: a check costs a few microseconds, a failed read on Deno a hundred
  if (!existsSync(path)) return {};
  try {
    return { projectMcpConfig: readFileSync(path, "utf8") };
  } catch {
    return {};
  }
}

/** This process's `PATH`. */
function processPath(): string | undefined {
  const g = globalThis as {
    Deno?: { env: { get(key: string): string | undefined } };
    process?: { env: Record<string, string | undefined> };
  };
  try {
    return g.Deno?.env.get("PATH") ?? g.process?.env.PATH;
  } catch {
    return undefined;
  }
}

function currentDir(): string {
  const g = globalThis as { Deno?: { cwd(): string }; process?: { cwd(): string } };
  try {
    return g.Deno?.cwd() ?? g.process?.cwd() ?? "";
  } catch {
    return "";
  }
}

/**
 * The engine behind a transport's running session (after `spawn` or `connect`): the whole
 * `Session`, where `mock.session` shows what a test reads.
 *
 * @example The engine of a running transport
 * ```ts
 * import { MockTransport, ScenarioBuilder } from "@x/claude-mock";
 * import { sessionOf } from "@x/claude-mock/session";
 *
 * const mock = new MockTransport(new ScenarioBuilder().on("hi").respond("Hello!").build());
 * mock.connect();
 * console.log(sessionOf(mock).sentRequests().size); // 0
 * await mock.close();
 * ```
 */
export function sessionOf(mock: { readonly session: MockSession }): Session {
  const session = mock.session;
  if (!(session instanceof Session)) {
    throw new TypeError(
      "Cannot get the session: sessionOf(mock) takes a MockTransport (its 'session' is no Session)",
    );
  }
  return session;
}
