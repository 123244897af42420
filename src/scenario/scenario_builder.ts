/**
 * `ScenarioBuilder`: a fluent way to write a {@linkcode Scenario}.
 *
 * @module
 */

import { text } from "../builders/assistant.ts";
import type { Timing } from "../timing/timing_profile.ts";
import type { Frame } from "../wire/frame.ts";
import { kindOf } from "./_checks.ts";
import { BUILD, checkBoolean, checkObject, fail, isRecord, triggerAt } from "./_builder_checks.ts";
import { ExchangeBuilder } from "./exchange_builder.ts";
import type { Trigger } from "./matcher.ts";
import type { Exchange, Scenario } from "./scenario.ts";
import type { Step, StepSource, TurnInfo } from "./step.ts";
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
  #unmatched: "error" | StepSource = "error";

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

  /** What unmatched user messages get: `error` (default), a text reply, or steps. */
  onUnmatched(answer: "error" | StepSource | string): this {
    if (typeof answer === "string") {
      if (answer === "error") this.#unmatched = "error";
      else {
        const steps: Step[] = [{ kind: "message", parts: [text(answer)] }];
        recordReply(steps, answer);
        this.#unmatched = steps;
      }
    } else if (typeof answer === "function") {
      this.#unmatched = answer;
    } else if (Array.isArray(answer)) {
      answer.forEach((step, i) => validateStep(step, `unmatched[${i}]`, BUILD(this.#name)));
      this.#unmatched = [...answer];
    } else {
      fail(
        TypeError,
        this.#name,
        "unmatched",
        `must be "error", a reply text, an array of steps or a step function, got ${
          kindOf(answer)
        }`,
      );
    }
    return this;
  }

  /** The process exits with `code` (default 1, from 1 to 255) right after `frames` frames. */
  crashAfter(frames: number, code = 1): this {
    const crashAfter = { frames, code };
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
      unmatched: this.#unmatched,
    });
  }
}
