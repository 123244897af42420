/**
 * Conformance cases: a scenario and what the app does with it (the prompts, the Agent SDK's
 * options, its permission answers, hooks, in-process MCP servers, an interrupt, the files the
 * working directory starts with), all as data, so one JSON file says how a scenario runs
 * through the mock and through the real CLI.
 *
 * @module
 */

import { loadScenario } from "../scenario/load_scenario.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { scenarioFromJSON } from "../scenario/scenario_from_json.ts";
import { listDir, readText } from "../host/_fs.ts";

/** One permission answer rule: the first rule whose `tool` matches answers `canUseTool`. */
export interface PermissionAnswer {
  /** The tool name, or `*` (default) for any. */
  tool?: string;
  /** Allow or deny. */
  behavior: "allow" | "deny";
  /** Deny: the message the model gets (default "Denied by the conformance case."). */
  message?: string;
  /** Deny: also interrupt the turn. */
  interrupt?: boolean;
  /** Allow: fields that replace the tool's input. */
  updatedInput?: Record<string, unknown>;
  /** Allow: permission updates (rules, mode) as the SDK types them. */
  updatedPermissions?: unknown[];
  /** Allow an AskUserQuestion: the answers by question text. */
  answers?: Record<string, string>;
}

/** One hook callback: its matcher and the output it returns. */
export interface HookAnswer {
  /** The matcher (a tool name pattern for tool events). */
  matcher?: string;
  /** What the callback returns (default `{}`: observe only; any JSON, to test what is not an object). */
  output?: unknown;
  /** The callback throws this message instead (the SDK answers the CLI with an error). */
  throws?: string;
}

/** One tool of an in-process MCP server. */
export interface McpToolData {
  /** The tool's name. */
  name: string;
  /** Its description (default: the name). */
  description?: string;
  /** Its parameters: name to `string`, `number` or `boolean`. */
  input?: Record<string, "string" | "number" | "boolean">;
  /** The result each call returns (a `CallToolResult`: `content`, `isError`). */
  result?: Record<string, unknown>;
  /** The handler throws this message instead (a soft error). */
  throws?: string;
}

/** How the app runs one scenario, as data. */
export interface ConformCase {
  /** The case's name (default: its file name). */
  name: string;
  /** What it covers. */
  description?: string;
  /** The scenario. */
  scenario: Scenario;
  /** The scenario as the fake binary loads it: a path, `builtin:<name>`, or its JSON. */
  scenarioSource: string | { json: unknown };
  /** A string prompt (one turn), or prompts sent one after another's result (streaming input). */
  prompt: string | string[];
  /** The Agent SDK's query options that are data (`permissionMode`, `maxTurns`, …). */
  options: Record<string, unknown>;
  /** Permission answers: with them the app has a `canUseTool`. */
  canUseTool?: PermissionAnswer[];
  /** Hooks by event, or `"all"`: every event the SDK types, observing. */
  hooks?: "all" | Record<string, HookAnswer[]>;
  /** In-process MCP servers by name. */
  mcpServers?: Record<string, { tools: McpToolData[] }>;
  /** Interrupt the query after the app got `count` messages of `after` (`stream_event`, `assistant`, …). */
  interrupt?: { after: string; count?: number };
  /**
   * The app's own requests through the query's methods (`mcpServerStatus`, `toggleMcpServer`,
   * …), made in order after the first result (each answer or error is on the wire).
   */
  requests?: AppRequest[];
  /** Files the working directory starts with. */
  files?: Record<string, string>;
  /** Environment for both runs. */
  env?: Record<string, string>;
  /** Print mode (`-p`) runs: off, or the prompt, extra flags and formats. */
  print?: false | {
    prompt?: string;
    args?: string[];
    formats?: PrintFormat[];
    /** Send the case's prompts on stdin as stream-json user lines (`--input-format stream-json`). */
    stdin?: boolean;
  };
  /** Whether the SDK (duplex) runs happen (default true). */
  duplex?: boolean;
  /**
   * A run made first in the same project and config folder, not compared: through the SDK
   * (with its `options`) before duplex runs, as `-p <prompt>` (with its `args`) before print
   * runs. `$before.session_id` and `$before.assistant_uuid` in the case's options and print
   * arguments stand for its session id and its last assistant message's uuid
   * ({@linkcode BEFORE_FACTS}).
   */
  before?: BeforeRun;
  /** The file it came from. */
  source: string;
}

/** The query methods a case's `requests` may call. */
export const REQUEST_METHODS: readonly string[] = [
  "mcpServerStatus",
  "reconnectMcpServer",
  "toggleMcpServer",
  "setMcpServers",
];

/** One of a case's app requests: a query method and its arguments (JSON data). */
export interface AppRequest {
  /** The method (one of {@linkcode REQUEST_METHODS}). */
  method: string;
  /** Its arguments. */
  args?: unknown[];
}

/** A case's earlier run (see {@linkcode ConformCase.before}). */
export interface BeforeRun {
  /** Its prompt. */
  prompt: string;
  /** Its query options (duplex runs). */
  options?: Record<string, unknown>;
  /** Its extra flags (print runs). */
  args?: string[];
}

/**
 * What a case's options and print arguments can name of its earlier run, as `$before.<fact>`:
 * its session id, and the uuid of its last assistant message (for `resumeSessionAt`).
 */
export const BEFORE_FACTS: readonly string[] = ["session_id", "assistant_uuid"];

/** A print-mode output format. */
export type PrintFormat = "text" | "json" | "stream-json";

/** The fields a case file may have. */
const CASE_FIELDS = new Set([
  "$schema",
  "name",
  "description",
  "scenario",
  "prompt",
  "prompts",
  "options",
  "canUseTool",
  "hooks",
  "mcpServers",
  "interrupt",
  "requests",
  "files",
  "env",
  "print",
  "duplex",
  "before",
]);

/** The files of a corpus folder that are not cases: its exceptions and known differences. */
const NOT_CASES: ReadonlySet<string> = new Set(["exceptions.json", "known_differences.json"]);

/**
 * Loads the cases of files and folders (a folder: its `*.json` files, sorted, not recursing).
 * A case file has a `scenario` (an inline scenario, `builtin:<name>`, or a path relative to the
 * file); a plain scenario file is a case too: its exchanges' plain triggers (a string, `exact`,
 * `contains`, `glob` with `*` read as `x`) are its prompts, in order, in one session.
 *
 * @throws {TypeError} A file that is not a case or a scenario, naming the field and file.
 *
 * @example A case file
 * ```json
 * {
 *   "scenario": "builtin:tool_with_permission",
 *   "prompt": "Create out.txt with touch.",
 *   "canUseTool": [{ "tool": "Bash", "behavior": "allow" }]
 * }
 * ```
 */
export async function loadConformCases(paths: readonly string[]): Promise<ConformCase[]> {
  const files: string[] = [];
  for (const path of paths) {
    let entries;
    try {
      entries = await listDir(path);
    } catch {
      files.push(path);
      continue;
    }
    files.push(
      ...entries.filter((e) =>
        !e.isDirectory && e.name.endsWith(".json") && !e.name.startsWith("_") &&
        !NOT_CASES.has(e.name) && !e.name.endsWith(".schema.json")
      )
        .map((e) => `${path.replace(/\/+$/, "")}/${e.name}`).sort(),
    );
  }
  const cases: ConformCase[] = [];
  for (const file of files) cases.push(await loadConformCase(file));
  const seen = new Map<string, string>();
  for (const c of cases) {
    const other = seen.get(c.name);
    if (other) {
      throw new TypeError(
        `Cannot load the conformance cases: ${c.source} and ${other} are both named '${c.name}'`,
      );
    }
    seen.set(c.name, c.source);
  }
  return cases;
}

/**
 * Loads one case file (or plain scenario file); see {@linkcode loadConformCases}.
 *
 * @throws {TypeError} A file that is not a case or a scenario, naming the field and file.
 *
 * @example A case with a permission answer
 * ```ts
 * import { loadConformCase } from "@x/claude-mock/cli";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/touch.json`, JSON.stringify({
 *   scenario: "builtin:tool_with_permission",
 *   prompt: "Create out.txt with touch.",
 *   canUseTool: [{ tool: "Bash", behavior: "allow" }],
 * }));
 * const c = await loadConformCase(`${dir}/touch.json`);
 * console.log(c.name, c.prompt, c.canUseTool?.length); // touch Create out.txt with touch. 1
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function loadConformCase(file: string): Promise<ConformCase> {
  const data = await readCase(file);
  const fail = (what: string): never => {
    throw new TypeError(`Cannot load the conformance case ${file}: ${what}`);
  };
  const base = file.replace(/^.*\//, "").replace(/\.json$/, "");
  if (!("scenario" in data)) {
    if (!("exchanges" in data)) {
      return fail("expected a case (with 'scenario') or a scenario file (with 'exchanges')");
    }
    const scenario = scenarioFromJSON(data, { source: file });
    return {
      name: base,
      scenario,
      scenarioSource: file,
      prompt: promptsOf(data),
      options: withScenarioOptions({}, scenario),
      source: file,
    };
  }
  for (const key of Object.keys(data)) {
    if (!CASE_FIELDS.has(key)) {
      fail(`'${key}' is not a case field; expected one of ${[...CASE_FIELDS].join(", ")}`);
    }
  }
  const { scenario, scenarioSource } = await caseScenario(data.scenario, { file, fail });
  const prompt = casePrompt(data, fail);
  const options = data.options ?? {};
  if (!isObject(options)) fail("'options' must be an object of query options");
  const caseName = data.name ?? base;
  if (typeof caseName !== "string" || caseName === "") fail("'name' must be a non-empty string");
  const out: ConformCase = {
    name: caseName as string,
    scenario,
    scenarioSource,
    prompt,
    options: withScenarioOptions(options as Record<string, unknown>, scenario),
    source: file,
  };
  if (typeof data.description === "string") out.description = data.description;
  if (data.canUseTool !== undefined) out.canUseTool = permissionAnswers(data.canUseTool, fail);
  if (data.hooks !== undefined) out.hooks = hookAnswers(data.hooks, fail);
  if (data.mcpServers !== undefined) out.mcpServers = mcpServers(data.mcpServers, fail);
  if (data.interrupt !== undefined) {
    const i = data.interrupt;
    if (
      !isObject(i) || typeof i.after !== "string" ||
      (i.count !== undefined && !positiveInt(i.count))
    ) {
      fail("'interrupt' must be { after: <message type>, count?: <positive integer> }");
    }
    out.interrupt = i as ConformCase["interrupt"];
  }
  if (data.requests !== undefined) {
    const r = data.requests;
    if (
      !Array.isArray(r) ||
      !r.every((q) =>
        isObject(q) && REQUEST_METHODS.includes(q.method as string) &&
        (q.args === undefined || Array.isArray(q.args))
      )
    ) {
      fail(`'requests' must be an array of { method: ${REQUEST_METHODS.join(" | ")}, args?: [] }`);
    }
    out.requests = r as AppRequest[];
  }
  if (data.files !== undefined) out.files = stringMap(data.files, "files", fail);
  if (data.env !== undefined) out.env = stringMap(data.env, "env", fail);
  if (data.print !== undefined) out.print = printOption(data.print, fail);
  if (data.duplex !== undefined) {
    if (typeof data.duplex !== "boolean") fail("'duplex' must be true or false");
    out.duplex = data.duplex as boolean;
  }
  if (data.before !== undefined) out.before = beforeRun(data.before, fail);
  return out;
}

/** The case file's JSON object (a `TypeError` for a file that cannot be read, or is not one). */
async function readCase(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readText(file);
  } catch (error) {
    throw new TypeError(`Cannot load the conformance case ${file}: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new TypeError(
      `Cannot load the conformance case ${file}: not JSON (${(error as Error).message})`,
    );
  }
  if (!isObject(data)) {
    throw new TypeError(`Cannot load the conformance case ${file}: expected a JSON object`);
  }
  return data;
}

/** The case's scenario: predefined (`builtin:<name>`), a path beside the case, or inline. */
async function caseScenario(
  ref: unknown,
  { file, fail }: { file: string; fail: (what: string) => never },
): Promise<{ scenario: Scenario; scenarioSource: ConformCase["scenarioSource"] }> {
  const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : ".";
  if (typeof ref === "string") {
    const scenarioSource = ref.startsWith("builtin:") || ref.startsWith("/")
      ? ref
      : `${dir}/${ref}`;
    return { scenario: await loadScenario(scenarioSource), scenarioSource };
  }
  if (isObject(ref)) {
    const scenario = scenarioFromJSON(ref, { source: `${file} (scenario)` });
    return { scenario, scenarioSource: { json: ref } };
  }
  return fail("'scenario' must be a scenario object, builtin:<name> or a path");
}

/** The case's prompt, or its prompts in turn ("hello" when it gives none). */
function casePrompt(
  data: Record<string, unknown>,
  fail: (what: string) => never,
): string | string[] {
  if ("prompt" in data && "prompts" in data) fail("give 'prompt' or 'prompts', not both");
  if (typeof data.prompt === "string") return data.prompt;
  if (data.prompt !== undefined) return fail("'prompt' must be a string");
  if (
    Array.isArray(data.prompts) && data.prompts.length > 0 &&
    data.prompts.every((p) => typeof p === "string")
  ) {
    return data.prompts as string[];
  }
  if (data.prompts !== undefined) return fail("'prompts' must be a non-empty array of strings");
  return "hello";
}

/** The case's `before`: the prompt, options and flags of the run made first. */
function beforeRun(b: unknown, fail: (what: string) => never): BeforeRun {
  const shape = "'before' must be { prompt: <string>, options?: <object>, args?: <strings> }";
  if (!isObject(b) || typeof b.prompt !== "string") return fail(shape);
  for (const key of Object.keys(b)) {
    if (!["prompt", "options", "args"].includes(key)) {
      fail(`'before.${key}' is not allowed; ${shape}`);
    }
  }
  if (b.options !== undefined && !isObject(b.options)) fail(shape);
  if (
    b.args !== undefined && (!Array.isArray(b.args) || b.args.some((a) => typeof a !== "string"))
  ) {
    fail(shape);
  }
  return b as unknown as BeforeRun;
}

/** The case's `print`: false, or the prompt, arguments and formats of the print-mode runs. */
function printOption(
  p: unknown,
  fail: (what: string) => never,
): NonNullable<ConformCase["print"]> {
  if (p === false) return false;
  if (!isObject(p)) return fail("'print' must be false or { prompt?, args?, formats?, stdin? }");
  for (const key of Object.keys(p)) {
    if (!["prompt", "args", "formats", "stdin"].includes(key)) {
      fail(`'print.${key}' is not a print field; expected prompt, args, formats or stdin`);
    }
  }
  if (p.stdin !== undefined && typeof p.stdin !== "boolean") {
    fail("'print.stdin' must be true or false");
  }
  if (p.stdin === true && p.prompt !== undefined) {
    fail("give 'print.prompt' or 'print.stdin', not both (stdin sends the case's prompts)");
  }
  const formats = p.formats ?? ["text", "json", "stream-json"];
  if (
    !Array.isArray(formats) || formats.some((f) => !["text", "json", "stream-json"].includes(f))
  ) fail("'print.formats' must list text, json or stream-json");
  if (
    p.args !== undefined &&
    (!Array.isArray(p.args) || p.args.some((a) => typeof a !== "string"))
  ) {
    fail("'print.args' must be an array of strings");
  }
  if (p.prompt !== undefined && typeof p.prompt !== "string") {
    fail("'print.prompt' must be a string");
  }
  const print = p as NonNullable<ConformCase["print"]>;
  (print as { formats: PrintFormat[] }).formats = formats as PrintFormat[];
  return print;
}

/**
 * Whether a case runs in print mode, and how: by default a case with one prompt and no
 * SDK-side callbacks (permission answers, hooks, MCP servers, an interrupt) does. With
 * `print.stdin`, the prompts go on stdin as stream-json user lines (and `prompt` is unused).
 */
export function printPlan(
  c: ConformCase,
): { prompt: string; args: string[]; formats: PrintFormat[]; stdin?: string[] } | undefined {
  if (c.print === false) return undefined;
  const single = typeof c.prompt === "string"
    ? c.prompt
    : c.prompt.length === 1
    ? c.prompt[0]
    : undefined;
  const sdkOnly = c.canUseTool !== undefined || c.hooks !== undefined ||
    c.mcpServers !== undefined || c.interrupt !== undefined || c.requests !== undefined;
  if (c.print === undefined && (single === undefined || sdkOnly)) return undefined;
  const prompt = c.print?.prompt ?? single ?? (c.prompt as string[])[0];
  return {
    prompt,
    args: [...printFlags(c.options), ...(c.print?.args ?? [])],
    formats: c.print?.formats ?? ["text", "json", "stream-json"],
    ...(c.print?.stdin ? { stdin: typeof c.prompt === "string" ? [c.prompt] : [...c.prompt] } : {}),
  };
}

/** The CLI flags of the query options that have one (as the SDK passes them). */
function printFlags(options: Record<string, unknown>): string[] {
  const out: string[] = [];
  const list = (v: unknown) => (Array.isArray(v) ? v.join(",") : String(v));
  if (options.permissionMode !== undefined) {
    out.push("--permission-mode", String(options.permissionMode));
  }
  if (options.maxTurns !== undefined) out.push("--max-turns", String(options.maxTurns));
  if (options.maxBudgetUsd !== undefined) {
    out.push("--max-budget-usd", String(options.maxBudgetUsd));
  }
  if (options.model !== undefined) out.push("--model", String(options.model));
  if (options.allowedTools !== undefined) out.push("--allowedTools", list(options.allowedTools));
  if (options.disallowedTools !== undefined) {
    out.push("--disallowedTools", list(options.disallowedTools));
  }
  if (options.tools !== undefined) out.push("--tools", list(options.tools));
  if (options.agents !== undefined) out.push("--agents", JSON.stringify(options.agents));
  if (options.settings !== undefined) {
    out.push(
      "--settings",
      typeof options.settings === "string" ? options.settings : JSON.stringify(options.settings),
    );
  }
  const format = options.outputFormat as { type?: string; schema?: unknown } | undefined;
  if (format?.type === "json_schema") out.push("--json-schema", JSON.stringify(format.schema));
  return out;
}

/**
 * The query options with what the scenario says of the CLI's side that the real CLI must be
 * told: its permission rules (as `settings.permissions`, unless the case gives some) and its
 * model (as `model`), so both runs start alike.
 */
function withScenarioOptions(
  options: Record<string, unknown>,
  scenario: Scenario,
): Record<string, unknown> {
  const out = { ...options };
  if (scenario.model !== undefined && out.model === undefined) out.model = scenario.model;
  const settings = out.settings;
  if (scenario.permissions !== undefined && (settings === undefined || isObject(settings))) {
    const given = (settings ?? {}) as Record<string, unknown>;
    if (given.permissions === undefined) {
      out.settings = { ...given, permissions: scenario.permissions };
    }
  }
  return out;
}

/** The prompts a plain scenario file's triggers give (a session answering each exchange in turn). */
function promptsOf(data: Record<string, unknown>): string[] {
  const exchanges = Array.isArray(data.exchanges) ? data.exchanges : [];
  const prompts: string[] = [];
  for (const exchange of exchanges) {
    const on = isObject(exchange) ? exchange.on : undefined;
    if (typeof on === "string") prompts.push(on);
    else if (isObject(on)) {
      if (typeof on.exact === "string") prompts.push(on.exact);
      else if (typeof on.contains === "string") prompts.push(on.contains);
      else if (typeof on.glob === "string") prompts.push(on.glob.replace(/[*?]/g, "x"));
      else if (on.any === true) prompts.push("hello");
    }
  }
  return prompts.length > 0 ? prompts : ["hello"];
}

function permissionAnswers(value: unknown, fail: (what: string) => never): PermissionAnswer[] {
  if (!Array.isArray(value)) return fail("'canUseTool' must be an array of answers");
  return value.map((rule, i) => {
    if (!isObject(rule) || (rule.behavior !== "allow" && rule.behavior !== "deny")) {
      return fail(`'canUseTool[${i}]' must be { tool?, behavior: "allow" | "deny", ... }`);
    }
    if (rule.tool !== undefined && typeof rule.tool !== "string") {
      fail(`'canUseTool[${i}].tool' must be a string`);
    }
    return rule as unknown as PermissionAnswer;
  });
}

function hookAnswers(value: unknown, fail: (what: string) => never): ConformCase["hooks"] {
  if (value === "all") return "all";
  if (!isObject(value)) return fail("'hooks' must be \"all\" or an object of hook lists by event");
  for (const [event, list] of Object.entries(value)) {
    if (!Array.isArray(list) || list.some((h) => !isObject(h))) {
      fail(`'hooks.${event}' must be an array of { matcher?, output?, throws? }`);
    }
    list.forEach((h, i) => {
      if (h.throws !== undefined && typeof h.throws !== "string") {
        fail(`'hooks.${event}[${i}].throws' must be a string (the message the callback throws)`);
      }
    });
  }
  return value as Record<string, HookAnswer[]>;
}

function mcpServers(value: unknown, fail: (what: string) => never): ConformCase["mcpServers"] {
  if (!isObject(value)) return fail("'mcpServers' must be an object of servers by name");
  for (const [name, server] of Object.entries(value)) {
    if (!isObject(server) || !Array.isArray(server.tools)) {
      fail(`'mcpServers.${name}' must be { tools: [...] }`);
    }
    (server as { tools: unknown[] }).tools.forEach((t, i) => {
      if (!isObject(t) || typeof t.name !== "string") {
        fail(`'mcpServers.${name}.tools[${i}]' needs a name`);
      }
    });
  }
  return value as ConformCase["mcpServers"];
}

function stringMap(
  value: unknown,
  what: string,
  fail: (what: string) => never,
): Record<string, string> {
  if (!isObject(value) || Object.values(value).some((v) => typeof v !== "string")) {
    return fail(`'${what}' must be an object of strings`);
  }
  return value as Record<string, string>;
}

function positiveInt(v: unknown): boolean {
  return typeof v === "number" && Number.isInteger(v) && v > 0;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
