/**
 * {@linkcode configureInterception}: what a query with no active mock does, as msw's
 * `onUnhandledRequest`.
 *
 * @module
 */

import {
  interceptionState,
  type UnhandledQuery,
  type UnhandledQueryStrategy,
} from "./_interception_state.ts";

export type { UnhandledQuery, UnhandledQueryStrategy };

/** Options for {@linkcode configureInterception}. */
export interface InterceptionOptions {
  /**
   * What the intercepted SDK does with a `query()` (or `startup()`, `prewarm()`) that finds
   * no active mock and brings no `spawnClaudeCodeProcess` of its own:
   * - `"error"` (default): it throws, naming the prompt and what to do;
   * - `"warn"`: it warns on `console.warn`, then runs the real CLI;
   * - `"bypass"`: it runs the real CLI, as if nothing intercepted it;
   * - a function: called with the query; it throws to refuse it, or returns to let it run.
   */
  onUnhandledQuery?: UnhandledQueryStrategy;
}

const STRATEGIES = ["error", "warn", "bypass"];

/**
 * Sets, for the whole process, what an intercepted query with no active mock does (see
 * {@linkcode InterceptionOptions}); returns the settings it replaced. A query that passes its
 * own `spawnClaudeCodeProcess`, or a fake binary (of `installFakeClaude()`, or the package's
 * bin) as its `pathToClaudeCodeExecutable`, is never unhandled: it runs as it asks.
 *
 * @example Let queries without a mock reach the real CLI
 * ```ts
 * import { configureInterception } from "@x/claude-mock";
 * const previous = configureInterception({ onUnhandledQuery: "bypass" });
 * console.log(previous.onUnhandledQuery); // error
 * configureInterception(previous);
 * ```
 *
 * @example Refusing with your own message
 * ```ts
 * import { configureInterception } from "@x/claude-mock";
 * const previous = configureInterception({
 *   onUnhandledQuery: (q) => {
 *     throw new Error(`no mock for ${q.call}(${JSON.stringify(q.prompt)})`);
 *   },
 * });
 * configureInterception(previous);
 * ```
 */
export function configureInterception(options: InterceptionOptions): Required<InterceptionOptions> {
  if (typeof options !== "object" || options === null) {
    throw new TypeError(
      `Cannot configure the interception: options must be an object, got ${
        options === null ? "null" : typeof options
      }`,
    );
  }
  const state = interceptionState();
  const previous = { onUnhandledQuery: state.onUnhandledQuery };
  const strategy = options.onUnhandledQuery;
  if (strategy !== undefined) {
    if (typeof strategy !== "function" && !STRATEGIES.includes(strategy)) {
      throw new TypeError(
        `Cannot configure the interception: onUnhandledQuery must be "error", "warn", "bypass" or a function, got ${
          JSON.stringify(strategy)
        }`,
      );
    }
    state.onUnhandledQuery = strategy;
  }
  return previous;
}
