/**
 * `MockSdkOptions`: what `mock.options()` gives, the Agent SDK options that run `query()`
 * against a {@linkcode MockTransport}.
 *
 * @module
 */

import type { MockTransport } from "./mock_transport.ts";

/**
 * What `pathToClaudeCodeExecutable` is set to by `mock.options()`. The SDK never runs it (the
 * mock's spawn function replaces the process); it only stops the SDK from looking for its
 * optional native binary first.
 *
 * @example The placeholder
 * ```ts
 * import { MOCK_EXECUTABLE_PATH } from "@x/claude-mock";
 * console.log(MOCK_EXECUTABLE_PATH); // claude
 * ```
 */
export const MOCK_EXECUTABLE_PATH = "claude";

/**
 * The Agent SDK options for a mock session (`mock.options()`): spread them into `query()`'s
 * `options`. Without `pathToClaudeCodeExecutable` the SDK looks for its native `claude`
 * binary (an optional dependency) before it calls `spawnClaudeCodeProcess`, and refuses to
 * start when `npm install --omit=optional` left it out.
 *
 * @example Spreading them
 * ```ts
 * import { type MockSdkOptions, MockTransport, ScenarioBuilder } from "@x/claude-mock";
 * const mock = new MockTransport(new ScenarioBuilder().on("hi").respond("Hello!").build());
 * const options: MockSdkOptions = mock.options();
 * console.log(Object.keys({ ...options, maxTurns: 3 }));
 * // [ "spawnClaudeCodeProcess", "pathToClaudeCodeExecutable", "maxTurns" ]
 * ```
 */
export interface MockSdkOptions {
  /** The mock's spawn function ({@linkcode MockTransport.spawn}). */
  spawnClaudeCodeProcess: MockTransport["spawn"];
  /** {@linkcode MOCK_EXECUTABLE_PATH}: never run, it only keeps the SDK from its binary lookup. */
  pathToClaudeCodeExecutable: string;
}
