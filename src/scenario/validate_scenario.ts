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

import { jsonText } from "../wire/_json_text.ts";
import { isObject } from "../wire/frame.ts";
import { Checker, type CheckerContext, PERMISSIONS, sourceSuffix, STEPS } from "./_checks.ts";
import { kindOf } from "../wire/_kind_of.ts";
import { show } from "../wire/_show.ts";
import type { CompactOptions, Exchange, Scenario, SkillSpec } from "./scenario.ts";
import { SCENARIO_LIMITS } from "./scenario_limits.ts";
import type { ValidateScenarioOptions } from "./validate_scenario_options.ts";
import { checkCrashPlacement, checkCrashPoint } from "./_crash_checks.ts";
import { validateStep } from "./validate_step.ts";
import { validateTiming } from "./validate_timing.ts";

// Re-exported for modules that import them from here (their homes are scenario_limits.ts and
// validate_step.ts); mod.ts re-exports the same bindings from both.

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
 * import { validateScenario } from "./validate_scenario.ts";
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
 * import { any } from "@x/claude-mock";
 * import { validateScenario } from "./validate_scenario.ts";
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
 * import { ScenarioBuilder } from "@x/claude-mock";
 * import { validateScenario } from "./validate_scenario.ts";
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
  const c: ScenarioChecker = new ScenarioChecker({
    name: named,
    verb,
    source: options.source,
    note: "",
  });
  const s = scenario as Record<string, unknown>;
  c.nesting(s, "");
  if (s.name !== undefined) c.string(s.name, "name");
  c.knownKeys(s, "", SCENARIO_KEYS, "a scenario field");
  if (s.seed !== undefined) c.seed(s.seed, "seed");
  if (s.speedFactor !== undefined) {
    c.number(s.speedFactor, "speedFactor", SCENARIO_LIMITS.maxSpeedFactor);
  }
  if (s.timing !== undefined) c.timing(s.timing, "timing");
  if (s.exitCode !== undefined) c.integer(s.exitCode, "exitCode", 0, 255);
  if (s.crashAfter !== undefined) checkCrashPoint(c, s.crashAfter, "crashAfter");
  if (s.partialMessages !== undefined) c.boolean(s.partialMessages, "partialMessages");
  if (s.verbatim !== undefined) c.boolean(s.verbatim, "verbatim");
  if (s.answers !== undefined) checkAnswers(c, s.answers);
  for (const key of ["model", "sessionId", "cwd"] as const) {
    if (s[key] !== undefined) c.string(s[key], key, true);
  }
  if (s.initialize !== undefined) checkInitialize(c, s.initialize);
  if (s.tools !== undefined) c.stringList(s.tools, "tools", "tool names");
  if (s.permissions !== undefined) c.permissions(s.permissions, "permissions");
  if (s.models !== undefined) c.stringList(s.models, "models", "model names");
  if (s.skills !== undefined) checkSkills(c, s.skills);
  if (s.live !== undefined && typeof s.live !== "boolean") {
    c.stringList(s.live, "live", "tool names (or true)");
  }
  if (s.compact !== undefined) checkCompact(c, s.compact);
  if (s.onConnect !== undefined) {
    if (!Array.isArray(s.onConnect)) {
      c.type("onConnect", "an array of emit, raw or delay steps", s.onConnect);
    }
    s.onConnect.forEach((step, i) => c.step(step, `onConnect[${i}]`, true));
  }
  if (!Array.isArray(s.exchanges)) c.type("exchanges", "an array of exchanges", s.exchanges);
  s.exchanges.forEach((exchange, i) => c.exchange(exchange, `exchanges[${i}]`));
  if (s.unmatched !== undefined && s.unmatched !== "error" && s.unmatched !== "warn") {
    checkUnmatched(c, s.unmatched);
  }
  return scenario as unknown as Scenario;
}

/** `initialize`: an object, merged into the answer the client waits for, so JSON data. */
function checkInitialize(c: ScenarioChecker, value: unknown): void {
  const initialize = c.object(value, "initialize", "an object");
  try {
    // merged into the answer the client waits for: it must encode as JSON
    jsonText(initialize);
  } catch (error) {
    c.fail(TypeError, "initialize", `must be JSON data: ${(error as Error).message}`);
  }
}

/** `skills`: by name, each with shell commands and a source. */
function checkSkills(c: ScenarioChecker, value: unknown): void {
  const skills = c.object(value, "skills", "an object of skills by name");
  for (const [name, skill] of Object.entries(skills)) {
    const spec = c.object(skill, `skills.${name}`, "an object (shell, source)");
    c.knownKeys(spec, `skills.${name}`, SKILL_KEYS, "a skill field");
    if (spec.shell !== undefined) {
      c.stringList(spec.shell, `skills.${name}.shell`, "shell commands");
    }
    if (spec.source !== undefined) c.string(spec.source, `skills.${name}.source`, true);
  }
}

/** `compact`: its texts and token counts. */
function checkCompact(c: ScenarioChecker, value: unknown): void {
  const compact = c.object(value, "compact", "an object (summary, reply, token counts)");
  c.knownKeys(compact, "compact", COMPACT_KEYS, "a compact field");
  for (const key of ["summary", "reply", "retryReply"] as const) {
    if (compact[key] !== undefined) c.string(compact[key], `compact.${key}`);
  }
  for (const key of ["preTokens", "postTokens", "durationMs", "outputTokens"] as const) {
    if (compact[key] !== undefined) {
      c.integer(compact[key], `compact.${key}`, 0, Number.MAX_SAFE_INTEGER);
    }
  }
}

/** `unmatched` other than "error" or "warn": steps or a function (a string says what to do). */
function checkUnmatched(c: ScenarioChecker, value: unknown): void {
  const what = `"error", "warn", an array of steps or a function`;
  if (typeof value === "string") {
    c.fail(
      TypeError,
      "unmatched",
      `must be ${what}, got the string ${
        show(value)
      } (to answer with a text: onUnmatched({ reply: ${show(value)} }))`,
    );
  }
  c.stepSource(value, "unmatched", what);
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
  compact: true,
  skills: true,
  live: true,
  verbatim: true,
  answers: true,
} as const satisfies Record<keyof Scenario, true>;

const SKILL_KEYS = { shell: true, source: true } as const satisfies Record<keyof SkillSpec, true>;

const COMPACT_KEYS = {
  summary: true,
  reply: true,
  retryReply: true,
  preTokens: true,
  postTokens: true,
  durationMs: true,
  outputTokens: true,
} as const satisfies Record<keyof CompactOptions, true>;

const EXCHANGE_KEYS = {
  trigger: true,
  steps: true,
  timing: true,
  repeat: true,
  maxMatches: true,
  invocation: true,
} as const satisfies Record<keyof Exchange, true>;

const PERMISSION_KEYS = { allow: true, ask: true, deny: true };

/**
 * The checks of {@linkcode validateScenario}: the scenario's own fields here, its steps with
 * {@linkcode validateStep} and its timings with {@linkcode validateTiming}, in the same
 * context (so their messages name the scenario, the verb and the source alike).
 */
class ScenarioChecker extends Checker {
  #context: CheckerContext;

  constructor(context: CheckerContext) {
    super(context);
    this.#context = context;
  }

  timing(value: unknown, path: string): void {
    validateTiming(value, path, this.#context);
  }

  step(value: unknown, path: string, onConnect: boolean): void {
    validateStep(value, path, { ...this.#context, onConnect });
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
    if (exchange.invocation !== undefined) {
      this.integer(exchange.invocation, `${path}.invocation`, 1, Number.MAX_SAFE_INTEGER);
    }
    if (exchange.maxMatches !== undefined) {
      this.integer(exchange.maxMatches, `${path}.maxMatches`, 1, Number.MAX_SAFE_INTEGER);
    }
  }

  /** Steps (checked one by one) or a function (its steps are checked when it runs). */
  stepSource(value: unknown, path: string, what: string): void {
    if (typeof value === "function") return;
    if (!Array.isArray(value)) this.type(path, what, value);
    value.forEach((step, i) => this.step(step, `${path}[${i}]`, false));
    checkCrashPlacement(this, value, path);
  }
}

/** Checks recorded answers: `[{request: {subtype, …}, response?, error?}]`. */
function checkAnswers(c: Checker, answers: unknown): void {
  if (!Array.isArray(answers)) c.type("answers", "an array of {request, response|error}", answers);
  (answers as unknown[]).forEach((answer, i) => {
    const path = `answers[${i}]`;
    const a = c.object(answer, path, "a {request, response|error} object");
    c.knownKeys(a, path, { request: true, response: true, error: true }, "answer");
    const request = c.object(a.request, `${path}.request`, "a control request body");
    c.string(request.subtype, `${path}.request.subtype`, true);
    if (a.response !== undefined) c.object(a.response, `${path}.response`, "an object");
    if (a.error !== undefined) c.string(a.error, `${path}.error`);
  });
}
