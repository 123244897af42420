/**
 * The error the library's assertion helpers throw.
 *
 * @module
 */

/**
 * Thrown by assertion helpers (`assertWrote`, `assertAsked`, ...). Named
 * `AssertionError` like `node:assert`'s and `@std/assert`'s, so test runners show it the
 * same way; the message says what was expected and lists what actually happened.
 *
 * @example Catching an assertion failure
 * ```ts
 * import { AssertionError } from "@x/claude-mock";
 * try {
 *   throw new AssertionError("Expected a write matching /hello/; got 0 writes");
 * } catch (error) {
 *   if (!(error instanceof AssertionError)) throw error;
 * }
 * ```
 */
export class AssertionError extends Error {
  /** Creates the error. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "AssertionError";
  }
}
