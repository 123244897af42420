/**
 * `--mcp-config` as the real CLI (2.1.328, 2.1.332) reads it before anything runs: each value
 * is JSON when it parses to something (`null` does not count), else a file path relative to
 * the cwd whose text must be JSON; the JSON must be an object whose `mcpServers` is a record.
 * The first value that fails stops the CLI: `Error: Invalid MCP configuration:` and the
 * reason on the next line, exit 1, nothing on stdout. Server entries themselves are not
 * checked here (the real CLI lets `{"a": 5}` through). Internal.
 *
 * @module
 */

import { CliUsageError } from "./parse_argv.ts";
import { mcpEntryWarnings } from "../session/mcp_server_entry.ts";

/** What reads a file's text (rejects when there is none). */
export type ReadText = (path: string) => Promise<string>;

/**
 * The `--mcp-config` values of `args`, checked and read: file paths replaced by their JSON
 * text (one `--mcp-config` with every value, where the first was). Throws the real CLI's
 * error ({@linkcode CliUsageError}) for a missing file, text that is not JSON, or a config
 * that is not an object with an `mcpServers` record.
 */
export async function withMcpConfigFiles(
  args: readonly string[],
  { cwd, readText, warnings }: {
    cwd: string;
    readText: ReadText;
    /** Gets the real CLI's debug-log line of each value whose entries it skips or warns of. */
    warnings?: string[];
  },
): Promise<string[]> {
  const values: string[] = [];
  const rest: string[] = [];
  let at = -1;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--mcp-config" || arg.startsWith("--mcp-config=")) {
      if (at < 0) at = rest.length;
      if (arg !== "--mcp-config") values.push(arg.slice("--mcp-config=".length));
      else {
        while (i + 1 < args.length && !isFlag(args[i + 1])) values.push(args[++i]);
      }
      continue;
    }
    rest.push(arg);
  }
  if (at < 0) return [...args];
  const resolved: string[] = [];
  for (const value of values) {
    const text = await readConfig(value, { cwd, readText });
    resolved.push(text);
    const said = mcpEntryWarnings(JSON.parse(text).mcpServers);
    if (said !== undefined) warnings?.push(said);
  }
  rest.splice(at, 0, "--mcp-config", ...resolved);
  return rest;
}

function isFlag(arg: string): boolean {
  return arg.startsWith("-") && arg !== "-" && !/^-\d/.test(arg);
}

async function readConfig(
  value: string,
  { cwd, readText }: { cwd: string; readText: ReadText },
): Promise<string> {
  const inline = parsed(value);
  if (inline !== undefined) {
    check(inline);
    return value;
  }
  const path = value.startsWith("/") ? value : `${cwd.replace(/\/$/, "")}/${value}`;
  let text: string;
  try {
    text = await readText(path);
  } catch {
    throw invalid(`MCP config file not found: ${path}`);
  }
  const json = parsed(text);
  if (json === undefined) throw invalid("MCP config is not a valid JSON");
  check(json);
  return text;
}

/** The JSON value of `text` when it is one the CLI takes as a config (not `null`, not falsy). */
function parsed(text: string): unknown {
  try {
    const value = JSON.parse(text);
    return value ? value : undefined;
  } catch {
    return undefined;
  }
}

function check(config: unknown): void {
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    throw invalid(`Invalid input: expected object, received ${kind(config)}`);
  }
  const servers = (config as { mcpServers?: unknown }).mcpServers;
  if (servers === undefined && Object.hasOwn(config, "servers")) {
    throw invalid(
      'mcpServers: Missing "mcpServers" — found "servers" instead. Claude Code reads MCP servers from the "mcpServers" key.',
    );
  }
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) {
    throw invalid(`mcpServers: Invalid input: expected record, received ${kind(servers)}`);
  }
}

/** What zod calls the type of a value it did not expect. */
function kind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function invalid(reason: string): CliUsageError {
  return new CliUsageError(`Error: Invalid MCP configuration:\n${reason}`);
}
