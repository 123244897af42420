/**
 * Custom agent definitions (the SDK's `AgentDefinition`, by name; `--agents`, `initialize`'s
 * `agents`) checked as the real CLI (2.1.328, 2.1.332) checks them: each field's type, in the
 * CLI's order, with its messages (zod's). Measured by running `claude -p --agents '<json>'`
 * with one bad field at a time, then all at once (FINDINGS_agents.md).
 *
 * @module
 */

/** The permission modes an agent may name, as the CLI lists them in its message. */
const MODES = ["acceptEdits", "auto", "bypassPermissions", "default", "dontAsk", "plan"];
const EFFORTS = ["low", "medium", "high", "xhigh", "max"];
const MEMORY = ["user", "project", "local"];
const ISOLATION = ["worktree", "remote"];

type Check = (value: unknown) => string | undefined;

/** What zod calls the type of a value it did not expect. */
function received(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && !Number.isFinite(value)) {
    return Number.isNaN(value) ? "NaN" : "Infinity";
  }
  return typeof value;
}

const expected = (type: string, value: unknown) =>
  `Invalid input: expected ${type}, received ${received(value)}`;

const string: Check = (v) => typeof v === "string" ? undefined : expected("string", v);
const boolean: Check = (v) => typeof v === "boolean" ? undefined : expected("boolean", v);
const nonEmpty = (what: string): Check => (v) =>
  typeof v !== "string" ? expected("string", v) : v === "" ? `${what} cannot be empty` : undefined;
const oneOf = (names: readonly string[]): Check => (v) =>
  typeof v === "string" && names.includes(v)
    ? undefined
    : `Invalid option: expected one of ${names.map((n) => `"${n}"`).join("|")}`;
const int = (min: number, inclusive: boolean): Check => (v) => {
  if (typeof v !== "number" || !Number.isFinite(v)) return expected("number", v);
  if (!Number.isInteger(v)) return expected("int", v);
  if (inclusive ? v < min : v <= min) {
    return `Too small: expected number to be ${inclusive ? ">=" : ">"}${min}`;
  }
  return undefined;
};

/** An array whose items each pass `item` (the issue names the item's index). */
function arrayOf(item: (v: unknown) => string | undefined): (v: unknown) => string[] {
  return (v) => {
    if (!Array.isArray(v)) return [`: ${expected("array", v)}`];
    const out: string[] = [];
    v.forEach((x, i) => {
      const issue = item(x);
      if (issue !== undefined) out.push(`.${i}: ${issue}`);
    });
    return out;
  };
}

const strings = arrayOf(string);
const mcpServer: Check = (v) =>
  typeof v === "string" || (typeof v === "object" && v !== null && !Array.isArray(v))
    ? undefined
    : "Invalid input";
const effort: Check = (v) =>
  (typeof v === "string" && EFFORTS.includes(v)) || Number.isInteger(v)
    ? undefined
    : "Invalid input";

/** The fields checked, in the order the CLI reports them; each gives issue suffixes. */
const FIELDS: ReadonlyArray<
  [name: string, check: (v: unknown) => string[], required?: true]
> = [
  ["description", one(nonEmpty("Description")), true],
  ["tools", strings],
  ["disallowedTools", strings],
  ["prompt", one(string), true],
  ["model", one(nonEmpty("Model"))],
  ["effort", one(effort)],
  ["permissionMode", one(oneOf(MODES))],
  ["mcpServers", arrayOf(mcpServer)],
  ["maxTurns", one(int(0, false))],
  ["autoCompactWindow", one(int(100_000, true))],
  ["skills", strings],
  ["initialPrompt", one(string)],
  ["memory", one(oneOf(MEMORY))],
  ["background", one(boolean)],
  ["isolation", one(oneOf(ISOLATION))],
  ["omitClaudeMd", one(boolean)],
  ["observer", one(string)],
  ["observerMessage", one(string)],
];

function one(check: Check): (v: unknown) => string[] {
  return (v) => {
    const issue = check(v);
    return issue === undefined ? [] : [`: ${issue}`];
  };
}

/**
 * What is wrong with a set of agent definitions by name, one line an issue as the real CLI
 * words them (`reviewer.prompt: Invalid input: expected string, received undefined`); none
 * when they are valid. Fields the CLI does not check (unknown ones,
 * `criticalSystemReminder_EXPERIMENTAL`) pass.
 *
 * @example A definition without its prompt
 * ```ts
 * import { agentDefinitionIssues } from "./agent_definitions_check.ts";
 * console.log(agentDefinitionIssues({ reviewer: { description: "Reviews." } }));
 * // [ "reviewer.prompt: Invalid input: expected string, received undefined" ]
 * ```
 */
export function agentDefinitionIssues(agents: unknown): string[] {
  if (typeof agents !== "object" || agents === null || Array.isArray(agents)) {
    return [expected("record", agents)];
  }
  const out: string[] = [];
  for (const [name, def] of Object.entries(agents)) {
    // (a record zod builds drops "__proto__": the real CLI lists no such agent)
    if (name === "__proto__") continue;
    // 2.1.332: `--agents '{"-y": {...}}'` is refused so (the SDK's initialize drops the agent)
    if (name.startsWith("-")) {
      out.push(`${name}: agent names must not start with '-'`);
      continue;
    }
    if (typeof def !== "object" || def === null || Array.isArray(def)) {
      out.push(`${name}: ${expected("object", def)}`);
      continue;
    }
    const fields = def as Record<string, unknown>;
    for (const [field, check, required] of FIELDS) {
      const value = fields[field];
      if (value === undefined) {
        if (required) out.push(`${name}.${field}: ${expected("string", undefined)}`);
        continue;
      }
      for (const issue of check(value)) out.push(`${name}.${field}${issue}`);
    }
  }
  return out;
}
