/**
 * What the fake binary keeps between runs, as files: the invocation counter in a state folder
 * (safe when runs overlap: each run appends a record, and its place is the run's number), and
 * the session transcripts under the config folder, where the real CLI keeps them
 * (`<config>/projects/<slug of cwd>/<id>.jsonl`).
 *
 * @module
 */

import { appendRecord, appendText, errorCode, fileTime, mkdirp, readDir } from "./_fs.ts";
import { projectSlug } from "../builders/project_paths.ts";

/**
 * The config folder: `CLAUDE_CONFIG_DIR`, else `~/.claude`, as the real CLI. An environment
 * that names no home (an in-process run given `env: {}`) never writes into the working
 * directory: it gets `claude-mock-home/.claude` in the temp folder.
 */
export function configDir(env: Record<string, string | undefined>): string {
  if (env.CLAUDE_CONFIG_DIR) return env.CLAUDE_CONFIG_DIR;
  if (env.HOME) return `${env.HOME}/.claude`;
  const tmp = (env.TMPDIR || "/tmp").replace(/\/+$/, "");
  return `${tmp}/claude-mock-home/.claude`;
}

/** The fake's state folder: `CLAUDE_MOCK_STATE_DIR`, else `claude-mock/` in the config folder. */
export function stateDir(env: Record<string, string | undefined>): string {
  return env.CLAUDE_MOCK_STATE_DIR ?? `${configDir(env)}/claude-mock`;
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
    return await appendRecord(file, record) + 1;
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
    await mkdirp(dir);
    return await appendRecord(file, record) + 1;
  }
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

/** Appends `lines` to a session's transcript. */
export async function appendTranscript(
  dir: string,
  sessionId: string,
  lines: readonly string[],
): Promise<void> {
  if (lines.length === 0) return;
  await mkdirp(dir);
  await appendText(`${dir}/${sessionId}.jsonl`, lines.map((l) => `${l}\n`).join(""));
}

/** Appends one JSON line to a capture file (one write: whole lines under concurrent runs). */
export async function appendCapture(file: string, entry: unknown): Promise<void> {
  const folder = file.slice(0, file.lastIndexOf("/"));
  if (folder !== "") await mkdirp(folder);
  await appendText(file, `${JSON.stringify(entry)}\n`);
}
