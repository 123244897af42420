/**
 * `--agents` as the real CLI (2.1.328, 2.1.332) reads it before anything runs: a value that
 * parses as JSON to something other than `null` is the definitions; text starting with `{`
 * that does not parse is refused; anything else is a file path (relative to the cwd) whose
 * text must be JSON. The definitions are checked (`agentDefinitionIssues`); the first problem
 * stops the CLI with exit 1 and nothing on stdout:
 *
 * - `Error: Invalid --agents configuration:` and one line per issue (`(read from <path>)`
 *   after them for a file);
 * - `Error: --agents file not found: <path> (a value that is not a JSON object is read as a
 *   file path)`;
 * - `Error reading --agents file <path>: EISDIR: illegal operation on a directory, read`.
 *
 * The JSON's parse error is V8's where the real CLI gives JavaScriptCore's. Internal.
 *
 * @module
 */

import { agentDefinitionIssues } from "../session/agent_definitions_check.ts";
import { errorCode } from "../host/_fs.ts";
import type { ReadText } from "./_mcp_config_flag.ts";
import { CliUsageError } from "./parse_argv.ts";

/** `args` with `--agents`' value checked, a file's text in place of its path. */
export async function withAgentsFile(
  args: readonly string[],
  { cwd, readText }: { cwd: string; readText: ReadText },
): Promise<string[]> {
  const out = [...args];
  for (let i = 0; i < out.length; i++) {
    const arg = out[i];
    if (arg === "--agents" && i + 1 < out.length) {
      out[i + 1] = await readAgents(out[i + 1], { cwd, readText });
      i++;
    } else if (arg.startsWith("--agents=")) {
      out[i] = `--agents=${await readAgents(arg.slice("--agents=".length), { cwd, readText })}`;
    }
  }
  return out;
}

async function readAgents(
  value: string,
  { cwd, readText }: { cwd: string; readText: ReadText },
): Promise<string> {
  // an empty value is no agents (2.1.332 runs on)
  if (value === "") return value;
  const inline = parse(value);
  if (inline.ok && inline.value !== null) {
    check(inline.value);
    return value;
  }
  if (!inline.ok && value.trimStart().startsWith("{")) throw invalid([inline.error]);
  const path = value.startsWith("/") ? value : `${cwd.replace(/\/$/, "")}/${value}`;
  let text: string;
  try {
    text = await readText(path);
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR" || code === undefined) {
      throw new CliUsageError(
        `Error: --agents file not found: ${path} (a value that is not a JSON object is read as a file path)`,
      );
    }
    const why = code === "EISDIR" ? "EISDIR: illegal operation on a directory, read" : code;
    throw new CliUsageError(`Error reading --agents file ${path}: ${why}`);
  }
  const parsed = parse(text);
  if (!parsed.ok) throw invalid([parsed.error], path);
  check(parsed.value, path);
  return text;
}

function parse(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: `invalid JSON: ${(error as Error).message}` };
  }
}

function check(value: unknown, path?: string): void {
  const issues = agentDefinitionIssues(value);
  if (issues.length > 0) throw invalid(issues, path);
}

function invalid(issues: string[], path?: string): CliUsageError {
  const from = path === undefined ? "" : `\n(read from ${path})`;
  return new CliUsageError(`Error: Invalid --agents configuration:\n${issues.join("\n")}${from}`);
}
