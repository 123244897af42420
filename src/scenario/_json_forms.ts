/**
 * Internal: the file forms the builders record for what they build, so that
 * `scenarioToJSON` can write a built scenario back as a scenario file. Not part of the
 * public API.
 *
 * A step made by `respond`, a `uses*` helper or `usesTogether` cannot be turned back into
 * its file form from the step alone (its tool calls are functions of the build context),
 * so the builder records the call's arguments here, keyed by the step object. Other steps
 * (`emit`, `delay`, `sendRaw`, `thenResult`, ...) are data and need no record.
 *
 * @module
 */

import type { Matcher } from "./matcher.ts";
import type { Step } from "./step.ts";

/**
 * A step's file form as a builder call recorded it. It is the file step, except that
 * `ifDenied` holds what the call was given (a reply text, steps or a step function) and
 * `together` the inner tool steps: `scenarioToJSON` turns those into file steps (or names
 * the code a file cannot hold) when it writes the scenario.
 */
export type RecordedForm = Record<string, unknown>;

const stepForms = new WeakMap<Step, RecordedForm>();
const matcherForms = new WeakMap<Matcher, unknown>();
const replies = new WeakMap<readonly Step[], string>();

/** Records the file form of `step` (made by a builder call) and returns the step. */
export function recordStepForm<S extends Step>(step: S, form: RecordedForm): S {
  stepForms.set(step, form);
  return step;
}

/** The file form a builder call recorded for `step`, if any. */
export function recordedStepForm(step: Step): RecordedForm | undefined {
  return stepForms.get(step);
}

/** Records the file trigger `matcher` was made from (by the scenario file loader). */
export function recordMatcherForm(matcher: Matcher, form: unknown): Matcher {
  matcherForms.set(matcher, form);
  return matcher;
}

/** The file trigger recorded for `matcher`, if any. */
export function recordedMatcherForm(matcher: Matcher): unknown {
  return matcherForms.get(matcher);
}

/** Records that `steps` answer unmatched messages with the reply text `text`. */
export function recordReply(steps: readonly Step[], text: string): void {
  replies.set(steps, text);
}

/** The reply text `steps` were made from by `onUnmatched(text)`, if any. */
export function recordedReply(steps: readonly Step[]): string | undefined {
  return replies.get(steps);
}

/** Copies the fields of `from` whose values are defined, in the order of `keys`. */
export function defined(
  from: Record<string, unknown>,
  keys: readonly string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (from[key] !== undefined) out[key] = from[key];
  return out;
}

/** The options a `respond` call's file form keeps, in file order. */
export const RESPOND_FORM_KEYS: string[] = [
  "thinking",
  "delay",
  "outputTokens",
  "chunkSize",
  "chunks",
];
/** The options a `uses*` call's file form keeps beside the tool, in file order. */
export const TOOL_FORM_KEYS: string[] = [
  "say",
  "thinking",
  "permission",
  "ifDenied",
  "untilInterrupt",
  "delay",
  "outputTokens",
  "chunkSize",
  "inputChunks",
];
/** The options a `usesTogether` call's file form keeps, in file order. */
export const TOGETHER_FORM_KEYS: string[] = [
  "say",
  "thinking",
  "delay",
  "outputTokens",
  "chunkSize",
];
