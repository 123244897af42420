/**
 * `MockSession`: what a test reads from a transport's running session (`mock.session`).
 *
 * @module
 */

import type { ClientRequest } from "../session/control_channel.ts";
import type { Clock } from "../timing/clock.ts";
import type { Frame } from "../wire/frame.ts";

/**
 * What a test reads from a {@linkcode MockTransport}'s running session (`mock.session`):
 * what it wrote, what the client asked, which exchanges answered, the hooks' context. The
 * engine itself (`Session`: custom control handlers, raw requests, `kill`) is in
 * `@x/claude-mock/session`, where `sessionOf(mock)` hands it over.
 *
 * @example The exchanges a run used
 * ```ts
 * import { MockTransport, runQuery, ScenarioBuilder } from "@x/claude-mock";
 *
 * const mock = new MockTransport(
 *   new ScenarioBuilder().on("hi").respond("Hello!").on("bye").respond("Bye!").build(),
 * );
 * await runQuery(mock, "bye");
 * console.log(mock.session.exchangesMatched()); // [ 1 ]
 * console.log(mock.session.closed); // true
 * ```
 */
export interface MockSession {
  /** Whether the process has exited (or is exiting). */
  readonly closed: boolean;
  /** The session's clock (virtual by default). */
  readonly clock: Clock;
  /** For each turn so far, the index of the exchange that answered it (-1: none did). */
  exchangesMatched(): number[];
  /** The frames the session wrote (only with the transport's option `recordSent: true`). */
  sent(): Frame[];
  /** The control requests the client sent, with the answers given. */
  clientRequests(): ClientRequest[];
  /** Additional context hooks returned (PostToolUse, UserPromptSubmit, ...), in order. */
  hookContext(): string[];
}
