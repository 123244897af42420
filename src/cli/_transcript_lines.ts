/**
 * What the fake binary keeps of a run in its transcript file (the project's
 * `<session id>.jsonl`): which lines, and the last API call's final usage. Internal.
 *
 * @module
 */

import type { ApiCallUsage } from "../builders/usage.ts";

/**
 * The transcript's lines with the last main-thread assistant line's usage made final (its
 * output tokens, which a stream's frames leave at 1), as the real CLI's transcript keeps it:
 * what a resumed session's `/compact` counts (`lastContext`).
 */
export function withFinalUsage(lines: string[], last: ApiCallUsage | undefined): string[] {
  if (last === undefined) return lines;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!lines[i].startsWith('{"type":"assistant"')) continue;
    const frame = JSON.parse(lines[i]);
    if (frame.parent_tool_use_id != null || !frame.message?.usage) continue;
    frame.message.usage = { ...frame.message.usage, output_tokens: last.outputTokens ?? 0 };
    lines[i] = JSON.stringify(frame);
    break;
  }
  return lines;
}

/**
 * Whether a transcript keeps a line: user and assistant messages, results, `system/init` and
 * compact boundaries (substring tests: no RegExp on the start-up path).
 */
export function transcribed(line: string): boolean {
  return line.startsWith('{"type":"user"') || line.startsWith('{"type":"assistant"') ||
    line.includes('"type":"result"') || line.includes('"subtype":"init"') ||
    line.includes('"subtype":"compact_boundary"');
}
