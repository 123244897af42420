/**
 * Internal: reads a `__mock__` prompt into checked commands (sequences flattened), or the
 * error text that names the command and the field. Not part of the public API.
 *
 * @module
 */

import { MAX_NESTING_TEXT, nestedBeyond, NESTING_WHY } from "../wire/_nesting.ts";
import type { PermissionSuggestion } from "../builders/control.ts";
import { PERMISSION_MODES } from "../builders/system.ts";
import type { AskUserQuestionItem } from "../scenario/exchange_options.ts";
import { MOCK_COMMAND_NAMES, type MockCommandName } from "../scenario/mock_command.ts";
import type { FailureName } from "../scenario/named_failures.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { scenarioFromJSON } from "../scenario/scenario_from_json.ts";
import { SCENARIO_LIMITS } from "../scenario/scenario_limits.ts";
import { isObject } from "../wire/frame.ts";
import { Params } from "./_params.ts";
import { kindOf } from "../wire/_kind_of.ts";

/** A command that speaks in a thread: the main one, or a subagent's (`agentId`). */
interface Threaded {
  /** Where the command is in the prompt (`params.commands[2]`, or "" at the top). */
  at: string;
  /** The subagent whose frames these are. */
  agentId?: string;
}

/** A checked command (a `sequence` is flattened into its commands). */
export type ParsedCommand =
  | Threaded & { command: "text_response"; text: string }
  | Threaded & { command: "thinking_response"; thinking: string }
  | Threaded & { command: "stream_delta"; pieces: string[] }
  | Threaded & {
    command: "tool_use" | "permission_request";
    name: string;
    input: Record<string, unknown>;
    toolUseId?: string;
    suggestions?: PermissionSuggestion[];
  }
  | Threaded & { command: "ask_user_question"; questions: AskUserQuestionItem[] }
  | { at: string; command: "tool_result"; toolUseId: string; result?: string; error?: string }
  | {
    at: string;
    command: "result";
    durationMs?: number;
    cost?: number;
    isError?: boolean;
    result?: string;
  }
  | { at: string; command: "error"; message: string; code?: number | FailureName }
  | {
    at: string;
    command: "hook_request";
    event: string;
    input: Record<string, unknown>;
    toolUseId?: string;
  }
  | {
    at: string;
    command: "system_init";
    cwd?: string;
    model?: string;
    permissionMode?: string;
    tools?: string[];
  }
  | { at: string; command: "system_status"; status: "requesting" | "compacting" | null }
  | { at: string; command: "compact_boundary"; trigger: "manual" | "auto"; preTokens?: number }
  | { at: string; command: "scenario"; scenario: Scenario; label: string; prompt?: string }
  | { at: string; command: "delay"; ms: number };

/** Finds a predefined scenario by name (throws a `RangeError` naming the known ones). */
export type BuiltinLookup = (name: string) => Scenario;

/** The most commands one prompt may hold (sequences included), and how deep they nest. */
const MAX_COMMANDS = 10_000;
const MAX_DEPTH = 32;

/** What the parameters of each command may be (`?`: optional). */
const PARAMS: Record<MockCommandName, readonly string[]> = {
  text_response: ["text", "agent_id?"],
  thinking_response: ["thinking", "agent_id?"],
  tool_use: ["tool_name", "tool_input", "tool_use_id?", "agent_id?"],
  tool_result: ["tool_use_id", "result?", "error?"],
  result: ["duration_ms?", "cost?", "is_error?", "result?"],
  stream_delta: ["text", "agent_id?"],
  error: ["message", "code?"],
  permission_request: ["tool_name", "tool_input", "suggestions?", "tool_use_id?", "agent_id?"],
  ask_user_question: ["questions", "agent_id?"],
  hook_request: ["event", "input", "tool_use_id?"],
  system_init: ["cwd?", "model?", "permission_mode?", "tools?"],
  system_status: ["status"],
  compact_boundary: ["trigger?", "pre_tokens?"],
  scenario: [],
  sequence: ["commands"],
  delay: ["ms"],
};

/**
 * Reads the commands of a `__mock__` prompt (one that `isMockPrompt` accepts). Throws a
 * `SyntaxError` (not JSON), a `TypeError` (a wrong shape or type) or a `RangeError` (a value
 * out of range) whose message names the command and the field.
 */
export function parseMockPrompt(text: string, builtin: BuiltinLookup): ParsedCommand[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new SyntaxError(
      `__mock__: the prompt starts with {"__mock__" but is not valid JSON: ${
        (error as Error).message
      } (a command is the whole prompt: {"__mock__": {"command": …, "params": {…}}})`,
    );
  }
  if (!isObject(data)) throw new TypeError("__mock__: the prompt must be a JSON object");
  const beyond = nestedBeyond(data);
  if (beyond !== undefined) {
    throw new RangeError(
      `__mock__: '${beyond}' nests deeper than ${MAX_NESTING_TEXT} levels (${NESTING_WHY})`,
    );
  }
  const extra = Object.keys(data).find((key) => key !== "__mock__");
  if (extra !== undefined) {
    throw new TypeError(
      `__mock__: unexpected key '${extra}' beside '__mock__' (a command is the whole prompt: {"__mock__": {"command": …, "params": {…}}})`,
    );
  }
  const reader = new Reader(builtin);
  reader.command(data.__mock__, "", 0);
  reader.checkEnds();
  return reader.commands;
}

class Reader {
  readonly commands: ParsedCommand[] = [];
  #builtin: BuiltinLookup;
  #toolUseIds = new Set<string>();
  #results = new Set<string>();

  constructor(builtin: BuiltinLookup) {
    this.#builtin = builtin;
  }

  command(value: unknown, at: string, depth: number): void {
    const where = at === "" ? "'__mock__'" : `'${at}'`;
    if (!isObject(value)) {
      throw new TypeError(
        `__mock__: ${where} must be a command object {"command": …, "params": {…}}, got ${
          kindOf(value, { values: true })
        }`,
      );
    }
    const name = value.command;
    const prefix = at === "" ? "" : `${at}.`;
    if (typeof name !== "string" || !(MOCK_COMMAND_NAMES as readonly string[]).includes(name)) {
      throw new TypeError(
        `__mock__: unknown command ${
          JSON.stringify(name)
        } at '${prefix}command'; the commands are ${MOCK_COMMAND_NAMES.join(", ")}`,
      );
    }
    const command = name as MockCommandName;
    const stray = Object.keys(value).find((key) => key !== "command" && key !== "params");
    if (stray !== undefined) {
      throw new TypeError(
        `__mock__ ${command}: unexpected key '${prefix}${stray}' (a command has 'command' and 'params')`,
      );
    }
    if (value.params !== undefined && !isObject(value.params)) {
      throw new TypeError(
        `__mock__ ${command}: '${prefix}params' must be an object, got ${
          kindOf(value.params, { values: true })
        }`,
      );
    }
    if (this.commands.length >= MAX_COMMANDS) {
      throw new RangeError(`__mock__: a prompt holds at most ${MAX_COMMANDS} commands`);
    }
    const p = new Params(command, `${prefix}params`, value.params ?? {});
    if (command !== "scenario") p.checkKeys(PARAMS[command]);
    this.#read(command, p, at, depth);
  }

  #read(command: MockCommandName, p: Params, at: string, depth: number): void {
    const add = (parsed: ParsedCommand): void => void this.commands.push(parsed);
    const agentId = PARAMS[command].includes("agent_id?")
      ? p.string("agent_id", { optional: true, empty: false })
      : undefined;
    const thread = { at, ...(agentId !== undefined ? { agentId } : {}) };
    switch (command) {
      case "text_response":
        return add({ ...thread, command, text: p.string("text", { empty: false }) });
      case "thinking_response":
        return add({ ...thread, command, thinking: p.string("thinking", { empty: false }) });
      case "stream_delta":
        return add({ ...thread, command, pieces: p.pieces("text") });
      case "tool_use":
      case "permission_request":
        return add({ ...thread, ...this.#toolUse(command, p) });
      case "ask_user_question":
        return add({ ...thread, command, questions: p.questions() });
      case "tool_result":
        return add({ at, ...this.#toolResult(p) });
      case "scenario":
        return add({ at, command, ...this.#scenario(p) });
      case "sequence": {
        const list = p.data.commands;
        if (!Array.isArray(list)) {
          p.fail(
            TypeError,
            "commands",
            `must be an array of commands, got ${kindOf(list, { values: true })}`,
          );
        }
        if (depth >= MAX_DEPTH) {
          p.fail(RangeError, "commands", `nests sequences more than ${MAX_DEPTH} deep`);
        }
        list.forEach((item, i) => this.command(item, `${p.path}.commands[${i}]`, depth + 1));
        return;
      }
      default:
        return add({ at, ...frameCommand(command, p) });
    }
  }

  /** A tool use or a permission request; its tool use id, if given, is new in the prompt. */
  #toolUse(
    command: "tool_use" | "permission_request",
    p: Params,
  ): Omit<Extract<ParsedCommand, { command: "tool_use" | "permission_request" }>, keyof Threaded> {
    const toolUseId = p.string("tool_use_id", { optional: true });
    if (toolUseId !== undefined) {
      if (this.#toolUseIds.has(toolUseId)) {
        p.fail(RangeError, "tool_use_id", `repeats the tool use id "${toolUseId}"`);
      }
      this.#toolUseIds.add(toolUseId);
    }
    const suggestions = command === "permission_request" ? p.suggestions() : undefined;
    return {
      command,
      name: p.string("tool_name"),
      input: p.object("tool_input"),
      ...(toolUseId !== undefined ? { toolUseId } : {}),
      ...(suggestions !== undefined ? { suggestions } : {}),
    };
  }

  /** A tool's result or error, for a tool use earlier in the prompt and given once. */
  #toolResult(p: Params): Omit<Extract<ParsedCommand, { command: "tool_result" }>, "at"> {
    const toolUseId = p.string("tool_use_id");
    if (!this.#toolUseIds.has(toolUseId)) {
      p.fail(
        RangeError,
        "tool_use_id",
        `names no tool use before it in this prompt ("${toolUseId}"): a tool_result gives the ` +
          "result of a tool_use or permission_request with that tool_use_id earlier in the same " +
          "sequence",
      );
    }
    if (this.#results.has(toolUseId)) {
      p.fail(RangeError, "tool_use_id", `repeats the result of "${toolUseId}"`);
    }
    this.#results.add(toolUseId);
    const result = p.string("result", { optional: true });
    const error = p.string("error", { optional: true });
    if (result !== undefined && error !== undefined) {
      p.fail(TypeError, "error", "cannot be given with 'result' (a result or an error)");
    }
    return {
      command: "tool_result",
      toolUseId,
      ...(result !== undefined ? { result } : {}),
      ...(error !== undefined ? { error } : {}),
    };
  }

  /** A predefined scenario by `name` (with a `prompt` to pick an exchange), or a file's data. */
  #scenario(p: Params): { scenario: Scenario; label: string; prompt?: string } {
    const data = p.data;
    if (typeof data.name === "string" && !("exchanges" in data) && !("extends" in data)) {
      p.checkKeys(["name", "prompt?"]);
      const prompt = p.string("prompt", { optional: true });
      let scenario: Scenario;
      try {
        scenario = this.#builtin(data.name);
      } catch (error) {
        p.fail(
          error instanceof TypeError ? TypeError : RangeError,
          "name",
          `is not a predefined scenario: ${(error as Error).message}`,
        );
      }
      return {
        scenario,
        label: `'${data.name}'`,
        ...(prompt !== undefined ? { prompt } : {}),
      };
    }
    try {
      const scenario = scenarioFromJSON(data, { source: `__mock__ ${p.path}` });
      return { scenario, label: scenario.name ? `'${scenario.name}'` : "(inline)" };
    } catch (error) {
      const Kind = error instanceof SyntaxError
        ? SyntaxError
        : error instanceof RangeError
        ? RangeError
        : TypeError;
      throw new Kind(
        `__mock__ scenario: '${p.path}' must be {"name": <a predefined scenario>, "prompt"?: …} or a scenario file's JSON: ${
          (error as Error).message
        }`,
      );
    }
  }

  /** A command that ends the turn (`result`, `error`) must be the prompt's last. */
  checkEnds(): void {
    const last = this.commands.length - 1;
    this.commands.forEach((c, i) => {
      if (i < last && (c.command === "result" || c.command === "error")) {
        const next = this.commands[i + 1];
        throw new RangeError(
          `__mock__ ${c.command}: '${
            c.at || "__mock__"
          }' ends the turn, so it must be the last command, but ${next.command} ('${next.at}') follows it`,
        );
      }
    });
  }
}

/** The commands that are one frame each, read from their parameters alone. */
type FrameCommand =
  | "result"
  | "error"
  | "hook_request"
  | "system_init"
  | "system_status"
  | "compact_boundary"
  | "delay";

/** A command that is one frame (a result, an error, a hook request, a system message, a delay). */
function frameCommand(
  command: FrameCommand,
  p: Params,
): DistributiveOmit<Extract<ParsedCommand, { command: FrameCommand }>, "at"> {
  switch (command) {
    case "result": {
      const durationMs = p.integer("duration_ms", { optional: true });
      const cost = p.number("cost", { optional: true });
      const isError = p.boolean("is_error", { optional: true });
      const result = p.string("result", { optional: true });
      return {
        command,
        ...(durationMs !== undefined ? { durationMs } : {}),
        ...(cost !== undefined ? { cost } : {}),
        ...(isError !== undefined ? { isError } : {}),
        ...(result !== undefined ? { result } : {}),
      };
    }
    case "error": {
      const message = p.string("message", { empty: false });
      const code = p.code();
      return { command, message, ...(code !== undefined ? { code } : {}) };
    }
    case "hook_request": {
      const event = p.string("event");
      const input = p.object("input");
      const toolUseId = p.string("tool_use_id", { optional: true });
      return { command, event, input, ...(toolUseId !== undefined ? { toolUseId } : {}) };
    }
    case "system_init":
      return systemInit(p);
    case "system_status": {
      if (!("status" in p.data)) p.fail(TypeError, "status", "is required");
      const status = p.data.status === null
        ? null
        : p.oneOf("status", ["requesting", "compacting"] as const);
      return { command, status };
    }
    case "compact_boundary": {
      const trigger = p.oneOf("trigger", ["manual", "auto"] as const, { optional: true });
      const preTokens = p.integer("pre_tokens", { optional: true });
      return {
        command,
        trigger: trigger ?? "auto",
        ...(preTokens !== undefined ? { preTokens } : {}),
      };
    }
    case "delay": {
      const ms = p.number("ms");
      if (ms > SCENARIO_LIMITS.maxDelayMs) {
        p.fail(RangeError, "ms", `must be at most ${SCENARIO_LIMITS.maxDelayMs}, got ${ms}`);
      }
      return { command, ms };
    }
  }
}

/** A system init message: its cwd, model, permission mode and tools, each optional. */
function systemInit(
  p: Params,
): Omit<Extract<ParsedCommand, { command: "system_init" }>, "at"> {
  const cwd = p.string("cwd", { optional: true });
  const model = p.string("model", { optional: true });
  const permissionMode = p.oneOf("permission_mode", PERMISSION_MODES, { optional: true });
  const tools = p.strings("tools", { optional: true });
  return {
    command: "system_init",
    ...(cwd !== undefined ? { cwd } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(permissionMode !== undefined ? { permissionMode } : {}),
    ...(tools !== undefined ? { tools } : {}),
  };
}

/** `Omit` over each member of a union. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
