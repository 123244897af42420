/**
 * The error for a stream-json line that cannot be decoded into a frame.
 *
 * @module
 */

/** How many characters of the offending line {@linkcode WireError.snippet} shows. */
const SNIPPET_LENGTH = 80;

/** Options for {@linkcode WireError}. */
export interface WireErrorOptions {
  /** The 1-based line number of the offending line in its stream. */
  line: number;
  /** The offending line (or its start); the error keeps only a short snippet of it. */
  raw: string;
  /** The underlying error, such as the `SyntaxError` from `JSON.parse`. */
  cause?: unknown;
}

/**
 * A stream-json line that is not a frame: not valid JSON, not a JSON object with a string
 * `type`, or longer than the decoder allows. The message says which line, why, and shows
 * the start of the line, e.g.
 * `Cannot decode stream-json line 3: not valid JSON (Unexpected token ...) near "{oops"`.
 *
 * The NDJSON decoder does not throw these: it hands them out as values so that one bad
 * line does not end a stream.
 *
 * @example Reporting a bad line
 * ```ts
 * import { WireError } from "@x/claude-mock/wire";
 * const error = new WireError("not valid JSON", { line: 3, raw: "{oops" });
 * if (error.line !== 3 || error.snippet !== "{oops") throw new Error("unexpected");
 * console.log(error.message); // Cannot decode stream-json line 3: not valid JSON near "{oops"
 * ```
 */
export class WireError extends SyntaxError {
  /** The 1-based line number of the offending line in its stream. */
  readonly line: number;
  /**
   * The first 80 characters of the offending line, JSON-escaped so that control
   * characters and quotes are visible, with `…` appended when the line is longer.
   */
  readonly snippet: string;
  /** Why the line is not a frame, e.g. `not valid JSON (Unexpected end of JSON input)`. */
  readonly reason: string;

  /**
   * Creates the error; the message is built from `reason`, `options.line` and the start of
   * `options.raw`.
   *
   * @param reason Why the line is not a frame.
   * @param options Where the line is, and the line itself.
   */
  constructor(reason: string, options: WireErrorOptions) {
    const snippet = snippetOf(options.raw);
    super(
      `Cannot decode stream-json line ${options.line}: ${reason} near "${snippet}"`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "WireError";
    this.line = options.line;
    this.snippet = snippet;
    this.reason = reason;
  }
}

/** The start of `raw`, JSON-escaped, without splitting a surrogate pair. */
function snippetOf(raw: string): string {
  if (raw.length <= SNIPPET_LENGTH) return JSON.stringify(raw).slice(1, -1);
  let end = SNIPPET_LENGTH;
  const last = raw.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return JSON.stringify(raw.slice(0, end)).slice(1, -1) + "…";
}
