/**
 * The session's MCP servers as the real CLI keeps them (2.1.328 to 2.1.332): those it runs
 * itself (`--mcp-config`, or delivered in `initialize`) first, then the SDK's in-process ones,
 * each with a status; and what the app's control requests do to them: `mcp_toggle` (a
 * disabled server is listed `disabled`, without its tools), `mcp_reconnect`, and
 * `mcp_set_servers` (replaces the SDK's servers and those an earlier call added; the
 * command line's stay). An unknown name is `Server not found: <name>`.
 *
 * The mock runs no MCP server: a stdio server is `connected` unless the session's
 * `commandCheck` says its command is missing or cannot be run (then `failed`, with the real
 * CLI's error).
 *
 * @module
 */

import { isObject } from "../wire/frame.ts";
import { ControlError } from "./control_channel.ts";
import { externalMcpServers, sdkMcpServers } from "./mcp_servers.ts";
import { type McpServerError, mcpServerErrors, mcpUrlError } from "./mcp_server_entry.ts";

/** A server's status, as `system/init` and `mcp_status` say it. */
export type McpServerStatus = "connected" | "failed" | "disabled" | "pending";

/** One MCP server of the session. */
export interface McpRosterEntry {
  /** Its name. */
  name: string;
  /**
   * `sdk`: the app's in-process server; `dynamic`: one the CLI runs (`--mcp-config`,
   * `initialize`, `mcp_set_servers`); `project`: one of the project's `.mcp.json`.
   */
  source: "sdk" | "dynamic" | "project";
  /** A server the CLI runs: its configuration as given. */
  config?: Record<string, unknown>;
  /** Its status. */
  status: McpServerStatus;
  /** Why it failed. */
  error?: string;
  /** Whether `mcp_set_servers` replaces it (the SDK's servers and those it added). */
  replaceable: boolean;
  /**
   * Whether the session started with it (`--mcp-config`, `.mcp.json`, `initialize`): `args`
   * defaults to `[]` in its shown config, not in that of one `mcp_set_servers` added.
   */
  fromFlag: boolean;
}

/** The real CLI's error for a stdio command not on `PATH` (it names the transport). */
export const COMMAND_NOT_FOUND = 'Executable not found in $PATH: "stdio"';

/** The real CLI's error for a stdio server `mcp_set_servers` adds without `args`. */
export const NO_ARGS = "Spread syntax requires ...iterable not be null or undefined";

/** The server types the real CLI reaches by URL (besides stdio and the SDK's). */
const URL_TYPES: ReadonlySet<string> = new Set(["http", "sse", "ws", "sdk", "claudeai-proxy"]);

/**
 * What the real CLI (2.1.332) says of servers `mcp_set_servers` added that it cannot run: its
 * own code failing on them (it checks no entry there), word for word.
 */
export const UNKNOWN_TYPE =
  "e.includes is not a function. (In 'e.includes(n)', 'e.includes' is undefined)";
/** See {@linkcode UNKNOWN_TYPE}: args that are not an array. */
export const ARGS_NOT_ARRAY =
  "t.args?.some is not a function. (In 't.args?.some((a)=>a.includes(e))', 't.args?.some' is undefined)";
/** See {@linkcode UNKNOWN_TYPE}: a stdio server without a command. */
export const NO_COMMAND = 'The "file" argument must be of type string. Received undefined';

/**
 * Whether a stdio server's command can be started: `found`, `missing`, or there but `denied`
 * (the default: every command is found).
 */
export type CommandCheck = (command: string) => "found" | "missing" | "denied";

/** What `mcp_set_servers` answers. */
export interface McpSetServersAnswer {
  /** Names added (the SDK's first). */
  added: string[];
  /** Names removed. */
  removed: string[];
  /** Errors by name. */
  errors: Record<string, string>;
}

/** The MCP servers of a session and what the app's control requests change in them. */
export class McpRoster {
  /** The servers, in the order the real CLI lists them. */
  readonly entries: McpRosterEntry[] = [];
  /** Bumped on every change (what caches `system/init` looks at). */
  changes = 0;
  /** The `--mcp-config` entries the CLI skipped (`system/init`'s `mcp_server_errors`). */
  readonly errors: McpServerError[];
  #commandCheck: CommandCheck;

  /** The servers `--mcp-config` and `initialize` configure. */
  constructor(
    configs: readonly string[] | undefined,
    { initialize, commandCheck, project }: {
      initialize?: Record<string, unknown>;
      commandCheck?: CommandCheck;
      /** The text of the project's `.mcp.json`. */
      project?: string;
    } = {},
  ) {
    this.#commandCheck = commandCheck ?? (() => "found");
    this.errors = mcpServerErrors(configs);
    const dynamic = externalMcpServers(configs, initialize).map(({ name, config }) =>
      this.#external(name, config, { replaceable: false, fromFlag: true })
    );
    // the project's servers first, one the command line names again in its place
    const flagged = new Map(dynamic.map((e) => [e.name, e]));
    const moved = new Set<McpRosterEntry>();
    for (const { name, config } of externalMcpServers([project ?? "{}"], undefined)) {
      const again = flagged.get(name);
      if (again !== undefined) {
        this.entries.push(again);
        moved.add(again);
      } else {
        this.entries.push(
          this.#external(name, config, { replaceable: false, fromFlag: true }, "project"),
        );
      }
    }
    for (const entry of dynamic) if (!moved.has(entry)) this.entries.push(entry);
    const listed = new Set(this.entries.map((e) => e.name));
    for (const name of sdkMcpServers(initialize)) {
      if (listed.has(name)) continue;
      listed.add(name);
      this.entries.push({
        name,
        source: "sdk",
        status: "connected",
        replaceable: true,
        fromFlag: false,
      });
    }
  }

  /** The server named `name`. */
  find(name: string): McpRosterEntry | undefined {
    return this.entries.find((e) => e.name === name);
  }

  /** Whether the tools of server `name` can be used (it is there and not disabled or failed). */
  usable(name: string): boolean {
    const entry = this.find(name);
    return entry !== undefined && entry.status === "connected";
  }

  /** `mcp_toggle`. */
  toggle(name: string, enabled: boolean): void {
    const entry = this.#named(name);
    if (!enabled) {
      entry.status = "disabled";
      delete entry.error;
    } else if (entry.status === "disabled") this.#connect(entry);
    this.changes++;
  }

  /** `mcp_reconnect`: an SDK server is the SDK's business; a failed one fails again. */
  reconnect(name: string): void {
    const entry = this.#named(name);
    if (entry.source === "sdk") throw new ControlError("SDK servers should be handled in print.ts");
    if (entry.status === "disabled") return;
    this.#connect(entry);
    this.changes++;
    if (entry.status === "failed") throw new ControlError(entry.error ?? "Connection failed");
  }

  /** `mcp_set_servers`: `servers` replace the SDK's and those set before. */
  set(servers: Record<string, unknown>): McpSetServersAnswer {
    const wanted = Object.entries(servers).filter(([n, c]) =>
      n !== "__proto__" && isObject(c)
    ) as Array<
      [string, Record<string, unknown>]
    >;
    const isSdk = (c: Record<string, unknown>) => c.type === "sdk";
    const ordered = [...wanted.filter(([, c]) => isSdk(c)), ...wanted.filter(([, c]) => !isSdk(c))];
    const answer: McpSetServersAnswer = { added: [], removed: [], errors: {} };
    const keep = new Set<string>();
    // (by name in maps: thousands of servers in one call cost linear time, not quadratic)
    const byName = new Map(wanted);
    for (const entry of this.entries) {
      if (!entry.replaceable) continue;
      const next = byName.get(entry.name);
      const same = next !== undefined &&
        (entry.source === "sdk"
          ? isSdk(next)
          : JSON.stringify(next) === JSON.stringify(entry.config));
      if (same) keep.add(entry.name);
      else answer.removed.push(entry.name);
    }
    const remaining = this.entries.filter((e) => !e.replaceable || keep.has(e.name));
    const remainingByName = new Map(remaining.map((e) => [e.name, e]));
    for (const [name, config] of ordered) {
      if (keep.has(name)) continue;
      answer.added.push(name);
      const existing = remainingByName.get(name);
      if (existing) {
        // a server of the command line keeps its place and its state, and is the calls' now
        existing.replaceable = true;
        if (existing.status !== "connected") {
          answer.errors[name] = existing.error ?? `Server status: ${existing.status}`;
        }
        continue;
      }
      const entry: McpRosterEntry = isSdk(config)
        ? { name, source: "sdk", status: "pending", replaceable: true, fromFlag: false }
        : this.#external(name, config, { replaceable: true, fromFlag: false });
      if (entry.status === "failed") answer.errors[name] = entry.error!;
      remaining.push(entry);
      remainingByName.set(name, entry);
    }
    // listed as ever: the servers the CLI runs, then the SDK's; removed: the SDK's first
    const sdkFirst = (list: McpRosterEntry[]) => [
      ...list.filter((e) => e.source === "sdk"),
      ...list.filter((e) => e.source !== "sdk"),
    ];
    const gone = new Set(answer.removed);
    answer.removed = sdkFirst(this.entries.filter((e) => gone.has(e.name))).map((e) => e.name);
    // (no spread into splice: a list of any length, never a call with 100,000 arguments)
    const next = [
      ...remaining.filter((e) => e.source !== "sdk"),
      ...remaining.filter((e) => e.source === "sdk"),
    ];
    this.entries.length = 0;
    for (const entry of next) this.entries.push(entry);
    this.changes++;
    return answer;
  }

  #named(name: string): McpRosterEntry {
    const entry = this.find(name);
    if (!entry) throw new ControlError(`Server not found: ${name}`);
    return entry;
  }

  #external(
    name: string,
    config: Record<string, unknown>,
    where: { replaceable: boolean; fromFlag: boolean },
    source: "dynamic" | "project" = "dynamic",
  ): McpRosterEntry {
    const entry: McpRosterEntry = {
      name,
      source,
      config,
      status: "connected",
      ...where,
    };
    this.#connect(entry);
    return entry;
  }

  #connect(entry: McpRosterEntry): void {
    delete entry.error;
    entry.status = "connected";
    const config = entry.config;
    if (!config) return;
    const stdio = config.type === undefined || config.type === "stdio";
    if (entry.replaceable && !stdio && !URL_TYPES.has(String(config.type))) {
      // mcp_set_servers checks no entry: the real CLI's own failure for an unknown type
      [entry.status, entry.error] = ["failed", UNKNOWN_TYPE];
      return;
    }
    if (!stdio) {
      // the mock reaches no server: only a url the CLI refuses before it connects fails
      const error = mcpUrlError(config);
      if (error !== undefined) [entry.status, entry.error] = ["failed", error];
      return;
    }
    if (entry.replaceable && config.args !== undefined && !Array.isArray(config.args)) {
      // (mcp_set_servers checks no entry: args that are no array fail in the real CLI's code)
      [entry.status, entry.error] = ["failed", ARGS_NOT_ARRAY];
    } else if (entry.replaceable && !Array.isArray(config.args)) {
      // the real CLI spreads the args of a server mcp_set_servers added: without any, it fails so
      entry.status = "failed";
      entry.error = NO_ARGS;
    } else if (entry.replaceable && typeof config.command !== "string") {
      [entry.status, entry.error] = ["failed", NO_COMMAND];
    } else if (typeof config.command === "string") {
      const state = this.#commandCheck(config.command);
      if (state !== "found") {
        entry.status = "failed";
        entry.error = startError(config.command, state, entry.source === "project");
      }
    }
  }
}

/**
 * The real CLI's error for a stdio command it cannot start: it names the transport (`stdio`)
 * where it means the command of a server of the command line, the command for the project's.
 */
function startError(command: string, state: "missing" | "denied", project: boolean): string {
  const named = project ? command : "stdio";
  if (state === "denied") return `EACCES: permission denied, posix_spawn '${named}'`;
  if (command.includes("/")) return `ENOENT: no such file or directory, posix_spawn '${named}'`;
  return project ? `Executable not found in $PATH: ${JSON.stringify(command)}` : COMMAND_NOT_FOUND;
}

/**
 * The config `mcp_status` shows of a server the CLI runs: `type` first (`stdio` when not
 * given), `args` `[]` for a stdio server of the command line that gave none, its `env` and
 * `headers` left out.
 */
export function shownConfig(entry: McpRosterEntry): Record<string, unknown> {
  const { env: _env, headers: _headers, type, ...rest } = entry.config ?? {};
  // a stdio server shows no url (a url without a type is a stdio server to mcp_set_servers)
  if (type === undefined || type === "stdio") delete rest.url;
  const shown: Record<string, unknown> = {
    type: typeof type === "string" ? type : "stdio",
    ...rest,
  };
  if (shown.type === "stdio" && entry.fromFlag && shown.args === undefined) shown.args = [];
  return shown;
}
