/**
 * What the fake binary keeps between runs, as files: the invocation counter in a state folder (safe when runs overlap: each run
 * creates the next number's file exclusively), and the session transcripts under the config
 * folder, where the real CLI keeps them (`<config>/projects/<slug of cwd>/<id>.jsonl`).
 *
 * @module
 */

import { appendText, createNew, errorCode, fileTime, mkdirp, readDir } from "./_fs.ts";
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
 * Claims the next invocation number (1 for the first run) in `dir`: each claim creates the
 * file of its number exclusively, so runs that overlap never share one. The first free
 * number is found by probing (1, 2, 4, … then halving), a few file checks however many runs
 * came before, instead of listing them all.
 */
export async function nextInvocation(dir: string): Promise<number> {
  const folder = `${dir}/invocations`;
  await mkdirp(folder);
  const taken = async (n: number) => (await fileTime(`${folder}/${n}`)) !== undefined;
  let free = 1;
  if (await taken(1)) {
    // claims are made in order: 1..k are taken; find the first free one above
    let low = 1;
    let high = 2;
    while (await taken(high)) {
      low = high;
      high *= 2;
    }
    while (high - low > 1) {
      const mid = low + Math.floor((high - low) / 2);
      if (await taken(mid)) low = mid;
      else high = mid;
    }
    free = high;
  }
  for (let n = free;; n++) {
    try {
      await createNew(`${folder}/${n}`);
      return n;
    } catch (error) {
      // another run claimed it meanwhile
      if (errorCode(error) !== "EEXIST") throw error;
    }
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
