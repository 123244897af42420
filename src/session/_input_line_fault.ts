// What the engine does with a stdin line it cannot take: the real CLI's stop at a line that is
// not JSON, and the mock's own limit on a line's length. Internal.
import type { WireError } from "../wire/wire_error.ts";

/**
 * The longest stdin line the engine takes, in characters: 64 MiB (the real CLI took a 17 MiB
 * user frame and answered "Prompt is too long"; the wire decoder's default is 16 MiB).
 */
export const STDIN_MAX_LINE_LENGTH: number = 64 * 1024 * 1024;

/**
 * What ends the process at a stdin line that did not decode (its stderr text), or `undefined`
 * to pass over it. The real CLI (2.1.328 to 2.1.332) stops at a line it cannot parse, with
 * `SyntaxError` (not JSON) or `TypeError` (`null`: it reads the value's `type`), and passes over
 * JSON that is only no frame (`[1]`, `{"a":1}`). A line over the engine's limit is the mock's
 * own refusal, said as such, never a line dropped in silence.
 */
export function inputLineFault(raw: string, error: WireError): string | undefined {
  if (error.reason.startsWith("line is longer")) {
    return `claude-mock: stdin line ${error.line} is longer than ${STDIN_MAX_LINE_LENGTH} ` +
      "characters, the most the mock takes in one stream-json line: the run ends\n";
  }
  const fault = error.reason.startsWith("not valid JSON")
    ? "SyntaxError"
    : raw.trim() === "null"
    ? "TypeError"
    : undefined;
  if (fault === undefined) return undefined;
  const type = /"type"\s*:\s*"([^"]*)"/.exec(raw)?.[1] ?? "unknown";
  return `Error parsing streaming input line (type=${type}, ${raw.length} chars): ${fault}\n`;
}
