/**
 * {@linkcode mockCommand}: the texts of `__mock__` commands, so a test never hand-writes
 * their JSON. A user message whose whole text is `{"__mock__": {"command", "params"}}` is run
 * by the session instead of being matched against the scenario's exchanges (see the README's
 * "`__mock__` commands"): an app's own integration test drives the mock through the app's
 * normal input path.
 *
 * @module
 */

import type { PermissionSuggestion } from "../builders/control.ts";
import type { AskUserQuestionItem } from "./exchange_options.ts";
import type { FailureName } from "./named_failures.ts";
import type { Scenario } from "./scenario.ts";
import type { ScenarioFile } from "./scenario_file.ts";
import { scenarioToJSON } from "./scenario_to_json.ts";
import { kindOf } from "../wire/_kind_of.ts";

/**
 * The commands, with the names of the command table they come from.
 *
 * @example Every command name
 * ```ts
 * import { MOCK_COMMAND_NAMES } from "@x/claude-mock/mock-command";
 * console.log(MOCK_COMMAND_NAMES.length); // 16
 * ```
 */
export const MOCK_COMMAND_NAMES = [
  "text_response",
  "thinking_response",
  "tool_use",
  "tool_result",
  "result",
  "stream_delta",
  "error",
  "permission_request",
  "ask_user_question",
  "hook_request",
  "system_init",
  "system_status",
  "compact_boundary",
  "scenario",
  "sequence",
  "delay",
] as const;

/**
 * The name of a `__mock__` command.
 *
 * @example A name
 * ```ts
 * import type { MockCommandName } from "@x/claude-mock/mock-command";
 * const name: MockCommandName = "text_response";
 * console.log(name); // text_response
 * ```
 */
export type MockCommandName = (typeof MOCK_COMMAND_NAMES)[number];

/**
 * One `__mock__` command as data: what goes inside `{"__mock__": …}`.
 *
 * @example A command object
 * ```ts
 * import { type MockCommand, mockCommand } from "@x/claude-mock/mock-command";
 * const command: MockCommand = { command: "delay", params: { ms: 100 } };
 * console.log(mockCommand.of(command)); // {"__mock__":{"command":"delay","params":{"ms":100}}}
 * ```
 */
export interface MockCommand {
  /** The command. */
  command: MockCommandName;
  /** Its parameters (snake_case, as in the command table). */
  params?: Record<string, unknown>;
}

/**
 * Makes a command's frames a subagent's.
 *
 * @example A subagent's text
 * ```ts
 * import { mockCommand } from "@x/claude-mock/mock-command";
 * console.log(mockCommand.textResponse("Found 3 files.", { agentId: "explorer" }));
 * ```
 */
export interface AgentOption {
  /**
   * The subagent's id: its frames carry `agent_id` and the `parent_tool_use_id` of an `Agent`
   * tool use the session starts for it, with the real CLI's task frames around them.
   */
  agentId?: string;
}

/**
 * Options of {@linkcode MockCommandBuilders.toolUse}.
 *
 * @example A tool use a tool_result answers
 * ```ts
 * import { mockCommand } from "@x/claude-mock/mock-command";
 * const prompt = mockCommand.sequence([
 *   mockCommand.toolUse("Glob", { pattern: "src/*.ts" }, { toolUseId: "toolu_glob" }),
 *   mockCommand.toolResult("toolu_glob", { result: "mod.ts" }),
 * ]);
 * console.log(prompt.length > 0); // true
 * ```
 */
export interface MockToolUseOptions extends AgentOption {
  /** The tool use id (default: drawn from the seed); a `tool_result` command names it. */
  toolUseId?: string;
}

/**
 * Options of {@linkcode MockCommandBuilders.permissionRequest}.
 *
 * @example Suggestions
 * ```ts
 * import { mockCommand } from "@x/claude-mock/mock-command";
 * console.log(mockCommand.permissionRequest("Bash", { command: "git push" }, {
 *   suggestions: ["Bash(git *)"],
 * }));
 * ```
 */
export interface MockPermissionRequestOptions extends MockToolUseOptions {
  /**
   * The `permission_suggestions` of the `can_use_tool` request: rules as the CLI writes them
   * (`"Bash(git *)"`, an allow rule for local settings) or permission updates as they are.
   */
  suggestions?: ReadonlyArray<string | PermissionSuggestion>;
}

/**
 * Options of {@linkcode MockCommandBuilders.toolResult}: a result text or an error text.
 *
 * @example A failed tool
 * ```ts
 * import type { MockToolResultOptions } from "@x/claude-mock/mock-command";
 * const options: MockToolResultOptions = { error: "ENOENT: no such file" };
 * console.log(options.error); // ENOENT: no such file
 * ```
 */
export interface MockToolResultOptions {
  /** What the tool returned. */
  result?: string;
  /** The tool failed with this text (an `is_error` result). */
  error?: string;
}

/**
 * Options of {@linkcode MockCommandBuilders.result}.
 *
 * @example A result with a cost
 * ```ts
 * import { mockCommand } from "@x/claude-mock/mock-command";
 * console.log(mockCommand.result({ cost: 0.25, durationMs: 1200 }));
 * // {"__mock__":{"command":"result","params":{"duration_ms":1200,"cost":0.25}}}
 * ```
 */
export interface MockResultOptions {
  /** `duration_ms` of the result frame (default: the turn's time on the session clock). */
  durationMs?: number;
  /** `total_cost_usd` (default: from the turn's usage). */
  cost?: number;
  /** An error result (`error_during_execution`, `is_error: true`). */
  isError?: boolean;
  /** The result text (default: the turn's last assistant text); an error result's error. */
  result?: string;
}

/**
 * Options of {@linkcode MockCommandBuilders.error}.
 *
 * @example An overloaded API
 * ```ts
 * import { mockCommand } from "@x/claude-mock/mock-command";
 * console.log(mockCommand.error("Overloaded", { code: 529 }));
 * ```
 */
export interface MockErrorOptions {
  /**
   * An HTTP status (400-599: the Messages API fails with it) or a named failure
   * (`"overloaded"`, ...). Without it the turn fails with `message` as its error.
   */
  code?: number | FailureName;
}

/**
 * Options of {@linkcode MockCommandBuilders.systemInit}.
 *
 * @example Another model
 * ```ts
 * import type { MockSystemInitOptions } from "@x/claude-mock/mock-command";
 * const options: MockSystemInitOptions = { model: "claude-sonnet-5-5", permissionMode: "plan" };
 * console.log(options.model); // claude-sonnet-5-5
 * ```
 */
export interface MockSystemInitOptions {
  /** `cwd` of the frame. */
  cwd?: string;
  /** `model` of the frame. */
  model?: string;
  /** `permissionMode` of the frame. */
  permissionMode?: string;
  /** `tools` of the frame. */
  tools?: readonly string[];
}

/**
 * Options of {@linkcode MockCommandBuilders.compactBoundary}.
 *
 * @example An automatic compaction
 * ```ts
 * import { mockCommand } from "@x/claude-mock/mock-command";
 * console.log(mockCommand.compactBoundary({ trigger: "auto", preTokens: 150000 }));
 * ```
 */
export interface MockCompactBoundaryOptions {
  /** What started the compaction (default `auto`). */
  trigger?: "manual" | "auto";
  /** `compact_metadata.pre_tokens`. */
  preTokens?: number;
}

/**
 * The builders of {@linkcode mockCommand}: each returns the prompt text of one command.
 *
 * @example Reading a command back
 * ```ts
 * import { mockCommand } from "@x/claude-mock/mock-command";
 * console.log(mockCommand.parse(mockCommand.delay(250))); // { command: "delay", params: { ms: 250 } }
 * console.log(mockCommand.parse("hello")); // undefined
 * ```
 */
export interface MockCommandBuilders {
  /**
   * An assistant text message (in one message with a tool use of its thread that follows it,
   * as the model says it before the call).
   */
  textResponse(text: string, options?: AgentOption): string;
  /** A thinking block (in one message with the text or tool use of its thread that follows). */
  thinkingResponse(thinking: string, options?: AgentOption): string;
  /** A tool use, checked and run as the engine runs any tool use. */
  toolUse(
    toolName: string,
    toolInput: Record<string, unknown>,
    options?: MockToolUseOptions,
  ): string;
  /** The result of a tool use an earlier command of the same prompt made. */
  toolResult(toolUseId: string, options?: MockToolResultOptions): string;
  /** Ends the turn with a result frame. */
  result(options?: MockResultOptions): string;
  /** A text message streamed in these pieces (one `text_delta` each) with partial messages on. */
  streamDelta(text: string | readonly string[], options?: AgentOption): string;
  /** The turn fails: an API error, a named failure, or an error result. */
  error(message: string, options?: MockErrorOptions): string;
  /** A tool use that asks the app's `canUseTool`; its answer is honoured. */
  permissionRequest(
    toolName: string,
    toolInput: Record<string, unknown>,
    options?: MockPermissionRequestOptions,
  ): string;
  /** An `AskUserQuestion` tool use (asked through `canUseTool`). */
  askUserQuestion(questions: readonly AskUserQuestionItem[], options?: AgentOption): string;
  /** A `hook_callback` to the app's hooks registered for `event`. */
  hookRequest(
    event: string,
    input: Record<string, unknown>,
    options?: { toolUseId?: string },
  ): string;
  /** A `system/init` frame. */
  systemInit(options?: MockSystemInitOptions): string;
  /** A `system/status` frame. */
  systemStatus(status: "requesting" | "compacting" | null): string;
  /** A `system/compact_boundary` frame. */
  compactBoundary(options?: MockCompactBoundaryOptions): string;
  /**
   * Runs one exchange of a scenario: a predefined one by name, a scenario file's data or a
   * built scenario (saved as its file). `prompt` picks the exchange by its trigger (default:
   * the first exchange).
   */
  scenario(scenario: string | ScenarioFile | Scenario, options?: { prompt?: string }): string;
  /** Several commands in order, in one turn: texts from these builders or command objects. */
  sequence(commands: ReadonlyArray<string | MockCommand>): string;
  /** Waits `ms` milliseconds on the session clock. */
  delay(ms: number): string;
  /** The prompt text of a command object. */
  of(command: MockCommand): string;
  /** The command a prompt text holds, or `undefined` when it is not a `__mock__` command. */
  parse(text: string): MockCommand | undefined;
}

/**
 * The texts of `__mock__` commands: each builder returns the prompt string, to send as a user
 * message (`query({ prompt })`, the app's input box, `claude -p`). Parameters are the command
 * table's, in snake_case; options left out are left out of the JSON.
 *
 * @example A text reply, then a subagent's
 * ```ts
 * import { mockCommand } from "@x/claude-mock/mock-command";
 * console.log(mockCommand.textResponse("Hi!"));
 * // {"__mock__":{"command":"text_response","params":{"text":"Hi!"}}}
 * console.log(mockCommand.textResponse("Found it.", { agentId: "explorer" }));
 * // {"__mock__":{"command":"text_response","params":{"text":"Found it.","agent_id":"explorer"}}}
 * ```
 *
 * @example A sequence
 * ```ts
 * import { mockCommand } from "@x/claude-mock/mock-command";
 * const prompt = mockCommand.sequence([
 *   mockCommand.systemStatus("compacting"),
 *   mockCommand.delay(100),
 *   mockCommand.compactBoundary({ trigger: "auto", preTokens: 150000 }),
 *   mockCommand.textResponse("Compacted."),
 * ]);
 * console.log(mockCommand.parse(prompt)?.params?.commands); // an array of 4 commands
 * ```
 */
export const mockCommand: MockCommandBuilders = {
  textResponse: (text, options = {}) => of("text_response", { text, agent_id: options.agentId }),
  thinkingResponse: (thinking, options = {}) =>
    of("thinking_response", { thinking, agent_id: options.agentId }),
  toolUse: (toolName, toolInput, options = {}) =>
    of("tool_use", {
      tool_name: toolName,
      tool_input: toolInput,
      tool_use_id: options.toolUseId,
      agent_id: options.agentId,
    }),
  toolResult: (toolUseId, options = {}) =>
    of("tool_result", { tool_use_id: toolUseId, result: options.result, error: options.error }),
  result: (options = {}) =>
    of("result", {
      duration_ms: options.durationMs,
      cost: options.cost,
      is_error: options.isError,
      result: options.result,
    }),
  streamDelta: (text, options = {}) =>
    of("stream_delta", {
      text: typeof text === "string" ? text : [...text],
      agent_id: options.agentId,
    }),
  error: (message, options = {}) => of("error", { message, code: options.code }),
  permissionRequest: (toolName, toolInput, options = {}) =>
    of("permission_request", {
      tool_name: toolName,
      tool_input: toolInput,
      suggestions: options.suggestions ? [...options.suggestions] : undefined,
      tool_use_id: options.toolUseId,
      agent_id: options.agentId,
    }),
  askUserQuestion: (questions, options = {}) =>
    of("ask_user_question", { questions: [...questions], agent_id: options.agentId }),
  hookRequest: (event, input, options = {}) =>
    of("hook_request", { event, input, tool_use_id: options.toolUseId }),
  systemInit: (options = {}) =>
    of("system_init", {
      cwd: options.cwd,
      model: options.model,
      permission_mode: options.permissionMode,
      tools: options.tools ? [...options.tools] : undefined,
    }),
  systemStatus: (status) => of("system_status", { status }),
  compactBoundary: (options = {}) =>
    of("compact_boundary", { trigger: options.trigger, pre_tokens: options.preTokens }),
  scenario: (scenario, options = {}) => {
    if (typeof scenario === "string") {
      return of("scenario", { name: scenario, prompt: options.prompt });
    }
    if (options.prompt !== undefined) {
      throw new TypeError(
        "mockCommand.scenario: 'options.prompt' picks an exchange of a predefined scenario (by name); an inline scenario runs its first exchange",
      );
    }
    const exchanges = (scenario as { exchanges?: unknown }).exchanges;
    const built = Array.isArray(exchanges) && exchanges.some((e) => e && "trigger" in e);
    return of("scenario", { ...(built ? scenarioToJSON(scenario as Scenario) : scenario) });
  },
  sequence: (commands) => {
    if (!Array.isArray(commands)) {
      throw new TypeError(
        `mockCommand.sequence: 'commands' must be an array of commands, got ${kindOf(commands)}`,
      );
    }
    return of("sequence", {
      commands: commands.map((c, i) => {
        const command = typeof c === "string" ? mockCommand.parse(c) : c;
        if (!command || typeof command !== "object" || typeof command.command !== "string") {
          throw new TypeError(
            `mockCommand.sequence: 'commands[${i}]' must be a __mock__ command (a text from mockCommand, or a {command, params} object), got ${
              JSON.stringify(c)
            }`,
          );
        }
        return command.params === undefined
          ? { command: command.command }
          : { command: command.command, params: command.params };
      }),
    });
  },
  delay: (ms) => of("delay", { ms }),
  of: (command) => of(command.command, command.params ?? {}),
  parse: (text) => {
    if (typeof text !== "string" || !/^\s*\{\s*"__mock__"\s*:/.test(text)) return undefined;
    try {
      const value = JSON.parse(text).__mock__;
      return value && typeof value === "object" && !Array.isArray(value) ? value : undefined;
    } catch {
      return undefined;
    }
  },
};

/** The prompt text, with the parameters that are `undefined` left out. */
function of(command: MockCommandName, params: Record<string, unknown>): string {
  const defined = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
  return JSON.stringify({
    __mock__: Object.keys(defined).length > 0 ? { command, params: defined } : { command },
  });
}
