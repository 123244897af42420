/**
 * `ScenarioBuilder`: a fluent way to write a {@linkcode Scenario}.
 *
 * @module
 */

import { text, thinking } from "../builders/assistant.ts";
import type { BuildContext } from "../builders/build_context.ts";
import {
  bashTool,
  editTool,
  genericTool,
  readTool,
  taskTool,
  writeTool,
} from "../builders/tools.ts";
import type { Timing } from "../timing/timing_profile.ts";
import type { AssistantContentBlock, Frame } from "../wire/frame.ts";
import { toMatcher, type Trigger } from "./matcher.ts";
import type { Exchange, Scenario } from "./scenario.ts";
import type {
  MessagePart,
  ResultOptions,
  ScriptedToolCall,
  Step,
  StepSource,
  TurnInfo,
} from "./step.ts";

/** What `respond` accepts: text, a content block or tool call, or several. */
export type ResponseContent = string | MessagePart | MessagePart[];

/** Options for {@linkcode ExchangeBuilder.respond}. */
export interface RespondOptions {
  /** A thinking block before the content. */
  thinking?: string;
  /** Delay before the message (ms, before the speed factor). */
  delay?: number;
  /** Output tokens the message reports. */
  outputTokens?: number;
}

/** Options shared by the `uses*` tool helpers. */
export interface UsesOptions {
  /** Text the assistant says in the same message before using the tool. */
  say?: string;
  /** Overrides the permission rules for this tool use: run, ask the SDK, or deny. */
  permission?: "allow" | "ask" | "deny";
  /**
   * What happens when the tool use is denied (by the SDK, a hook or a rule): a text reply,
   * or steps. They replace the rest of the exchange. Default: the exchange goes on.
   */
  ifDenied?: string | StepSource;
}

/** One question of {@linkcode ExchangeBuilder.usesAskUserQuestion}. */
export interface AskUserQuestionItem {
  /** The question. */
  question: string;
  /** A short header (a chip label). */
  header: string;
  /** The choices: labels, or labels with descriptions. */
  options: Array<string | { label: string; description: string }>;
  /** Whether several choices can be picked (default false). */
  multiSelect?: boolean;
}

/** Options for {@linkcode ScenarioBuilder}. */
export type ScenarioOptions = Omit<Scenario, "exchanges" | "onConnect" | "unmatched">;

/**
 * Builds a {@linkcode Scenario}: `.on(trigger)` starts an exchange, the step methods add
 * to it, `.build()` returns the data.
 *
 * @example A two-exchange scenario
 * ```ts
 * import { ScenarioBuilder } from "@x/claude-mock";
 * const scenario = new ScenarioBuilder({ name: "chat" })
 *   .on("hello").respond("Hello! How can I help?")
 *   .on(/notes/).usesRead("/home/user/project/notes.txt", { content: "a\nb\n" })
 *   .respond("The notes have two lines.")
 *   .build();
 * console.log(scenario.exchanges.length); // 2
 * ```
 */
export class ScenarioBuilder {
  #options: ScenarioOptions;
  #exchanges: Array<{ exchange: Exchange; steps: Step[] | null }> = [];
  #onConnect: Step[] = [];
  #unmatched: "error" | StepSource = "error";

  /** Starts a scenario with session-wide options. */
  constructor(options: ScenarioOptions = {}) {
    this.#options = { ...options };
  }

  /** Starts an exchange answering user messages that match `trigger`. */
  on(trigger: Trigger, options: { repeat?: boolean } = {}): ExchangeBuilder {
    const steps: Step[] = [];
    const exchange: Exchange = { trigger: toMatcher(trigger), steps, repeat: options.repeat };
    this.#exchanges.push({ exchange, steps });
    return new ExchangeBuilder(this, exchange, steps);
  }

  /** Adds an exchange whose steps a function produces lazily (a generator is ideal). */
  onLazy(
    trigger: Trigger,
    source: (turn: TurnInfo) => Iterable<Step> | AsyncIterable<Step>,
    options: { repeat?: boolean; timing?: Timing } = {},
  ): this {
    this.#exchanges.push({
      exchange: { trigger: toMatcher(trigger), steps: source, ...options },
      steps: null,
    });
    return this;
  }

  /** Frames to write as soon as the process starts. */
  onConnect(...frames: Frame[]): this {
    for (const frame of frames) this.#onConnect.push({ kind: "emit", frame });
    return this;
  }

  /** What unmatched user messages get: `error` (default) or steps. */
  onUnmatched(answer: "error" | StepSource | string): this {
    this.#unmatched = typeof answer === "string" && answer !== "error"
      ? [{ kind: "message", parts: [text(answer)] }]
      : answer as "error" | StepSource;
    return this;
  }

  /** The process exits with `code` (default 1) right after `frames` frames. */
  crashAfter(frames: number, code = 1): this {
    if (!Number.isInteger(frames) || frames < 0) {
      throw new RangeError(`crashAfter: 'frames' must be an integer >= 0, got ${frames}`);
    }
    if (!Number.isInteger(code) || code === 0) {
      throw new RangeError(`crashAfter: 'code' must be a non-zero integer, got ${code}`);
    }
    this.#options.crashAfter = { frames, code };
    return this;
  }

  /** The process exits with `code` when stdin closes. */
  withExitCode(code: number): this {
    if (!Number.isInteger(code) || code < 0 || code > 255) {
      throw new RangeError(`withExitCode: 'code' must be an integer from 0 to 255, got ${code}`);
    }
    this.#options.exitCode = code;
    return this;
  }

  /** Sets the session's timing profile. */
  timing(profile: Timing): this {
    this.#options.timing = profile;
    return this;
  }

  /** Turns stream events on or off regardless of the SDK's flag. */
  partialMessages(on = true): this {
    this.#options.partialMessages = on;
    return this;
  }

  /** The finished scenario. */
  build(): Scenario {
    const exchanges = this.#exchanges.map(({ exchange, steps }) =>
      steps ? { ...exchange, steps: [...steps] } : { ...exchange }
    );
    return {
      ...this.#options,
      onConnect: [...this.#onConnect],
      exchanges,
      unmatched: this.#unmatched,
    };
  }
}

/**
 * Adds steps to one exchange. Scenario-level calls (`on`, `build`, `crashAfter`, ...) go
 * back to the {@linkcode ScenarioBuilder}, so a scenario reads as one chain.
 *
 * @example Steps of an exchange
 * ```ts
 * import { ScenarioBuilder } from "@x/claude-mock";
 * const scenario = new ScenarioBuilder()
 *   .on("run the tests")
 *   .usesBash("npm test", { stdout: "4 passing" })
 *   .respondDelayed(250, "All 4 tests pass.")
 *   .thenResult()
 *   .build();
 * console.log(scenario.exchanges[0].trigger.description); // contains "run the tests"
 * ```
 */
export class ExchangeBuilder {
  #parent: ScenarioBuilder;
  #exchange: Exchange;
  #steps: Step[];

  /** Made by {@linkcode ScenarioBuilder.on}. */
  constructor(parent: ScenarioBuilder, exchange: Exchange, steps: Step[]) {
    this.#parent = parent;
    this.#exchange = exchange;
    this.#steps = steps;
  }

  /** An assistant message (one API response). */
  respond(content: ResponseContent, options: RespondOptions = {}): this {
    const parts: MessagePart[] = [];
    if (options.thinking !== undefined) parts.push(thinking(options.thinking));
    parts.push(...toParts(content));
    this.#steps.push({
      kind: "message",
      parts,
      ...(options.delay !== undefined ? { delay: checkMs(options.delay, "respond") } : {}),
      ...(options.outputTokens !== undefined ? { outputTokens: options.outputTokens } : {}),
    });
    return this;
  }

  /** An assistant message after `ms` milliseconds. */
  respondDelayed(ms: number, content: ResponseContent, options: RespondOptions = {}): this {
    return this.respond(content, { ...options, delay: checkMs(ms, "respondDelayed") });
  }

  /** Ends the turn with a result frame (added automatically when missing). */
  thenResult(options: ResultOptions = {}): this {
    this.#steps.push({ kind: "result", options });
    return this;
  }

  /** The assistant reads a file: tool_use `Read`, then its result. */
  usesRead(filePath: string, options: UsesOptions & { content: string }): this {
    return this.#tool(
      options,
      (ctx) => readTool(ctx, filePath, { content: options.content }),
      (input, ctx) =>
        readTool(ctx, String(input.file_path ?? filePath), { content: options.content }).result,
    );
  }

  /** The assistant writes a file: tool_use `Write`, then its result. */
  usesWrite(filePath: string, options: UsesOptions & { content: string }): this {
    return this.#tool(
      options,
      (ctx) => writeTool(ctx, filePath, { content: options.content }),
      (input, ctx) =>
        writeTool(ctx, String(input.file_path ?? filePath), {
          content: typeof input.content === "string" ? input.content : options.content,
        }).result,
    );
  }

  /** The assistant edits a file: tool_use `Edit`, then its result. */
  usesEdit(
    filePath: string,
    options: UsesOptions & { oldString: string; newString: string; replaceAll?: boolean },
  ): this {
    const { say: _say, permission: _p, ifDenied: _d, ...edit } = options;
    return this.#tool(
      options,
      (ctx) => editTool(ctx, filePath, edit),
      (input, ctx) =>
        editTool(ctx, String(input.file_path ?? filePath), {
          oldString: typeof input.old_string === "string" ? input.old_string : edit.oldString,
          newString: typeof input.new_string === "string" ? input.new_string : edit.newString,
          replaceAll: typeof input.replace_all === "boolean" ? input.replace_all : edit.replaceAll,
        }).result,
    );
  }

  /** The assistant runs a command: tool_use `Bash`, then its output. */
  usesBash(
    command: string,
    options: UsesOptions & {
      stdout?: string;
      stderr?: string;
      exitCode?: number;
      description?: string;
    } = {},
  ): this {
    const { say: _say, permission: _p, ifDenied: _d, ...bash } = options;
    return this.#tool(
      options,
      (ctx) => bashTool(ctx, command, bash),
      (input, ctx) => bashTool(ctx, String(input.command ?? command), bash).result,
    );
  }

  /** The assistant starts a subagent: tool_use `Task`, the subagent's frames, its result. */
  usesTask(
    description: string,
    options: UsesOptions & { prompt: string; result: string; subagentType?: string },
  ): this {
    const { say: _say, permission: _p, ifDenied: _d, ...task } = options;
    return this.#tool(options, (ctx) => taskTool(ctx, description, task));
  }

  /** The assistant uses any tool (`mcp__server__tool` included) with a scripted result. */
  usesTool(
    name: string,
    input: Record<string, unknown>,
    options: UsesOptions & { result?: string; isError?: boolean } = {},
  ): this {
    return this.#tool(options, (ctx) =>
      genericTool(ctx, name, {
        input,
        result: options.result ?? "",
        isError: options.isError ?? false,
      }));
  }

  /**
   * The assistant asks the user questions (`AskUserQuestion`): the SDK's `canUseTool` gets a
   * `can_use_tool` with `requires_user_interaction`, and its `updatedInput.answers` (keyed
   * by question text) become the tool result, as the real CLI writes it.
   */
  usesAskUserQuestion(
    questions: AskUserQuestionItem[],
    options: Omit<UsesOptions, "permission"> = {},
  ): this {
    if (!Array.isArray(questions) || questions.length === 0) {
      throw new TypeError("usesAskUserQuestion: 'questions' must be a non-empty array");
    }
    const input = {
      questions: questions.map((q) => ({
        question: q.question,
        header: q.header,
        options: q.options.map((o) => typeof o === "string" ? { label: o, description: o } : o),
        multiSelect: q.multiSelect ?? false,
      })),
    };
    const answered = (answers: unknown): ScriptedToolCall["result"] => {
      const map = answers && typeof answers === "object" ? answers as Record<string, unknown> : {};
      const listed = Object.entries(map).map(([q, a]) =>
        `"${q}"="${Array.isArray(a) ? a.join(", ") : String(a)}"`
      ).join(", ");
      return {
        content:
          `Your questions have been answered: ${listed}. You can now continue with these answers in mind.`,
        isError: false,
        toolUseResult: { questions: input.questions, answers: map },
      };
    };
    return this.#tool(
      options,
      (ctx) => genericTool(ctx, "AskUserQuestion", { input, result: "", isError: false }),
      (updated) => answered(updated.answers),
    );
  }

  /** Writes frames as they are. */
  emit(...frames: Frame[]): this {
    for (const frame of frames) this.#steps.push({ kind: "emit", frame });
    return this;
  }

  /** Waits `ms` milliseconds on the session clock. */
  delay(ms: number): this {
    this.#steps.push({ kind: "delay", ms: checkMs(ms, "delay") });
    return this;
  }

  /** Writes `line` verbatim: malformed output on purpose. */
  sendRaw(line: string): this {
    if (typeof line !== "string") throw new TypeError("sendRaw: 'line' must be a string");
    this.#steps.push({ kind: "raw", line });
    return this;
  }

  /** Waits until the SDK writes a frame matching `trigger`. */
  waitForWrite(trigger: Trigger, options: { timeoutMs?: number } = {}): this {
    this.#steps.push({ kind: "waitForWrite", matcher: toMatcher(trigger), ...options });
    return this;
  }

  /**
   * The Messages API fails with `status`: optional `api_retry` frames, then the synthetic
   * "API Error" message and an error result (the SDK then throws, and the process exits 1).
   * With `recovers: true` only the retries are written and the exchange goes on.
   */
  apiError(
    status: number,
    options: { message?: string; retries?: number; retryDelayMs?: number; recovers?: boolean } = {},
  ): this {
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(
        `apiError: 'status' must be an HTTP error status (400-599), got ${status}`,
      );
    }
    this.#steps.push({ kind: "apiError", status, ...options });
    return this;
  }

  /** Ends the process with `code` at this point. */
  exit(code: number): this {
    this.#steps.push({ kind: "exit", code });
    return this;
  }

  /** Adds any steps. */
  steps(...steps: Step[]): this {
    this.#steps.push(...steps);
    return this;
  }

  /** This exchange's timing instead of the session's. */
  timing(profile: Timing): this {
    this.#exchange.timing = profile;
    return this;
  }

  /** Lets this exchange answer every matching message, not just the first. */
  repeat(): this {
    this.#exchange.repeat = true;
    return this;
  }

  /** Starts the next exchange. */
  on(trigger: Trigger, options?: { repeat?: boolean }): ExchangeBuilder {
    return this.#parent.on(trigger, options);
  }

  /** See {@linkcode ScenarioBuilder.onLazy}. */
  onLazy(
    trigger: Trigger,
    source: (turn: TurnInfo) => Iterable<Step> | AsyncIterable<Step>,
    options?: { repeat?: boolean; timing?: Timing },
  ): ScenarioBuilder {
    return this.#parent.onLazy(trigger, source, options);
  }

  /** See {@linkcode ScenarioBuilder.onUnmatched}. */
  onUnmatched(answer: "error" | StepSource | string): ScenarioBuilder {
    return this.#parent.onUnmatched(answer);
  }

  /** See {@linkcode ScenarioBuilder.crashAfter}. */
  crashAfter(frames: number, code?: number): ScenarioBuilder {
    return this.#parent.crashAfter(frames, code);
  }

  /** See {@linkcode ScenarioBuilder.withExitCode}. */
  withExitCode(code: number): ScenarioBuilder {
    return this.#parent.withExitCode(code);
  }

  /** See {@linkcode ScenarioBuilder.build}. */
  build(): Scenario {
    return this.#parent.build();
  }

  #tool(
    options: UsesOptions,
    make: (ctx: BuildContext) => ScriptedToolCall,
    rerun?: ScriptedToolCall["rerun"],
  ): this {
    const ifDenied = typeof options.ifDenied === "string"
      ? [{ kind: "message", parts: [text(options.ifDenied)] } as Step]
      : options.ifDenied;
    const call = (ctx: BuildContext): ScriptedToolCall => ({
      ...make(ctx),
      ...(rerun ? { rerun } : {}),
      ...(options.permission ? { permission: options.permission } : {}),
      ...(ifDenied ? { ifDenied } : {}),
    });
    const parts: MessagePart[] = options.say !== undefined ? [text(options.say), call] : [call];
    this.#steps.push({ kind: "message", parts });
    return this;
  }
}

function toParts(content: ResponseContent): MessagePart[] {
  if (typeof content === "string") return [text(content)];
  if (Array.isArray(content)) return content.map((c) => typeof c === "string" ? text(c) : c);
  return [content as AssistantContentBlock | ScriptedToolCall];
}

function checkMs(ms: number, where: string): number {
  if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0) {
    throw new RangeError(`${where}: delay must be a finite number of ms >= 0, got ${ms}`);
  }
  return ms;
}
