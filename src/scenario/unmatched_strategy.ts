/**
 * {@linkcode UnmatchedStrategy}: what a user message that no exchange matches gets, named
 * as msw names its `onUnhandledRequest` strategies.
 *
 * @module
 */

import type { Step, TurnInfo } from "./step.ts";

/**
 * What an {@linkcode UnmatchedHandler} answers for one unmatched user message:
 *
 * - `{ reply: "text" }`: the assistant says the text (a success result follows);
 * - steps (an array, or any iterable or async iterable): the answer, checked as they run;
 * - `"error"` or `undefined`: the default error result;
 * - `"warn"`: a warning and the default reply.
 *
 * Anything else (a bare string too: write `{ reply }`) fails the turn with an error result
 * that says so.
 *
 * @example Answers
 * ```ts
 * import type { UnmatchedAnswer } from "@x/claude-mock";
 * const answers: UnmatchedAnswer[] = [{ reply: "Sorry?" }, "warn", undefined];
 * console.log(answers.length); // 3
 * ```
 */
export type UnmatchedAnswer =
  | { reply: string }
  | Iterable<Step>
  | AsyncIterable<Step>
  | "error"
  | "warn"
  | undefined;

/**
 * Decides what one unmatched user message gets, from its text and turn: an
 * {@linkcode UnmatchedAnswer}, or a promise of one. A handler that throws fails the turn with
 * an error result naming it.
 *
 * @example Answering questions, failing the rest
 * ```ts
 * import type { UnmatchedHandler } from "@x/claude-mock";
 * const handler: UnmatchedHandler = (prompt) =>
 *   prompt.endsWith("?") ? { reply: "I do not know." } : "error";
 * console.log(handler("why?", {} as never)); // { reply: "I do not know." }
 * ```
 */
export type UnmatchedHandler = (
  prompt: string,
  turn: TurnInfo,
) => UnmatchedAnswer | Promise<UnmatchedAnswer>;

/**
 * What user messages no exchange matches get (a scenario's `unmatched`):
 *
 * - `"error"` (default): an `error_during_execution` result naming the message, the open
 *   triggers and the closest exchange, so the SDK throws and the test fails with a reason;
 * - `"warn"`: the same text as a warning on stderr (`console.warn`; the fake binary's
 *   stderr), and the default reply `Hello! How can I help?` with a success result;
 * - steps: the answer (`onUnmatched({ reply })` makes a reply step);
 * - an {@linkcode UnmatchedHandler}: decides per message.
 *
 * @example The strategies
 * ```ts
 * import type { UnmatchedStrategy } from "@x/claude-mock";
 * const strategies: UnmatchedStrategy[] = ["error", "warn", (prompt) => ({ reply: prompt })];
 * console.log(strategies.length); // 3
 * ```
 */
export type UnmatchedStrategy = "error" | "warn" | readonly Step[] | UnmatchedHandler;
