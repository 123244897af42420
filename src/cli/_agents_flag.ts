/**
 * `--agents` as the real CLI (2.1.328, 2.1.332) reads it before anything runs: JSON text, or
 * a file path (relative to the cwd) whose text is; the definitions checked field by field.
 * What fails stops the CLI: `Error: Invalid --agents configuration:`, the reasons one a line
 * (and `(read from <path>)` for a file), or `Error: --agents file not found: <path> (...)`;
 * exit 1, nothing on stdout. Conformance cases `agents_bad_entry`, `agents_bad_json_print`.
 * Internal.
 *
 * @module
 */

import { CliUsageError } from "./parse_argv.ts";
import { agentsFlagJson, parseAgentsFlag } from "../session/session_agents.ts";
import type { ReadText } from "./_mcp_config_flag.ts";

/**
 * `args` with the last `--agents` value checked, and a file path replaced by the file's text.
 * Throws the real CLI's error ({@linkcode CliUsageError}) for a file not found, text that is
 * not JSON, or definitions that are not valid.
 */
export async function withAgentsFile(
  args: readonly string[],
  { cwd, readText }: { cwd: string; readText: ReadText },
): Promise<string[]> {
  const out = [...args];
  // the last one given wins; `--agents <value>` or `--agents=<value>`
  let at = -1;
  let prefix = "";
  for (let i = 0; i < out.length; i++) {
    if (out[i] === "--agents" && i + 1 < out.length) [at, prefix] = [++i, ""];
    else if (out[i].startsWith("--agents=")) [at, prefix] = [i, "--agents="];
  }
  if (at < 0) return out;
  const value = out[at].slice(prefix.length);
  const checked = check(value);
  if (checked === "file") {
    const path = value.startsWith("/") ? value : `${cwd.replace(/\/$/, "")}/${value}`;
    let text: string;
    try {
      text = await readText(path);
    } catch {
      throw new CliUsageError(
        `Error: --agents file not found: ${path} (a value that is not a JSON object is read as a file path)`,
      );
    }
    const read = check(text, path);
    if (read === "file") throw refused(`invalid JSON: ${jsonError(text)}`, path);
    out[at] = prefix + text;
  }
  return out;
}

/** Checks JSON text of definitions; `file` when the text is not JSON (a path). */
function check(text: string, path?: string): "ok" | "file" {
  try {
    if (agentsFlagJson(text).kind === "file") return "file";
    parseAgentsFlag(text);
    return "ok";
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    const lines = error.message.split("\n").slice(1).join("\n");
    throw refused(lines, path);
  }
}

function jsonError(text: string): string {
  try {
    JSON.parse(text);
    return "not a JSON object";
  } catch (error) {
    return (error as Error).message;
  }
}

function refused(reasons: string, path?: string): CliUsageError {
  return new CliUsageError(
    `Error: Invalid --agents configuration:\n${reasons}${path ? `\n(read from ${path})` : ""}`,
  );
}
