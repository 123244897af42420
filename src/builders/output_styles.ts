/**
 * The output styles the mock lists in the `initialize` answer, as the real CLI 2.1.328
 * reported them in the recordings.
 *
 * @module
 */

/** The output styles the `initialize` answer lists. */
export const OUTPUT_STYLES: readonly string[] = Object.freeze([
  "default",
  "Proactive",
  "Concise",
  "Explanatory",
  "Learning",
]);
