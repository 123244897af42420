/**
 * `ExchangeBuilder`: adds the steps of one exchange of a {@linkcode ScenarioBuilder}.
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
import { type ErrorClass, kindOf } from "./_checks.ts";
import {
  BUILD,
  checkObject,
  EXPECTED,
  fail,
  isRecord,
  type Need,
  show,
  triggerAt,
} from "./_builder_checks.ts";
import type { Trigger } from "./matcher.ts";
import type { Exchange, Scenario } from "./scenario.ts";
// A type-only import: ScenarioBuilder imports this module at run time, not the reverse.
import type { ScenarioBuilder } from "./scenario_builder.ts";
import type {
  MessagePart,
  ResultOptions,
  ScriptedToolCall,
  Step,
  StepSource,
  TurnInfo,
} from "./step.ts";
import { validateStep } from "./validate_step.ts";
import { validateTiming } from "./validate_timing.ts";

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
    return this.#add({
      kind: "message",
      parts,
      ...(options.delay !== undefined ? { delay: options.delay } : {}),
      ...(options.outputTokens !== undefined ? { outputTokens: options.outputTokens } : {}),
    });
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
   * file does not exist, and the result is the CLI's error).
   */
  usesRead(filePath: string, options: UsesOptions & { content: string | null }): this {
    this.#checkUses("usesRead", options, [
      ["a file path", filePath, "string"],
      ["options.content", options?.content, "content"],
    ]);
    return this.#tool(
      options,
      (ctx) => readTool(ctx, filePath, { content: options.content }),
      (input, ctx) =>
        readTool(ctx, String(input.file_path ?? filePath), { content: options.content }).result,
    );
  }

  /** The assistant writes a file: tool_use `Write`, then its result. */
  usesWrite(filePath: string, options: UsesOptions & { content: string }): this {
    this.#checkUses("usesWrite", options, [
      ["a file path", filePath, "string"],
      ["options.content", options?.content, "text"],
    ]);
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
    this.#checkUses("usesEdit", options, [
      ["a file path", filePath, "string"],
      ["options.oldString", options?.oldString, "text"],
      ["options.newString", options?.newString, "text"],
      ["options.replaceAll", options?.replaceAll, "boolean?"],
    ]);
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
    this.#checkUses("usesBash", options, [
      ["a command", command, "string"],
      ["options.stdout", options?.stdout, "text?"],
      ["options.stderr", options?.stderr, "text?"],
      ["options.description", options?.description, "text?"],
      ["options.exitCode", options?.exitCode, "exitCode?"],
    ]);
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
    this.#checkUses("usesTask", options, [
      ["a description", description, "string"],
      ["options.prompt", options?.prompt, "text"],
      ["options.result", options?.result, "text"],
      ["options.subagentType", options?.subagentType, "string?"],
    ]);
    const { say: _say, permission: _p, ifDenied: _d, ...task } = options;
    return this.#tool(options, (ctx) => taskTool(ctx, description, task));
  }

  /** The assistant uses any tool (`mcp__server__tool` included) with a scripted result. */
  usesTool(
    name: string,
    input: Record<string, unknown>,
    options: UsesOptions & { result?: string; isError?: boolean } = {},
  ): this {
    this.#checkUses("usesTool", options, [
      ["a tool name", name, "string"],
      ["an input", input, "object"],
      ["options.result", options?.result, "text?"],
      ["options.isError", options?.isError, "boolean?"],
    ]);
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
    const method = "usesAskUserQuestion";
    if (!Array.isArray(questions) || questions.length === 0) {
      this.#fail(
        Array.isArray(questions) ? RangeError : TypeError,
        `${method} needs questions (a non-empty array), got ${
          Array.isArray(questions) ? "an empty array" : kindOf(questions)
        }`,
      );
    }
    questions.forEach((q, i) => {
      const where = `questions[${i}]`;
      if (!isRecord(q)) {
        this.#fail(TypeError, `${method} needs ${where} to be an object, got ${kindOf(q)}`);
      }
      this.#need(method, `${where}.question`, q.question, "text");
      this.#need(method, `${where}.header`, q.header, "text");
      this.#need(method, `${where}.multiSelect`, q.multiSelect, "boolean?");
      if (!Array.isArray(q.options) || q.options.length === 0) {
        this.#fail(
          Array.isArray(q.options) ? RangeError : TypeError,
          `${method} needs ${where}.options (a non-empty array of choices), got ${
            Array.isArray(q.options) ? "an empty array" : kindOf(q.options)
          }`,
        );
      }
      q.options.forEach((o, j) => {
        if (typeof o === "string") return;
        if (!isRecord(o)) {
          this.#fail(
            TypeError,
            `${method} needs ${where}.options[${j}] to be a label or a {label, description} object, got ${
              kindOf(o)
            }`,
          );
        }
        this.#need(method, `${where}.options[${j}].label`, o.label, "text");
        this.#need(method, `${where}.options[${j}].description`, o.description, "text");
      });
    });
    this.#checkUses(method, options, []);
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
   * The Messages API fails with `status` (400-599): optional `api_retry` frames (`retries`,
   * 0-100, `retryDelayMs` apart), then the synthetic "API Error" message and an error result
   * (the SDK then throws, and the process exits 1). With `recovers: true` only the retries
   * are written and the exchange goes on.
   */
  apiError(
    status: number,
    options: { message?: string; retries?: number; retryDelayMs?: number; recovers?: boolean } = {},
  ): this {
    checkObject(options, this.#name, this.#path, "apiError options");
    return this.#add({ kind: "apiError", status, ...options });
  }

  /** Ends the process with `code` (an integer from 0 to 255) at this point. */
  exit(code: number): this {
    return this.#add({ kind: "exit", code });
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

  /** Checks `step` at the path it gets, then adds it. */
  #add(step: Step): this {
    validateStep(step, this.#path, BUILD(this.#name));
    this.#steps.push(step);
    return this;
  }

  #fail(kind: ErrorClass, problem: string): never {
    fail(kind, this.#name, this.#path, problem);
  }

  /** Checks a `uses*` helper's arguments, then its {@linkcode UsesOptions}. */
  #checkUses(method: string, options: UsesOptions, needs: Array<[string, unknown, Need]>): void {
    for (const [what, value, need] of needs) this.#need(method, what, value, need);
    if (!isRecord(options)) {
      this.#fail(TypeError, `${method} needs an options object, got ${kindOf(options)}`);
    }
    this.#need(method, "options.say", options.say, "text?");
    if (
      options.permission !== undefined && options.permission !== "allow" &&
      options.permission !== "ask" && options.permission !== "deny"
    ) {
      this.#fail(
        typeof options.permission === "string" ? RangeError : TypeError,
        `${method} needs options.permission to be 'allow', 'ask' or 'deny', got ${
          typeof options.permission === "string"
            ? JSON.stringify(options.permission)
            : kindOf(options.permission)
        }`,
      );
    }
    const ifDenied = options.ifDenied;
    if (ifDenied === undefined || typeof ifDenied === "string" || typeof ifDenied === "function") {
      return;
    }
    if (!Array.isArray(ifDenied)) {
      this.#fail(
        TypeError,
        `${method} needs options.ifDenied to be a reply text, an array of steps or a step function, got ${
          kindOf(ifDenied)
        }`,
      );
    }
    const part = options.say !== undefined ? 1 : 0;
    ifDenied.forEach((step, i) =>
      validateStep(step, `${this.#path}.parts[${part}].ifDenied[${i}]`, BUILD(this.#name))
    );
  }

  /** One argument of a builder method: `what` must be what `need` says. */
  #need(method: string, what: string, value: unknown, need: Need): void {
    const optional = need.endsWith("?");
    if (optional && value === undefined) return;
    const base = need.replace("?", "");
    const ok = base === "string"
      ? typeof value === "string" && value !== ""
      : base === "text"
      ? typeof value === "string"
      : base === "content"
      ? typeof value === "string" || value === null
      : base === "boolean"
      ? typeof value === "boolean"
      : base === "object"
      ? isRecord(value)
      : typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 255;
    if (ok) return;
    const expected = EXPECTED[base as keyof typeof EXPECTED];
    const range = (base === "exitCode" && typeof value === "number") ||
      (base === "string" && value === "");
    this.#fail(
      range ? RangeError : TypeError,
      `${method} needs ${what} (${expected}), got ${range ? show(value) : kindOf(value)}`,
    );
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
    return this.#add({ kind: "message", parts });
  }
}

function toParts(content: ResponseContent): MessagePart[] {
  if (typeof content === "string") return [text(content)];
  if (Array.isArray(content)) return content.map((c) => typeof c === "string" ? text(c) : c);
  return [content as AssistantContentBlock | ScriptedToolCall];
}
