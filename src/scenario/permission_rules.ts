/**
 * Permission rules: whether a tool use runs, is asked about, or is denied, the way the
 * real CLI decides before it sends `can_use_tool`.
 *
 * @module
 */

import { kindOf } from "../wire/_kind_of.ts";
import { isReadOnlyCommand } from "./read_only_command.ts";

/** Allow, ask and deny rule lists (`Bash`, `Bash(npm test:*)`, `mcp__calc`, `Read(*.ts)`). */
export interface PermissionRules {
  /** Tool uses that run without asking. */
  allow?: string[];
  /** Tool uses that are always asked about. */
  ask?: string[];
  /** Tool uses that are denied without asking. */
  deny?: string[];
}

/** What the rules say about one tool use. */
export interface PermissionVerdict {
  /** `allow`, `ask` or `deny`. */
  behavior: "allow" | "ask" | "deny";
  /**
   * Why: `rule` (a rule matched), `mode` (the permission mode), `readOnly`, `tool`, or
   * `workingDir` (a file outside the working directory).
   */
  reason: "rule" | "mode" | "readOnly" | "tool" | "workingDir";
  /** The rule that matched, if one did. */
  rule?: string;
  /** Where the rule came from (`flagSettings`, `cliArg`, `scenario`). */
  source?: string;
}

/** Tools that never need permission (they only read). */
const READ_ONLY_TOOLS: ReadonlySet<string> = new Set([
  "Read",
  "Glob",
  "Grep",
  "LS",
  "NotebookRead",
  "TodoWrite",
  "TaskCreate",
  "TaskGet",
  "TaskList",
  "TaskUpdate",
  "Task",
  "Agent",
  "ToolSearch",
  "ListAgents",
  "TaskStop",
  "KillShell",
  "ExitPlanMode",
  "EnterPlanMode",
]);

/** Tools that `acceptEdits` runs without asking. */
export const EDIT_TOOLS: ReadonlySet<string> = new Set([
  "Write",
  "Edit",
  "MultiEdit",
  "NotebookEdit",
]);

/** Tools that always need the user, whatever the mode. */
export const INTERACTIVE_TOOLS: ReadonlySet<string> = new Set(["AskUserQuestion", "ExitPlanMode"]);

/** Rule lists with where they came from. */
export interface RuleSource {
  /** The rules. */
  rules: PermissionRules;
  /** Where they came from (reported as `decision_reason_rule_source`). */
  source: string;
}

/**
 * Decides a tool use: deny rules first, then ask rules, then allow rules, then the
 * permission mode (`bypassPermissions` runs everything, `acceptEdits` runs edits,
 * `dontAsk` denies what would be asked, `plan` denies what is not read-only), then the tool
 * (read-only tools run; everything else is asked about). With `cwd`, a file tool's path
 * outside it is asked about (`workingDir`) unless a rule or `bypassPermissions` decides.
 *
 * @example Rules and modes
 * ```ts
 * import { decidePermission } from "@x/claude-mock/session";
 * const sources = [{ rules: { allow: ["Bash(npm test:*)"] }, source: "cliArg" }];
 * console.log(decidePermission("Bash", { command: "npm test -- --watch" }, { mode: "default", sources }).behavior); // allow
 * console.log(decidePermission("Write", { file_path: "/a" }, { mode: "acceptEdits", sources: [] }).behavior); // allow
 * console.log(decidePermission("Bash", { command: "rm -rf /" }, { mode: "default", sources: [] }).behavior); // ask
 * ```
 */
export function decidePermission(
  tool: string,
  input: Record<string, unknown>,
  options: { mode: string; sources: readonly RuleSource[]; cwd?: string },
): PermissionVerdict {
  const interactive = INTERACTIVE_TOOLS.has(tool);
  for (const kind of ["deny", "ask", "allow"] as const) {
    for (const { rules, source } of options.sources) {
      const rule = ruleList(rules, kind, source, tool)?.find((r) =>
        ruleMatches(r, tool, input, { cwd: options.cwd })
      );
      if (rule === undefined) continue;
      if (kind === "allow" && interactive) continue;
      return { behavior: kind, reason: "rule", rule, source };
    }
  }
  if (interactive) return { behavior: "ask", reason: "tool" };
  const mode = options.mode;
  if (mode === "bypassPermissions") return { behavior: "allow", reason: "mode" };
  if (options.cwd !== undefined && outsideDir(input, options.cwd) && PATH_TOOLS.has(tool)) {
    return { behavior: mode === "dontAsk" ? "deny" : "ask", reason: "workingDir" };
  }
  if (READ_ONLY_TOOLS.has(tool)) return { behavior: "allow", reason: "readOnly" };
  if (
    tool === "Bash" && typeof input.command === "string" &&
    isReadOnlyCommand(input.command, options.cwd)
  ) {
    return { behavior: "allow", reason: "readOnly" };
  }
  if (mode === "acceptEdits" && EDIT_TOOLS.has(tool)) return { behavior: "allow", reason: "mode" };
  // acceptEdits also runs the shell's file commands inside the working directory
  // (`touch a.txt`)
  if (
    mode === "acceptEdits" && tool === "Bash" && typeof input.command === "string" &&
    options.cwd !== undefined && isEditCommandInDir(input.command, options.cwd)
  ) {
    return { behavior: "allow", reason: "mode" };
  }
  // plan asks before an edit and refuses the rest; dontAsk refuses what it would ask
  if (mode === "plan" && EDIT_TOOLS.has(tool)) return { behavior: "ask", reason: "mode" };
  if (mode === "plan" || mode === "dontAsk") return { behavior: "deny", reason: "mode" };
  return { behavior: "ask", reason: "tool" };
}

/** The shell's file commands that `acceptEdits` runs inside the working directory. */
const EDIT_COMMANDS: ReadonlySet<string> = new Set(["mkdir", "touch", "mv", "cp", "rm", "rmdir"]);

/** Whether `command` is one file command whose paths all lie inside `cwd`. */
function isEditCommandInDir(command: string, cwd: string): boolean {
  if (/[;&|><`$\\]|\n/.test(command)) return false;
  const [name, ...args] = command.trim().split(/\s+/);
  if (!EDIT_COMMANDS.has(name)) return false;
  const paths = args.filter((a) => !a.startsWith("-"));
  const base = cwd.replace(/\/$/, "");
  return paths.length > 0 &&
    paths.every((p) =>
      p.startsWith("/")
        ? p.startsWith(`${base}/`)
        : !p.split("/").includes("..") && !p.startsWith("~")
    );
}

/** Tools whose `file_path` or `notebook_path` is checked against the working directory. */
const PATH_TOOLS: ReadonlySet<string> = new Set([
  "Read",
  "Write",
  "Edit",
  "MultiEdit",
  "NotebookEdit",
  "NotebookRead",
]);

function outsideDir(input: Record<string, unknown>, cwd: string): boolean {
  const path = input.file_path ?? input.notebook_path;
  if (typeof path !== "string" || !path.startsWith("/")) return false;
  const base = cwd.replace(/\/$/, "");
  return path !== base && !path.startsWith(`${base}/`);
}

/** The `kind` list of `rules`, checked: a wrong shape is a clear error, never a crash. */
function ruleList(
  rules: PermissionRules,
  kind: keyof PermissionRules,
  source: string,
  tool: string,
): readonly string[] | undefined {
  const where = `Cannot decide permission for '${tool}'`;
  if (typeof rules !== "object" || rules === null || Array.isArray(rules)) {
    throw new TypeError(
      `${where}: the ${source} rules must be an object with allow, ask and deny lists, got ${
        kindOf(rules)
      }`,
    );
  }
  const list: unknown = rules[kind];
  if (list === undefined) return undefined;
  if (!Array.isArray(list)) {
    throw new TypeError(
      `${where}: '${kind}' of the ${source} rules must be an array of rule strings, got ${
        kindOf(list)
      }`,
    );
  }
  for (let i = 0; i < list.length; i++) {
    if (typeof list[i] !== "string") {
      throw new TypeError(
        `${where}: '${kind}[${i}]' of the ${source} rules must be a string, got ${kindOf(list[i])}`,
      );
    }
  }
  return list;
}

/**
 * Whether a rule (`Tool`, `Tool(content)`, `mcp__server`, `mcp__server__*`) covers a tool
 * use. In `Tool(content)`, `*` matches any run of characters and a trailing `:*` matches
 * any suffix; the content is compared with Bash's `command`, a file tool's `file_path`,
 * WebFetch's `url`, else the JSON input. With `cwd`, a file tool's rule path is taken as the
 * CLI takes it: `./notes.txt` and `src/**` under `cwd`, `//etc/x` the absolute `/etc/x`.
 *
 * @example Matching rules
 * ```ts
 * import { ruleMatches } from "@x/claude-mock/session";
 * console.log(ruleMatches("Bash(git status:*)", "Bash", { command: "git status -s" })); // true
 * console.log(ruleMatches("mcp__calc", "mcp__calc__add", {})); // true
 * ```
 *
 * @example A path rule under the working directory
 * ```ts
 * import { ruleMatches } from "@x/claude-mock/session";
 * const input = { file_path: "/home/user/project/notes.txt" };
 * console.log(ruleMatches("Edit(./notes.txt)", "Edit", input, { cwd: "/home/user/project" })); // true
 * ```
 */
export function ruleMatches(
  rule: string,
  tool: string,
  input: Record<string, unknown>,
  options: { cwd?: string } = {},
): boolean {
  if (typeof rule !== "string") {
    throw new TypeError(`Invalid permission rule: expected a string, got ${kindOf(rule)}`);
  }
  const open = rule.indexOf("(");
  const name = open < 0 ? rule : rule.slice(0, open);
  if (!nameMatches(name, tool)) return false;
  if (open < 0 || !rule.endsWith(")")) return open < 0;
  let pattern = rule.slice(open + 1, -1);
  if (pattern.startsWith("domain:") && typeof input.url === "string") {
    // WebFetch(domain:example.com): the url's host
    try {
      return new URL(input.url).hostname === pattern.slice("domain:".length);
    } catch {
      return false;
    }
  }
  if (typeof input.command !== "string" && typeof input.file_path === "string") {
    pattern = filePattern(pattern, options.cwd);
  }
  const subject = typeof input.command === "string"
    ? input.command
    : typeof input.file_path === "string"
    ? input.file_path
    : typeof input.url === "string"
    ? input.url
    : JSON.stringify(input);
  return contentMatches(pattern, subject);
}

/** A file rule's path as an absolute pattern: `//x` is `/x`; `./x` and `x` are under `cwd`. */
function filePattern(pattern: string, cwd: string | undefined): string {
  if (pattern.startsWith("//")) return pattern.slice(1);
  if (
    cwd === undefined || pattern.startsWith("/") || pattern.startsWith("~") ||
    pattern.startsWith("*")
  ) {
    return pattern;
  }
  const base = cwd.endsWith("/") ? cwd.slice(0, -1) : cwd;
  return `${base}/${pattern.startsWith("./") ? pattern.slice(2) : pattern}`;
}

function nameMatches(name: string, tool: string): boolean {
  if (name === tool) return true;
  if (name.endsWith("*")) return tool.startsWith(name.slice(0, -1));
  // `mcp__server` covers every tool of that server
  return name.startsWith("mcp__") && name.split("__").length === 2 && tool.startsWith(`${name}__`);
}

function contentMatches(pattern: string, subject: string): boolean {
  // `cmd:*` and `cmd *` cover `cmd` and `cmd <anything>` (the real CLI's `npm test *`
  // allows `npm test`)
  const prefix =
    pattern.endsWith(":*") || (pattern.endsWith(" *") && !pattern.slice(0, -2).includes("*"))
      ? pattern.slice(0, -2)
      : undefined;
  if (prefix !== undefined) return subject === prefix || subject.startsWith(prefix + " ");
  const re = new RegExp(
    "^" + pattern.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join("[\\s\\S]*") +
      "$",
  );
  return re.test(subject);
}

/**
 * Reads the permission rules out of a `--settings` value (a JSON object; a path is not
 * read and gives no rules). A wrong shape is a `TypeError` naming `--settings` and the field.
 *
 * @example Settings from the SDK
 * ```ts
 * import { rulesFromSettings } from "./permission_rules.ts";
 * console.log(rulesFromSettings('{"permissions":{"ask":["Read"]}}')); // { ask: ["Read"] }
 * ```
 *
 * @example A string where a list belongs
 * ```ts
 * import { rulesFromSettings } from "./permission_rules.ts";
 * try {
 *   rulesFromSettings('{"permissions":{"allow":"Bash"}}');
 * } catch (error) {
 *   console.log((error as Error).message);
 *   // Cannot read --settings: 'permissions.allow' must be an array of rule strings, got a string
 * }
 * ```
 */
export function rulesFromSettings(settings: string | undefined): PermissionRules {
  if (!settings || !settings.trim().startsWith("{")) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(settings);
  } catch (error) {
    throw new SyntaxError(
      `Cannot read --settings: not valid JSON (${(error as Error).message})`,
    );
  }
  const permissions = (parsed as { permissions?: unknown }).permissions;
  if (permissions === undefined || permissions === null) return {};
  if (typeof permissions !== "object" || Array.isArray(permissions)) {
    throw new TypeError(
      `Cannot read --settings: 'permissions' must be an object with allow, ask and deny rule lists, got ${
        kindOf(permissions)
      }`,
    );
  }
  const rules: PermissionRules = {};
  for (const kind of ["allow", "ask", "deny"] as const) {
    const list = (permissions as Record<string, unknown>)[kind];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) {
      throw new TypeError(
        `Cannot read --settings: 'permissions.${kind}' must be an array of rule strings, got ${
          kindOf(list)
        }`,
      );
    }
    list.forEach((rule, i) => {
      if (typeof rule !== "string") {
        throw new TypeError(
          `Cannot read --settings: 'permissions.${kind}[${i}]' must be a string, got ${
            kindOf(rule)
          }`,
        );
      }
    });
    rules[kind] = [...list];
  }
  return rules;
}

/**
 * The rule the real CLI suggests for a command that changes no file: the command and its
 * subcommand with a ` *` (`npm test` → `npm test *`, `npm run lint` → `npm run *`), else the
 * whole command.
 *
 * @example Suggested rules
 * ```ts
 * import { prefixRule } from "./permission_rules.ts";
 * console.log(prefixRule("npm test"), prefixRule("rm -rf build")); // npm test * rm -rf build
 * ```
 */
export function prefixRule(command: string): string {
  const words = command.trim().split(/\s+/);
  return words.length >= 2 && /^[a-z][a-z0-9-]*$/i.test(words[1])
    ? `${words[0]} ${words[1]} *`
    : command.trim();
}
