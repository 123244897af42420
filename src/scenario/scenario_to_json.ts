/**
 * {@linkcode scenarioToJSON}: writes a {@linkcode Scenario} as a scenario file, for every
 * part of it that is data.
 *
 * @module
 */

import { isObject } from "../wire/frame.ts";
import type { ErrorClass } from "./_checks.ts";
import { kindOf } from "../wire/_kind_of.ts";
import {
  type RecordedForm,
  recordedMatcherForm,
  recordedReply,
  recordedStepForm,
} from "./_json_forms.ts";
import { any, contains, exact, glob, type Matcher, regex } from "./matcher.ts";
import type { Exchange, Scenario } from "./scenario.ts";
import {
  SCENARIO_SCHEMA_URL,
  type ScenarioFile,
  type StepFile,
  type TriggerFile,
} from "./scenario_file.ts";
import { isToolCall, type Step, type StepSource } from "./step.ts";
import { validateScenario } from "./validate_scenario.ts";

/**
 * The scenario file of `scenario` (see {@linkcode ScenarioFile}): `JSON.stringify` it to
 * save it, and {@linkcode scenarioFromJSON} loads it back into a scenario that runs the
 * same (the same frames, byte for byte, for the same input). The builder records how each
 * step was made, so a scenario from {@linkcode ScenarioBuilder} or from a file writes back
 * as the calls that made it; steps given as objects (`.steps(...)`, hand-made scenarios)
 * are written from their fields.
 *
 * Code cannot go into a file: a predicate trigger, a step function (`onLazy`, a function
 * given as `ifDenied` or `unmatched`), an emit frame built by a function, a request's
 * `onResponse`, a tool call object or part function given to `respond`, or a custom
 * {@linkcode Matcher} throw a `TypeError` naming the path. Matchers made by
 * {@linkcode contains}, {@linkcode exact}, {@linkcode regex}, {@linkcode glob} and
 * {@linkcode any} (and strings and RegExps given as triggers) are recognised by their kind
 * and description.
 *
 * @example Saving a built scenario
 * ```ts
 * import { ScenarioBuilder } from "@x/claude-mock";
 * import { scenarioToJSON } from "@x/claude-mock/scenario-file";
 * const scenario = new ScenarioBuilder({ name: "chat", seed: 7 })
 *   .on("hello").respond("Hello!")
 *   .on(/^read/i).usesRead("/home/user/project/a.txt", { content: "a", permission: "ask" })
 *   .build();
 * console.log(JSON.stringify(scenarioToJSON(scenario).exchanges));
 * // [{"on":"hello","steps":[{"say":"Hello!"}]},{"on":{"regex":"^read","flags":"i"},
 * //   "steps":[{"read":{"path":"/home/user/project/a.txt","content":"a"},"permission":"ask"}]}]
 * ```
 *
 * @example Code cannot be saved
 * ```ts
 * import { ScenarioBuilder } from "@x/claude-mock";
 * import { scenarioToJSON } from "@x/claude-mock/scenario-file";
 * const scenario = new ScenarioBuilder({ name: "x" })
 *   .on("a").respond("A")
 *   .on((text) => text.length > 100).respond("Long!")
 *   .build();
 * try {
 *   scenarioToJSON(scenario);
 * } catch (error) {
 *   console.log((error as Error).message);
 *   // Cannot save scenario 'x' as JSON: 'exchanges[1].trigger' is a predicate (code),
 *   // which a file cannot hold
 * }
 * ```
 */
export function scenarioToJSON(scenario: Scenario): ScenarioFile {
  validateScenario(scenario, { verb: "save" });
  return new Writer(scenario.name).scenario(scenario);
}

/** The top-level fields copied as data, in file order. */
const OPTION_KEYS = [
  "timing",
  "speedFactor",
  "partialMessages",
  "verbatim",
  "answers",
  "model",
  "models",
  "skills",
  "sessionId",
  "cwd",
  "tools",
  "permissions",
  "initialize",
  "compact",
  "live",
  "exitCode",
  "crashAfter",
] as const;

/** Turns a scenario into its file, naming the first part a file cannot hold. */
class Writer {
  #name: string | undefined;

  constructor(name: string | undefined) {
    this.#name = name;
  }

  scenario(s: Scenario): ScenarioFile {
    const file: Record<string, unknown> = { $schema: SCENARIO_SCHEMA_URL };
    if (s.name !== undefined) file.name = s.name;
    if (s.seed !== undefined) file.seed = this.#seed(s.seed);
    for (const key of OPTION_KEYS) {
      if (s[key] !== undefined) file[key] = this.plain(s[key], key);
    }
    const onConnect = this.#steps(s.onConnect ?? [], "onConnect");
    if (onConnect.length > 0) file.onConnect = onConnect;
    if (s.unmatched === "warn") file.unmatched = "warn";
    else if (s.unmatched !== undefined && s.unmatched !== "error") {
      if (typeof s.unmatched === "function") this.#code("unmatched", "a function");
      const reply = recordedReply(s.unmatched);
      file.unmatched = reply !== undefined ? { reply } : this.#steps(s.unmatched, "unmatched");
    }
    file.exchanges = s.exchanges.map((exchange, i) => this.#exchange(exchange, `exchanges[${i}]`));
    return file as ScenarioFile;
  }

  #fail(kind: ErrorClass, path: string, problem: string): never {
    const label = this.#name ? ` '${this.#name}'` : "";
    throw new kind(`Cannot save scenario${label} as JSON: '${path}' ${problem}`);
  }

  /** Code at `path`: `what` says which. */
  #code(path: string, what: string): never {
    this.#fail(TypeError, path, `is ${what} (code), which a file cannot hold`);
  }

  #seed(seed: bigint | number): number {
    if (typeof seed === "number") return seed;
    const n = Number(seed);
    if (!Number.isSafeInteger(n)) {
      this.#fail(
        RangeError,
        "seed",
        `is the bigint ${seed}, beyond the safe integers a JSON number holds`,
      );
    }
    return n;
  }

  #exchange(exchange: Exchange, path: string): Record<string, unknown> {
    const file: Record<string, unknown> = { on: this.trigger(exchange.trigger, `${path}.trigger`) };
    if (exchange.repeat !== undefined) file.repeat = exchange.repeat;
    if (exchange.maxMatches !== undefined) file.maxMatches = exchange.maxMatches;
    if (exchange.invocation !== undefined) file.invocation = exchange.invocation;
    if (exchange.timing !== undefined) file.timing = this.plain(exchange.timing, `${path}.timing`);
    file.steps = this.#steps(exchange.steps, `${path}.steps`);
    return file;
  }

  /** The file trigger of a matcher made by the library's matcher functions. */
  trigger(matcher: Matcher, path: string): TriggerFile {
    const recorded = recordedMatcherForm(matcher);
    if (recorded !== undefined) return recorded as TriggerFile;
    const quoted = (prefix: string): string | undefined => {
      if (!matcher.description.startsWith(prefix)) return undefined;
      try {
        const value: unknown = JSON.parse(matcher.description.slice(prefix.length));
        return typeof value === "string" ? value : undefined;
      } catch {
        return undefined;
      }
    };
    const same = (rebuilt: Matcher) =>
      rebuilt.kind === matcher.kind && rebuilt.description === matcher.description;
    switch (matcher.kind) {
      case "contains": {
        const needle = quoted("contains ");
        if (needle !== undefined && same(contains(needle))) return needle;
        break;
      }
      case "exact": {
        const expected = quoted("equals ");
        if (expected !== undefined && same(exact(expected))) return { exact: expected };
        break;
      }
      case "glob": {
        const pattern = quoted("matches glob ");
        if (pattern !== undefined && same(glob(pattern))) return { glob: pattern };
        break;
      }
      case "regex": {
        const m = /^matches \/(.*)\/([a-z]*)$/s.exec(matcher.description);
        if (!m) break;
        let re: RegExp;
        try {
          re = new RegExp(m[1], m[2]);
        } catch {
          break;
        }
        if (same(regex(re))) {
          return re.flags ? { regex: re.source, flags: re.flags } : { regex: re.source };
        }
        break;
      }
      case "any":
        if (same(any())) return { any: true };
        break;
      case "predicate":
        this.#code(path, "a predicate");
    }
    this.#code(path, `a custom Matcher (kind ${JSON.stringify(matcher.kind)})`);
  }

  #steps(source: StepSource, path: string): StepFile[] {
    if (typeof source === "function") this.#code(path, "a step function");
    return source.map((step, i) => this.step(step, `${path}[${i}]`));
  }

  step(step: Step, path: string): StepFile {
    const form = recordedStepForm(step);
    if (form) return this.#form(form, path);
    switch (step.kind) {
      case "emit": {
        if (typeof step.frame === "function") this.#code(`${path}.frame`, "a frame function");
        const file: Record<string, unknown> = { emit: this.plain(step.frame, `${path}.frame`) };
        if (step.delay !== undefined) file.delay = this.plain(step.delay, `${path}.delay`);
        return file as unknown as StepFile;
      }
      case "delay":
        return { delay: step.ms };
      case "raw":
        return { raw: step.line };
      case "result":
        return { result: this.plain(step.options, `${path}.options`) } as StepFile;
      case "exit":
        return { exit: step.code };
      case "crash": {
        const { kind: _, ...crash } = step;
        return { crash };
      }
      case "failure":
        return {
          failure: step.name,
          ...(step.message !== undefined ? { message: step.message } : {}),
        };
      case "apiError": {
        const { kind: _, ...apiError } = step;
        return { apiError: this.plain(apiError, path) } as StepFile;
      }
      case "waitForWrite": {
        const waitFor = this.trigger(step.matcher, `${path}.matcher`);
        return { waitFor, ...(step.timeoutMs !== undefined ? { timeoutMs: step.timeoutMs } : {}) };
      }
      case "request": {
        if (step.onResponse !== undefined) this.#code(`${path}.onResponse`, "a callback");
        const request = this.plain(step.request, `${path}.request`);
        return {
          request,
          ...(step.timeoutMs !== undefined ? { timeoutMs: step.timeoutMs } : {}),
        } as StepFile;
      }
      case "message":
        return this.#message(step, path);
    }
  }

  /** A message step given as an object: its content blocks become a `say` step. */
  #message(step: Step & { kind: "message" }, path: string): StepFile {
    for (const key of ["messageId", "inputChunks"] as const) {
      if (step[key] !== undefined) {
        this.#fail(
          TypeError,
          `${path}.${key}`,
          `is set on a message step given as an object, which a file cannot hold (use respond or the uses* helpers)`,
        );
      }
    }
    const parts = step.parts.map((part, i) => this.#part(part, `${path}.parts[${i}]`));
    const only = parts.length === 1 ? parts[0] : undefined;
    const say = isObject(only) && only.type === "text" && Object.keys(only).length === 2 &&
        typeof only.text === "string"
      ? only.text
      : parts;
    const file: Record<string, unknown> = { say };
    for (const key of ["delay", "outputTokens", "chunkSize", "chunks"] as const) {
      if (step[key] !== undefined) file[key] = this.plain(step[key], `${path}.${key}`);
    }
    return file as unknown as StepFile;
  }

  #part(part: unknown, path: string): unknown {
    if (typeof part === "function") this.#code(path, "a message part function");
    if (isToolCall(part)) {
      this.#code(path, "a tool call object (the uses* helpers make tool steps a file holds)");
    }
    return this.plain(part, path);
  }

  /** A recorded builder call: resolves its `ifDenied`, `together` and `say` parts. */
  #form(form: RecordedForm, path: string): StepFile {
    const file: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(form)) {
      const at = `${path}.${key}`;
      if (key === "ifDenied" && typeof value !== "string") {
        file[key] = this.#steps(value as StepSource, at);
      } else if (key === "together") {
        file[key] = (value as Step[]).map((step, i) => this.step(step, `${at}[${i}]`));
      } else if (key === "task" && Array.isArray((value as { tools?: unknown }).tools)) {
        const { tools, ...task } = value as { tools: Step[] };
        file[key] = {
          ...(this.plain(task, at) as object),
          tools: tools.map((step, i) => this.step(step, `${at}.tools[${i}]`)),
        };
      } else if (key === "say" && Array.isArray(value)) {
        file[key] = value.map((part, i) =>
          typeof part === "string" ? part : this.#part(part, `${at}[${i}]`)
        );
      } else file[key] = this.plain(value, at);
    }
    return file as unknown as StepFile;
  }

  /** A deep copy of JSON data; anything else (a function, a class instance, ...) is named. */
  plain(value: unknown, path: string): unknown {
    switch (typeof value) {
      case "string":
      case "boolean":
        return value;
      case "number":
        if (!Number.isFinite(value)) {
          this.#fail(RangeError, path, `is ${value}, which JSON cannot hold`);
        }
        return value;
      case "function":
        this.#code(path, "a function");
    }
    if (value === null) return null;
    if (Array.isArray(value)) {
      return value.map((item, i) => {
        if (item === undefined) this.#fail(TypeError, `${path}[${i}]`, "is undefined");
        return this.plain(item, `${path}[${i}]`);
      });
    }
    const proto = typeof value === "object" ? Object.getPrototypeOf(value) : undefined;
    if (typeof value !== "object" || (proto !== Object.prototype && proto !== null)) {
      const what = typeof value === "object"
        ? `a ${value.constructor?.name ?? "class"} object`
        : kindOf(value);
      this.#fail(TypeError, path, `is ${what}, which a file cannot hold`);
    }
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (item !== undefined) copy[key] = this.plain(item, `${path}.${key}`);
    }
    return copy;
  }
}
