/**
 * The error the library's assertion helpers throw.
 *
 * @module
 */

import { diffValues, formatValue } from "./_diff.ts";

/** Options for {@linkcode AssertionError}: the compared values, the operator, a cause. */
export interface AssertionErrorOptions extends ErrorOptions {
  /** What was there. With `expected`, the message gets a diff of the two. */
  actual?: unknown;
  /** What should have been there. */
  expected?: unknown;
  /**
   * The comparison that failed, as `node:assert` names it (default: `"deepStrictEqual"`
   * when `actual` and `expected` are given, else `"fail"`).
   */
  operator?: string;
}

const HEADERS: Record<string, string> = {
  deepStrictEqual: "Expected values to be strictly deep-equal:",
  deepEqual: "Expected values to be loosely deep-equal:",
  strictEqual: "Expected values to be strictly equal:",
  equal: "Expected values to be loosely equal:",
  partialDeepStrictEqual: "Expected values to be partially and strictly deep-equal:",
};

/**
 * Thrown by assertion helpers (`assertWrote`, `assertAsked`, ...). It is shaped like
 * `node:assert`'s `AssertionError` without loading `node:assert`: `name` `AssertionError`,
 * `code` `ERR_ASSERTION`, `actual`, `expected`, `operator` and `generatedMessage`, so test
 * runners that look for those (node:test, Vitest, Jest, Mocha, Deno's runner) report it
 * as an assertion failure. Given `actual` and `expected`, the message ends with a diff
 * (`+ actual - expected`, objects one field a line); without a message it is written
 * for you, as node:assert does. It is not `instanceof` node:assert's or `@std/assert`'s
 * class: check `error.name === "AssertionError"` or `instanceof` this one.
 *
 * @example Catching an assertion failure
 * ```ts
 * import { AssertionError } from "@x/claude-mock";
 * try {
 *   throw new AssertionError("Expected a write matching /hello/; got 0 writes");
 * } catch (error) {
 *   if (!(error instanceof AssertionError)) throw error;
 *   console.log(error.code, error.operator, error.generatedMessage); // ERR_ASSERTION fail false
 * }
 * ```
 *
 * @example A diff of two values
 * ```ts
 * import { AssertionError } from "@x/claude-mock";
 * const error = new AssertionError("The app's answer to Bash differs", {
 *   actual: { behavior: "deny", message: "no rm" },
 *   expected: { behavior: "allow" },
 *   operator: "deepStrictEqual",
 * });
 * console.log(error.message);
 * // The app's answer to Bash differs
 * //
 * // + actual - expected
 * //
 * //   {
 * // +   behavior: "deny",
 * // +   message: "no rm",
 * // -   behavior: "allow",
 * //   }
 * ```
 *
 * @example A generated message, as node:assert writes it
 * ```ts
 * import { AssertionError } from "@x/claude-mock";
 * const error = new AssertionError(undefined, { actual: 2, expected: 1, operator: "strictEqual" });
 * console.log(error.generatedMessage, error.message.split("\n")[0]);
 * // true Expected values to be strictly equal:
 * ```
 */
export class AssertionError extends Error {
  /** Whether the message was written by the error (no message was given). */
  readonly generatedMessage: boolean;
  /** Always `ERR_ASSERTION`, as node:assert's. */
  readonly code: "ERR_ASSERTION";
  /** What was there (`undefined` when not given). */
  readonly actual: unknown;
  /** What should have been there (`undefined` when not given). */
  readonly expected: unknown;
  /** The comparison that failed (`deepStrictEqual` or `fail` when not given). */
  readonly operator: string;

  /**
   * Creates the error. With both `options.actual` and `options.expected` the message
   * ends with their diff; without `message` it starts with what the operator expected.
   */
  constructor(message?: string, options: AssertionErrorOptions = {}) {
    const compared = "actual" in options && "expected" in options;
    const operator = typeof options.operator === "string"
      ? options.operator
      : compared
      ? "deepStrictEqual"
      : "fail";
    const generated = message === undefined || message === "";
    let text = generated ? "Assertion failed" : String(message);
    if (compared) {
      const lines = operator.startsWith("not")
        ? undefined
        : diffValues(options.actual, options.expected);
      if (generated) {
        text = lines === undefined
          ? `Expected the values to pass '${operator}', but they did not:`
          : HEADERS[operator] ?? `Expected the values to pass '${operator}':`;
      }
      text += lines === undefined
        ? `\n\nactual: ${formatValue(options.actual)}\nexpected: ${formatValue(options.expected)}`
        : `\n\n+ actual - expected\n\n${lines.join("\n")}`;
    }
    super(text, "cause" in options ? { cause: options.cause } : undefined);
    this.generatedMessage = generated;
    this.code = "ERR_ASSERTION";
    this.actual = options.actual;
    this.expected = options.expected;
    this.operator = operator;
  }
}

// on the prototype, as node:assert's: not an own (enumerable) field of each error
Object.defineProperty(AssertionError.prototype, "name", {
  value: "AssertionError",
  writable: true,
  configurable: true,
});
