/**
 * `ScenarioBuilder`: a fluent way to write a {@linkcode Scenario}.
 *
 * @module
 */

import { text } from "../builders/assistant.ts";
import type { Timing } from "../timing/timing_profile.ts";
import type { Frame } from "../wire/frame.ts";
import { kindOf } from "../wire/_kind_of.ts";
import { show } from "../wire/_show.ts";
import { BUILD, checkBoolean, checkObject, fail, isRecord, triggerAt } from "./_builder_checks.ts";
import type { CrashPoint } from "./crash_point.ts";
import type { UnmatchedHandler, UnmatchedStrategy } from "./unmatched_strategy.ts";
import { ExchangeBuilder } from "./exchange_builder.ts";
import type { Trigger } from "./matcher.ts";
import type { Exchange, Scenario } from "./scenario.ts";
import type { Step, TurnInfo } from "./step.ts";
import { validateScenario } from "./validate_scenario.ts";
import { validateStep } from "./validate_step.ts";
import { validateTiming } from "./validate_timing.ts";
import { recordReply } from "./_json_forms.ts";

/** Options for {@linkcode ScenarioBuilder}. */
export type ScenarioOptions = Omit<Scenario, "exchanges" | "onConnect" | "unmatched">;

/**
 * Builds a {@linkcode Scenario}: `.on(trigger)` starts an exchange, the step methods add
 * to it, `.build()` returns the data. Every method checks its arguments when it is called
 * and `build()` checks the whole scenario ({@linkcode validateScenario}), so a mistake fails
 * at once with an error naming the scenario, the path of the step and the problem.
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
 *
 * @example A mistake names the scenario and the step
 * ```ts
 * import { ScenarioBuilder } from "@x/claude-mock";
 * try {
 *   new ScenarioBuilder({ name: "deploy" }).on("go").respond("Deploying.").delay(NaN);
 * } catch (error) {
 *   console.log((error as Error).message);
 *   // Cannot build scenario 'deploy': 'exchanges[0].steps[1].ms' must be a finite number >= 0, got NaN
 * }
 * ```
 */
export class ScenarioBuilder {
  #options: ScenarioOptions;
  #exchanges: Array<{ exchange: Exchange; steps: Step[] | null }> = [];
  #onConnect: Step[] = [];
  #unmatched?: UnmatchedStrategy;

  /** Starts a scenario with session-wide options (checked now). */
  constructor(options: ScenarioOptions = {}) {
    if (!isRecord(options)) {
      throw new TypeError(
        `Cannot build scenario: the scenario options must be an object, got ${kindOf(options)}`,
      );
    }
    const name = typeof options.name === "string" ? options.name : undefined;
    for (const key of ["exchanges", "onConnect", "unmatched"]) {
      if (key in options) {
        fail(
          TypeError,
          name,
          key,
          "is set with the builder's methods (on, onConnect, onUnmatched), not as an option",
        );
      }
    }
    validateScenario({ ...options, exchanges: [] });
    this.#options = { ...options };
  }

  /** The scenario's name, if it has one. */
  get #name(): string | undefined {
    return this.#options.name;
  }

  /**
   * Starts an exchange answering user messages that match `trigger`; with `invocation`,
   * only in that run of the fake binary (1 for the first).
   */
  on(trigger: Trigger, options: { repeat?: boolean; invocation?: number } = {}): ExchangeBuilder {
    const index = this.#exchanges.length;
    const path = `exchanges[${index}]`;
    const matcher = triggerAt(trigger, this.#name, `${path}.trigger`);
    checkObject(options, this.#name, path, "on() options");
    if (options.repeat !== undefined) checkBoolean(options.repeat, this.#name, `${path}.repeat`);
    if (
      options.invocation !== undefined &&
      (!Number.isSafeInteger(options.invocation) || options.invocation < 1)
    ) {
      fail(
        RangeError,
        this.#name,
        `${path}.invocation`,
        `must be an integer >= 1, got ${kindOf(options.invocation)} ${String(options.invocation)}`,
      );
    }
    const steps: Step[] = [];
    const exchange: Exchange = {
      trigger: matcher,
      steps,
      repeat: options.repeat,
      ...(options.invocation !== undefined ? { invocation: options.invocation } : {}),
    };
    this.#exchanges.push({ exchange, steps });
    return new ExchangeBuilder(this, exchange, { steps, index, name: this.#name });
  }

  /** Adds an exchange whose steps a function produces lazily (a generator is ideal). */
  onLazy(
    trigger: Trigger,
    source: (turn: TurnInfo) => Iterable<Step> | AsyncIterable<Step>,
    options: { repeat?: boolean; timing?: Timing } = {},
  ): this {
    const path = `exchanges[${this.#exchanges.length}]`;
    const matcher = triggerAt(trigger, this.#name, `${path}.trigger`);
    if (typeof source !== "function") {
      fail(
        TypeError,
        this.#name,
        `${path}.steps`,
        `onLazy needs a step function, got ${kindOf(source)}`,
      );
    }
    checkObject(options, this.#name, path, "onLazy() options");
    if (options.repeat !== undefined) checkBoolean(options.repeat, this.#name, `${path}.repeat`);
    if (options.timing !== undefined) {
      validateTiming(options.timing, `${path}.timing`, { name: this.#name });
    }
    this.#exchanges.push({
      exchange: { trigger: matcher, steps: source, ...options },
      steps: null,
    });
    return this;
  }

  /** Frames to write as soon as the process starts. */
  onConnect(...frames: Frame[]): this {
    for (const frame of frames) {
      const step: Step = { kind: "emit", frame };
      validateStep(step, `onConnect[${this.#onConnect.length}]`, BUILD(this.#name));
      this.#onConnect.push(step);
    }
    return this;
  }

  /**
   * What user messages no exchange matches get (see {@linkcode UnmatchedStrategy}):
   * `"error"` (default: an error result naming the message, the open triggers and the
   * closest exchange), `"warn"` (that text as a warning on stderr, and a default reply),
   * `{ reply: "text" }`, an array of steps, or a function `(prompt, turn)` returning one of
   * those. Any other string is a `TypeError`: a reply text is `{ reply }`.
   *
   * @example A warning instead of an error, and a reply
   * ```ts
   * import { ScenarioBuilder } from "@x/claude-mock";
   * const lenient = new ScenarioBuilder().on("hi").respond("Hello!").onUnmatched("warn").build();
   * const polite = new ScenarioBuilder().onUnmatched({ reply: "Sorry?" }).build();
   * console.log(lenient.unmatched, Array.isArray(polite.unmatched)); // warn true
   * try {
   *   new ScenarioBuilder().onUnmatched("Sorry?" as "warn");
   * } catch (error) {
   *   console.log((error as Error).message);
   *   // Cannot build scenario: 'unmatched' must be "error", "warn", {reply}, an array of steps
   *   // or a function, got the string "Sorry?" (to answer with a text: onUnmatched({ reply: "Sorry?" }))
   * }
   * ```
   */
  onUnmatched(
    strategy: "error" | "warn" | { reply: string } | readonly Step[] | UnmatchedHandler,
  ): this {
    const what = `"error", "warn", {reply}, an array of steps or a function`;
    if (strategy === "error" || strategy === "warn") this.#unmatched = strategy;
    else if (typeof strategy === "string") {
      fail(
        TypeError,
        this.#name,
        "unmatched",
        `must be ${what}, got the string ${
          show(strategy)
        } (to answer with a text: onUnmatched({ reply: ${show(strategy)} }))`,
      );
    } else if (typeof strategy === "function") {
      this.#unmatched = strategy;
    } else if (Array.isArray(strategy)) {
      strategy.forEach((step, i) => validateStep(step, `unmatched[${i}]`, BUILD(this.#name)));
      this.#unmatched = [...strategy];
    } else if (isRecord(strategy) && !Array.isArray(strategy)) {
      const reply = (strategy as { reply?: unknown }).reply;
      for (const key of Object.keys(strategy)) {
        if (key !== "reply") {
          fail(
            TypeError,
            this.#name,
            `unmatched.${key}`,
            "is not an onUnmatched field (only reply)",
          );
        }
      }
      if (typeof reply !== "string") {
        fail(TypeError, this.#name, "unmatched.reply", `must be a string, got ${kindOf(reply)}`);
      }
      const steps: Step[] = [{ kind: "message", parts: [text(reply)] }];
      recordReply(steps, reply);
      this.#unmatched = steps;
    } else {
      fail(TypeError, this.#name, "unmatched", `must be ${what}, got ${kindOf(strategy)}`);
    }
    return this;
  }

  /**
   * The process crashes (exits with `code`, default 1, from 1 to 255) at a point given by
   * meaning or by frames (see {@linkcode CrashPoint}): `crashAfter(n, code?)` right after n
   * frames; `crashAfter({ assistantMessages: 2 })` right after the second assistant
   * message; `crashAfter({ beforeToolResult: true })` just before the first tool result;
   * `crashAfter({ midStream: 5 })` five stream events into the first assistant message
   * (with `assistantMessages: n`, into the message after the nth). The code goes in the
   * object or as the second argument, not both.
   *
   * @example Crashing before the tool result
   * ```ts
   * import { ScenarioBuilder } from "@x/claude-mock";
   * const scenario = new ScenarioBuilder()
   *   .on("deploy").usesBash("make deploy", { stdout: "ok" }).respond("Deployed.")
   *   .crashAfter({ beforeToolResult: true }, 3)
   *   .build();
   * console.log(scenario.crashAfter); // { beforeToolResult: true, code: 3 }
   * ```
   */
  crashAfter(point: number | CrashPoint, code?: number): this {
    let crashAfter: CrashPoint;
    if (typeof point === "number") crashAfter = { frames: point, code: code ?? 1 };
    else {
      checkObject(point, this.#name, "crashAfter", "crashAfter() point");
      if (code !== undefined && point.code !== undefined) {
        fail(
          TypeError,
          this.#name,
          "crashAfter.code",
          `is given twice (${point.code} in the point, ${code} as the second argument): give it once`,
        );
      }
      crashAfter = { ...point, code: point.code ?? code ?? 1 };
    }
    validateScenario({ name: this.#name, exchanges: [], crashAfter });
    this.#options.crashAfter = crashAfter;
    return this;
  }

  /** The process exits with `code` (an integer from 0 to 255) when stdin closes. */
  withExitCode(code: number): this {
    validateScenario({ name: this.#name, exchanges: [], exitCode: code });
    this.#options.exitCode = code;
    return this;
  }

  /** Sets the session's timing profile. */
  timing(profile: Timing): this {
    validateTiming(profile, "timing", { name: this.#name });
    this.#options.timing = profile;
    return this;
  }

  /** Turns stream events on or off regardless of the SDK's flag. */
  partialMessages(on = true): this {
    checkBoolean(on, this.#name, "partialMessages");
    this.#options.partialMessages = on;
    return this;
  }

  /**
   * Makes each exchange's steps the turn's whole output: no state changes, init frame, hook
   * calls or result of the engine's own (what `tapeToScenario` makes from a recording).
   */
  verbatim(on = true): this {
    checkBoolean(on, this.#name, "verbatim");
    this.#options.verbatim = on;
    return this;
  }

  /** The finished scenario, checked with {@linkcode validateScenario}. */
  build(): Scenario {
    const exchanges = this.#exchanges.map(({ exchange, steps }) =>
      steps ? { ...exchange, steps: [...steps] } : { ...exchange }
    );
    return validateScenario({
      ...this.#options,
      onConnect: [...this.#onConnect],
      exchanges,
      ...(this.#unmatched !== undefined ? { unmatched: this.#unmatched } : {}),
    });
  }
}
