/**
 * Validation of steps: {@linkcode validateStep} checks one step by its kind, every field the
 * engine reads and unknown fields (a typo is named with the field it resembles). The builder
 * checks each step it adds, {@linkcode validateScenario} each step of a scenario, and the
 * engine each step a step function produces, when it runs.
 *
 * @module
 */

import type { ResultSubtype, TerminalReason } from "../builders/result.ts";
import { isObject } from "../wire/frame.ts";
import { Checker, MAX_SAFE, PERMISSIONS, STEPS } from "./_checks.ts";
import { show } from "../wire/_show.ts";
import { FAILURE_NAMES } from "./named_failures.ts";
import { checkCrashPlacement, checkCrashStep } from "./_crash_checks.ts";
import { SCENARIO_LIMITS } from "./scenario_limits.ts";
import type {
  ApiErrorStep,
  CrashStep,
  DelayStep,
  EmitStep,
  ExitStep,
  FailureStep,
  MessageStep,
  RawStep,
  RequestStep,
  ResultOptions,
  ResultStep,
  Step,
  WaitForWriteStep,
} from "./step.ts";
import type { ValidateScenarioOptions } from "./validate_scenario_options.ts";

/**
 * Options of {@linkcode validateStep} and {@linkcode validateTiming}.
 *
 * @example Checking a step at build time
 * ```ts
 * import type { ValidateStepOptions } from "./validate_step.ts";
 * const options: ValidateStepOptions = { name: "deploy", verb: "build", note: "" };
 * console.log(options.name); // deploy
 * ```
 */
export interface ValidateStepOptions extends ValidateScenarioOptions {
  /** The scenario's name, for the message. */
  name?: string;
  /**
   * Said in parentheses after the path (default `produced by a step function`; `""` for
   * nothing).
   */
  note?: string;
  /** The step is an `onConnect` step: only `emit`, `raw` and `delay` are allowed. */
  onConnect?: boolean;
}

/**
 * Checks one step, as {@linkcode validateScenario} checks the steps of an array. The engine
 * calls it on each step a step function produces, when it runs (so the default verb is
 * `run` and the default note `produced by a step function`); the builder calls it with
 * `verb: "build", note: ""` on each step it adds.
 *
 * @example A step function's bad step
 * ```ts
 * import { validateStep } from "./validate_step.ts";
 * try {
 *   validateStep({ kind: "raw", line: "a\nb" }, "exchanges[0].steps[3]", { name: "x" });
 * } catch (error) {
 *   console.log((error as Error).message);
 *   // Cannot run scenario 'x': 'exchanges[0].steps[3].line' (produced by a step function)
 *   // must be a single line (no "\n" or "\r"), got "a\nb"
 * }
 * ```
 */
export function validateStep(
  step: unknown,
  path: string,
  options: ValidateStepOptions = {},
): asserts step is Step {
  new StepChecker({
    name: options.name,
    verb: options.verb ?? "run",
    source: options.source,
    note: options.note ?? "produced by a step function",
  }).step(step, path, options.onConnect ?? false);
}

// ---------------------------------------------------------------------------------------
// Known fields: `satisfies Record<keyof T, true>` makes a new field in the types a compile
// error here until it is listed (and checked).

const STEP_KEYS: { readonly [K in Step["kind"]]: Record<string, true> } = {
  emit: { kind: true, frame: true, delay: true } satisfies Record<keyof EmitStep, true>,
  message: {
    kind: true,
    parts: true,
    delay: true,
    messageId: true,
    outputTokens: true,
    chunkSize: true,
    chunks: true,
    inputChunks: true,
  } satisfies Record<keyof MessageStep, true>,
  delay: { kind: true, ms: true } satisfies Record<keyof DelayStep, true>,
  raw: { kind: true, line: true } satisfies Record<keyof RawStep, true>,
  result: { kind: true, options: true } satisfies Record<keyof ResultStep, true>,
  waitForWrite: { kind: true, matcher: true, timeoutMs: true } satisfies Record<
    keyof WaitForWriteStep,
    true
  >,
  request: { kind: true, request: true, onResponse: true, timeoutMs: true } satisfies Record<
    keyof RequestStep,
    true
  >,
  apiError: {
    kind: true,
    status: true,
    message: true,
    retries: true,
    retryDelayMs: true,
    recovers: true,
  } satisfies Record<keyof ApiErrorStep, true>,
  failure: { kind: true, name: true, message: true } satisfies Record<keyof FailureStep, true>,
  exit: { kind: true, code: true } satisfies Record<keyof ExitStep, true>,
  crash: { kind: true, code: true, midStream: true, beforeToolResult: true } satisfies Record<
    keyof CrashStep,
    true
  >,
};
const STEP_KINDS = Object.keys(STEP_KEYS);
const CONNECT_KINDS = ["emit", "raw", "delay"];

const RESULT_OPTION_KEYS = {
  subtype: true,
  result: true,
  errors: true,
  terminalReason: true,
  stopReason: true,
  totalCostUsd: true,
  apiErrorStatus: true,
  extra: true,
} as const satisfies Record<keyof ResultOptions, true>;

const RESULT_SUBTYPES = Object.keys(
  {
    success: true,
    error_during_execution: true,
    error_max_turns: true,
    error_max_budget_usd: true,
    error_max_structured_output_retries: true,
  } as const satisfies Record<ResultSubtype, true>,
);

const TERMINAL_REASONS = Object.keys(
  {
    blocking_limit: true,
    rapid_refill_breaker: true,
    prompt_too_long: true,
    image_error: true,
    model_error: true,
    api_error: true,
    malformed_tool_use_exhausted: true,
    aborted_streaming: true,
    aborted_tools: true,
    stop_hook_prevented: true,
    hook_stopped: true,
    tool_deferred: true,
    max_turns: true,
    background_requested: true,
    completed: true,
    budget_exhausted: true,
    structured_output_retry_exhausted: true,
    tool_deferred_unavailable: true,
    turn_setup_failed: true,
  } as const satisfies Record<TerminalReason, true>,
);

const BLOCK_TYPES = ["text", "thinking", "redacted_thinking", "tool_use"];

/** The checks of {@linkcode validateStep}: a step by its kind, and the values inside it. */
class StepChecker extends Checker {
  /** Steps (checked one by one) or a function (its steps are checked when it runs). */
  stepSource(value: unknown, path: string, what: string): void {
    if (typeof value === "function") return;
    if (!Array.isArray(value)) this.type(path, what, value);
    value.forEach((step, i) => this.step(step, `${path}[${i}]`, false));
    checkCrashPlacement(this, value, path);
  }

  step(value: unknown, path: string, onConnect: boolean): void {
    if (!isObject(value)) this.type(path, "a step object with a 'kind'", value);
    const kind = value.kind;
    if (typeof kind !== "string" || !Object.hasOwn(STEP_KEYS, kind)) {
      const what = `one of ${STEP_KINDS.join(", ")}`;
      if (typeof kind === "string") {
        this.fail(TypeError, `${path}.kind`, `must be ${what}, got ${show(kind)}`);
      }
      this.type(`${path}.kind`, what, kind);
    }
    if (onConnect && !CONNECT_KINDS.includes(kind)) {
      this.fail(
        TypeError,
        path,
        `is a '${kind}' step; onConnect runs only emit, raw and delay steps`,
      );
    }
    this.knownKeys(value, path, STEP_KEYS[kind as Step["kind"]], `a field of '${kind}' steps`);
    const step = value as unknown as Step;
    switch (step.kind) {
      case "emit":
        if (typeof step.frame !== "function") {
          const frame = this.object(step.frame, `${path}.frame`, "a frame object or a function");
          this.string(frame.type, `${path}.frame.type`, true);
        }
        if (step.delay !== undefined) this.stepDelay(step.delay, `${path}.delay`);
        return;
      case "message":
        return this.message(step, path);
      case "delay":
        return this.ms(step.ms, `${path}.ms`);
      case "raw":
        this.string(step.line, `${path}.line`);
        if (/[\r\n]/.test(step.line)) {
          this.range(`${path}.line`, `a single line (no "\\n" or "\\r")`, step.line);
        }
        return;
      case "result":
        return this.resultOptions(step.options, `${path}.options`);
      case "waitForWrite":
        this.matcher(step.matcher, `${path}.matcher`);
        if (step.timeoutMs !== undefined) this.ms(step.timeoutMs, `${path}.timeoutMs`, true);
        return;
      case "request": {
        const request = this.object(step.request, `${path}.request`, "a control request body");
        this.string(request.subtype, `${path}.request.subtype`, true);
        if (step.onResponse !== undefined) this.function(step.onResponse, `${path}.onResponse`);
        if (step.timeoutMs !== undefined) this.ms(step.timeoutMs, `${path}.timeoutMs`, true);
        return;
      }
      case "apiError":
        this.integer(step.status, `${path}.status`, 400, 599);
        if (step.message !== undefined) this.string(step.message, `${path}.message`);
        if (step.retries !== undefined) {
          this.integer(step.retries, `${path}.retries`, 0, SCENARIO_LIMITS.maxRetries);
        }
        if (step.retryDelayMs !== undefined) this.ms(step.retryDelayMs, `${path}.retryDelayMs`);
        if (step.recovers !== undefined) this.boolean(step.recovers, `${path}.recovers`);
        return;
      case "failure":
        this.nameIn(step.name, `${path}.name`, FAILURE_NAMES, "a failure name");
        if (step.message !== undefined) this.string(step.message, `${path}.message`);
        return;
      case "exit":
        return this.integer(step.code, `${path}.code`, 0, 255);
      case "crash":
        return checkCrashStep(this, step, path);
    }
  }

  /** A step's `delay`: ms, or a {baseMs, jitterMs} delay. */
  stepDelay(value: unknown, path: string): void {
    if (typeof value === "number") this.ms(value, path);
    else if (isObject(value)) this.delay(value, path);
    else this.type(path, "a number of ms or a {baseMs, jitterMs} delay", value);
  }

  message(step: MessageStep, path: string): void {
    const parts: unknown = step.parts;
    if (!Array.isArray(parts)) this.type(`${path}.parts`, "an array of message parts", parts);
    if (parts.length === 0) {
      this.fail(RangeError, `${path}.parts`, "must have at least one part, got an empty array");
    }
    parts.forEach((part, i) => this.part(part, `${path}.parts[${i}]`));
    if (step.delay !== undefined) this.stepDelay(step.delay, `${path}.delay`);
    if (step.messageId !== undefined) this.string(step.messageId, `${path}.messageId`, true);
    if (step.outputTokens !== undefined) {
      this.integer(step.outputTokens, `${path}.outputTokens`, 0, MAX_SAFE);
    }
    if (step.chunkSize !== undefined) {
      this.integer(step.chunkSize, `${path}.chunkSize`, 1, MAX_SAFE);
    }
    for (const key of ["chunks", "inputChunks"] as const) {
      const lists: unknown = step[key];
      if (lists === undefined) continue;
      if (!Array.isArray(lists)) this.type(`${path}.${key}`, "an array of string arrays", lists);
      lists.forEach((list, i) => this.stringList(list, `${path}.${key}[${i}]`, "delta pieces"));
    }
  }

  part(value: unknown, path: string): void {
    if (typeof value === "function") return;
    const part = this.object(value, path, "a content block, a tool call or a function");
    if ("block" in part && "result" in part) return this.toolCall(part, path);
    switch (this.oneOf(part.type, `${path}.type`, BLOCK_TYPES)) {
      case "text":
        return void this.string(part.text, `${path}.text`);
      case "thinking":
        this.string(part.thinking, `${path}.thinking`);
        return void this.string(part.signature, `${path}.signature`);
      case "redacted_thinking":
        return void this.string(part.data, `${path}.data`);
      case "tool_use":
        this.string(part.name, `${path}.name`, true);
        this.object(part.input, `${path}.input`, "an object");
        if (part.id !== undefined) this.string(part.id, `${path}.id`, true);
    }
  }

  toolCall(call: Record<string, unknown>, path: string): void {
    const block = this.object(call.block, `${path}.block`, "a tool_use block");
    this.oneOf(block.type, `${path}.block.type`, ["tool_use"]);
    this.string(block.id, `${path}.block.id`, true);
    this.string(block.name, `${path}.block.name`, true);
    this.object(block.input, `${path}.block.input`, "an object");
    const result = this.object(call.result, `${path}.result`, "a tool result ({content, isError})");
    if (typeof result.content !== "string" && !Array.isArray(result.content)) {
      this.type(`${path}.result.content`, "a string or an array of content blocks", result.content);
    }
    this.boolean(result.isError, `${path}.result.isError`);
    if (call.frames !== undefined) this.function(call.frames, `${path}.frames`);
    if (call.rerun !== undefined) this.function(call.rerun, `${path}.rerun`);
    if (call.onFile !== undefined) this.function(call.onFile, `${path}.onFile`);
    if (call.permission !== undefined) {
      this.oneOf(call.permission, `${path}.permission`, PERMISSIONS);
    }
    if (call.ifDenied !== undefined) this.stepSource(call.ifDenied, `${path}.ifDenied`, STEPS);
  }

  resultOptions(value: unknown, path: string): void {
    const options = this.object(value, path, "an object of result options");
    this.knownKeys(options, path, RESULT_OPTION_KEYS, "a result option");
    const subtype = options.subtype === undefined
      ? "success"
      : this.oneOf(options.subtype, `${path}.subtype`, RESULT_SUBTYPES);
    const onlySuccess = (field: string, why = "") => {
      if (subtype === "success") return;
      const problem = `only applies to subtype 'success', not '${subtype}'${why}`;
      this.fail(TypeError, `${path}.${field}`, problem);
    };
    if (options.result !== undefined) {
      this.string(options.result, `${path}.result`);
      onlySuccess("result", " (error results carry 'errors')");
    }
    if (options.errors !== undefined) {
      if (!Array.isArray(options.errors)) {
        this.type(`${path}.errors`, "an array of strings", options.errors);
      }
      options.errors.forEach((e, i) => this.string(e, `${path}.errors[${i}]`));
      if (subtype === "success") {
        const problem =
          "only applies to error subtypes, not 'success' (set 'subtype', e.g. 'error_during_execution')";
        this.fail(TypeError, `${path}.errors`, problem);
      }
    }
    if (options.terminalReason !== undefined) {
      this.oneOf(options.terminalReason, `${path}.terminalReason`, TERMINAL_REASONS);
    }
    if (options.stopReason !== undefined && options.stopReason !== null) {
      this.string(options.stopReason, `${path}.stopReason`);
    }
    if (options.totalCostUsd !== undefined) {
      this.number(options.totalCostUsd, `${path}.totalCostUsd`);
    }
    if (options.apiErrorStatus !== undefined) {
      this.integer(options.apiErrorStatus, `${path}.apiErrorStatus`, 400, 599);
      onlySuccess("apiErrorStatus");
    }
    if (options.extra !== undefined) this.object(options.extra, `${path}.extra`, "an object");
  }
}
