/**
 * Validation of scenarios: a {@linkcode Scenario} is checked when it is built or loaded, so a
 * bad one fails at once with an error that names the scenario, the path of the bad value
 * and the problem, instead of passing silently, spinning, or failing later with an error
 * that blames the wrong thing:
 *
 * ```text
 * Cannot build scenario 'deploy': 'exchanges[2].steps[0].ms' must be a finite number >= 0, got NaN
 * ```
 *
 * A wrong type throws a `TypeError`; a value of the right type out of its range or set
 * throws a `RangeError`. Steps that a step function produces cannot be checked ahead:
 * {@linkcode validateStep} checks each one when it runs.
 *
 * @module
 */

import type { ResultSubtype, TerminalReason } from "../builders/result.ts";
import { type Timing, TIMING_PROFILES } from "../timing/timing_profile.ts";
import { isObject } from "../wire/frame.ts";
import type { Exchange, Scenario } from "./scenario.ts";
import type {
  ApiErrorStep,
  DelayStep,
  EmitStep,
  ExitStep,
  MessageStep,
  RawStep,
  RequestStep,
  ResultOptions,
  ResultStep,
  Step,
  WaitForWriteStep,
} from "./step.ts";

/**
 * The bounds scenario numbers are checked against.
 *
 * @example Reading a bound
 * ```ts
 * import type { ScenarioLimits } from "@x/claude-mock";
 * const limits: ScenarioLimits = { maxDelayMs: 1000, maxRetries: 3, maxSpeedFactor: 10 };
 * console.log(limits.maxRetries); // 3
 * ```
 */
export interface ScenarioLimits {
  /**
   * The longest delay or timeout in milliseconds: 2147483647 (2^31 - 1, about 24.8 days),
   * the longest timer `setTimeout` honours; longer ones would fire at once.
   */
  readonly maxDelayMs: number;
  /** The most `api_retry` frames an `apiError` step writes: 100. */
  readonly maxRetries: number;
  /** The largest speed factor: 1000 (a 20 ms frame then takes 20 s). */
  readonly maxSpeedFactor: number;
}

/**
 * The bounds {@linkcode validateScenario} checks numbers against (see
 * {@linkcode ScenarioLimits}). Delays are also finite and >= 0, timeouts finite and > 0.
 *
 * @example The longest delay
 * ```ts
 * import { SCENARIO_LIMITS } from "@x/claude-mock";
 * console.log(SCENARIO_LIMITS.maxDelayMs); // 2147483647
 * ```
 */
export const SCENARIO_LIMITS: ScenarioLimits = Object.freeze({
  maxDelayMs: 2 ** 31 - 1,
  maxRetries: 100,
  maxSpeedFactor: 1000,
});

/**
 * Options of {@linkcode validateScenario}.
 *
 * @example Loading a file
 * ```ts
 * import type { ValidateScenarioOptions } from "@x/claude-mock";
 * const options: ValidateScenarioOptions = { verb: "load", source: "chat.json" };
 * console.log(options.verb); // load
 * ```
 */
export interface ValidateScenarioOptions {
  /** What was being done, for the message: `Cannot ${verb} scenario ...` (default `build`). */
  verb?: string;
  /** Where the scenario came from (a file name), added as ` (in ${source})`. */
  source?: string;
}

/**
 * Options of {@linkcode validateStep} and {@linkcode validateTiming}.
 *
 * @example Checking a step at build time
 * ```ts
 * import type { ValidateStepOptions } from "@x/claude-mock";
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
 * Checks a scenario before it runs and returns it; throws on the first problem, naming the
 * scenario, the path and what is wrong (`TypeError` for a wrong type, `RangeError` for a
 * number out of range or a value outside its set). Checked: every field the engine reads,
 * every step of every exchange (by kind), `onConnect` (emit, raw and delay steps only),
 * `unmatched`, timing profiles, and unknown fields (a typo such as `speedfactor` is named,
 * with the field it resembles). Delays are finite, >= 0 and at most
 * {@linkcode SCENARIO_LIMITS}`.maxDelayMs`; timeouts finite and > 0; `apiError` retries an
 * integer from 0 to 100; exit codes integers from 0 to 255 (a crash's from 1); the seed a
 * bigint or a safe integer. Step functions are not called: their steps are checked when
 * they run ({@linkcode validateStep}).
 *
 * @example A bad seed
 * ```ts
 * import { validateScenario } from "@x/claude-mock";
 * try {
 *   validateScenario({ name: "deploy", exchanges: [], seed: "abc" });
 * } catch (error) {
 *   console.log((error as Error).message);
 *   // Cannot build scenario 'deploy': 'seed' must be a bigint or a safe integer, got a string
 * }
 * ```
 *
 * @example A scenario loaded from a file
 * ```ts
 * import { any, validateScenario } from "@x/claude-mock";
 * const data = { exchanges: [{ trigger: any(), steps: [{ kind: "delay", ms: -1 }] }] };
 * try {
 *   validateScenario(data, { verb: "load", source: "chat.json" });
 * } catch (error) {
 *   console.log(error instanceof RangeError, (error as Error).message);
 *   // true Cannot load scenario: 'exchanges[0].steps[0].ms' must be a finite number >= 0,
 *   // got -1 (in chat.json)
 * }
 * ```
 *
 * @example A good scenario comes back as it is
 * ```ts
 * import { ScenarioBuilder, validateScenario } from "@x/claude-mock";
 * const scenario = new ScenarioBuilder({ name: "chat" }).on("hi").respond("Hello!").build();
 * console.log(validateScenario(scenario) === scenario); // true
 * ```
 */
export function validateScenario(
  scenario: unknown,
  options: ValidateScenarioOptions = {},
): Scenario {
  const verb = options.verb ?? "build";
  if (!isObject(scenario)) {
    throw new TypeError(
      `Cannot ${verb} scenario: the scenario must be an object, got ${kindOf(scenario)}${
        sourceSuffix(options.source)
      }`,
    );
  }
  const named = typeof scenario.name === "string" ? scenario.name : undefined;
  const c: Checker = new Checker({ name: named, verb, source: options.source, note: "" });
  const s = scenario as Record<string, unknown>;
  if (s.name !== undefined) c.string(s.name, "name");
  c.knownKeys(s, "", SCENARIO_KEYS, "a scenario field");
  if (s.seed !== undefined) c.seed(s.seed, "seed");
  if (s.speedFactor !== undefined) {
    c.number(s.speedFactor, "speedFactor", SCENARIO_LIMITS.maxSpeedFactor);
  }
  if (s.timing !== undefined) c.timing(s.timing, "timing");
  if (s.exitCode !== undefined) c.integer(s.exitCode, "exitCode", 0, 255);
  if (s.crashAfter !== undefined) {
    const crash = c.object(s.crashAfter, "crashAfter", "a {frames, code} object");
    c.knownKeys(crash, "crashAfter", { frames: true, code: true }, "a crashAfter field");
    c.integer(crash.frames, "crashAfter.frames", 0, Number.MAX_SAFE_INTEGER);
    c.integer(crash.code, "crashAfter.code", 1, 255);
  }
  if (s.partialMessages !== undefined) c.boolean(s.partialMessages, "partialMessages");
  for (const key of ["model", "sessionId", "cwd"] as const) {
    if (s[key] !== undefined) c.string(s[key], key, true);
  }
  if (s.initialize !== undefined) c.object(s.initialize, "initialize", "an object");
  if (s.tools !== undefined) c.stringList(s.tools, "tools", "tool names");
  if (s.permissions !== undefined) c.permissions(s.permissions, "permissions");
  if (s.models !== undefined) c.stringList(s.models, "models", "model names");
  if (s.onConnect !== undefined) {
    if (!Array.isArray(s.onConnect)) {
      c.type("onConnect", "an array of emit, raw or delay steps", s.onConnect);
    }
    s.onConnect.forEach((step, i) => c.step(step, `onConnect[${i}]`, true));
  }
  if (!Array.isArray(s.exchanges)) c.type("exchanges", "an array of exchanges", s.exchanges);
  s.exchanges.forEach((exchange, i) => c.exchange(exchange, `exchanges[${i}]`));
  if (s.unmatched !== undefined && s.unmatched !== "error") {
    if (typeof s.unmatched === "string") c.range("unmatched", `"error" or steps`, s.unmatched);
    c.stepSource(s.unmatched, "unmatched", `"error", ${STEPS}`);
  }
  return scenario as unknown as Scenario;
}

/**
 * Checks one step, as {@linkcode validateScenario} checks the steps of an array. The engine
 * calls it on each step a step function produces, when it runs (so the default verb is
 * `run` and the default note `produced by a step function`); the builder calls it with
 * `verb: "build", note: ""` on each step it adds.
 *
 * @example A step function's bad step
 * ```ts
 * import { validateStep } from "@x/claude-mock";
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
  new Checker({
    name: options.name,
    verb: options.verb ?? "run",
    source: options.source,
    note: options.note ?? "produced by a step function",
  }).step(step, path, options.onConnect ?? false);
}

/**
 * Checks a timing (a profile name, or a `{baseMs, jitterMs}` object with optional
 * `firstFrameMs`, `byType` and `name`) found at `path`, naming the bad field. Defaults:
 * verb `build`, no note.
 *
 * @example An exchange's timing
 * ```ts
 * import { validateTiming } from "@x/claude-mock";
 * try {
 *   validateTiming({ baseMs: 10, jitterMs: -1 }, "exchanges[1].timing", { name: "x" });
 * } catch (error) {
 *   console.log((error as Error).message);
 *   // Cannot build scenario 'x': 'exchanges[1].timing.jitterMs' must be a finite number >= 0, got -1
 * }
 * ```
 */
export function validateTiming(
  timing: unknown,
  path: string,
  options: ValidateStepOptions = {},
): asserts timing is Timing {
  new Checker({
    name: options.name,
    verb: options.verb ?? "build",
    source: options.source,
    note: options.note ?? "",
  }).timing(timing, path);
}

// ---------------------------------------------------------------------------------------
// Known fields: `satisfies Record<keyof T, true>` makes a new field in the types a compile
// error here until it is listed (and checked).

const SCENARIO_KEYS = {
  name: true,
  onConnect: true,
  exchanges: true,
  unmatched: true,
  exitCode: true,
  crashAfter: true,
  timing: true,
  seed: true,
  speedFactor: true,
  partialMessages: true,
  model: true,
  sessionId: true,
  cwd: true,
  initialize: true,
  tools: true,
  permissions: true,
  models: true,
} as const satisfies Record<keyof Scenario, true>;

const EXCHANGE_KEYS = {
  trigger: true,
  steps: true,
  timing: true,
  repeat: true,
} as const satisfies Record<keyof Exchange, true>;

const STEP_KEYS: { readonly [K in Step["kind"]]: Record<string, true> } = {
  emit: { kind: true, frame: true, delay: true } satisfies Record<keyof EmitStep, true>,
  message: {
    kind: true,
    parts: true,
    delay: true,
    messageId: true,
    outputTokens: true,
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
  exit: { kind: true, code: true } satisfies Record<keyof ExitStep, true>,
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

const TIMING_KEYS = { name: true, baseMs: true, jitterMs: true, firstFrameMs: true, byType: true };
const PERMISSION_KEYS = { allow: true, ask: true, deny: true };
const PERMISSIONS = ["allow", "ask", "deny"];
const BLOCK_TYPES = ["text", "thinking", "redacted_thinking", "tool_use"];

type ErrorClass = TypeErrorConstructor | RangeErrorConstructor;

interface CheckerContext {
  name: string | undefined;
  verb: string;
  source: string | undefined;
  note: string;
}

const STEPS = "an array of steps or a step function";
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Walks values and throws the first problem in the module's format. Problems read
 * `must be <expected>, got <what was there>`: a `TypeError` ({@linkcode Checker.type}) when
 * the type is wrong, a `RangeError` ({@linkcode Checker.range}) when the value is.
 */
class Checker {
  #context: CheckerContext;

  constructor(context: CheckerContext) {
    this.#context = context;
  }

  fail(kind: ErrorClass, path: string, problem: string): never {
    const { name, verb, source, note } = this.#context;
    const label = name ? ` '${name}'` : "";
    const where = path === "" ? "" : `'${path}'${note ? ` (${note})` : ""} `;
    throw new kind(`Cannot ${verb} scenario${label}: ${where}${problem}${sourceSuffix(source)}`);
  }

  type(path: string, expected: string, value: unknown): never {
    this.fail(TypeError, path, `must be ${expected}, got ${kindOf(value)}`);
  }

  range(path: string, expected: string, got: unknown): never {
    this.fail(
      RangeError,
      path,
      `must be ${expected}, got ${typeof got === "string" ? show(got) : got}`,
    );
  }

  // ---- scalars -------------------------------------------------------------------------

  string(value: unknown, path: string, nonEmpty = false): string {
    const what = nonEmpty ? "a non-empty string" : "a string";
    if (typeof value !== "string") this.type(path, what, value);
    if (nonEmpty && value === "") this.range(path, what, value);
    return value;
  }

  boolean(value: unknown, path: string): void {
    if (typeof value !== "boolean") this.type(path, "a boolean", value);
  }

  function(value: unknown, path: string): void {
    if (typeof value !== "function") this.type(path, "a function", value);
  }

  object(value: unknown, path: string, what: string): Record<string, unknown> {
    if (!isObject(value)) this.type(path, what, value);
    return value;
  }

  oneOf(value: unknown, path: string, allowed: readonly string[]): string {
    const what = `one of ${allowed.map((a) => `'${a}'`).join(", ")}`;
    if (typeof value !== "string") this.type(path, what, value);
    if (!allowed.includes(value)) this.range(path, what, value);
    return value;
  }

  /** A finite number from 0 to `max`. */
  number(value: unknown, path: string, max = Infinity): void {
    const what = "a finite number >= 0";
    if (typeof value !== "number") this.type(path, what, value);
    if (!Number.isFinite(value) || value < 0) this.range(path, what, value);
    if (value > max) this.fail(RangeError, path, `must be at most ${max}, got ${value}`);
  }

  /** An integer from `min` to `max` (inclusive). */
  integer(value: unknown, path: string, min: number, max: number): void {
    const what = max === MAX_SAFE ? `an integer >= ${min}` : `an integer from ${min} to ${max}`;
    if (typeof value !== "number") this.type(path, what, value);
    if (!Number.isSafeInteger(value) || value < min || value > max) this.range(path, what, value);
  }

  /** A delay in ms (finite, >= 0) or, with `timeout`, a timeout (> 0); at most the timer limit. */
  ms(value: unknown, path: string, timeout = false): void {
    const what = timeout ? "a finite number > 0" : "a finite number >= 0";
    if (typeof value !== "number") this.type(path, what, value);
    if (!Number.isFinite(value) || value < 0 || (timeout && value === 0)) {
      this.range(path, what, value);
    }
    const max = SCENARIO_LIMITS.maxDelayMs;
    if (value > max) {
      this.fail(RangeError, path, `must be at most ${max} ms (about 24.8 days), got ${value}`);
    }
  }

  seed(value: unknown, path: string): void {
    const what = "a bigint or a safe integer";
    if (typeof value === "bigint") return;
    if (typeof value !== "number") this.type(path, what, value);
    if (!Number.isSafeInteger(value)) this.range(path, what, value);
  }

  stringList(value: unknown, path: string, what: string): void {
    if (!Array.isArray(value)) this.type(path, `an array of ${what}`, value);
    value.forEach((item, i) => this.string(item, `${path}[${i}]`, true));
  }

  /** Unknown keys of `value` are typos: name the key and what it resembles. */
  knownKeys(value: Record<string, unknown>, path: string, known: object, what: string): void {
    for (const key of Object.keys(value)) {
      if (Object.hasOwn(known, key)) continue;
      const near = nearest(key, Object.keys(known));
      const hint = near
        ? ` (did you mean '${near}'?)`
        : `; expected one of ${Object.keys(known).join(", ")}`;
      this.fail(TypeError, path === "" ? key : `${path}.${key}`, `is not ${what}${hint}`);
    }
  }

  // ---- composite values ---------------------------------------------------------------

  timing(value: unknown, path: string): void {
    const names = Object.keys(TIMING_PROFILES);
    const what = `a timing profile name (${names.join(", ")}) or a {baseMs, jitterMs} object`;
    if (typeof value === "string") {
      if (!names.includes(value)) this.range(path, what, value);
      return;
    }
    if (!isObject(value)) this.type(path, what, value);
    this.knownKeys(value, path, TIMING_KEYS, "a timing field");
    if (value.name !== undefined) this.string(value.name, `${path}.name`);
    this.ms(value.baseMs, `${path}.baseMs`);
    this.ms(value.jitterMs, `${path}.jitterMs`);
    if (value.firstFrameMs !== undefined) this.ms(value.firstFrameMs, `${path}.firstFrameMs`);
    if (value.byType === undefined) return;
    const byType = this.object(value.byType, `${path}.byType`, "an object of delays by frame type");
    for (const [type, delay] of Object.entries(byType)) this.delay(delay, `${path}.byType.${type}`);
  }

  /** A {baseMs, jitterMs} delay (a TimingProfile is one too: extra fields are not typos). */
  delay(value: unknown, path: string): void {
    const delay = this.object(value, path, "a {baseMs, jitterMs} delay");
    this.ms(delay.baseMs, `${path}.baseMs`);
    this.ms(delay.jitterMs, `${path}.jitterMs`);
  }

  /** A step's `delay`: ms, or a {baseMs, jitterMs} delay. */
  stepDelay(value: unknown, path: string): void {
    if (typeof value === "number") this.ms(value, path);
    else if (isObject(value)) this.delay(value, path);
    else this.type(path, "a number of ms or a {baseMs, jitterMs} delay", value);
  }

  matcher(value: unknown, path: string): void {
    if (
      !isObject(value) || typeof value.test !== "function" || typeof value.kind !== "string" ||
      typeof value.description !== "string"
    ) {
      this.type(
        path,
        "a Matcher (an object with test(), kind and description; toMatcher() makes one from a string or RegExp)",
        value,
      );
    }
  }

  permissions(value: unknown, path: string): void {
    const rules = this.object(value, path, "an object with allow, ask and deny rule lists");
    this.knownKeys(rules, path, PERMISSION_KEYS, "a permission rule list");
    for (const kind of PERMISSIONS) {
      if (rules[kind] !== undefined) {
        this.stringList(rules[kind], `${path}.${kind}`, "rule strings");
      }
    }
  }

  exchange(value: unknown, path: string): void {
    const exchange = this.object(value, path, "an exchange object ({trigger, steps})");
    this.knownKeys(exchange, path, EXCHANGE_KEYS, "an exchange field");
    this.matcher(exchange.trigger, `${path}.trigger`);
    this.stepSource(exchange.steps, `${path}.steps`, STEPS);
    if (exchange.timing !== undefined) this.timing(exchange.timing, `${path}.timing`);
    if (exchange.repeat !== undefined) this.boolean(exchange.repeat, `${path}.repeat`);
  }

  /** Steps (checked one by one) or a function (its steps are checked when it runs). */
  stepSource(value: unknown, path: string, what: string): void {
    if (typeof value === "function") return;
    if (!Array.isArray(value)) this.type(path, what, value);
    value.forEach((step, i) => this.step(step, `${path}[${i}]`, false));
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
      case "exit":
        return this.integer(step.code, `${path}.code`, 0, 255);
    }
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

function sourceSuffix(source: string | undefined): string {
  return source ? ` (in ${source})` : "";
}

/** What a value is, for a type error: `a string`, `null`, `an array`, `a RegExp`, ... */
function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  if (value instanceof RegExp) return "a RegExp";
  const type = typeof value;
  return type === "object" ? "an object" : `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
}

/** A string value for a range error: quoted, shortened. */
function show(value: string): string {
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
}

/** The known key `key` most likely is a typo of (same letters ignoring case, or close). */
function nearest(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    if (candidate.toLowerCase() === lower) return candidate;
    const d = distance(lower, candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return bestDistance <= Math.min(2, Math.floor(key.length / 3)) ? best : undefined;
}

/** Levenshtein distance. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}
