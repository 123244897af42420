/**
 * Internal: `--mcp-config` checked as the real CLI checks it before anything runs (recorded in
 * tests/fixtures/real/print_faults/mcp_config.json): each value is JSON, or else a file path
 * (relative to the cwd) holding JSON; either must be an object with an `mcpServers` record.
 * A bad one is `Error: Invalid MCP configuration:` and the reason, exit 1.
 *
 * @module
 */

import { readText } from "../host/_fs.ts";
import { CliUsageError, type ParsedArgv } from "./parse_argv.ts";

/** Throws the real CLI's usage error for the first `--mcp-config` value it would refuse. */
export async function checkMcpConfig(parsed: ParsedArgv, cwd: string): Promise<void> {
  const given = parsed.options.get("--mcp-config");
  const values = typeof given === "string" ? [given] : Array.isArray(given) ? given : [];
  for (const value of values) {
    let config: unknown;
    try {
      config = JSON.parse(value);
    } catch {
      config = await fromFile(value.startsWith("/") ? value : `${cwd}/${value}`);
    }
    const problem = shapeProblem(config);
    if (problem !== undefined) refuse(problem);
  }
}

async function fromFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readText(path);
  } catch {
    refuse(`MCP config file not found: ${path}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    refuse("MCP config is not a valid JSON");
  }
}

/** The schema's complaint, in zod's words as the real CLI prints them. */
function shapeProblem(config: unknown): string | undefined {
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    return `Invalid input: expected object, received ${received(config)}`;
  }
  const servers = (config as Record<string, unknown>).mcpServers;
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) {
    return `mcpServers: Invalid input: expected record, received ${received(servers)}`;
  }
  return undefined;
}

function received(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

function refuse(reason: string): never {
  throw new CliUsageError(`Error: Invalid MCP configuration:\n${reason}`);
}
