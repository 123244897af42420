/**
 * The fake `claude` binary, runtime-free: a command line, the environment and three streams
 * in, an exit code out. Print mode (`-p`) renders the engine's frames as `text`, `json` or
 * `stream-json`; `--input-format stream-json` runs the full control protocol on stdio for the
 * SDK's `pathToClaudeCodeExecutable`. The refusals, messages and exit codes are the real
 * CLI 2.1.328's (recorded from the real binary).
 *
 * @module
 */

import { userPrompt } from "../builders/user.ts";
import { NEWEST_CLI_VERSION, resolveCliVersion } from "../builders/cli_versions.ts";
import { findInstalledSdk } from "../adapters/installed_sdk.ts";
import { any } from "../scenario/matcher.ts";
import { FAILURE_NAMES, type FailureName, isFailureName } from "../scenario/named_failures.ts";
import type { Scenario } from "../scenario/scenario.ts";
import type { Step, StepSource } from "../scenario/step.ts";
import { Session, type SessionOptions } from "../session/session.ts";
import { bypassRefusal, parseCliFlags } from "../session/cli_args.ts";
import { AbortLatch } from "../timing/_abort_latch.ts";
import { isoTime } from "../timing/_iso_time.ts";
import { getDefaults } from "../timing/defaults.ts";
import {
  appendCapture,
  appendTranscript,
  hasTranscript,
  latestSession,
  nextInvocation,
  projectDir,
  stateDir,
} from "./cli_state.ts";
import { LIVE_TOOLS, liveToolRunner } from "./live_tools.ts";
import { MOCK_COMMANDS_MODES, type MockEnv, readMockEnv } from "./cli_env.ts";
import { PrintOutput } from "./_print_output.ts";
import { readableOf, readAllStdin, type Stdio, streamStdio, writableOf } from "./_stdio.ts";
import { CliUsageError, parseArgv, type ParsedArgv } from "./parse_argv.ts";
import { SUBCOMMANDS } from "./subcommands.ts";

/** What the fake binary runs with: its command line, environment and streams. */
export interface CliIO {
  /** The arguments (without the program name). */
  argv: readonly string[];
  /** The environment. */
  env: Record<string, string | undefined>;
  /** The working directory. */
  cwd: string;
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
 * The version the fake claims when nothing says which CLI to impersonate: the newest the
 * recordings cover. `CLAUDE_MOCK_VERSION` overrides it; an SDK that runs the fake sets
 * `CLAUDE_AGENT_SDK_VERSION` and gets the CLI it bundles; run by hand in a project with the
 * SDK installed, the fake claims that SDK's CLI (its `manifest.json`).
 */
export const CLAIMED_VERSION: string = NEWEST_CLI_VERSION;

/** The default answer of the default scenario (the real CLI's, as recorded for `-p hello`). */
export const DEFAULT_REPLY = "Hello! How can I help?";

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
    return error instanceof CliUsageError ? error.exitCode : 1;
  }
}

async function run(io: CliProcess): Promise<number> {
  const { stdio } = io;
  const sub = SUBCOMMANDS[io.argv[0] ?? ""];
  if (sub) {
    const { terminated, interrupted: _, ...rest } = io;
    return await (await sub())(io.argv.slice(1), {
      ...rest,
      ...(terminated ? { signal: terminated.signal } : {}),
      stdin: readableOf(stdio),
      stdout: writableOf(stdio.write),
      stderr: writableOf(stdio.writeErr),
    });
  }
  // the fake's own knobs, checked before anything runs: a bad value is an error, not ignored
  const knobs = readMockEnv(io.env);
  for (const warning of knobs.warnings) await stdio.writeErr(encoder.encode(`${warning}\n`));
  const parsed = parseArgv(io.argv);
  const has = (name: string) => parsed.options.has(name);
  const value = (name: string) => {
    const v = parsed.options.get(name);
    return typeof v === "string" ? v : undefined;
  };
  const installedSdk = () => findInstalledSdk(io.cwd);
  if (has("--version")) {
    const { cli } = resolveCliVersion({ env: io.env, installedSdk });
    await stdio.write(encoder.encode(`${cli.version} (Claude Code)\n`));
    return 0;
  }
  if (has("--help")) {
    const { HELP_TEXT } = await import("./help_text.ts");
    await stdio.write(encoder.encode(HELP_TEXT));
    return 0;
  }
  const outputFormat = value("--output-format") ?? "text";
  const inputFormat = value("--input-format") ?? "text";
  const print = has("--print") || inputFormat === "stream-json" ||
    (!io.stdoutIsTerminal && (parsed.prompt !== undefined || !io.stdinIsTerminal));
  if (!print) {
    throw new CliUsageError(
      "claude-mock: the interactive mode is not simulated; use -p (or run with stdout not a terminal)",
    );
  }
  if (inputFormat === "stream-json" && outputFormat !== "stream-json") {
    throw new CliUsageError(
      "Error: --input-format=stream-json requires output-format=stream-json.",
    );
  }
  if (outputFormat === "stream-json" && !has("--verbose")) {
    throw new CliUsageError(
      "Error: When using --print, --output-format=stream-json requires --verbose",
    );
  }
  if (has("--include-partial-messages") && outputFormat !== "stream-json") {
    throw new CliUsageError(
      "Error: --include-partial-messages requires --print and --output-format=stream-json.",
    );
  }
  const refusal = bypassRefusal(parseCliFlags(parsed.args), io.env, io.isRoot === true);
  if (refusal !== undefined) throw new CliUsageError(refusal);
  checkSessionFlags(parsed);
  const started = Date.now();
  const scenario = await chooseScenario(parsed, io);
  const cwd = scenario.cwd ?? io.cwd;
  const projects = projectDir(io.env, cwd);
  const sessionId = await resolveSession(parsed, projects);
  const invocation = await nextInvocation(stateDir(io.env));
  const input = inputFormat === "stream-json" ? undefined : await promptOf(parsed, io);
  const prompt = input?.prompt;
  const args = await withSettingsFile(parsed, io.cwd);
  if (has("--dangerously-skip-permissions") && !has("--permission-mode")) {
    args.push("--permission-mode", "bypassPermissions");
  }
  // CLAUDE_MOCK_CRASH_AFTER=n: the process dies (exit 1) once it has written n stdout lines
  const crashAfter = knobs.crashAfter;
  const options = sessionOptions(knobs, scenario, invocation);
  const mockCommands = parsed.mock["mock-commands"] ?? knobs.commands;
  if (
    mockCommands !== undefined && !(MOCK_COMMANDS_MODES as readonly string[]).includes(mockCommands)
  ) {
    throw new CliUsageError(
      `error: option '--mock-commands <mode>' argument '${mockCommands}' is invalid. Allowed choices are ${
        MOCK_COMMANDS_MODES.join(", ")
      }.`,
    );
  }
  // paced output waits on real timers: a signal then must find its handler (exit 143 with the
  // record kept for SIGTERM, an interrupt for SIGINT), not the default action
  if (options.clock === "system") io.beforeWait?.();
  const output = new PrintOutput({
    format: prompt === undefined ? "stream-json" : outputFormat,
    keepState: io.env.CLAUDE_CODE_SDK_READS_SESSION_STATE === "1",
    crashAfter,
    write: stdio.write,
    onCrash: () => queueMicrotask(() => session.kill("SIGKILL")),
  });
  const session = new Session({
    ...scenario,
    cwd,
    ...(sessionId !== undefined ? { sessionId } : {}),
  }, {
    args,
    env: io.env,
    installedSdk,
    stderr: (text) => void stdio.writeErr(encoder.encode(text)).catch(() => {}),
    invocation,
    ...options,
    ...liveOption(io, knobs, { scenario, cwd }),
    ...(mockCommands !== undefined ? { mockCommands: mockCommands as "on" | "off" | "live" } : {}),
    output: output.push,
  });
  const ignoreTerm = knobs.ignoreSigterm;
  const onAbort = () => {
    if (!ignoreTerm) session.kill("SIGTERM");
  };
  const stopListening = io.terminated?.onAbort(onAbort);
  if (io.terminated?.aborted) onAbort();
  // SIGINT, as the real CLI: the running turn is interrupted and its end written, then the
  // run ends with exit 0 (at once when no turn runs, even with stdin still open)
  let sigint = false;
  const onInterrupt = () => {
    sigint = true;
    session.interrupt().then(() => session.exit(0)).catch(() => {});
  };
  const stopInterrupts = io.interrupted?.onAbort(onInterrupt);
  try {
    if (crashAfter === 0) session.kill("SIGKILL");
    else if (prompt === undefined) feedStdin(stdio, session);
    else {
      session.write(`${JSON.stringify(userPrompt(prompt))}\n`);
      session.endInput();
    }
    if (io.interrupted?.aborted) onInterrupt();
    // CLAUDE_MOCK_STDERR: lines on stderr once the run has started (a test can wait for them)
    for (const line of (io.env.CLAUDE_MOCK_STDERR ?? "").split("\\n").filter((l) => l !== "")) {
      await stdio.writeErr(encoder.encode(`${line}\n`));
    }
    const status = await session.exited;
    await output.finish();
    const crashed = crashAfter === 0 || output.crashed;
    const { written } = output;
    let code = crashed ? 1 : sigint ? 0 : status.signal ? 143 : status.code ?? 1;
    if (knobs.hang && !status.signal && !sigint) {
      code = await hang(io, ignoreTerm);
    }
    if (!has("--no-session-persistence")) {
      const transcript = written.filter(transcribed);
      if (prompt !== undefined) transcript.unshift(JSON.stringify(userPrompt(prompt)));
      await appendTranscript(projects, session.ctx.sessionId, transcript);
    }
    const capture = parsed.mock.capture ?? io.env.CLAUDE_MOCK_CAPTURE;
    if (capture) {
      await appendCapture(capture, {
        seq: invocation,
        time: isoTime(started),
        argv: io.argv,
        cwd: io.cwd,
        env: Object.fromEntries(
          Object.entries(io.env).filter(([k]) => CAPTURED_ENV.test(k)),
        ),
        prompts: prompt !== undefined ? [prompt] : promptsIn(session),
        ...(input?.stdin !== undefined ? { stdin: input.stdin } : {}),
        sessionId: session.ctx.sessionId,
        exchanges: session.exchangesMatched(),
        frames: written.length,
        exitCode: code,
        durationMs: Date.now() - started,
      });
    }
    return code;
  } finally {
    stopListening?.();
    stopInterrupts?.();
  }
}

/**
 * Whether a transcript keeps a line: user and assistant messages, results, `system/init` and
 * compact boundaries (substring tests: no RegExp on the start-up path).
 */
function transcribed(line: string): boolean {
  return line.startsWith('{"type":"user"') || line.startsWith('{"type":"assistant"') ||
    line.includes('"type":"result"') || line.includes('"subtype":"init"') ||
    line.includes('"subtype":"compact_boundary"');
}
/** Environment a capture records: the fake's own, the SDK's and the retry and timeout knobs. */
const CAPTURED_ENV = /^(CLAUDE_|ANTHROPIC_BASE_URL$|ANTHROPIC_MODEL$|API_TIMEOUT_MS$|IS_SANDBOX$)/;

/** The prompts the client sent in user frames (duplex mode). */
function promptsIn(session: Session): string[] {
  return session.writes.frames().filter((m) => m.type === "user").map((m) => {
    const content = (m.message as { content?: unknown } | undefined)?.content;
    return typeof content === "string"
      ? content
      : Array.isArray(content)
      ? content.map((b) => (b as { text?: string }).text ?? "").join("")
      : "";
  });
}

/** Seed, clock and timing of a run: invocations after the first draw other ids. */
function sessionOptions(
  knobs: MockEnv,
  scenario: Scenario,
  invocation: number,
): Pick<SessionOptions, "seed" | "speedFactor" | "clock" | "timing"> {
  const options: Pick<SessionOptions, "seed" | "speedFactor" | "clock" | "timing"> = {};
  const seed = knobs.seed ?? BigInt(scenario.seed ?? getDefaults().seed);
  if (knobs.seed !== undefined || invocation > 1) options.seed = seed + BigInt(invocation - 1);
  if (knobs.speed !== undefined) options.speedFactor = knobs.speed;
  if (knobs.timing !== undefined) {
    options.timing = knobs.timing;
    if (knobs.timing !== "instant") options.clock = "system";
  }
  return options;
}

/** Live mode: `CLAUDE_MOCK_LIVE` (`1`, or tool names) or the scenario's `live`. */
function liveOption(
  io: Pick<CliProcess, "beforeWait">,
  knobs: MockEnv,
  { scenario, cwd }: { scenario: Scenario; cwd: string },
): Pick<SessionOptions, "runTool"> {
  const live = knobs.live ?? scenario.live;
  if (!live) return {};
  // the tools run programs and touch files: a run that may wait on them
  io.beforeWait?.();
  return { runTool: liveToolRunner(cwd, live === true ? LIVE_TOOLS : live) };
}

/**
 * The engine's arguments, with `--settings` resolved as the real CLI resolves it: JSON as
 * given, anything else a file path (relative to the cwd) whose JSON replaces it. A file that
 * is not there is the real CLI's error (`Error: Settings file not found: <path>`, exit 1),
 * before anything runs: `--settings '{not json'` is such a path.
 */
async function withSettingsFile(parsed: ParsedArgv, cwd: string): Promise<string[]> {
  const args = [...parsed.args];
  const value = parsed.options.get("--settings");
  if (typeof value !== "string") return args;
  try {
    JSON.parse(value);
    return args;
  } catch {
    // not JSON: a path
  }
  const path = value.startsWith("/") ? value : `${cwd}/${value}`;
  const { readText } = await import("./_fs.ts");
  let text: string;
  try {
    text = await readText(path);
  } catch {
    throw new CliUsageError(`Error: Settings file not found: ${path}`);
  }
  try {
    JSON.parse(text);
  } catch (error) {
    throw new CliUsageError(
      `Error: Settings file ${path} is not valid JSON: ${(error as Error).message}`,
    );
  }
  // the settings as the engine reads them: `--settings <json>` (the last one given wins)
  args.push("--settings", text);
  return args;
}

/** `--session-id`, `--resume`, `-c`: the session id to use, or none for a new one. */
async function resolveSession(parsed: ParsedArgv, projects: string): Promise<string | undefined> {
  const fork = parsed.options.has("--fork-session");
  const id = parsed.options.get("--session-id");
  if (typeof id === "string") {
    if (await hasTranscript(projects, id)) {
      throw new CliUsageError(`Error: Session ID ${id} is already in use.`);
    }
    return id;
  }
  const resume = parsed.options.get("--resume");
  if (typeof resume === "string") {
    if (!(await hasTranscript(projects, resume))) {
      throw new CliUsageError(`No conversation found with session ID: ${resume}`);
    }
    return fork ? undefined : resume;
  }
  if (parsed.options.has("--continue")) {
    const latest = await latestSession(projects);
    return latest !== undefined && !fork ? latest : undefined;
  }
  return undefined;
}

/**
 * After the result: stay alive until a signal ends the run: SIGTERM (unless ignored) with
 * 143, SIGINT with 0 (nothing runs to interrupt).
 */
function hang(
  io: Pick<CliProcess, "terminated" | "interrupted">,
  ignoreTerm: boolean,
): Promise<number> {
  return new Promise((resolve) => {
    const { terminated, interrupted } = io;
    if (terminated?.aborted && !ignoreTerm) return resolve(143);
    if (interrupted?.aborted) return resolve(0);
    const timer = setInterval(() => {}, 1 << 30);
    const end = (code: number) => {
      clearInterval(timer);
      resolve(code);
    };
    if (terminated && !ignoreTerm) terminated.onAbort(() => end(143));
    interrupted?.onAbort(() => end(0));
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function checkSessionFlags(parsed: ParsedArgv): void {
  const id = parsed.options.get("--session-id");
  if (typeof id === "string" && !UUID.test(id)) {
    throw new CliUsageError("Error: Invalid session ID. Must be a valid UUID.");
  }
  const resume = parsed.options.get("--resume");
  if (typeof resume === "string" && !UUID.test(resume)) {
    throw new CliUsageError(
      `Error: --resume requires a valid session ID or session title ` +
        `when used with --print. Usage: claude -p --resume <session-id|title>. ` +
        `Provided value "${resume}" is not a UUID and does not match ` +
        `any session title.`,
    );
  }
}

/** `--scenario` / `CLAUDE_MOCK_SCENARIO`, `--failure` / `CLAUDE_MOCK_FAILURE`, or the default. */
async function chooseScenario(parsed: ParsedArgv, io: CliProcess): Promise<Scenario> {
  const file = parsed.mock.scenario ?? io.env.CLAUDE_MOCK_SCENARIO;
  const failure = parsed.mock.failure ?? io.env.CLAUDE_MOCK_FAILURE;
  if (failure !== undefined && !isFailureName(failure)) {
    throw new CliUsageError(
      `claude-mock: unknown failure '${failure}'; expected one of ${FAILURE_NAMES.join(", ")}`,
    );
  }
  let scenario: Scenario;
  if (file !== undefined && file !== "") {
    const path = file.startsWith("/") || /^[a-z]+:/i.test(file) ? file : `${io.cwd}/${file}`;
    // loaded when a scenario is named: the default needs none of the file format
    const { loadScenario } = await import("../scenario/load_scenario.ts");
    scenario = await loadScenario(path);
  } else {
    scenario = defaultScenario();
  }
  return failure === undefined ? scenario : withFailure(scenario, failure as FailureName);
}

/** The scenario with no file: every prompt gets {@linkcode DEFAULT_REPLY}. */
export function defaultScenario(): Scenario {
  // what `new ScenarioBuilder({ name: "default" }).on(any()).repeat().respond(DEFAULT_REPLY)
  // .build()` makes (a test keeps the two equal), without running the builder at every start
  return {
    name: "default",
    onConnect: [],
    exchanges: [{
      trigger: any(),
      steps: [{ kind: "message", parts: [{ type: "text", text: DEFAULT_REPLY }] }],
      repeat: true,
    }],
  };
}

/** `scenario` with the named failure before each exchange's steps. */
function withFailure(scenario: Scenario, name: FailureName): Scenario {
  const failure: Step = { kind: "failure", name };
  const prefix = (steps: StepSource): StepSource =>
    typeof steps === "function"
      ? async function* (turn) {
        yield failure;
        yield* await steps(turn);
      }
      : [failure, ...steps];
  return {
    ...scenario,
    exchanges: scenario.exchanges.map((e) => ({ ...e, steps: prefix(e.steps) })),
  };
}

/**
 * The most piped stdin the real CLI 2.1.328 takes in print mode: 10 MiB of characters
 * (10,485,760 passed, one more was refused; 5 Mi + 1 two-byte characters passed).
 */
const STDIN_LIMIT_CHARS = 10 * 1024 * 1024;

/**
 * The prompt: the argument and piped stdin, joined as the real CLI joins them; and what
 * stdin carried, when it was piped.
 */
async function promptOf(
  parsed: ParsedArgv,
  io: CliProcess,
): Promise<{ prompt: string; stdin?: string }> {
  const stdin = io.stdinIsTerminal ? undefined : await readAllStdin(io.stdio, {
    mayStall: io.stdinMayStall ?? true,
    maxChars: STDIN_LIMIT_CHARS,
  });
  if (stdin !== undefined && stdin.length > STDIN_LIMIT_CHARS) {
    // as the real CLI: refused before anything runs (recording print_faults/huge_prompt_17mib)
    throw new CliUsageError(
      "Error: piped stdin input exceeds 10MB. Pass large content as a file path in your prompt instead.",
    );
  }
  const piped = stdin?.endsWith("\n") ? stdin.slice(0, -1) : stdin ?? "";
  const prompt = parsed.prompt !== undefined && piped !== ""
    ? `${parsed.prompt}\n${piped}`
    : parsed.prompt ?? piped;
  if (prompt.trim() === "") {
    throw new CliUsageError(
      "Error: Input must be provided either through stdin or as a prompt argument when using --print",
    );
  }
  return { prompt, ...(stdin !== undefined ? { stdin } : {}) };
}

/** `--input-format stream-json`: stdin to the engine until it ends or the engine exits. */
function feedStdin(stdio: Stdio, session: Session): void {
  (async () => {
    for (let chunk = await stdio.read(); chunk !== null; chunk = await stdio.read()) {
      if (session.closed) return;
      session.write(chunk);
    }
    session.endInput();
  })().catch(() => {});
}
