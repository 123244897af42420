/**
 * How far a session got through its scenario, for the end-of-test assertions of
 * `MockTransport` (`assertAllExchangesUsed`, `assertScenarioFinished`): which exchanges
 * answered how often, which prompts matched nothing, which crash points were not reached.
 * Each problem names the exchange, its trigger and the closest candidate.
 *
 * @module
 */

import type { Scenario } from "../scenario/scenario.ts";
import { AssertionError } from "./assertion_error.ts";
import { closestPrompt } from "./closest_exchange.ts";
import type { CrashWatch } from "./crash_watch.ts";
import { ExchangePicker } from "./exchange_picker.ts";

/** How many unmatched prompts a message lists. */
const LISTED = 10;

/** What the assertions read of a session's engine. */
export interface EngineProgress {
  /** Which exchanges answered, and the prompts. */
  readonly picker: ExchangePicker;
  /** The crash points, if any. */
  readonly crashes?: CrashWatch;
}

const engines = new WeakMap<object, EngineProgress>();

/** Remembers the engine behind `session` (called by the engine when its session starts). */
export function registerEngine(session: object, engine: EngineProgress): void {
  engines.set(session, engine);
}

/** What the assertions check, and how the message names the mock. */
export interface ProgressOptions {
  /** `true`: every exchange used up and every prompt matched; `false`: every exchange used. */
  finished: boolean;
  /** `MockTransport 'name'`. */
  who: string;
  /** Which run of the binary the session is (default 1). */
  invocation?: number;
}

/**
 * Throws an `AssertionError` listing what `session` (or, before it started, nothing) left
 * undone of `scenario`; returns quietly when nothing is.
 */
export function assertProgress(
  session: object | undefined,
  scenario: Scenario,
  options: ProgressOptions,
): void {
  const engine = session ? engines.get(session) : undefined;
  const picker = engine?.picker ?? new ExchangePicker(scenario, options);
  const prompts = picker.prompts();
  const problems: string[] = [];
  let unused = 0;
  let active = 0;
  scenario.exchanges.forEach((exchange, i) => {
    if (!picker.active(i)) return;
    active++;
    const used = picker.used(i);
    const done = options.finished ? (exchange.repeat ? used > 0 : picker.usedUp(i)) : used > 0;
    if (done) return;
    if (used === 0) unused++;
    const near = used === 0
      ? closestPrompt(exchange.trigger, prompts.map((p) => p.text))
      : undefined;
    let line = picker.describeUse(i);
    if (near) {
      const prompt = prompts[near.index];
      line += `; closest prompt: ${JSON.stringify(prompt.text)} (turn ${prompt.turn + 1}, ${
        prompt.index < 0 ? "which matched no exchange" : `answered by exchanges[${prompt.index}]`
      })`;
    }
    problems.push(line);
  });
  if (options.finished) {
    const missed = prompts.filter((p) => p.index < 0);
    for (const prompt of missed.slice(0, LISTED)) {
      const closest = picker.closestText(prompt.text);
      problems.push(
        `user message ${JSON.stringify(prompt.text)} (turn ${prompt.turn + 1}) matched no exchange${
          closest ? `; ${closest[0].toLowerCase()}${closest.slice(1)}` : ""
        }`,
      );
    }
    const more = picker.unmatchedCount - Math.min(missed.length, LISTED);
    if (more > 0) {
      problems.push(`${more} more user message${more === 1 ? "" : "s"} matched no exchange`);
    }
    const crashes = engine?.crashes;
    for (const what of crashes?.pending() ?? []) {
      const m = crashes!.messages;
      const t = crashes!.toolResults;
      problems.push(
        `${what} was never reached (${m} assistant message${
          m === 1 ? "" : "s"
        } and ${t} tool result${t === 1 ? "" : "s"} were written)`,
      );
    }
  }
  if (problems.length === 0) return;
  const never = session ? "" : " never ran (pass mock.spawn to the SDK or call connect())";
  const head = options.finished
    ? `${options.who}${never}: the scenario did not finish`
    : `${options.who}${never}: ${unused} of ${active} exchange${
      active === 1 ? " was" : "s were"
    } never used`;
  throw new AssertionError(`${head}:\n${problems.map((p) => `- ${p}`).join("\n")}`);
}

/** One run of a scenario (a process), for {@linkcode assertProgressAcross}. */
export interface ScenarioRun {
  /** The run's session. */
  session: object;
  /** Which run it is (1 for the first). */
  invocation: number;
}

/**
 * {@linkcode assertProgress} over several runs of one scenario (one per process, as the
 * interception starts one per `query()`): with `finished`, each run must have finished;
 * else each exchange must have answered in some run (an exchange scripted for an invocation
 * counts in that run only, and is unused when that run never came).
 */
export function assertProgressAcross(
  runs: readonly ScenarioRun[],
  scenario: Scenario,
  options: Omit<ProgressOptions, "invocation">,
): void {
  if (runs.length === 0) {
    throw new AssertionError(
      `${options.who}: no query ran, so no exchange was used (the code under test never called query())`,
    );
  }
  if (runs.length === 1) {
    return assertProgress(runs[0].session, scenario, { ...options, ...runs[0] });
  }
  if (options.finished) {
    const failed: string[] = [];
    runs.forEach((run, i) => {
      try {
        assertProgress(run.session, scenario, { ...options, invocation: run.invocation });
      } catch (error) {
        if (!(error instanceof AssertionError)) throw error;
        const lines = error.message.split("\n").slice(1).map((l) => `  ${l}`);
        failed.push(`query ${i + 1} of ${runs.length}:\n${lines.join("\n")}`);
      }
    });
    if (failed.length === 0) return;
    throw new AssertionError(
      `${options.who}: the scenario did not finish in ${failed.length} of ${runs.length} queries:\n${
        failed.join("\n")
      }`,
    );
  }
  const pickers = runs.map((run) =>
    engines.get(run.session)?.picker ?? new ExchangePicker(scenario, run)
  );
  const prompts = pickers.flatMap((picker, run) =>
    picker.prompts().map((prompt) => ({ ...prompt, run }))
  );
  const problems: string[] = [];
  scenario.exchanges.forEach((exchange, i) => {
    const used = pickers.some((picker) => picker.active(i) && picker.used(i) > 0);
    if (used) return;
    const picker = pickers.find((p) => p.active(i)) ?? pickers[0];
    let line = picker.describeUse(i);
    if (!pickers.some((p) => p.active(i))) line += `, which never ran (${runs.length} queries ran)`;
    const near = closestPrompt(exchange.trigger, prompts.map((p) => p.text));
    if (near) {
      const prompt = prompts[near.index];
      line += `; closest prompt: ${JSON.stringify(prompt.text)} (query ${prompt.run + 1}, turn ${
        prompt.turn + 1
      }, ${
        prompt.index < 0 ? "which matched no exchange" : `answered by exchanges[${prompt.index}]`
      })`;
    }
    problems.push(line);
  });
  if (problems.length === 0) return;
  const total = scenario.exchanges.length;
  throw new AssertionError(
    `${options.who}: ${problems.length} of ${total} exchange${
      total === 1 ? " was" : "s were"
    } never used in ${runs.length} queries:\n${problems.map((p) => `- ${p}`).join("\n")}`,
  );
}
