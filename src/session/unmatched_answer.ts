/**
 * What a user message that no exchange matched gets, from the scenario's `unmatched`
 * strategy (see `UnmatchedStrategy`): the error result (`undefined` here), a warning and the
 * default reply, steps, or what the scenario's function decides.
 *
 * @module
 */

import { text } from "../builders/assistant.ts";
import type { Step, StepSource, TurnInfo } from "../scenario/step.ts";
import { isObject } from "../wire/frame.ts";
import type { Engine } from "./engine.ts";
import { TurnFailure, type TurnState } from "./turn_state.ts";

/** The reply of the `"warn"` strategy (the fake binary's reply without a scenario). */
const WARN_REPLY = "Hello! How can I help?";

/**
 * The steps that answer an unmatched `turn`, or `undefined` for the error result. A
 * function's answer that is not one is a `TurnFailure` naming what came back.
 */
export async function unmatchedAnswer(
  engine: Engine,
  turn: TurnState,
  info: TurnInfo,
): Promise<StepSource | undefined> {
  const strategy = engine.scenario.unmatched ?? "error";
  let answer: unknown = strategy;
  const name = engine.scenario.name;
  const where = () =>
    `the onUnmatched function (${name ? `scenario '${name}', ` : ""}user message ${
      JSON.stringify(cut(turn.text))
    }, turn ${turn.index + 1})`;
  if (typeof strategy === "function") {
    try {
      answer = await strategy(turn.text, info);
    } catch (error) {
      throw new TurnFailure(
        `claude-mock: ${where()} threw: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  if (answer === undefined || answer === "error") return undefined;
  if (answer === "warn") {
    engine.warn(
      `claude-mock: warning: ${
        engine.picker.unmatchedMessage(turn.text, turn.index, turn.input)
          .replace(/^claude-mock: /, "")
      }; answered with ${JSON.stringify(WARN_REPLY)}`,
    );
    return [{ kind: "message", parts: [text(WARN_REPLY)] }];
  }
  if (Array.isArray(answer)) {
    // the scenario's own steps were checked when it was built; a function's are checked as
    // they run
    return answer === strategy ? answer as Step[] : () => answer as Step[];
  }
  if (isObject(answer)) {
    const keys = Object.keys(answer);
    if (typeof answer.reply === "string" && keys.length === 1) {
      return [{ kind: "message", parts: [text(answer.reply)] }];
    }
    const steps = answer as unknown as Iterable<Step> & AsyncIterable<Step>;
    const iterable = typeof steps[Symbol.iterator] === "function" ||
      typeof steps[Symbol.asyncIterator] === "function";
    if (iterable) return () => steps;
  }
  const got = typeof answer === "string"
    ? `the string ${JSON.stringify(cut(answer))}`
    : isObject(answer)
    ? `an object with ${Object.keys(answer).map((k) => `'${k}'`).join(", ") || "no fields"}`
    : answer === null
    ? "null"
    : `a ${typeof answer}`;
  throw new TurnFailure(
    `claude-mock: ${where()} returned ${got}: it must return { reply: "text" } to answer with a text, steps, "warn" or "error"`,
  );
}

function cut(s: string): string {
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}
