/**
 * Reads the flags the SDK passes to `claude` that change what the CLI writes.
 *
 * @module
 */

/** What the mock takes from the command line the client spawned it with. */
export interface CliFlags {
  /** `--include-partial-messages`. */
  includePartialMessages: boolean;
  /** `--include-hook-events` (the SDK's `includeHookEvents`): command hooks' lifecycle frames. */
  includeHookEvents?: boolean;
  /** `--model`. */
  model?: string;
  /** `--permission-mode`. */
  permissionMode?: string;
  /**
   * `--max-turns`: the real CLI's reading, any number but 0 (no limit); the turn ends once the
   * next API call would be past it (`-1` and `1` stop after one call, `2.5` after two).
   */
  maxTurns?: number;
  /** `--max-budget-usd`. */
  maxBudgetUsd?: number;
  /** `--permission-prompt-tool` (`stdio` when the SDK has a `canUseTool`). */
  permissionPromptTool?: string;
  /** `--agents`: custom agent definitions by name, as a JSON object. */
  agents?: string;
  /** `--settings` (a JSON string or a path). */
  settings?: string;
  /** `--setting-sources`: which settings files are read (`user,project,local`; default all). */
  settingSources?: string;
  /** `--allowedTools` / `--allowed-tools`, split on commas and spaces. */
  allowedTools: string[];
  /** `--disallowedTools` / `--disallowed-tools`. */
  disallowedTools: string[];
  /** `--tools`: the built-in tools to offer (`[]` for none, `["default"]` the default set). */
  tools?: string[];
  /** `--strict-mcp-config`: only `--mcp-config`'s servers (not the project's `.mcp.json`). */
  strictMcpConfig?: boolean;
  /** `--mcp-config`: MCP server configs (JSON strings or file paths), as given. */
  mcpConfig?: string[];
  /** `--json-schema`: the JSON Schema of the structured output (the SDK's `outputFormat`). */
  jsonSchema?: unknown;
  /** `--permission-prompts`: `none` denies what would be asked, whoever could answer. */
  permissionPrompts?: string;
  /**
   * `--dangerously-skip-permissions` or `--allow-dangerously-skip-permissions`: the session
   * may switch to `bypassPermissions` later.
   */
  bypassAvailable?: boolean;
  /** `--thinking`: `enabled`, `adaptive` or `disabled` (the SDK's `thinking`, `maxThinkingTokens: 0`). */
  thinking?: string;
  /** `--max-thinking-tokens`: the thinking budget (0 turns thinking off). */
  maxThinkingTokens?: number;
  /** `--effort`: the effort level hooks are told (default `medium`). */
  effort?: string;
  /** `--session-id`. */
  sessionId?: string;
  /** `--resume`. */
  resume?: string;
  /** `--fork-session`: a resumed session gets a new id. */
  forkSession?: boolean;
  /** `--resume-session-at`: the message of the resumed session to go on from. */
  resumeSessionAt?: string;
  /** `--continue`: the project's most recent session goes on. */
  continue?: boolean;
  /** `--no-session-persistence`: the session keeps no transcript. */
  noSessionPersistence?: boolean;
  /** `--replay-user-messages`: each user line is echoed back after the turn's init. */
  replayUserMessages?: boolean;
}

const VALUE_FLAGS = new Set([
  "effort",
  "thinking",
  "max-thinking-tokens",
  "permission-prompts",
  "json-schema",
  "model",
  "permission-mode",
  "max-turns",
  "max-budget-usd",
  "permission-prompt-tool",
  "settings",
  "agents",
  "setting-sources",
  "session-id",
  "resume",
  "resume-session-at",
]);
/** The flags that turn something on, by the field they set. */
const SWITCHES = new Map<string, BooleanFlag>([
  ["include-partial-messages", "includePartialMessages"],
  ["include-hook-events", "includeHookEvents"],
  ["fork-session", "forkSession"],
  ["continue", "continue"],
  ["no-session-persistence", "noSessionPersistence"],
  ["strict-mcp-config", "strictMcpConfig"],
  ["replay-user-messages", "replayUserMessages"],
  ["dangerously-skip-permissions", "bypassAvailable"],
  ["allow-dangerously-skip-permissions", "bypassAvailable"],
]);
type BooleanFlag =
  | "includePartialMessages"
  | "includeHookEvents"
  | "forkSession"
  | "continue"
  | "noSessionPersistence"
  | "strictMcpConfig"
  | "replayUserMessages"
  | "bypassAvailable";
const LIST_FLAGS = new Set([
  "allowedTools",
  "allowed-tools",
  "disallowedTools",
  "disallowed-tools",
  "tools",
]);

/**
 * Parses the flags the mock acts on; everything else is ignored, like unknown flags.
 *
 * @example The SDK's command line
 * ```ts
 * import { parseCliFlags } from "./cli_args.ts";
 * const flags = parseCliFlags(["--verbose", "--max-turns=3", "--include-partial-messages"]);
 * console.log(flags.maxTurns, flags.includePartialMessages); // 3 true
 * ```
 */
export function parseCliFlags(args: readonly string[]): CliFlags {
  const flags: CliFlags = { includePartialMessages: false, allowedTools: [], disallowedTools: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith("--")) continue;
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const inline = eq < 0 ? undefined : arg.slice(eq + 1);
    const on = SWITCHES.get(name);
    if (on !== undefined) flags[on] = true;
    else if (VALUE_FLAGS.has(name)) {
      const value = inline ?? args[++i];
      if (value === undefined) continue;
      if (name === "model") flags.model = value;
      else if (name === "effort") flags.effort = value;
      else if (name === "thinking") flags.thinking = value;
      else if (name === "max-thinking-tokens") {
        const n = Number(value);
        if (value.trim() === "" || !Number.isInteger(n) || n < 0) {
          throw new RangeError(
            `Invalid --max-thinking-tokens: expected an integer >= 0, got '${value}'`,
          );
        }
        flags.maxThinkingTokens = n;
      } else if (name === "permission-prompts") flags.permissionPrompts = value;
      else if (name === "json-schema") {
        try {
          flags.jsonSchema = JSON.parse(value);
        } catch (error) {
          throw new SyntaxError(
            `Invalid --json-schema: not valid JSON (${(error as Error).message})`,
          );
        }
      } else if (name === "permission-mode") flags.permissionMode = value;
      else if (name === "permission-prompt-tool") flags.permissionPromptTool = value;
      else if (name === "settings" || name === "agents") flags[name] = value;
      else if (name === "setting-sources") flags.settingSources = value;
      else if (name === "session-id") flags.sessionId = value;
      else if (name === "resume") flags.resume = value;
      else if (name === "resume-session-at") flags.resumeSessionAt = value;
      else if (name === "max-turns") {
        // as the real CLI: any number (0 is no limit; -1 or 1.5 end after the first call)
        const n = Number(value);
        if (value.trim() === "" || !Number.isFinite(n)) {
          throw new RangeError(`Invalid --max-turns: expected a number, got '${value}'`);
        }
        if (n !== 0) flags.maxTurns = n;
      } else if (name === "max-budget-usd") {
        const n = Number(value);
        if (value.trim() === "" || !Number.isFinite(n) || n <= 0) {
          throw new RangeError(
            `Invalid --max-budget-usd: expected a positive number, got '${value}'`,
          );
        }
        flags.maxBudgetUsd = n;
      }
    } else if (name === "mcp-config") {
      const values: string[] = inline !== undefined ? [inline] : [];
      while (inline === undefined && i + 1 < args.length && !args[i + 1].startsWith("-")) {
        values.push(args[++i]);
      }
      flags.mcpConfig = [...(flags.mcpConfig ?? []), ...values];
    } else if (LIST_FLAGS.has(name)) {
      const values: string[] = inline !== undefined ? [inline] : [];
      while (inline === undefined && i + 1 < args.length && !args[i + 1].startsWith("-")) {
        values.push(args[++i]);
      }
      const list = values.flatMap(splitToolList);
      if (name === "tools") flags.tools = [...(flags.tools ?? []), ...list];
      else if (name.startsWith("allowed")) flags.allowedTools.push(...list);
      else flags.disallowedTools.push(...list);
    }
  }
  return flags;
}

/** Splits `Read,Bash(git log:*) Edit` on commas and spaces outside parentheses. */
function splitToolList(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  for (const c of value) {
    if (c === "(") depth++;
    else if (c === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && (c === "," || c === " " || c === "\t" || c === "\n")) {
      if (current) out.push(current);
      current = "";
    } else current += c;
  }
  if (current) out.push(current);
  return out;
}

/**
 * What the real CLI writes to stderr before exiting 1 when it may skip permissions
 * (`--permission-mode bypassPermissions`, `--dangerously-skip-permissions`,
 * `--allow-dangerously-skip-permissions`) and runs as root without `IS_SANDBOX=1`
 * (CLI 2.1.328 to 2.1.332, in print mode and under the SDK); `undefined` when it runs.
 * `root` is whether it runs as root, or a function that says so (called only when needed).
 *
 * @example Refused as root, run in a sandbox
 * ```ts
 * import { bypassRefusal, parseCliFlags } from "./cli_args.ts";
 * const flags = parseCliFlags(["--permission-mode", "bypassPermissions"]);
 * console.log(bypassRefusal(flags, {}, true)); // --dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons
 * console.log(bypassRefusal(flags, { IS_SANDBOX: "1" }, true)); // undefined
 * ```
 */
export function bypassRefusal(
  flags: CliFlags,
  env: Readonly<Record<string, string | undefined>>,
  root: boolean | (() => boolean),
): string | undefined {
  const bypass = flags.bypassAvailable === true || flags.permissionMode === "bypassPermissions";
  if (!bypass || env.IS_SANDBOX === "1") return undefined;
  // asked only when it matters: reading the uid can load a runtime's Node layer
  if (!(typeof root === "function" ? root() : root)) return undefined;
  return "--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons";
}
