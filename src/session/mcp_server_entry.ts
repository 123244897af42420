/**
 * One MCP server entry (`mcpServers.<name>` of `--mcp-config`, of the SDK's `mcpServers`
 * option, of the project's `.mcp.json`) checked as the real CLI (2.1.328, 2.1.332) checks it:
 * an entry it cannot use is skipped (left out of `system/init` and `mcp_status`; the session
 * goes on), with a warning in its debug log, word for word:
 *
 * - not an object: `invalid MCP server config for "<name>": (root): expected object, received number`
 * - a `type` it does not know: `unknown MCP server type "<type>" for server "<name>"`
 * - a `url` without a `type` (and no `command`): `MCP server "<name>" has a "url" but no "type"; ...`
 * - the fields of its type, each issue as zod says it, `; ` between them: `command: expected
 *   string, received undefined`, `command: Command cannot be empty`, `args: expected array,
 *   received string`, `args.0: expected string, received number`, `env.A: expected string,
 *   received number`, `url: expected string, received number`, `headers: expected record,
 *   received number`, a `type` that is not a string: `type: expected "stdio"`.
 *
 * A command with spaces around it is kept with a warning (`Leading or trailing whitespace in:
 * command`). Surveyed in FINDINGS_mcp.md ("Server entries"). Internal.
 *
 * @module
 */

/** What the real CLI says of one entry: why it is skipped, or a warning for one it keeps. */
export interface McpEntryCheck {
  /** Why the entry is left out (the CLI's debug log: `Skipped — <skip>`). */
  skip?: string;
  /** The kind of a skipped entry's fault, as `system/init`'s `mcp_server_errors` names it. */
  kind?: "invalid_config" | "unknown_type" | "url_missing_type";
  /** A warning for an entry that is kept. */
  warning?: string;
}

/** The server types the real CLI runs (besides the SDK's own `sdk`). */
const URL_TYPES: readonly string[] = ["sse", "http", "ws"];
const KNOWN_TYPES: readonly string[] = ["stdio", ...URL_TYPES, "sdk", "claudeai-proxy"];

/** Checks the entry `config` of server `name`; `{}` when the real CLI takes it as it is. */
export function checkMcpEntry(name: string, config: unknown): McpEntryCheck {
  const invalid = (issues: string[]): McpEntryCheck => ({
    skip: `invalid MCP server config for ${JSON.stringify(name)}: ${issues.join("; ")}`,
    kind: "invalid_config",
  });
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    return invalid([`(root): expected object, received ${kind(config)}`]);
  }
  const entry = config as Record<string, unknown>;
  const type = entry.type;
  if (type === undefined && entry.url !== undefined && entry.command === undefined) {
    return {
      skip: `MCP server ${
        JSON.stringify(name)
      } has a "url" but no "type"; add "type": "http" (or "sse" / "ws") to this entry`,
      kind: "url_missing_type",
    };
  }
  if (typeof type === "string" && !KNOWN_TYPES.includes(type)) {
    return {
      skip: `unknown MCP server type ${JSON.stringify(type)} for server ${JSON.stringify(name)}`,
      kind: "unknown_type",
    };
  }
  const issues: string[] = [];
  if (type === "sdk") return {};
  if (typeof type === "string" && type !== "stdio") {
    expect(issues, "url", entry.url);
    if (type === "claudeai-proxy") expect(issues, "id", entry.id);
    else records(issues, "headers", entry.headers);
    return issues.length > 0 ? invalid(issues) : {};
  }
  if (type !== undefined && type !== "stdio") issues.push('type: expected "stdio"');
  if (typeof entry.command !== "string") {
    issues.push(`command: expected string, received ${kind(entry.command)}`);
  } else if (entry.command === "") issues.push("command: Command cannot be empty");
  if (entry.args !== undefined) {
    if (!Array.isArray(entry.args)) {
      issues.push(`args: expected array, received ${kind(entry.args)}`);
    } else {
      entry.args.forEach((arg, i) => {
        if (typeof arg !== "string") {
          issues.push(`args.${i}: expected string, received ${kind(arg)}`);
        }
      });
    }
  }
  records(issues, "env", entry.env);
  if (issues.length > 0) return invalid(issues);
  const command = entry.command as string;
  return command.trim() !== command
    ? { warning: "Leading or trailing whitespace in: command" }
    : {};
}

/**
 * Why a server the CLI runs fails at once, by its config alone (a `url` that is empty, not a
 * URL, or not http(s) for `http` and `sse`), as `mcp_status` says it; `undefined` otherwise.
 */
export function mcpUrlError(config: Record<string, unknown>): string | undefined {
  if (typeof config.type !== "string" || !URL_TYPES.includes(config.type)) return undefined;
  if (typeof config.url !== "string") return undefined;
  if (config.url === "") return "No URL configured for this server";
  let url: URL;
  try {
    url = new URL(config.url);
  } catch {
    return "'url' is not a valid URL. Update the server's config and reconnect.";
  }
  if (config.type !== "ws" && url.protocol !== "http:" && url.protocol !== "https:") {
    return "Stopped an MCP request because its address is not http or https. Check the " +
      "server's address in your settings, or ask the server's owner to fix the addresses it gives.";
  }
  return undefined;
}

/**
 * The real CLI's debug-log line for the entries of `servers` (one `--mcp-config` value's
 * `mcpServers`) it skips or warns of: `--mcp-config: 2 entry warning(s): mcpServers.a:
 * Skipped — ...; mcpServers.d: Leading ...`; `undefined` when every entry is fine.
 */
export function mcpEntryWarnings(servers: Record<string, unknown>): string | undefined {
  const said: string[] = [];
  for (const [name, config] of Object.entries(servers)) {
    const { skip, warning } = checkMcpEntry(name, config);
    if (skip !== undefined) said.push(`mcpServers.${name}: Skipped — ${skip}`);
    else if (warning !== undefined) said.push(`mcpServers.${name}: ${warning}`);
  }
  if (said.length === 0) return undefined;
  return `--mcp-config: ${said.length} entry warning(s): ${said.join("; ")}`;
}

/** A string field (`url`, `id`), required. */
function expect(issues: string[], key: string, value: unknown): void {
  if (typeof value !== "string") issues.push(`${key}: expected string, received ${kind(value)}`);
}

/** A record of strings (`env`, `headers`), when given. */
function records(issues: string[], key: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    issues.push(`${key}: expected record, received ${kind(value)}`);
    return;
  }
  for (const [name, item] of Object.entries(value)) {
    if (typeof item !== "string") {
      issues.push(`${key}.${name}: expected string, received ${kind(item)}`);
    }
  }
}

/** What zod calls the type of a value it did not expect. */
function kind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** One entry of `system/init`'s `mcp_server_errors`: a server entry the CLI skipped. */
export interface McpServerError {
  /** The server's name. */
  name: string;
  /** What is wrong with it. */
  type: "invalid_config" | "unknown_type" | "url_missing_type";
  /** `Skipped — ` and why. */
  message: string;
}

/**
 * The entries of `--mcp-config` (its JSON values, in order) that the real CLI skips, as its
 * `system/init` lists them in `mcp_server_errors` (2.1.328, 2.1.332; the project's
 * `.mcp.json` is not listed there).
 */
export function mcpServerErrors(configs: readonly string[] | undefined): McpServerError[] {
  const out: McpServerError[] = [];
  for (const config of configs ?? []) {
    if (!config.trim().startsWith("{")) continue;
    let servers: unknown;
    try {
      servers = (JSON.parse(config) as { mcpServers?: unknown }).mcpServers;
    } catch {
      continue;
    }
    if (typeof servers !== "object" || servers === null || Array.isArray(servers)) continue;
    for (const [name, entry] of Object.entries(servers)) {
      if (name === "__proto__") continue; // dropped unsaid
      const { skip, kind } = checkMcpEntry(name, entry);
      if (skip !== undefined && kind !== undefined) {
        out.push({ name, type: kind, message: `Skipped — ${skip}` });
      }
    }
  }
  return out;
}
