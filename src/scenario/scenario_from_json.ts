/**
 * {@linkcode scenarioFromJSON}: a scenario file (parsed) into a {@linkcode Scenario}, through
 * {@linkcode ScenarioBuilder}, so a file and code make the same steps and pass the same
 * checks.
 *
 * @module
 */

import { isObject } from "../wire/frame.ts";
import { Checker, type CheckerContext, MAX_SAFE, sourceSuffix } from "./_checks.ts";
import { kindOf } from "../wire/_kind_of.ts";
import { show } from "../wire/_show.ts";
import { recordMatcherForm } from "./_json_forms.ts";
import { ExchangeBuilder } from "./exchange_builder.ts";
import { any, contains, exact, glob, type Matcher, regex } from "./matcher.ts";
import type { Exchange, Scenario } from "./scenario.ts";
import { FAILURE_NAMES, type FailureName } from "./named_failures.ts";
import { ScenarioBuilder, type ScenarioOptions } from "./scenario_builder.ts";
import { SCENARIO_LIMITS } from "./scenario_limits.ts";
import type { Step } from "./step.ts";
import { validateScenario } from "./validate_scenario.ts";
import { validateStep } from "./validate_step.ts";
import { TOOL_KINDS, toolStepKeys, ToolSteps } from "./_file_tools.ts";
import { validateTiming } from "./validate_timing.ts";
import type { Timing } from "../timing/timing_profile.ts";
import { BUILTIN_REFERENCES, builtinFromReference } from "./_builtin_reference.ts";

/**
 * Options of {@linkcode scenarioFromJSON}.
 *
 * @example Naming the file in errors
 * ```ts
 * import type { ScenarioFromJSONOptions } from "@x/claude-mock";
 * const options: ScenarioFromJSONOptions = { source: "chat.json" };
 * console.log(options.source); // chat.json
 * ```
 */
export interface ScenarioFromJSONOptions {
  /** Where the data came from (a file name or URL), named in errors as `(in <source>)`. */
  source?: string;
}

/**
 * Makes a {@linkcode Scenario} from a parsed scenario file ({@linkcode ScenarioFile}): the
 * shape is checked first, then each exchange and step is added with the builder method it
 * names (`say` → `respond`, `read` → `usesRead`, ...), so the builder's checks and
 * `validateScenario` apply. An error names the scenario, the JSON path and the problem,
 * and the source: a wrong type throws a `TypeError` (an unknown key too, with the key it
 * resembles), a value out of range a `RangeError`, a bad regular expression a
 * `SyntaxError`. The scenario keeps references to objects of `data` (frames, tool inputs).
 * `"extends": "builtin:<name>"` builds on a predefined scenario (`builtinScenario`): the
 * file's exchanges are tried first, then the builtin's, and the file's top-level fields
 * (`seed`, `model`, `compact`, `onConnect`, `unmatched`, …) replace the builtin's.
 *
 * @example A chat
 * ```ts
 * import { scenarioFromJSON } from "@x/claude-mock";
 * const scenario = scenarioFromJSON({
 *   name: "chat",
 *   exchanges: [
 *     { on: "hello", steps: [{ say: "Hello! How can I help?" }] },
 *     { on: { regex: "notes?", flags: "i" }, steps: [
 *       { read: { path: "/home/user/project/notes.txt", content: "a\nb\n" } },
 *       { say: "The notes have two lines." },
 *     ] },
 *   ],
 * });
 * console.log(scenario.exchanges[1].trigger.description); // matches /notes?/i
 * ```
 *
 * @example A predefined scenario with one more exchange
 * ```ts
 * import { scenarioFromJSON } from "@x/claude-mock";
 * const scenario = scenarioFromJSON({
 *   extends: "builtin:simple_conversation",
 *   model: "claude-sonnet-5-5",
 *   exchanges: [{ on: "deploy", steps: [{ say: "Deployed." }] }],
 * });
 * console.log(scenario.name, scenario.model, scenario.exchanges.length);
 * // simple_conversation claude-sonnet-5-5 3
 * ```
 *
 * @example A mistake names the path
 * ```ts
 * import { scenarioFromJSON } from "@x/claude-mock";
 * try {
 *   scenarioFromJSON(
 *     { name: "deploy", exchanges: [{ on: "go", steps: [{ read: { path: 42, content: "" } }] }] },
 *     { source: "chat.json" },
 *   );
 * } catch (error) {
 *   console.log((error as Error).message);
 *   // Cannot load scenario 'deploy': 'exchanges[0].steps[0].read.path' must be a non-empty
 *   // string, got a number (in chat.json)
 * }
 * ```
 */
export function scenarioFromJSON(data: unknown, options: ScenarioFromJSONOptions = {}): Scenario {
  const source = options.source;
  if (!isObject(data)) {
    throw new TypeError(
      `Cannot load scenario: a scenario file holds a JSON object, got ${kindOf(data)}${
        sourceSuffix(source)
      }`,
    );
  }
  const name = typeof data.name === "string" ? data.name : undefined;
  const loader = new FileLoader({ name, verb: "load", source, note: "" });
  try {
    return loader.scenario(data);
  } catch (error) {
    // A check the file's shape does not cover, thrown by the builder: same message, as a load.
    if (
      (error instanceof TypeError || error instanceof RangeError) &&
      error.message.startsWith("Cannot build scenario")
    ) {
      const Kind = error instanceof TypeError ? TypeError : RangeError;
      throw new Kind(
        `${error.message.replace("Cannot build", "Cannot load")}${sourceSuffix(source)}`,
      );
    }
    throw error;
  }
}

const FILE_KEYS = {
  $schema: true,
  extends: true,
  name: true,
  seed: true,
  timing: true,
  speedFactor: true,
  partialMessages: true,
  model: true,
  models: true,
  skills: true,
  sessionId: true,
  cwd: true,
  tools: true,
  permissions: true,
  initialize: true,
  compact: true,
  live: true,
  verbatim: true,
  answers: true,
  exitCode: true,
  crashAfter: true,
  onConnect: true,
  unmatched: true,
  exchanges: true,
};
const OPTION_KEYS = Object.keys(FILE_KEYS).filter((key) =>
  !["$schema", "extends", "onConnect", "unmatched", "exchanges"].includes(key)
);
const EXCHANGE_KEYS = {
  on: true,
  repeat: true,
  maxMatches: true,
  invocation: true,
  timing: true,
  steps: true,
};
const TRIGGER_KEYS = ["contains", "exact", "regex", "glob", "any"];

/** The keys of each step kind (the action key first). */
const STEP_KEYS: Record<string, Record<string, true>> = {
  say: {
    say: true,
    thinking: true,
    delay: true,
    outputTokens: true,
    chunkSize: true,
    chunks: true,
  },
  together: {
    together: true,
    say: true,
    thinking: true,
    delay: true,
    outputTokens: true,
    chunkSize: true,
  },
  emit: { emit: true, delay: true },
  delay: { delay: true },
  raw: { raw: true },
  waitFor: { waitFor: true, timeoutMs: true },
  request: { request: true, timeoutMs: true },
  apiError: { apiError: true },
  failure: { failure: true, message: true },
  result: { result: true },
  exit: { exit: true },
  crash: { crash: true },
};
for (const kind of TOOL_KINDS) STEP_KEYS[kind] = toolStepKeys(kind);
/** Keys that name a step's action on their own; `say` and `delay` also modify others. */
const ACTIONS = Object.keys(STEP_KEYS).filter((key) => key !== "say" && key !== "delay");
const ALL_STEP_KEYS = Object.fromEntries(
  Object.values(STEP_KEYS).flatMap((keys) => Object.keys(keys)).map((key) => [key, true]),
);
const CRASH_KEYS = { code: true, midStream: true, beforeToolResult: true };
const API_ERROR_KEYS = {
  status: true,
  message: true,
  retries: true,
  retryDelayMs: true,
  recovers: true,
};

/** Checks a file and builds its scenario, in one walk. */
class FileLoader extends Checker {
  #context: CheckerContext;
  #builder!: ScenarioBuilder;
  #tools: ToolSteps;

  constructor(context: CheckerContext) {
    super(context);
    this.#context = context;
    this.#tools = new ToolSteps(this, (items, path) => this.steps(items, path));
  }

  scenario(data: Record<string, unknown>): Scenario {
    this.nesting(data, "");
    this.knownKeys(data, "", FILE_KEYS, "a scenario file field");
    if (data.$schema !== undefined) this.string(data.$schema, "$schema");
    if (data.extends !== undefined) {
      this.nameIn(data.extends, "extends", BUILTIN_REFERENCES, "a builtin scenario reference");
    }
    const options: Record<string, unknown> = {};
    for (const key of OPTION_KEYS) if (data[key] !== undefined) options[key] = data[key];
    if (options.seed !== undefined && !Number.isSafeInteger(options.seed)) {
      if (typeof options.seed !== "number") this.type("seed", "a safe integer", options.seed);
      this.range("seed", "a safe integer", options.seed);
    }
    // The scenario's own fields have the same paths in the file: its checks name them.
    validateScenario({ ...options, exchanges: [] }, this.#context);
    this.#builder = new ScenarioBuilder(options as ScenarioOptions);
    const onConnect = data.onConnect === undefined ? [] : this.#onConnect(data.onConnect);
    if (data.unmatched !== undefined) this.#unmatched(data.unmatched);
    if (data.exchanges !== undefined) {
      if (!Array.isArray(data.exchanges)) {
        this.type("exchanges", "an array of exchanges", data.exchanges);
      }
      data.exchanges.forEach((exchange, i) => this.#exchange(exchange, `exchanges[${i}]`));
    }
    const own = validateScenario({ ...this.#builder.build(), onConnect }, this.#context);
    if (data.extends === undefined) return own;
    // `extends`: the file's exchanges first, its fields over the builtin's
    const base = builtinFromReference(data.extends as string);
    const set = own as unknown as Record<string, unknown>;
    return validateScenario({
      ...base,
      ...Object.fromEntries(Object.keys(options).map((key) => [key, set[key]])),
      exchanges: [...own.exchanges, ...base.exchanges],
      onConnect: data.onConnect === undefined ? base.onConnect : own.onConnect,
      unmatched: data.unmatched === undefined ? base.unmatched : own.unmatched,
    }, this.#context);
  }

  #onConnect(value: unknown): Step[] {
    const what = "an array of emit, raw or delay steps";
    if (!Array.isArray(value)) this.type("onConnect", what, value);
    return value.map((item, i) => {
      const path = `onConnect[${i}]`;
      const kind = this.#kindOfStep(item, path);
      if (!["emit", "raw", "delay"].includes(kind)) {
        this.fail(
          TypeError,
          path,
          `is a '${kind}' step; onConnect runs only emit, raw and delay steps`,
        );
      }
      const steps: Step[] = [];
      this.#step(item, path, this.scratch(steps));
      return steps[0];
    });
  }

  #unmatched(value: unknown): void {
    if (value === "error") return;
    if (value === "warn") return void this.#builder.onUnmatched("warn");
    if (isObject(value)) {
      this.knownKeys(value, "unmatched", { reply: true }, "an unmatched field");
      this.#builder.onUnmatched({ reply: this.string(value.reply, "unmatched.reply") });
      return;
    }
    const what = `"error", "warn", a {reply} object or an array of steps`;
    if (typeof value === "string") {
      this.fail(
        TypeError,
        "unmatched",
        `must be ${what}, got the string ${show(value)} (to answer with a text, write {"reply": ${
          show(value)
        }})`,
      );
    }
    if (!Array.isArray(value)) this.type("unmatched", what, value);
    this.#builder.onUnmatched(this.steps(value, "unmatched"));
  }

  #exchange(value: unknown, path: string): void {
    const exchange = this.object(value, path, "an exchange object ({on, steps})");
    this.knownKeys(exchange, path, EXCHANGE_KEYS, "an exchange field");
    if (exchange.on === undefined) this.type(`${path}.on`, "a trigger", undefined);
    const matcher = this.trigger(exchange.on, `${path}.on`);
    if (exchange.repeat !== undefined) this.boolean(exchange.repeat, `${path}.repeat`);
    if (exchange.maxMatches !== undefined) {
      this.integer(exchange.maxMatches, `${path}.maxMatches`, 1, MAX_SAFE);
    }
    if (!Array.isArray(exchange.steps)) {
      this.type(`${path}.steps`, "an array of steps", exchange.steps);
    }
    if (exchange.invocation !== undefined) {
      this.integer(exchange.invocation, `${path}.invocation`, 1, MAX_SAFE);
    }
    const builder = this.#builder.on(matcher, {
      ...(exchange.repeat !== undefined ? { repeat: exchange.repeat as boolean } : {}),
      ...(exchange.invocation !== undefined ? { invocation: exchange.invocation as number } : {}),
    });
    if (exchange.maxMatches !== undefined) builder.times(exchange.maxMatches as number);
    if (exchange.timing !== undefined) builder.timing(this.#timing(exchange.timing, path));
    exchange.steps.forEach((step, i) => this.#step(step, `${path}.steps[${i}]`, builder));
  }

  #timing(value: unknown, path: string): Timing {
    validateTiming(value, `${path}.timing`, this.#context);
    return value;
  }

  /** A trigger: a string (contains) or one matcher object; the matcher records its form. */
  trigger(value: unknown, path: string): Matcher {
    const what = "a string or a {contains|exact|regex|glob|any} object";
    if (typeof value === "string") return recordMatcherForm(contains(value), value);
    const t = this.object(value, path, what);
    this.knownKeys(t, path, {
      ...Object.fromEntries(TRIGGER_KEYS.map((k) => [k, true])),
      flags: true,
    }, "a trigger field");
    const kinds = TRIGGER_KEYS.filter((key) => t[key] !== undefined);
    if (kinds.length !== 1) {
      this.fail(
        TypeError,
        path,
        `must have exactly one of ${TRIGGER_KEYS.join(", ")}, got ${
          kinds.length === 0 ? "none" : kinds.join(" and ")
        }`,
      );
    }
    const kind = kinds[0];
    if (t.flags !== undefined && kind !== "regex") {
      this.fail(TypeError, `${path}.flags`, "only applies to a regex trigger");
    }
    const at = `${path}.${kind}`;
    switch (kind) {
      case "contains":
        return recordMatcherForm(contains(this.string(t.contains, at)), t.contains);
      case "exact":
        return recordMatcherForm(exact(this.string(t.exact, at)), { exact: t.exact });
      case "glob":
        return recordMatcherForm(glob(this.string(t.glob, at)), { glob: t.glob });
      case "any":
        if (t.any !== true) this.type(at, "true", t.any);
        return recordMatcherForm(any(), { any: true });
    }
    const pattern = this.string(t.regex, at);
    const flags = t.flags === undefined ? "" : this.string(t.flags, `${path}.flags`);
    let re: RegExp;
    try {
      re = new RegExp(pattern, flags);
    } catch (error) {
      this.fail(
        SyntaxError as unknown as TypeErrorConstructor,
        t.flags !== undefined && /flag/i.test(String(error)) ? `${path}.flags` : at,
        `must be a valid regular expression: ${(error as Error).message}`,
      );
    }
    return recordMatcherForm(regex(re), flags ? { regex: pattern, flags } : { regex: pattern });
  }

  /** Builds `items` (file steps) into steps, for `ifDenied` and `unmatched`. */
  steps(items: unknown[], path: string): Step[] {
    const steps: Step[] = [];
    const builder = this.scratch(steps);
    items.forEach((item, i) => this.#step(item, `${path}[${i}]`, builder));
    return steps;
  }

  /** An exchange builder whose steps go to `steps` (not to an exchange of the scenario). */
  scratch(steps: Step[]): ExchangeBuilder {
    const exchange: Exchange = { trigger: any(), steps };
    return new ExchangeBuilder(this.#builder, exchange, { steps, name: this.#context.name });
  }

  /** The kind of a file step (its action key), its keys checked. */
  #kindOfStep(value: unknown, path: string): string {
    const step = this.object(value, path, `a step object (such as {"say": "..."})`);
    const actions = ACTIONS.filter((key) => step[key] !== undefined);
    if (actions.length > 1) {
      this.fail(
        TypeError,
        path,
        `has both '${actions[0]}' and '${
          actions[1]
        }': a step does one thing (put tool uses for one message in 'together')`,
      );
    }
    const kind = actions[0] ??
      (step.say !== undefined ? "say" : step.delay !== undefined ? "delay" : undefined);
    if (kind === undefined) {
      this.knownKeys(step, path, ALL_STEP_KEYS, "a step key");
      this.fail(
        TypeError,
        path,
        `must have one of the step keys ${Object.keys(STEP_KEYS).join(", ")}, got none`,
      );
    }
    this.knownKeys(step, path, STEP_KEYS[kind], `a field of '${kind}' steps`);
    return kind;
  }

  /** Checks one file step and adds it with its builder method. */
  #step(value: unknown, path: string, builder: ExchangeBuilder): void {
    const kind = this.#kindOfStep(value, path);
    const step = value as Record<string, unknown>;
    if (TOOL_KINDS.includes(kind)) {
      return this.#tools.add(builder, kind, step, path);
    }
    switch (kind) {
      case "say":
        this.#tools.say(builder, step, path);
        break;
      case "together":
        this.#tools.together(builder, step, path);
        break;
      case "emit":
        this.#emitStep(step, path, builder);
        break;
      case "delay":
        this.ms(step.delay, `${path}.delay`);
        builder.delay(step.delay as number);
        break;
      case "raw": {
        const line = this.string(step.raw, `${path}.raw`);
        if (/[\r\n]/.test(line)) {
          this.range(`${path}.raw`, `a single line (no "\\n" or "\\r")`, line);
        }
        builder.sendRaw(line);
        break;
      }
      case "waitFor": {
        const matcher = this.trigger(step.waitFor, `${path}.waitFor`);
        if (step.timeoutMs !== undefined) this.ms(step.timeoutMs, `${path}.timeoutMs`, true);
        builder.waitForWrite(
          matcher,
          step.timeoutMs !== undefined ? { timeoutMs: step.timeoutMs as number } : {},
        );
        break;
      }
      case "request":
        this.#requestStep(step, path, builder);
        break;
      case "apiError":
        this.#apiErrorStep(step, path, builder);
        break;
      case "failure": {
        this.nameIn(step.failure, `${path}.failure`, FAILURE_NAMES, "a failure name");
        if (step.message !== undefined) this.string(step.message, `${path}.message`);
        builder.failure(
          step.failure as FailureName,
          step.message !== undefined ? { message: step.message as string } : {},
        );
        break;
      }
      case "result":
        this.#resultStep(step, path, builder);
        break;
      case "exit":
        this.integer(step.exit, `${path}.exit`, 0, 255);
        builder.exit(step.exit as number);
        break;
      case "crash":
        this.#crashStep(step, path, builder);
        break;
    }
  }

  /** A frame written as it is (after its delay, if it has one). */
  #emitStep(step: Record<string, unknown>, path: string, builder: ExchangeBuilder): void {
    const frame = this.object(step.emit, `${path}.emit`, "a frame object");
    this.string(frame.type, `${path}.emit.type`, true);
    if (step.delay === undefined) builder.emit(frame as { type: string });
    else {
      this.#tools.delay(step.delay, `${path}.delay`);
      builder.steps({
        kind: "emit",
        frame: frame as { type: string },
        delay: step.delay as number,
      });
    }
  }

  /** A control request to the app (waiting at most `timeoutMs` for its answer). */
  #requestStep(step: Record<string, unknown>, path: string, builder: ExchangeBuilder): void {
    const request = this.object(step.request, `${path}.request`, "a control request body");
    this.string(request.subtype, `${path}.request.subtype`, true);
    if (step.timeoutMs !== undefined) this.ms(step.timeoutMs, `${path}.timeoutMs`, true);
    builder.steps({
      kind: "request",
      request: request as { subtype: string },
      ...(step.timeoutMs !== undefined ? { timeoutMs: step.timeoutMs as number } : {}),
    });
  }

  /** An API error (its status, message, retries, recovery). */
  #apiErrorStep(step: Record<string, unknown>, path: string, builder: ExchangeBuilder): void {
    const at = `${path}.apiError`;
    const e = this.object(step.apiError, at, "an object ({status, ...})");
    this.knownKeys(e, at, API_ERROR_KEYS, "an apiError field");
    this.integer(e.status, `${at}.status`, 400, 599);
    if (e.message !== undefined) this.string(e.message, `${at}.message`);
    if (e.retries !== undefined) {
      this.integer(e.retries, `${at}.retries`, 0, SCENARIO_LIMITS.maxRetries);
    }
    if (e.retryDelayMs !== undefined) this.ms(e.retryDelayMs, `${at}.retryDelayMs`);
    if (e.recovers !== undefined) this.boolean(e.recovers, `${at}.recovers`);
    const { status, ...rest } = e;
    builder.apiError(status as number, rest);
  }

  /** The turn's result options, checked as validateStep checks them, named as the file does. */
  #resultStep(step: Record<string, unknown>, path: string, builder: ExchangeBuilder): void {
    const options = this.object(step.result, `${path}.result`, "an object of result options");
    // validateStep names `<path>.options.<field>`: the file calls it `result`.
    try {
      validateStep({ kind: "result", options }, path, { ...this.#context, note: "" });
    } catch (error) {
      if (!(error instanceof TypeError || error instanceof RangeError)) throw error;
      const Kind = error instanceof TypeError ? TypeError : RangeError;
      throw new Kind(error.message.replaceAll(`'${path}.options`, `'${path}.result`));
    }
    builder.thenResult(options);
  }

  /** A crash (its code, mid-stream or before a tool result). */
  #crashStep(step: Record<string, unknown>, path: string, builder: ExchangeBuilder): void {
    const at = `${path}.crash`;
    const crash = this.object(
      step.crash,
      at,
      "an object ({code, midStream, beforeToolResult})",
    );
    this.knownKeys(crash, at, CRASH_KEYS, "a crash field");
    if (crash.code !== undefined) this.integer(crash.code, `${at}.code`, 1, 255);
    if (crash.midStream !== undefined) {
      this.integer(crash.midStream, `${at}.midStream`, 1, MAX_SAFE);
    }
    if (crash.beforeToolResult !== undefined) {
      this.boolean(crash.beforeToolResult, `${at}.beforeToolResult`);
    }
    builder.crash(crash);
  }
}
