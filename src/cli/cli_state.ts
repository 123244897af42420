/**
 * What the fake binary keeps between runs, as files: the invocation counter and the session
 * transcripts (`projects/<slug of cwd>/<id>.jsonl`, laid out as the real CLI lays out its
 * config folder, so `-c` and `--resume` work across runs). They go into the fake's own state
 * folder, never into the user's real `~/.claude`: only a `CLAUDE_CONFIG_DIR` that names a
 * folder puts the transcripts there (as the real CLI does with it).
 *
 * @module
 */

import {
  appendRecord,
  appendText,
  errorCode,
  fileTime,
  mkdirp,
  readDir,
  readText,
} from "../host/_fs.ts";
import type { ModelUsageEntry } from "../builders/usage.ts";
import { projectSlug } from "../builders/project_paths.ts";
import { MOCK_ENV_VARIABLES } from "./cli_env.ts";
import { CliUsageError } from "./parse_argv.ts";

/**
 * The fake's own state folder: `CLAUDE_MOCK_STATE_DIR`; else `$XDG_STATE_HOME/claude-mock`
 * (when `XDG_STATE_HOME` is an absolute path); else `~/.local/state/claude-mock`; else, with
 * no `HOME`, `%LOCALAPPDATA%/claude-mock`; else `claude-mock-state` in the temp folder (an
 * in-process run given `env: {}` never writes into the working directory).
 */
export function mockStateHome(env: Record<string, string | undefined>): string {
  const trim = (path: string) => path.replace(/[\\/]+$/, "");
  if (env.CLAUDE_MOCK_STATE_DIR) return env.CLAUDE_MOCK_STATE_DIR;
  const xdg = env.XDG_STATE_HOME;
  if (xdg && (xdg.startsWith("/") || /^[A-Za-z]:[\\/]/.test(xdg))) {
    return `${trim(xdg)}/claude-mock`;
  }
  if (env.HOME) return `${trim(env.HOME)}/.local/state/claude-mock`;
  if (env.LOCALAPPDATA) return `${trim(env.LOCALAPPDATA)}/claude-mock`;
  return `${trim(env.TMPDIR || env.TEMP || "/tmp")}/claude-mock-state`;
}

/**
 * The config folder the transcripts go into: `CLAUDE_CONFIG_DIR` when it names one (as the
 * real CLI), else the fake's own state folder ({@linkcode mockStateHome}), never `~/.claude`.
 */
export function configDir(env: Record<string, string | undefined>): string {
  return env.CLAUDE_CONFIG_DIR || mockStateHome(env);
}

/**
 * The folder of the invocation counter: `CLAUDE_MOCK_STATE_DIR`; else `claude-mock/` in a
 * `CLAUDE_CONFIG_DIR` (each config folder counts its own runs); else the fake's own state
 * folder.
 */
export function stateDir(env: Record<string, string | undefined>): string {
  if (env.CLAUDE_MOCK_STATE_DIR) return env.CLAUDE_MOCK_STATE_DIR;
  return env.CLAUDE_CONFIG_DIR ? `${env.CLAUDE_CONFIG_DIR}/claude-mock` : mockStateHome(env);
}

/**
 * Claims the next invocation number (1 for the first run) in `dir`: each run appends a
 * 16-byte record (a random token) to `dir/invocations.log` in one `O_APPEND` write, and its
 * number is the place where its record landed, so runs that overlap never share a number. One
 * small write however many runs came before: no file per run (creating one costs ext4 up to a
 * millisecond or two), no listing.
 */
export async function nextInvocation(dir: string): Promise<number> {
  const file = `${dir}/invocations.log`;
  // 60 random bits from Math.random (the first use of crypto costs Deno 0.2 ms): on
  // Deno the record's place is the file offset after the write; Node finds its token
  const token = `${Math.random().toString(16).slice(2)}${Math.random().toString(16).slice(2)}`
    .padEnd(15, "0").slice(0, 15);
  const record = `${token}\n`;
  try {
    try {
      return await appendRecord(file, record) + 1;
    } catch (error) {
      if (errorCode(error) !== "ENOENT") throw error;
      await mkdirp(dir);
      return await appendRecord(file, record) + 1;
    }
  } catch (error) {
    throw new Error(
      `Cannot count this run in the state folder ${dir} (CLAUDE_MOCK_STATE_DIR names another): ${
        messageOf(error)
      }`,
      { cause: error },
    );
  }
}

/**
 * The refusal of a `CLAUDE_MOCK_STATE_DIR` the binary could not use (`error` says why: a
 * file, `/dev/null`, a path under a file, a folder it cannot write to), naming the variable,
 * its value and what it accepts; `undefined` when the variable is not set (the default state
 * folder is the fake's own business: a run without it counts as the first).
 */
export function stateDirRefusal(
  env: Record<string, string | undefined>,
  error: unknown,
): CliUsageError | undefined {
  const value = env.CLAUDE_MOCK_STATE_DIR;
  if (!value) return undefined;
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  return new CliUsageError(
    `claude-mock: CLAUDE_MOCK_STATE_DIR must be ${MOCK_ENV_VARIABLES.CLAUDE_MOCK_STATE_DIR}, got ${
      JSON.stringify(value)
    }: ${messageOf(cause)}`,
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The folder of a project's transcripts. */
export function projectDir(env: Record<string, string | undefined>, cwd: string): string {
  return `${configDir(env)}/projects/${projectSlug(cwd)}`;
}

/** Whether a transcript exists for `sessionId`. */
export async function hasTranscript(dir: string, sessionId: string): Promise<boolean> {
  return (await fileTime(`${dir}/${sessionId}.jsonl`)) !== undefined;
}

/** The session id of the project's most recent transcript (`-c`), if any. */
export async function latestSession(dir: string): Promise<string | undefined> {
  let names: string[];
  try {
    names = (await readDir(dir)).filter((n) => n.endsWith(".jsonl"));
  } catch {
    return undefined;
  }
  let best: { id: string; at: number } | undefined;
  for (const name of names) {
    const at = (await fileTime(`${dir}/${name}`)) ?? 0;
    if (!best || at >= best.at) best = { id: name.slice(0, -".jsonl".length), at };
  }
  return best?.id;
}

/**
 * The `modelUsage` of a transcript's last result: what the session had used by model when it
 * last ended (`undefined` without a transcript or a result in it).
 */
export async function lastModelUsage(
  dir: string,
  sessionId: string,
): Promise<Record<string, ModelUsageEntry> | undefined> {
  return await lastInTranscript(dir, sessionId, (line) => {
    if (!line.includes('"type":"result"')) return undefined;
    const frame = JSON.parse(line);
    return frame.type === "result" && frame.modelUsage && typeof frame.modelUsage === "object"
      ? frame.modelUsage
      : undefined;
  });
}

/**
 * The context a transcript's last API call ended with (its tokens), as the real CLI counts it
 * for a `/compact` of the resumed session: its last main-thread assistant line's final usage
 * (input, cache and output tokens; `keepRecords` writes it). `undefined` without one.
 */
export async function lastContext(dir: string, sessionId: string): Promise<number | undefined> {
  return await lastInTranscript(dir, sessionId, (line) => {
    if (!line.startsWith('{"type":"assistant"')) return undefined;
    const frame = JSON.parse(line);
    if (frame.parent_tool_use_id != null) return undefined;
    const u = frame.message?.usage ?? {};
    const n = (k: string) => (typeof u[k] === "number" ? u[k] : 0);
    return n("input_tokens") + n("cache_read_input_tokens") +
      n("cache_creation_input_tokens") + n("output_tokens");
  });
}

/**
 * What `pick` finds in a session's transcript, from its last line up (`undefined` when there is
 * no transcript or no line gives anything; a torn line is passed over).
 */
async function lastInTranscript<T>(
  dir: string,
  sessionId: string,
  pick: (line: string) => T | undefined,
): Promise<T | undefined> {
  let text: string;
  try {
    text = await readText(`${dir}/${sessionId}.jsonl`);
  } catch {
    return undefined;
  }
  const lines = text.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    try {
      const found = pick(lines[i]);
      if (found !== undefined) return found;
    } catch {
      // a torn line: look further up
    }
  }
  return undefined;
}

/** Whether a session's transcript has a message whose `uuid` is `uuid` (`--resume-session-at`). */
export async function hasMessage(dir: string, sessionId: string, uuid: string): Promise<boolean> {
  let text: string;
  try {
    text = await readText(`${dir}/${sessionId}.jsonl`);
  } catch {
    return false;
  }
  return text.split("\n").some((line) => {
    if (!line.includes(uuid)) return false;
    try {
      return JSON.parse(line).uuid === uuid;
    } catch {
      return false;
    }
  });
}

/** Appends `lines` to a session's transcript. */
export async function appendTranscript(
  dir: string,
  sessionId: string,
  lines: readonly string[],
): Promise<void> {
  if (lines.length === 0) return;
  try {
    await mkdirp(dir);
    await appendText(`${dir}/${sessionId}.jsonl`, lines.map((l) => `${l}\n`).join(""));
  } catch (error) {
    throw new Error(`Cannot keep the session's transcript in ${dir}: ${messageOf(error)}`);
  }
}

/** Appends one JSON line to a capture file (one write: whole lines under concurrent runs). */
export async function appendCapture(file: string, entry: unknown): Promise<void> {
  const folder = file.slice(0, file.lastIndexOf("/"));
  try {
    if (folder !== "") await mkdirp(folder);
    await appendText(file, `${JSON.stringify(entry)}\n`);
  } catch (error) {
    throw new Error(
      `Cannot write the capture file ${file} (--capture or CLAUDE_MOCK_CAPTURE): ${
        messageOf(error)
      }`,
    );
  }
}
