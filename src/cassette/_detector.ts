/**
 * What a detector of `scrubTape` and `lintTape` is: something to find in text, and what
 * replaces it. Internal.
 *
 * @module
 */

/** What a detector finds. */
export type DetectorCode = "secret" | "path" | "host";

/** One thing to find in text, and what replaces it. */
export interface Detector {
  /** What kind of leak it is. */
  code: DetectorCode;
  /** What it finds, for messages (`"an API key"`, `"the cwd /work/x"`). */
  what: string;
  /** The pattern, with the `g` flag. */
  pattern: RegExp;
  /** The replacement (as `String.prototype.replace` takes it). */
  replace: string | ((match: string, ...groups: string[]) => string);
}
