/**
 * Custom agent definitions (`--agents`) checked as the real CLI (2.1.328, 2.1.332) checks
 * them before anything runs: the value must be a record of objects, each with a non-empty
 * string `description` and a string `prompt`, and the optional fields of the types the CLI
 * takes. Every issue is one line `<name>.<field>: <what zod says>`, in the schema's order
 * (surveyed with the real CLI; FINDINGS_agents.md, "--agents checks"). Internal.
 *
 * @module
 */

const PERMISSION_MODES = ["acceptEdits", "auto", "bypassPermissions", "default", "dontAsk", "plan"];
const MEMORY = ["user", "project", "local"];
const ISOLATION = ["worktree", "remote"];

/**
 * The real CLI's issues with `--agents`' parsed value (`[]` when it takes it): `Invalid input:
 * expected record, received array` for a value that is no record; else per agent.
 */
export function agentDefinitionIssues(value: unknown): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return [`Invalid input: expected record, received ${kind(value)}`];
  }
  const issues: string[] = [];
  for (const [name, def] of Object.entries(value)) {
    // (a record zod builds drops "__proto__": the real CLI lists no such agent)
    if (name === "__proto__") continue;
    if (typeof def !== "object" || def === null || Array.isArray(def)) {
      issues.push(`${name}: Invalid input: expected object, received ${kind(def)}`);
      continue;
    }
    issues.push(...fieldIssues(name, def as Record<string, unknown>));
  }
  return issues;
}

function fieldIssues(name: string, def: Record<string, unknown>): string[] {
  const issues: string[] = [];
  const say = (field: string, what: string) => issues.push(`${name}.${field}: ${what}`);
  const string = (field: string, required: boolean, empty?: string) => {
    const value = def[field];
    if (value === undefined && !required) return;
    if (typeof value !== "string") say(field, expected("string", value));
    else if (empty !== undefined && value === "") say(field, empty);
  };
  const strings = (field: string) => {
    const value = def[field];
    if (value === undefined) return;
    if (!Array.isArray(value)) return void say(field, expected("array", value));
    value.forEach((item, i) => {
      if (typeof item !== "string") say(`${field}.${i}`, expected("string", item));
    });
  };
  const option = (field: string, options: string[]) => {
    const value = def[field];
    if (value === undefined || (typeof value === "string" && options.includes(value))) return;
    say(
      field,
      `Invalid option: expected one of ${options.map((o) => JSON.stringify(o)).join("|")}`,
    );
  };
  string("description", true, "Description cannot be empty");
  string("prompt", true);
  strings("tools");
  strings("disallowedTools");
  string("model", false, "Model cannot be empty");
  option("permissionMode", PERMISSION_MODES);
  if (def.mcpServers !== undefined && !Array.isArray(def.mcpServers)) {
    say("mcpServers", expected("array", def.mcpServers));
  }
  const turns = def.maxTurns;
  if (turns !== undefined) {
    if (typeof turns !== "number") say("maxTurns", expected("number", turns));
    else if (!(turns > 0)) say("maxTurns", "Too small: expected number to be >0");
  }
  if (def.skills !== undefined && !Array.isArray(def.skills)) {
    say("skills", expected("array", def.skills));
  }
  string("initialPrompt", false);
  option("memory", MEMORY);
  if (def.background !== undefined && typeof def.background !== "boolean") {
    say("background", expected("boolean", def.background));
  }
  option("isolation", ISOLATION);
  return issues;
}

function expected(type: string, value: unknown): string {
  return `Invalid input: expected ${type}, received ${kind(value)}`;
}

/** What zod calls the type of a value it did not expect. */
function kind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
