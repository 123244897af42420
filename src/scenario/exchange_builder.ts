/**
 * `ExchangeBuilder`: adds the steps of one exchange of a {@linkcode ScenarioBuilder}.
 *
 * @module
 */

import { text, thinking } from "../builders/assistant.ts";
import type { BuildContext } from "../builders/build_context.ts";
import { bashTool, genericTool } from "../builders/tools.ts";
import type { Timing } from "../timing/timing_profile.ts";
import type { Frame } from "../wire/frame.ts";
import type { ErrorClass } from "./_checks.ts";
import { kindOf } from "../wire/_kind_of.ts";
import {
  type At,
  BUILD,
  checkNeed,
  checkObject,
  checkUses,
  fail,
  isRecord,
  triggerAt,
} from "./_builder_checks.ts";
import type { Trigger } from "./matcher.ts";
import type { Exchange, Scenario } from "./scenario.ts";
import type { FailureName } from "./named_failures.ts";
// A type-only import: ScenarioBuilder imports this module at run time, not the reverse.
import type { ScenarioBuilder } from "./scenario_builder.ts";
import type { MessagePart, ResultOptions, ScriptedToolCall, Step, TurnInfo } from "./step.ts";
import { validateStep } from "./validate_step.ts";
import {
  defined,
  type RecordedForm,
  recordStepForm,
  RESPOND_FORM_KEYS,
  TOGETHER_FORM_KEYS,
  TOOL_FORM_KEYS,
} from "./_json_forms.ts";
import { validateTiming } from "./validate_timing.ts";
import { askUserQuestionInput } from "./_ask_user_question.ts";
import { globCall, grepCall, type GrepCallOptions } from "./_search_tool_calls.ts";
import { togetherMessage } from "./_uses_together.ts";
import { checkSubagentTools, taskCallSpec } from "./_uses_task.ts";
import { messageFields, toParts } from "./_message_fields.ts";
import * as calls from "./_file_tool_calls.ts";
import type { CrashPoint } from "./crash_point.ts";
import type {
  AskUserQuestionItem,
  MessageOptions,
  RespondOptions,
  ResponseContent,
  TaskOptions,
  UsesOptions,
} from "./exchange_options.ts";

/** Where an exchange sits in its scenario, for error messages. */
interface Position {
  /** The exchange's index in `exchanges`. */
  index: number;
  /** The scenario's name. */
  name?: string;
}

/**
 * Adds steps to one exchange. Scenario-level calls (`on`, `build`, `crashAfter`, ...) go
 * back to the {@linkcode ScenarioBuilder}, so a scenario reads as one chain. Each method
 * checks its arguments; an error names the path of the step it would have added.
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
 *
 * @example A missing option
 * ```ts
 * import { ScenarioBuilder } from "@x/claude-mock";
 * try {
 *   new ScenarioBuilder({ name: "x" }).on("read").usesRead("/a", {} as { content: string });
 * } catch (error) {
 *   console.log((error as Error).message);
 *   // Cannot build scenario 'x': 'exchanges[0].steps[0]' usesRead needs options.content
 *   // (a string, or null for a missing file), got undefined
 * }
 * ```
 */
export class ExchangeBuilder {
  #parent: ScenarioBuilder;
  #exchange: Exchange;
  #steps: Step[];
  #position: Position;

  /** Made by {@linkcode ScenarioBuilder.on}. */
  constructor(
    parent: ScenarioBuilder,
    exchange: Exchange,
    options: {
      /** The exchange's step list, which the builder appends to. */
      steps: Step[];
      /** The exchange's index in `exchanges` (default 0), for error messages. */
      index?: number;
      /** The scenario's name, for error messages. */
      name?: string;
    },
  ) {
    const steps = options.steps;
    const position: Position = { index: options.index ?? 0, name: options.name };
    this.#parent = parent;
    this.#exchange = exchange;
    this.#steps = steps;
    this.#position = position;
  }

  /** The path of the next step. */
  get #path(): string {
    return `exchanges[${this.#position.index}].steps[${this.#steps.length}]`;
  }

  get #at(): At {
    return { name: this.#name, path: this.#path };
  }

  get #name(): string | undefined {
    return this.#position.name;
  }

  /** An assistant message (one API response). */
  respond(content: ResponseContent, options: RespondOptions = {}): this {
    checkObject(options, this.#name, this.#path, "respond options");
    const parts: MessagePart[] = [];
    if (options.thinking !== undefined) {
      if (typeof options.thinking !== "string") {
        this.#fail(
          TypeError,
          `respond needs options.thinking to be a string, got ${kindOf(options.thinking)}`,
        );
      }
      parts.push(thinking(options.thinking));
    }
    if (
      typeof content !== "string" && typeof content !== "function" && !isRecord(content) &&
      !Array.isArray(content)
    ) {
      this.#fail(
        TypeError,
        `respond needs content: a text, a content block, a tool call or an array of them, got ${
          kindOf(content)
        }`,
      );
    }
    parts.push(...toParts(content));
    const say = typeof content === "string" ? content : Array.isArray(content) ? [...content] : [
      content,
    ];
    return this.#add({
      kind: "message",
      parts,
      ...messageFields(options),
      ...(options.chunks !== undefined ? { chunks: options.chunks } : {}),
    }, { say, ...defined({ ...options }, RESPOND_FORM_KEYS) });
  }

  /** An assistant message after `ms` milliseconds. */
  respondDelayed(ms: number, content: ResponseContent, options: RespondOptions = {}): this {
    if (typeof ms !== "number") {
      fail(
        TypeError,
        this.#name,
        `${this.#path}.delay`,
        `must be a finite number >= 0, got ${kindOf(ms)}`,
      );
    }
    return this.respond(content, { ...options, delay: ms });
  }

  /** Ends the turn with a result frame (added automatically when missing). */
  thenResult(options: ResultOptions = {}): this {
    return this.#add({ kind: "result", options });
  }

  /**
   * The assistant reads a file: tool_use `Read`, then its result (`content: null`: the
   * file does not exist, and the result is the CLI's error). `offset` (the first line, from 1)
   * and `limit` (how many lines) read a part of it, as the model asks for one.
   */
  usesRead(
    filePath: string,
    options: UsesOptions & { content: string | null; offset?: number; limit?: number },
  ): this {
    checkUses({ name: this.#name, path: this.#path }, "usesRead", options, [
      ["a file path", filePath, "string"],
      ["options.content", options?.content, "content"],
      ["options.offset", options?.offset, "count?"],
      ["options.limit", options?.limit, "count?"],
    ]);
    const { content, offset, limit } = options;
    return this.#tool(options, calls.readCall(filePath, calls.present({ content, offset, limit })));
  }

  /** The assistant writes a file: tool_use `Write`, then its result. */
  usesWrite(
    filePath: string,
    options: UsesOptions & {
      content: string;
      /**
       * What the file held before: a string for a file that exists (the result is an update
       * with its patch), `null` for a new file. Default: what the session's tools last showed
       * of it, else a new file.
       */
      originalFile?: string | null;
    },
  ): this {
    checkUses({ name: this.#name, path: this.#path }, "usesWrite", options, [
      ["a file path", filePath, "string"],
      ["options.content", options?.content, "text"],
      ["options.originalFile", options?.originalFile, "content?"],
    ]);
    const { content, originalFile } = options;
    return this.#tool(options, calls.writeCall(filePath, calls.present({ content, originalFile })));
  }

  /** The assistant edits a file: tool_use `Edit`, then its result. */
  usesEdit(
    filePath: string,
    options: UsesOptions & {
      oldString: string;
      newString: string;
      replaceAll?: boolean;
      /**
       * The file before the edit, for the result's patch (default: what the session's tools
       * last showed of it, else `oldString`).
       */
      originalFile?: string;
    },
  ): this {
    checkUses({ name: this.#name, path: this.#path }, "usesEdit", options, [
      ["a file path", filePath, "string"],
      ["options.oldString", options?.oldString, "text"],
      ["options.newString", options?.newString, "text"],
      ["options.replaceAll", options?.replaceAll, "boolean?"],
      ["options.originalFile", options?.originalFile, "text?"],
    ]);
    const { oldString, newString, replaceAll, originalFile } = options;
    const edit = calls.present({ oldString, newString, replaceAll, originalFile });
    return this.#tool(options, calls.editCall(filePath, edit));
  }

  /** The assistant finds files by name: tool_use `Glob`, then the files that match. */
  usesGlob(pattern: string, options: UsesOptions & { files: string[]; path?: string }): this {
    return this.#tool(options, globCall(this.#at, pattern, options));
  }

  /** The assistant searches file contents: tool_use `Grep`, then the files, lines or counts. */
  usesGrep(pattern: string, options: UsesOptions & GrepCallOptions = {}): this {
    return this.#tool(options, grepCall(this.#at, pattern, options));
  }

  /** The assistant edits a notebook cell it read: tool_use `NotebookEdit`, then its result. */
  usesNotebookEdit(path: string, options: UsesOptions & calls.NotebookEditCallOptions): this {
    checkUses(this.#at, "usesNotebookEdit", options, [["a notebook path", path, "string"]]);
    return this.#tool(options, calls.notebookEditCall(path, options));
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
    checkUses({ name: this.#name, path: this.#path }, "usesBash", options, [
      ["a command", command, "string"],
      ["options.stdout", options?.stdout, "text?"],
      ["options.stderr", options?.stderr, "text?"],
      ["options.description", options?.description, "text?"],
      ["options.exitCode", options?.exitCode, "exitCode?"],
    ]);
    const bash = {
      ...(options.stdout !== undefined ? { stdout: options.stdout } : {}),
      ...(options.stderr !== undefined ? { stderr: options.stderr } : {}),
      ...(options.exitCode !== undefined ? { exitCode: options.exitCode } : {}),
      ...(options.description !== undefined ? { description: options.description } : {}),
    };
    return this.#tool(options, {
      make: (ctx) => bashTool(ctx, command, bash),
      rerun: (input, ctx) => bashTool(ctx, String(input.command ?? command), bash).result,
      form: { bash: { command, ...bash } },
    });
  }

  /** The assistant starts a subagent (tool_use `Agent`); `tools` adds its own tool uses. */
  usesTask(description: string, options: UsesOptions & TaskOptions<ExchangeBuilder>): this {
    checkUses({ name: this.#name, path: this.#path }, "usesTask", options, [
      ["a description", description, "string"],
      ["options.prompt", options?.prompt, "text"],
      ["options.result", options?.result, "text"],
      ["options.subagentType", options?.subagentType, "string?"],
      ["options.runInBackground", options?.runInBackground, "boolean?"],
    ]);
    const fail = (kind: ErrorClass, problem: string) => this.#fail(kind, problem);
    const tools = options.tools === undefined ? undefined : checkSubagentTools(options.tools, fail);
    const steps = tools ? this.#collect(tools) : [];
    return this.#tool(options, taskCallSpec(description, options, steps, fail));
  }

  /** The steps `build` adds to a builder of its own (`usesTogether`, a subagent's tools). */
  #collect(build: (tools: ExchangeBuilder) => unknown): Step[] {
    const steps: Step[] = [];
    build(
      new ExchangeBuilder(this.#parent, this.#exchange, {
        steps,
        index: this.#position.index,
        name: this.#name,
      }),
    );
    return steps;
  }

  /** The assistant uses any tool (`mcp__server__tool` included) with a scripted result. */
  usesTool(
    name: string,
    input: Record<string, unknown>,
    options: UsesOptions & { result?: string; isError?: boolean } = {},
  ): this {
    checkUses({ name: this.#name, path: this.#path }, "usesTool", options, [
      ["a tool name", name, "string"],
      ["an input", input, "object"],
      ["options.result", options?.result, "text?"],
      ["options.isError", options?.isError, "boolean?"],
    ]);
    const { result = "", isError = false } = options;
    return this.#tool(options, {
      make: (ctx) => genericTool(ctx, name, { input, result, isError }),
      form: { tool: { name, input, ...defined({ ...options }, ["result", "isError"]) } },
    });
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
    const method = "usesAskUserQuestion";
    const { input, answered } = askUserQuestionInput(this.#at, questions);
    checkUses(this.#at, method, options, []);
    return this.#tool(options, {
      make: (ctx) => genericTool(ctx, "AskUserQuestion", { input, result: "", isError: false }),
      rerun: (updated) => answered(updated.answers),
      form: { askUserQuestion: { questions } },
    });
  }

  /**
   * Several tool uses in ONE assistant message, as the model makes parallel tool calls:
   * `build` adds them with the `uses*` helpers; each is checked right after its own frame
   * (hooks, rules, `can_use_tool`, its own `permission` and `ifDenied`), then they run in
   * order and their results follow the message.
   *
   * @example Reading two files at once
   * ```ts
   * import { ScenarioBuilder } from "@x/claude-mock";
   * const scenario = new ScenarioBuilder()
   *   .on("compare")
   *   .usesTogether((tools) =>
   *     tools.usesRead("/home/user/project/a.txt", { content: "a" })
   *       .usesRead("/home/user/project/b.txt", { content: "b" }), { say: "Reading both." })
   *   .respond("They differ.")
   *   .build();
   * console.log(scenario.exchanges[0].steps.length); // 2
   * ```
   */
  usesTogether(
    build: (tools: ExchangeBuilder) => unknown,
    options: MessageOptions & { say?: string; thinking?: string } = {},
  ): this {
    checkObject(options, this.#name, this.#path, "usesTogether options");
    if (typeof build !== "function") {
      this.#fail(
        TypeError,
        `usesTogether needs a function that adds the tool uses, got ${kindOf(build)}`,
      );
    }
    checkNeed(this.#at, "usesTogether", ["options.say", options.say, "text?"]);
    checkNeed(this.#at, "usesTogether", ["options.thinking", options.thinking, "text?"]);
    const steps = this.#collect(build);
    const message = togetherMessage(
      steps,
      options.say,
      (kind, problem) => this.#fail(kind, problem),
    );
    if (options.thinking !== undefined) message.parts.unshift(thinking(options.thinking));
    return this.#add({
      kind: "message",
      ...message,
      ...messageFields(options),
    }, { together: steps, ...defined({ ...options }, TOGETHER_FORM_KEYS) });
  }

  /** Lets this exchange answer up to `n` matching messages (`repeat()`: any number). */
  times(n: number): this {
    if (!Number.isSafeInteger(n) || n < 1) {
      fail(
        typeof n === "number" ? RangeError : TypeError,
        this.#name,
        `exchanges[${this.#position.index}].maxMatches`,
        `must be an integer >= 1, got ${typeof n === "number" ? n : kindOf(n)}`,
      );
    }
    this.#exchange.maxMatches = n;
    return this;
  }

  /** Writes frames as they are. */
  emit(...frames: Frame[]): this {
    for (const frame of frames) this.#add({ kind: "emit", frame });
    return this;
  }

  /** Waits `ms` milliseconds on the session clock. */
  delay(ms: number): this {
    return this.#add({ kind: "delay", ms });
  }

  /** Writes `line` verbatim (one line, without newline): malformed output on purpose. */
  sendRaw(line: string): this {
    return this.#add({ kind: "raw", line });
  }

  /** Waits until the SDK writes a frame matching `trigger`. */
  waitForWrite(trigger: Trigger, options: { timeoutMs?: number } = {}): this {
    const matcher = triggerAt(trigger, this.#name, `${this.#path}.matcher`);
    checkObject(options, this.#name, this.#path, "waitForWrite options");
    return this.#add({ kind: "waitForWrite", matcher, ...options });
  }

  /**
   * The Messages API answers the call with `status` (400-599): on every attempt, or with
   * `recovers: true` on its first `retries` (0-100). The CLI retries a retryable status (401,
   * 429, 5xx, 529) as `CLAUDE_CODE_MAX_RETRIES` allows, an `api_retry` frame before each
   * retry (`retryDelayMs` apart, default the CLI's backoff); when the API still fails then, the
   * status's failure text (as the named failure of that status) and an error result (the SDK
   * throws, exit 1); else the exchange goes on.
   */
  apiError(
    status: number,
    options: { message?: string; retries?: number; retryDelayMs?: number; recovers?: boolean } = {},
  ): this {
    checkObject(options, this.#name, this.#path, "apiError options");
    return this.#add({ kind: "apiError", status, ...options });
  }

  /**
   * A named failure of the Messages API, exactly as the real CLI 2.1.328 goes through it:
   * `api_retry` frames (as many as the client's `CLAUDE_CODE_MAX_RETRIES`, default 10,
   * allows), the synthetic error message and an error result (the SDK throws, exit 1). The
   * `*_recovered` names and `max_budget` go on with the exchange's next message (recovered:
   * from the non-streaming fallback; `max_budget`: then `error_max_budget_usd`).
   *
   * @example A rate limit the retries do not get past
   * ```ts
   * import { ScenarioBuilder } from "@x/claude-mock";
   * const scenario = new ScenarioBuilder().on("hello").failure("rate_limit").build();
   * console.log(scenario.exchanges[0].steps); // [ { kind: "failure", name: "rate_limit" } ]
   * ```
   */
  failure(name: FailureName, options: { message?: string } = {}): this {
    checkObject(options, this.#name, this.#path, "failure options");
    return this.#add({
      kind: "failure",
      name,
      ...(options.message !== undefined ? { message: options.message } : {}),
    });
  }

  /** Ends the process with `code` (an integer from 0 to 255) at this point. */
  exit(code: number): this {
    return this.#add({ kind: "exit", code });
  }

  /**
   * The process crashes with `code` (default 1): here, or with `midStream: k` after k stream
   * events of the message that follows (before its first frame when it does not stream),
   * or with `beforeToolResult: true` just before the next tool result (see `CrashStep`).
   *
   * @example A crash in the middle of a streamed reply
   * ```ts
   * import { ScenarioBuilder, type Step } from "@x/claude-mock";
   * const s = new ScenarioBuilder().on("go").crash({ midStream: 4 }).respond("Cut.").build();
   * console.log((s.exchanges[0].steps as Step[])[0]); // { kind: "crash", midStream: 4 }
   * ```
   */
  crash(options: { code?: number; midStream?: number; beforeToolResult?: boolean } = {}): this {
    checkObject(options, this.#name, this.#path, "crash options");
    return this.#add({ kind: "crash", ...options });
  }

  /** Adds any steps. */
  steps(...steps: Step[]): this {
    for (const step of steps) this.#add(step);
    return this;
  }

  /** This exchange's timing instead of the session's. */
  timing(profile: Timing): this {
    validateTiming(profile, `exchanges[${this.#position.index}].timing`, { name: this.#name });
    this.#exchange.timing = profile;
    return this;
  }

  /** Lets this exchange answer every matching message, not just the first. */
  repeat(): this {
    this.#exchange.repeat = true;
    return this;
  }

  /** Starts the next exchange. */
  on(trigger: Trigger, options?: { repeat?: boolean; invocation?: number }): ExchangeBuilder {
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
  onUnmatched(strategy: Parameters<ScenarioBuilder["onUnmatched"]>[0]): ScenarioBuilder {
    return this.#parent.onUnmatched(strategy);
  }

  /** See {@linkcode ScenarioBuilder.crashAfter}. */
  crashAfter(point: number | CrashPoint, code?: number): ScenarioBuilder {
    return this.#parent.crashAfter(point, code);
  }

  /** See {@linkcode ScenarioBuilder.withExitCode}. */
  withExitCode(code: number): ScenarioBuilder {
    return this.#parent.withExitCode(code);
  }

  /** See {@linkcode ScenarioBuilder.build}. */
  build(): Scenario {
    return this.#parent.build();
  }

  /** Checks `step` at the path it gets, then adds it (with its file form, if recorded). */
  #add(step: Step, form?: RecordedForm): this {
    validateStep(step, this.#path, BUILD(this.#name));
    this.#steps.push(step);
    if (form) recordStepForm(step, form);
    return this;
  }

  #fail(kind: ErrorClass, problem: string): never {
    fail(kind, this.#name, this.#path, problem);
  }

  /** Adds a tool use its spec describes, with the step's options. */
  #tool(options: UsesOptions, { make, rerun, onFile, form }: calls.ToolCallSpec): this {
    const ifDenied = typeof options.ifDenied === "string"
      ? [{ kind: "message", parts: [text(options.ifDenied)] } as Step]
      : options.ifDenied;
    const call = (ctx: BuildContext): ScriptedToolCall => ({
      ...make(ctx),
      ...(rerun ? { rerun } : {}),
      ...(onFile ? { onFile } : {}),
      ...(options.permission ? { permission: options.permission } : {}),
      ...(ifDenied ? { ifDenied } : {}),
      ...(options.untilInterrupt ? { untilInterrupt: true } : {}),
    });
    const parts: MessagePart[] = [
      ...(options.thinking !== undefined ? [thinking(options.thinking)] : []),
      ...(options.say !== undefined ? [text(options.say)] : []),
      call,
    ];
    return this.#add({
      kind: "message",
      parts,
      ...messageFields(options),
      ...(options.inputChunks !== undefined ? { inputChunks: [options.inputChunks] } : {}),
    }, { ...form, ...defined({ ...options }, TOOL_FORM_KEYS) });
  }
}
