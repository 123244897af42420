// The fake binary run in process, for tests of what it prints: argv in, exit code, stdout and
// stderr out (no subprocess, no terminal).
import { runCliProcess } from "../src/cli/run_cli.ts";

/** What a run printed, and its exit code. */
export interface FakeRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of {@linkcode runFake}. */
export interface RunFakeOptions {
  /** The environment (default: a config and a state folder inside `cwd`). */
  env?: Record<string, string>;
  /** Piped stdin (default: a terminal, nothing read). */
  stdin?: string;
}

/** Runs the fake binary in process with `argv` in `cwd`. */
export async function runFake(
  argv: string[],
  cwd: string,
  options: RunFakeOptions = {},
): Promise<FakeRun> {
  const decoder = new TextDecoder();
  const { stdin } = options;
  const chunks = stdin === undefined ? [] : [new TextEncoder().encode(stdin)];
  let stdout = "";
  let stderr = "";
  const code = await runCliProcess({
    argv,
    env: options.env ??
      { CLAUDE_CONFIG_DIR: `${cwd}/config`, CLAUDE_MOCK_STATE_DIR: `${cwd}/state` },
    cwd,
    stdinIsTerminal: stdin === undefined,
    stdoutIsTerminal: false,
    stdio: {
      read: () => Promise.resolve(chunks.shift() ?? null),
      cancelRead: () => {},
      write: (c) => Promise.resolve(void (stdout += decoder.decode(c))),
      writeErr: (c) => Promise.resolve(void (stderr += decoder.decode(c))),
    },
  });
  return { code, stdout, stderr };
}
