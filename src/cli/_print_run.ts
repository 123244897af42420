/**
 * One run of the fake binary's session: print mode (`-p`, stdout as `text`, `json` or
 * `stream-json`) or the SDK's duplex mode (`--input-format stream-json`). The flags are checked
 * as the real CLI checks them, the session runs on the process's standard streams, and the run
 * leaves its transcript and capture behind. Internal.
 *
 * @module
 */

import { findInstalledSdkNear, type InstalledSdk } from "../adapters/installed_sdk.ts";
import { resolveCliVersion } from "../builders/cli_versions.ts";
import type { ModelUsageEntry } from "../builders/usage.ts";
import { modelNotice } from "../builders/model_retirement.ts";
import { userPrompt } from "../builders/user.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { bypassRefusal, parseCliFlags } from "../session/cli_args.ts";
import { lastCallOf, Session, type SessionOptions } from "../session/session.ts";
import { transcribed, withFinalUsage } from "./_transcript_lines.ts";
import { isoTime } from "../timing/_iso_time.ts";
import { getDefaults } from "../timing/defaults.ts";
import { VIRTUAL_EPOCH } from "../timing/virtual_clock.ts";
import { errorCode } from "../host/_fs.ts";
import { notePluginUse, prepareConfigHome } from "./_config_home.ts";
import type { CliProcess } from "./cli_io.ts";
import { MOCK_COMMANDS_MODES, type MockEnv } from "./cli_env.ts";
import {
  appendCapture,
  appendTranscript,
  configDir,
  nextInvocation,
  projectDir,
  stateDir,
  stateDirRefusal,
} from "./cli_state.ts";
import { hostHookRunner } from "../host/_hook_runner.ts";
import { commandState } from "../host/_which.ts";
import { LIVE_TOOLS, liveToolRunner } from "./live_tools.ts";
import { CliUsageError, type ParsedArgv } from "./parse_argv.ts";
import { withMcpConfigFiles } from "./_mcp_config_flag.ts";
import { withAgentsFile } from "./_agents_flag.ts";
import { PrintOutput } from "./_print_output.ts";
import { untrustedSettingsWarning } from "./_project_settings.ts";
import { settingsNotLoaded, withSettingsFile } from "./_settings_flag.ts";
import { checkFlagSettings, flagSettingsWarning } from "../session/flag_settings_check.ts";
import { resolveSession } from "./_session_flags.ts";
import { chooseScenario } from "./_run_scenario.ts";
import { readAllStdin, type Stdio } from "./_stdio.ts";
import { realMicrotask } from "../timing/real_time.ts";

const encoder = new TextEncoder();

/** What a run is made of, once its flags and knobs are checked. */
interface RunPlan {
  /** The process: command line, environment, standard streams, signals. */
  io: CliProcess;
  /** Its command line, parsed. */
  parsed: ParsedArgv;
  /** The fake's own knobs (`CLAUDE_MOCK_*`). */
  knobs: MockEnv;
  /** The Agent SDK installed beside the run (looked for once). */
  installedSdk: () => InstalledSdk | undefined;
  /** When the run started (ms since the epoch). */
  started: number;
  /** The scenario it plays. */
  scenario: Scenario;
  /** The working directory of the session (the scenario's, else the process's). */
  cwd: string;
  /** The folder of `cwd`'s transcripts. */
  projects: string;
  /** The session id to use or resume; none for a new session. */
  sessionId?: string;
  /** What the resumed or continued session had used, by model. */
  resumedUsage?: Record<string, ModelUsageEntry>;
  /** The context the resumed session's last API call ended with (tokens). */
  resumedContext?: number;
  /** Which run of the binary this is (1 for the first in its state folder). */
  invocation: number;
  /** Print mode's prompt, and what piped stdin carried; none in duplex mode. */
  input?: { prompt: string; stdin?: string };
  /** The session's arguments. */
  args: string[];
  /** `--output-format`. */
  outputFormat: string;
  /** `--mock-commands` / `CLAUDE_MOCK_COMMANDS`, when given. */
  mockCommands?: "on" | "off" | "live";
  /** The text of the project's `.mcp.json`, if it has one. */
  projectMcpConfig?: string;
}

/** The run's signal handlers: SIGTERM ends the session, SIGINT interrupts its turn. */
interface RunSignals {
  /** Whether SIGINT came. */
  readonly sigint: boolean;
  /** Interrupts the running turn, then ends the run with exit 0. */
  interrupt(): void;
  /** Stops listening. */
  stop(): void;
}

/**
 * Runs the session of `parsed` (not a subcommand, `--version` or `--help`) on the process's
 * streams; resolves with the exit code. A refused command line throws a `CliUsageError`
 * before anything runs.
 */
export async function runSession(
  io: CliProcess,
  { parsed, knobs }: { parsed: ParsedArgv; knobs: MockEnv },
): Promise<number> {
  let looked = false;
  let found: InstalledSdk | undefined;
  const installedSdk = () => {
    if (!looked) [looked, found] = [true, findInstalledSdkNear(io)];
    return found;
  };
  // as the real CLI: its config folder is made ready once the command line is accepted; one
  // that cannot be written to does not stop the run (a path that is not a folder is reported)
  const home = configDir(io.env);
  let unreadable: string | undefined;
  try {
    const notice = await prepareConfigHome(home, {
      version: resolveCliVersion({ env: io.env, installedSdk }).cli.version,
      now: knobs.timing !== undefined && knobs.timing !== "instant" ? Date.now() : VIRTUAL_EPOCH,
      seed: knobs.seed ?? BigInt(getDefaults().seed),
    });
    if (notice !== undefined) await io.stdio.writeErr(encoder.encode(notice));
  } catch (error) {
    if (error instanceof CliUsageError) throw error;
    // the config folder is CLAUDE_MOCK_STATE_DIR's (no CLAUDE_CONFIG_DIR): the variable's fault
    if (!io.env.CLAUDE_CONFIG_DIR) {
      const refusal = stateDirRefusal(io.env, error);
      if (refusal !== undefined) throw refusal;
    }
    if (errorCode(error) === "ENOTDIR") unreadable = settingsNotLoaded(home);
  }
  const plan = await planRun(io, { parsed, knobs, installedSdk });
  if (unreadable !== undefined && plan.outputFormat === "text" && plan.input !== undefined) {
    await io.stdio.writeErr(encoder.encode(unreadable));
  }
  const { session, output } = startSession(plan);
  const given = parsed.options.get("--settings");
  if (typeof given === "string" && plan.outputFormat === "text" && plan.input !== undefined) {
    // --settings the CLI could not take whole: which entries, why (text output alone)
    const warning = flagSettingsWarning(checkFlagSettings(given), session.ctx.cli.facts);
    if (warning !== undefined) await io.stdio.writeErr(encoder.encode(warning));
  }
  const signals = listen(plan, session);
  try {
    await notePluginUse(home, session.ctx.sessionId).catch(() => {});
    const code = await play(plan, { session, output, signals });
    await keepRecords(plan, { session, output, code });
    return code;
  } finally {
    signals.stop();
  }
}

/** Checks the flags as the real CLI does, then gathers what the run needs. */
async function planRun(
  io: CliProcess,
  { parsed, knobs, installedSdk }: Pick<RunPlan, "parsed" | "knobs" | "installedSdk">,
): Promise<RunPlan> {
  const { inputFormat, outputFormat } = checkModeFlags(parsed, io);
  const started = Date.now();
  const scenario = await chooseScenario(parsed, io);
  const cwd = scenario.cwd ?? io.cwd;
  const projects = projectDir(io.env, cwd);
  const { sessionId, resumedUsage, resumedContext } = await resolveSession(parsed, {
    projects,
    outputFormat,
    scenario,
  });
  const sources = parsed.options.get("--setting-sources");
  const warning = await untrustedSettingsWarning({
    dir: io.cwd,
    cwd,
    config: configDir(io.env),
    ...(typeof sources === "string" ? { sources } : {}),
  });
  if (warning !== undefined) await io.stdio.writeErr(encoder.encode(warning));
  // the default state folder that cannot be written to counts this run as the first; one
  // CLAUDE_MOCK_STATE_DIR names is refused, naming it
  const invocation = await nextInvocation(stateDir(io.env)).catch((error) => {
    const refusal = stateDirRefusal(io.env, error);
    if (refusal !== undefined) throw refusal;
    return 1;
  });
  const input = inputFormat === "stream-json" ? undefined : await promptOf(parsed, io);
  const { readText, readSmallText } = await import("../host/_fs.ts");
  const mcpWarnings: string[] = [];
  const given = await withSettingsFile(parsed, io.cwd, readText);
  const args = await withAgentsFile(
    await withMcpConfigFiles(given, { cwd: io.cwd, readText, warnings: mcpWarnings }),
    { cwd: io.cwd, readText },
  );
  // what the real CLI's debug log says of MCP entries it skips (--debug-to-stderr shows it)
  if (parsed.options.has("--debug-to-stderr")) {
    for (const line of mcpWarnings) {
      await io.stdio.writeErr(encoder.encode(`${new Date().toISOString()} [WARN] ${line}\n`));
    }
  }
  if (
    parsed.options.has("--dangerously-skip-permissions") && !parsed.options.has("--permission-mode")
  ) {
    args.push("--permission-mode", "bypassPermissions");
  }
  const mockCommands = mockCommandsOf(parsed, knobs);
  // the project's MCP servers (the session leaves them out under --strict-mcp-config)
  const projectMcpConfig = await readSmallText(`${io.cwd.replace(/\/$/, "")}/.mcp.json`)
    .catch(() => undefined);
  return {
    ...(projectMcpConfig !== undefined ? { projectMcpConfig } : {}),
    io,
    parsed,
    knobs,
    installedSdk,
    started,
    scenario,
    cwd,
    projects,
    ...(sessionId !== undefined ? { sessionId } : {}),
    ...(resumedUsage !== undefined ? { resumedUsage } : {}),
    ...(resumedContext !== undefined ? { resumedContext } : {}),
    invocation,
    ...(input !== undefined ? { input } : {}),
    args,
    outputFormat,
    ...(mockCommands !== undefined ? { mockCommands } : {}),
  };
}

/**
 * The modes the flags ask for, refused as the real CLI refuses them: the interactive mode,
 * stream-json input without stream-json output, stream-json output without `--verbose`,
 * partial messages outside stream-json, skipping permissions as root outside a sandbox.
 */
function checkModeFlags(
  parsed: ParsedArgv,
  io: CliProcess,
): { inputFormat: string; outputFormat: string } {
  const has = (name: string) => parsed.options.has(name);
  const value = (name: string) => {
    const v = parsed.options.get(name);
    return typeof v === "string" ? v : undefined;
  };
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
  if (
    has("--replay-user-messages") &&
    (inputFormat !== "stream-json" || outputFormat !== "stream-json")
  ) {
    throw new CliUsageError(
      "Error: --replay-user-messages requires both --input-format=stream-json and --output-format=stream-json.",
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
  return { inputFormat, outputFormat };
}

/** `--mock-commands` / `CLAUDE_MOCK_COMMANDS`, checked. */
function mockCommandsOf(parsed: ParsedArgv, knobs: MockEnv): RunPlan["mockCommands"] {
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
  return mockCommands as RunPlan["mockCommands"];
}

/** The session and the output that renders its stdout. */
function startSession(plan: RunPlan): { session: Session; output: PrintOutput } {
  const { io, knobs, scenario, cwd, invocation } = plan;
  const options = sessionOptions(knobs, { scenario, invocation });
  // paced output waits on real timers: a signal then must find its handler (exit 143 with the
  // record kept for SIGTERM, an interrupt for SIGINT), not the default action
  if (options.clock === "system") io.beforeWait?.();
  const output = new PrintOutput({
    format: plan.input === undefined ? "stream-json" : plan.outputFormat,
    holdForBackground: plan.input !== undefined,
    keepState: io.env.CLAUDE_CODE_SDK_READS_SESSION_STATE === "1",
    // CLAUDE_MOCK_CRASH_AFTER=n: the process dies (exit 1) once it has written n stdout lines
    crashAfter: knobs.crashAfter,
    write: io.stdio.write,
    onCrash: () => realMicrotask(() => session.kill("SIGKILL")),
  });
  const session = new Session({
    ...scenario,
    cwd,
    ...(plan.sessionId !== undefined ? { sessionId: plan.sessionId } : {}),
  }, {
    args: plan.args,
    ...(plan.resumedUsage ? { resumedUsage: plan.resumedUsage } : {}),
    ...(plan.resumedContext !== undefined ? { resumedContext: plan.resumedContext } : {}),
    env: io.env,
    installedSdk: plan.installedSdk,
    stderr: (text) => void io.stdio.writeErr(encoder.encode(text)).catch(() => {}),
    invocation,
    ...options,
    ...liveOption(io, knobs, { scenario, cwd }),
    // the settings' command hooks run in the folder the binary runs in, as the real CLI's
    ...(knobs.commandHooks
      ? {
        runHookCommand: hostHookRunner(io.cwd, {
          // the user's own slash commands: only a config folder the environment names
          ...(io.env.CLAUDE_CONFIG_DIR ? { configDir: io.env.CLAUDE_CONFIG_DIR } : {}),
        }),
      }
      : {}),
    // a stdio MCP server whose command is not on PATH (or not an executable file) failed
    mcpCommandCheck: (command) => commandState(command, { path: io.env.PATH, cwd: io.cwd }),
    ...(plan.projectMcpConfig !== undefined ? { projectMcpConfig: plan.projectMcpConfig } : {}),
    ...(plan.mockCommands !== undefined ? { mockCommands: plan.mockCommands } : {}),
    output: output.push,
  });
  return { session, output };
}

/**
 * SIGTERM ends the session (unless `CLAUDE_MOCK_IGNORE_SIGTERM`); SIGINT, as the real CLI,
 * interrupts the running turn and its end is written, then the run ends with exit 0 (at once
 * when no turn runs, even with stdin still open).
 */
function listen({ io, knobs }: RunPlan, session: Session): RunSignals {
  const onAbort = () => {
    if (!knobs.ignoreSigterm) session.kill("SIGTERM");
  };
  const stopTerm = io.terminated?.onAbort(onAbort);
  if (io.terminated?.aborted) onAbort();
  let sigint = false;
  const interrupt = () => {
    sigint = true;
    session.interrupt().then(() => session.exit(0)).catch(() => {});
  };
  const stopInterrupts = io.interrupted?.onAbort(interrupt);
  return {
    get sigint() {
      return sigint;
    },
    interrupt,
    stop: () => {
      stopTerm?.();
      stopInterrupts?.();
    },
  };
}

/** Gives the session its input, waits for its end; resolves with the run's exit code. */
async function play(
  plan: RunPlan,
  { session, output, signals }: { session: Session; output: PrintOutput; signals: RunSignals },
): Promise<number> {
  const { io, knobs } = plan;
  const prompt = plan.input?.prompt;
  if (knobs.crashAfter === 0) session.kill("SIGKILL");
  else if (prompt === undefined) feedStdin(io.stdio, session);
  else {
    session.write(`${JSON.stringify(userPrompt(prompt))}\n`);
    session.endInput();
  }
  if (io.interrupted?.aborted) signals.interrupt();
  // as the real CLI's text output: a notice when the model was remapped, is retired, or unknown
  if (plan.outputFormat === "text" && plan.input !== undefined) {
    const notice = modelNotice(session.ctx, { now: session.clock.now() });
    if (notice) await io.stdio.writeErr(encoder.encode(notice));
  }
  // CLAUDE_MOCK_STDERR: lines on stderr once the run has started (a test can wait for them)
  for (const line of (io.env.CLAUDE_MOCK_STDERR ?? "").split("\\n").filter((l) => l !== "")) {
    await io.stdio.writeErr(encoder.encode(`${line}\n`));
  }
  const status = await session.exited;
  await output.finish();
  const crashed = knobs.crashAfter === 0 || output.crashed;
  const code = crashed ? 1 : signals.sigint ? 0 : status.signal ? 143 : status.code ?? 1;
  if (knobs.hang && !status.signal && !signals.sigint) return await hang(io, knobs.ignoreSigterm);
  return code;
}

/** What a run leaves behind: its transcript (unless `--no-session-persistence`), its capture. */
async function keepRecords(
  plan: RunPlan,
  { session, output, code }: { session: Session; output: PrintOutput; code: number },
): Promise<void> {
  const { io, parsed, input, started } = plan;
  const prompt = input?.prompt;
  const { written } = output;
  if (!parsed.options.has("--no-session-persistence")) {
    const transcript = withFinalUsage(written.filter(transcribed), lastCallOf(session));
    if (prompt !== undefined) transcript.unshift(JSON.stringify(userPrompt(prompt)));
    // as the real CLI, a config folder that cannot be written to loses the transcript only
    await appendTranscript(plan.projects, session.ctx.sessionId, transcript).catch(() => {});
  }
  const capture = parsed.mock.capture ?? io.env.CLAUDE_MOCK_CAPTURE;
  if (!capture) return;
  await appendCapture(capture, {
    seq: plan.invocation,
    time: isoTime(started),
    argv: io.argv,
    cwd: io.cwd,
    env: Object.fromEntries(Object.entries(io.env).filter(([k]) => CAPTURED_ENV.test(k))),
    prompts: prompt !== undefined ? [prompt] : promptsIn(session),
    ...(input?.stdin !== undefined ? { stdin: input.stdin } : {}),
    sessionId: session.ctx.sessionId,
    exchanges: session.exchangesMatched(),
    frames: written.length,
    exitCode: code,
    durationMs: Date.now() - started,
  });
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

/**
 * Seed, clock and timing of a run: invocations after the first draw other ids, from a seed
 * 2^32 apart per invocation (so runs given their own small seeds, 1, 2, 3…, in one folder never
 * meet: seed 1's second run is not seed 2's first).
 */
function sessionOptions(
  knobs: MockEnv,
  { scenario, invocation }: Pick<RunPlan, "scenario" | "invocation">,
): Pick<SessionOptions, "seed" | "speedFactor" | "clock" | "timing"> {
  const options: Pick<SessionOptions, "seed" | "speedFactor" | "clock" | "timing"> = {};
  const seed = knobs.seed ?? BigInt(scenario.seed ?? getDefaults().seed);
  if (knobs.seed !== undefined || invocation > 1) {
    options.seed = seed + (BigInt(invocation - 1) << 32n);
  }
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
    // as the real CLI: refused before anything runs
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
