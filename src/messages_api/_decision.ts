/**
 * What a scenario Messages API answers a request with: a reply (streamed or whole, perhaps
 * broken as a failure scripts it) or an error in the API's shape. Internal.
 *
 * @internal
 * @module
 */

import type { Scenario } from "../scenario/scenario.ts";
import type { FailureAnswer } from "./_failure_answers.ts";
import type { Reply } from "./_reply_body.ts";

/** What answers a request. */
export type Decision =
  /** A reply, streamed or whole; `failure` breaks it (or replaces it) as scripted. */
  | {
    kind: "reply";
    reply: Reply;
    stream: boolean;
    delayMs: number;
    timing?: Scenario["timing"];
    failure?: { name: string; answer: FailureAnswer };
  }
  /** An error in the API's shape. */
  | { kind: "error"; status: number; type: string; message: string; failure?: string };

/** An error in the API's shape (its type from the status unless given). */
export function apiError(
  status: number,
  message: string,
  type?: string,
): Extract<Decision, { kind: "error" }> {
  return { kind: "error", status, type: type ?? errorType(status), message };
}

function errorType(status: number): string {
  return status === 404 ? "not_found_error" : status >= 500 ? "api_error" : "invalid_request_error";
}
