/**
 * The real CLI's input check of a built-in tool use (2.1.328 to 2.1.332): the input is parsed
 * with the tool's schema (zod 4) before any hook or permission rule; input it refuses fails
 * unasked with an `InputValidationError`, input it takes goes on as parsed (a number or a
 * boolean sent as a string read as one, defaults filled in, keys in the schema's order).
 *
 * One mechanism for every tool, driven by its recorded input schema
 * (`../builders/tool_input_schemas.ts`): zod's issues (`invalid_type`, `invalid_value`,
 * `unrecognized_keys`, `too_small`, `too_big`, `invalid_format`) in zod's order and words, then
 * the CLI's summary of them (`Read failed due to the following issue:` and one line an issue),
 * and, for a tool the API request deferred, the CLI's hint with the schema. What the schemas
 * the CLI sends do not say and its checks do (recorded): a field with a default is not
 * required; numeric bounds and patterns are not checked; a few tools take unknown keys.
 *
 * @module
 */

import { toolInputSchema, toolInputSchemaText } from "../builders/tool_input_schemas.ts";

/** One problem, as zod 4 reports it (its keys in zod's order). */
export type InputIssue = Record<string, unknown> & { code: string; path: (string | number)[] };

/**
 * Tools whose check takes keys their schema does not name, though the schema they send says
 * `additionalProperties: false` (recorded on 2.1.332: an unknown key is not reported).
 */
const LOOSE_TOOLS: ReadonlySet<string> = new Set([
  "Agent",
  "Monitor",
  "SendMessage",
  "Skill",
  "ToolSearch",
]);

/**
 * Tools whose schema the API request leaves out in a session that has `ToolSearch` (the
 * default tool set): their errors end with the CLI's hint to load them.
 */
const DEFERRED_TOOLS: ReadonlySet<string> = new Set([
  "CronCreate",
  "CronDelete",
  "CronList",
  "EnterPlanMode",
  "EnterWorktree",
  "ExitPlanMode",
  "ExitWorktree",
  "Monitor",
  "NotebookEdit",
  "SendMessage",
  "TaskStop",
  "WebFetch",
  "WebSearch",
]);

/** What the check of one tool use found: the input as parsed, or the tool's error. */
export type InputCheck =
  | { ok: true; input: Record<string, unknown> }
  | { ok: false; content: string; toolUseResult: string; issues: InputIssue[] };

/**
 * Checks the input of a use of built-in tool `name` as the real CLI does before it runs it
 * (`undefined` for a tool whose schema is not known: MCP tools, the task tools).
 * `options.deferred`: whether the session defers the tool's schema (it has `ToolSearch`);
 * `options.schemaTexts`: the CLI version's schemas where they differ from the newest ones (its
 * `toolInputSchemas` fact).
 *
 * @example A missing field and an unknown one
 * ```ts
 * import { checkToolInput } from "./tool_input_check.ts";
 * const check = checkToolInput("Write", { file_path: "/a.txt", bogus: 1 });
 * if (check && !check.ok) console.log(check.content);
 * // InputValidationError: Write failed due to the following issues:
 * // The required parameter `content` is missing
 * // An unexpected parameter `bogus` was provided
 * ```
 *
 * @example A number sent as a string is read as one
 * ```ts
 * import { checkToolInput } from "./tool_input_check.ts";
 * const check = checkToolInput("Bash", { command: "sleep 1", timeout: "5000" });
 * console.log(check?.ok && check.input); // { command: "sleep 1", timeout: 5000 }
 * ```
 */
export function checkToolInput(
  name: string,
  input: Record<string, unknown>,
  options: { deferred?: boolean; schemaTexts?: Readonly<Record<string, string>> } = {},
): InputCheck | undefined {
  const schema = toolInputSchema(name);
  if (schema === undefined) return undefined;
  const tool = name === "Task" ? "Agent" : name;
  const issues: InputIssue[] = [];
  const parsed = parse(input, schema, [], issues, { loose: LOOSE_TOOLS.has(tool) });
  if (issues.length === 0) return { ok: true, input: parsed as Record<string, unknown> };
  const raw = JSON.stringify(issues, null, 2);
  const hint = options.deferred && DEFERRED_TOOLS.has(tool)
    ? deferredHint(name, options.schemaTexts?.[tool] ?? toolInputSchemaText(name) ?? "{}")
    : "";
  return {
    ok: false,
    content: `InputValidationError: ${summary(name, issues) ?? raw}${hint}`,
    toolUseResult: `InputValidationError: ${raw}`,
    issues,
  };
}

/** The CLI's hint after the error of a tool whose schema the request left out. */
function deferredHint(name: string, schema: string): string {
  return "\n\nThis tool's schema was not sent to the API \u2014 it was not in the discovered-tool " +
    "set derived from message history. Without the schema in your prompt, typed parameters " +
    "(arrays, numbers, booleans) get emitted as strings and the client-side parser rejects " +
    `them. Load the tool first: call ToolSearch with query "select:${name}", then retry this ` +
    `call. For reference, this tool's input schema is: ${schema}`;
}

/**
 * The CLI's summary of the issues: the missing fields, the unknown ones, the wrong types,
 * then any other issue; `undefined` (the issues are shown as JSON) when there is none of the
 * first three kinds.
 */
function summary(name: string, issues: readonly InputIssue[]): string | undefined {
  const missing: string[] = [];
  const unexpected: string[] = [];
  const types: string[] = [];
  const other: string[] = [];
  for (const issue of issues) {
    const at = pathText(issue.path);
    if (issue.code === "invalid_type") {
      const received = String(issue.message).replace(/^.*received /, "");
      if (received === "undefined") missing.push(`The required parameter \`${at}\` is missing`);
      else {
        types.push(
          `The parameter \`${at}\` type is expected as \`${issue.expected}\` but provided as ` +
            `\`${received}\``,
        );
      }
    } else if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys as string[]) {
        const named = at === "" ? key : `${at}.${key}`;
        unexpected.push(`An unexpected parameter \`${named}\` was provided`);
      }
    } else {
      other.push(
        at === ""
          ? `The input is invalid: ${issue.message}`
          : `The parameter \`${at}\` is invalid: ${issue.message}`,
      );
    }
  }
  if (missing.length + unexpected.length + types.length === 0) return undefined;
  const lines = [...missing, ...unexpected, ...types, ...other];
  return `${name} failed due to the following ${lines.length > 1 ? "issues" : "issue"}:\n${
    lines.join("\n")
  }`;
}

/** A path as the CLI writes it: `questions[0].header`. */
function pathText(path: readonly (string | number)[]): string {
  let text = "";
  for (const part of path) {
    text += typeof part === "number" ? `[${part}]` : text === "" ? part : `.${part}`;
  }
  return text;
}

type Schema = Record<string, unknown>;

/** What zod calls the type of a value (`received …`). */
function received(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function invalidType(expected: string, value: unknown, path: (string | number)[]): InputIssue {
  return {
    expected,
    code: "invalid_type",
    path,
    message: `Invalid input: expected ${expected}, received ${received(value)}`,
  };
}

/**
 * Parses `value` with `schema` as zod 4 parses it, pushing its issues; the parsed value.
 * `options.loose`: unknown keys of this object are kept instead of reported.
 */
function parse(
  value: unknown,
  schema: unknown,
  path: (string | number)[],
  issues: InputIssue[],
  options: { loose?: boolean } = {},
): unknown {
  if (schema === null || typeof schema !== "object") return value;
  const s = schema as Schema;
  if (Array.isArray(s.enum)) {
    if (!s.enum.some((v) => v === value)) {
      const values = s.enum;
      issues.push({
        code: "invalid_value",
        values,
        path,
        message: values.length === 1
          ? `Invalid input: expected ${JSON.stringify(values[0])}`
          : `Invalid option: expected one of ${values.map((v) => JSON.stringify(v)).join("|")}`,
      });
    }
    return value;
  }
  switch (s.type) {
    case "string":
      return parseString(value, s, path, issues);
    case "number":
    case "integer":
      return parseNumber(value, s.type, path, issues);
    case "boolean": {
      const v = value === "true" ? true : value === "false" ? false : value;
      if (typeof v !== "boolean") issues.push(invalidType("boolean", value, path));
      return v;
    }
    case "array":
      return parseArray(value, s, path, issues);
    case "object":
      return parseObject(value, s, path, issues, options);
    default:
      return value;
  }
}

function parseString(
  value: unknown,
  s: Schema,
  path: (string | number)[],
  issues: InputIssue[],
): unknown {
  if (typeof value !== "string") {
    issues.push(invalidType("string", value, path));
    return value;
  }
  const length = [...value].length;
  if (typeof s.minLength === "number" && length < s.minLength) {
    issues.push({
      origin: "string",
      code: "too_small",
      minimum: s.minLength,
      inclusive: true,
      path,
      message: `Too small: expected string to have >=${s.minLength} characters`,
    });
  }
  if (typeof s.maxLength === "number" && length > s.maxLength) {
    issues.push({
      origin: "string",
      code: "too_big",
      maximum: s.maxLength,
      inclusive: true,
      path,
      message: `Too big: expected string to have <=${s.maxLength} characters`,
    });
  }
  if (s.format === "uri" && !isUrl(value)) {
    issues.push({ code: "invalid_format", format: "url", path, message: "Invalid URL" });
  }
  return value;
}

function isUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/** A number (`integer`: a safe integer); a string that spells one is read as one. */
function parseNumber(
  value: unknown,
  type: "number" | "integer",
  path: (string | number)[],
  issues: InputIssue[],
): unknown {
  const v = typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value.trim())
    ? Number(value)
    : value;
  if (typeof v !== "number" || !Number.isFinite(v)) {
    issues.push(invalidType("number", value, path));
    return value;
  }
  if (type === "integer" && !Number.isSafeInteger(v)) {
    issues.push({
      expected: "int",
      format: "safeint",
      code: "invalid_type",
      path,
      message: "Invalid input: expected int, received number",
    });
  }
  return v;
}

function parseArray(
  value: unknown,
  s: Schema,
  path: (string | number)[],
  issues: InputIssue[],
): unknown {
  if (!Array.isArray(value)) {
    issues.push(invalidType("array", value, path));
    return value;
  }
  const out = value.map((item, i) => parse(item, s.items, [...path, i], issues));
  if (typeof s.minItems === "number" && value.length < s.minItems) {
    issues.push({
      origin: "array",
      code: "too_small",
      minimum: s.minItems,
      inclusive: true,
      path,
      message: `Too small: expected array to have >=${s.minItems} items`,
    });
  }
  if (typeof s.maxItems === "number" && value.length > s.maxItems) {
    issues.push({
      origin: "array",
      code: "too_big",
      maximum: s.maxItems,
      inclusive: true,
      path,
      message: `Too big: expected array to have <=${s.maxItems} items`,
    });
  }
  return out;
}

/** An object: its properties in the schema's order, then its unknown keys. */
function parseObject(
  value: unknown,
  s: Schema,
  path: (string | number)[],
  issues: InputIssue[],
  options: { loose?: boolean },
): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    issues.push(invalidType("object", value, path));
    return value;
  }
  const input = value as Record<string, unknown>;
  const properties = (s.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(s.required) ? s.required as string[] : []);
  const out: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(properties)) {
    const given = Object.hasOwn(input, key) ? input[key] : undefined;
    if (given === undefined) {
      if ("default" in property) out[key] = property.default;
      else if (required.has(key)) parse(undefined, property, [...path, key], issues);
      continue;
    }
    out[key] = parse(given, property, [...path, key], issues);
  }
  const extra = Object.keys(input).filter((key) => !Object.hasOwn(properties, key));
  const more = s.additionalProperties;
  if (extra.length > 0 && more === false && !options.loose) {
    issues.push({
      code: "unrecognized_keys",
      keys: extra,
      path,
      message: extra.length === 1
        ? `Unrecognized key: ${JSON.stringify(extra[0])}`
        : `Unrecognized keys: ${extra.map((k) => JSON.stringify(k)).join(", ")}`,
    });
  } else {
    for (const key of extra) {
      out[key] = typeof more === "object" && more !== null
        ? parse(input[key], more, [...path, key], issues)
        : input[key];
    }
  }
  return out;
}

/**
 * The input of a built-in tool use as the CLI writes it in its assistant frame: a number or a
 * boolean sent as a string is read as one (`"5000"` → `5000`, `"true"` → `true`), the keys
 * kept in their order; any other input as it is (recorded on 2.1.328 to 2.1.332).
 *
 * @example Bash's timeout given as a string
 * ```ts
 * import { coercedToolInput } from "./tool_input_check.ts";
 * console.log(coercedToolInput("Bash", { timeout: "5000", command: "make" }));
 * // { timeout: 5000, command: "make" }
 * ```
 */
export function coercedToolInput(
  name: string,
  input: Record<string, unknown>,
): Record<string, unknown> {
  const check = checkToolInput(name, input);
  if (check === undefined || !check.ok) return input;
  let out: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(input)) {
    const parsed = check.input[key];
    if (typeof value === "string" && parsed !== value && typeof parsed !== "object") {
      out ??= { ...input };
      out[key] = parsed;
    }
  }
  return out ?? input;
}

/**
 * A scripted tool call whose input the CLI reads differently ({@linkcode coercedToolInput}):
 * a copy with that input; else the call itself.
 */
export function withCoercedInput<
  T extends { block: { name: string; input: Record<string, unknown> } },
>(
  call: T,
): T {
  const input = coercedToolInput(call.block.name, call.block.input);
  return input === call.block.input ? call : { ...call, block: { ...call.block, input } };
}
