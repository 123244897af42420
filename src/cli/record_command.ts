/**
 * `cli.ts record --out <tape> [--name <scenario name>] [--scenario <file>] -- <claude args>`:
 * runs the real `claude` in the program's place, passing stdin, stdout and stderr through
 * while recording them (and the exit) into a tape; exits with the child's code (128 + the
 * signal's number when a signal ended it). With `--scenario`, no API key is needed: the
 * CLI's model calls go to that scenario's Messages API, and it runs in a sandbox (a temp cwd
 * and config folder). The command run is `CLAUDE_MOCK_REAL_CLAUDE`, or `claude` on
 * `PATH`; its `--version` is asked first, for the tape's `cli_version`. A terminal on stdin
 * is not passed on (the child gets an empty stdin). Usage errors exit 2; a command that
 * cannot start exits 127.
 *
 * @module
 */

import { spawn } from "node:child_process";
import { recordingSpawn } from "../cassette/recording_spawn.ts";
import type { SpawnedProcessLike } from "../cassette/spawned_process.ts";
import { type ScenarioSandbox, scenarioSandbox } from "../cassette/scenario_sandbox.ts";
import { loadScenario } from "../scenario/load_scenario.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { realTimeout } from "../timing/real_time.ts";
import { removeFile } from "../host/_fs.ts";
import { failedTapePath } from "../cassette/_failed_recording.ts";
import type { CliIO } from "./cli_io.ts";

const encoder = new TextEncoder();

/** The usage line of `record`. */
const USAGE =
  "Usage: claude-mock record --out <tape> [--name <scenario name>] [--scenario <file>] -- <claude args>";

const HELP = `${USAGE}

Runs the real claude with <claude args>, passing stdin, stdout and stderr through, and
records both directions of the wire, stderr and the exit into <tape> (JSONL, written to
<tape>.partial until the run ends). Exits with claude's exit code. A run that fails (a
non-zero exit, a signal) never replaces a tape already at <tape>: it is kept beside it as
<name>.failed.jsonl, and a line on stderr says so.

  --out <tape>        the tape file to write (required)
  --name <name>       the scenario name kept in the tape's header
  --scenario <file>   no API key needed: claude's model calls go to this scenario (a file, or
                      builtin:<name>) through a local Messages API; claude runs in a temp
                      folder with a temp CLAUDE_CONFIG_DIR, its tools for real

The command run is $CLAUDE_MOCK_REAL_CLAUDE, or claude on PATH. A terminal on stdin is not
passed on: claude then gets an empty stdin.
`;

/** Signal numbers, for the shell's exit code of a process a signal ended (128 + n). */
const SIGNALS: Record<string, number> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGABRT: 6,
  SIGKILL: 9,
  SIGUSR1: 10,
  SIGSEGV: 11,
  SIGUSR2: 12,
  SIGPIPE: 13,
  SIGALRM: 14,
  SIGTERM: 15,
};

interface RecordArgs {
  out: string;
  name?: string;
  scenario?: string;
  args: string[];
}

class RecordUsageError extends Error {}

function parseRecordArgv(argv: readonly string[]): RecordArgs | "help" {
  let out: string | undefined;
  let name: string | undefined;
  let scenario: string | undefined;
  let i = 0;
  const value = (flag: string, inline: string | undefined): string => {
    const v = inline ?? argv[++i];
    if (v === undefined || v === "" || (inline === undefined && v.startsWith("--"))) {
      throw new RecordUsageError(`claude-mock record: ${flag} needs a value`);
    }
    return v;
  };
  for (; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      i++;
      break;
    }
    const eq = arg.indexOf("=");
    const flag = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    const inline = flag === arg ? undefined : arg.slice(eq + 1);
    if (flag === "--out") out = value("--out", inline);
    else if (flag === "--name") name = value("--name", inline);
    else if (flag === "--scenario") scenario = value("--scenario", inline);
    else if (flag === "--help" || flag === "-h") return "help";
    else if (arg.startsWith("-")) {
      throw new RecordUsageError(
        `claude-mock record: unknown flag ${flag} (claude's own flags go after --)`,
      );
    } else {
      throw new RecordUsageError(
        `claude-mock record: unexpected argument ${
          JSON.stringify(arg)
        } (claude's arguments go after --)`,
      );
    }
  }
  if (out === undefined) throw new RecordUsageError("claude-mock record: --out <tape> is required");
  return {
    out,
    ...(name !== undefined ? { name } : {}),
    ...(scenario !== undefined ? { scenario } : {}),
    args: argv.slice(i),
  };
}

/** `<command> --version`'s version, or `undefined` when it does not say within 10 s. */
function versionOf(command: string, io: CliIO): Promise<string | undefined> {
  return new Promise((resolve) => {
    let text = "";
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(command, ["--version"], {
        cwd: io.cwd,
        env: io.env,
        stdio: ["ignore", "pipe", "ignore"],
      });
    } catch {
      return resolve(undefined);
    }
    const cancel = realTimeout(() => child.kill("SIGKILL"), 10_000);
    child.stdout!.on("data", (chunk) => (text += String(chunk)));
    child.once("error", () => {
      cancel();
      resolve(undefined);
    });
    child.once("close", (code) => {
      cancel();
      resolve(code === 0 ? /^\s*(\d+\.\d+\.\d+[^\s(]*)/.exec(text)?.[1] : undefined);
    });
  });
}

/** Resolves once `stream` can take more (or is done for). */
function drained(stream: SpawnedProcessLike["stdin"]): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off("drain", done);
      stream.off("close", done);
      stream.off("error", done);
      resolve();
    };
    stream.on("drain", done);
    stream.on("close", done);
    stream.on("error", done);
  });
}

/**
 * The `record` subcommand: records a run of the real `claude` into a tape.
 *
 * @example A usage error
 * ```ts
 * import { recordCommand } from "./record_command.ts";
 * const err: string[] = [];
 * const code = await recordCommand(["--name", "x"], {
 *   argv: [],
 *   env: {},
 *   cwd: "/",
 *   stdin: new Blob([]).stream(),
 *   stdinIsTerminal: false,
 *   stdoutIsTerminal: false,
 *   stdout: new WritableStream(),
 *   stderr: new WritableStream({ write: (c) => void err.push(new TextDecoder().decode(c)) }),
 * });
 * console.log(code, err.join("").split("\n")[0]); // 2 claude-mock record: --out <tape> is required
 * ```
 */
export async function recordCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const err = io.stderr.getWriter();
  const out = io.stdout.getWriter();
  try {
    let parsed: RecordArgs | "help";
    try {
      parsed = parseRecordArgv(argv);
    } catch (error) {
      if (!(error instanceof RecordUsageError)) throw error;
      await err.write(encoder.encode(`${error.message}\n${USAGE}\n`));
      return 2;
    }
    if (parsed === "help") {
      await out.write(encoder.encode(HELP));
      return 0;
    }
    return await record(parsed, io, { out, err });
  } finally {
    out.releaseLock();
    err.releaseLock();
  }
}

async function record(
  parsed: RecordArgs,
  io: CliIO,
  { out, err }: {
    out: WritableStreamDefaultWriter<Uint8Array>;
    err: WritableStreamDefaultWriter<Uint8Array>;
  },
): Promise<number> {
  const command = io.env.CLAUDE_MOCK_REAL_CLAUDE || "claude";
  let scenario: Scenario | undefined;
  if (parsed.scenario !== undefined) {
    const source = parsed.scenario.startsWith("builtin:") || parsed.scenario.startsWith("/") ||
        /^[a-z][a-z0-9+.-]*:\/\//i.test(parsed.scenario)
      ? parsed.scenario
      : `${io.cwd.replace(/\/+$/, "")}/${parsed.scenario}`;
    try {
      scenario = await loadScenario(source);
    } catch (error) {
      await err.write(encoder.encode(
        `claude-mock record: ${error instanceof Error ? error.message : String(error)}\n`,
      )).catch(() => {});
      return 1;
    }
  }
  let sandbox: ScenarioSandbox | undefined;
  if (scenario) {
    try {
      sandbox = await scenarioSandbox(scenario);
    } catch (error) {
      await err.write(encoder.encode(
        `claude-mock record: ${error instanceof Error ? error.message : String(error)}\n`,
      )).catch(() => {});
      return 1;
    }
  }
  try {
    return await recordIn(parsed, io, { out, err, command, sandbox });
  } finally {
    await sandbox?.close();
  }
}

/** Where a recording's output goes, what it runs, and in which sandbox. */
interface RecordPlaces {
  out: WritableStreamDefaultWriter<Uint8Array>;
  err: WritableStreamDefaultWriter<Uint8Array>;
  command: string;
  sandbox: ScenarioSandbox | undefined;
}

async function recordIn(
  parsed: RecordArgs,
  io: CliIO,
  { out, err, command, sandbox }: RecordPlaces,
): Promise<number> {
  const cliVersion = await versionOf(command, io);
  let errors = Promise.resolve();
  const spawner = recordingSpawn({
    out: parsed.out,
    header: {
      ...(parsed.name !== undefined ? { scenario: parsed.name } : {}),
      ...(cliVersion !== undefined ? { cli_version: cliVersion } : {}),
      ...(sandbox ? { messages_api: "scenario" } : {}),
    },

    stderr: (_text, chunk) => {
      const bytes = typeof chunk === "string" ? encoder.encode(chunk) : chunk;
      errors = errors.then(() => err.write(bytes)).catch(() => {});
    },
  });
  const child = spawner({
    command,
    args: parsed.args,
    cwd: sandbox?.cwd ?? io.cwd,
    env: sandbox ? { ...io.env, ...sandbox.env } : io.env,
    signal: io.signal ?? new AbortController().signal,
  });
  const result = await relay(child, { io, out });
  let saved: string | undefined;
  let failed: unknown;
  try {
    saved = (await spawner.finished).source;
  } catch (error) {
    failed = error;
  }
  if (result instanceof Error) {
    // nothing ran: no tape of it (a tape already at --out is left as it was)
    await removeFile(failed === undefined ? saved ?? parsed.out : failedTapePath(parsed.out))
      .catch(() => {});
    await errors;
    await err.write(encoder.encode(
      `claude-mock record: cannot run ${command}: ${result.message} (set CLAUDE_MOCK_REAL_CLAUDE, or put claude on PATH)\n`,
    )).catch(() => {});
    return 127;
  }
  if (failed !== undefined) {
    // a failed run beside a tape already there (it is left as it was), or a tape not written
    errors = errors.then(() =>
      err.write(encoder.encode(
        `claude-mock record: ${failed instanceof Error ? failed.message : String(failed)}\n`,
      ))
    ).catch(() => {});
  }
  await errors;
  const code = result.code ?? 128 + (SIGNALS[result.signal ?? ""] ?? 0);
  return failed !== undefined && code === 0 ? 1 : code;
}

/**
 * Passes the caller's stdin to the child and the child's stdout to the caller until the child
 * ends; resolves with how it ended (or the error that kept it from starting).
 */
async function relay(
  child: SpawnedProcessLike,
  { io, out }: { io: CliIO; out: WritableStreamDefaultWriter<Uint8Array> },
): Promise<{ code: number | null; signal: string | null } | Error> {
  const ended = new Promise<{ code: number | null; signal: string | null } | Error>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
    child.once("error", (error) => resolve(error));
  });
  child.stdin.on("error", () => {}); // a child that exits before reading stdin: a broken pipe
  // stdin: the caller's, through to the child (a terminal is not a stream to record)
  const input = io.stdinIsTerminal ? undefined : io.stdin.getReader();
  const feeding = (async () => {
    try {
      for (;;) {
        if (!input) break;
        const { done, value } = await input.read();
        if (done || child.stdin.destroyed) break;
        if (!child.stdin.write(value)) await drained(child.stdin);
      }
    } catch {
      // stdin failed or was cancelled: the child gets its end
    }
    if (!child.stdin.destroyed) child.stdin.end();
  })();
  // stdout: the child's, through to the caller
  const copying = (async () => {
    try {
      for await (const chunk of child.stdout) await out.write(chunk as Uint8Array);
    } catch {
      child.stdout.destroy(); // the caller stopped reading: the child's pipe breaks too
    }
  })();
  const result = await ended;
  await copying;
  await input?.cancel().catch(() => {});
  await feeding;
  input?.releaseLock();
  return result;
}
