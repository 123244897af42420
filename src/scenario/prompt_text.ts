/**
 * The prompt text of a user frame, as triggers see it. Internal: `frameText` is the
 * public way to get it.
 *
 * @module
 */

import type { Frame } from "../wire/frame.ts";

/**
 * The prompt text of a `user` frame: its string content, or its text blocks joined with
 * newlines; "" when it carries no text (an image, a malformed message). Triggers match
 * this, never the frame's raw JSON.
 *
 * @example A prompt with no text
 * ```ts
 * import { promptText } from "./prompt_text.ts";
 * console.log(JSON.stringify(promptText({ type: "user", message: { role: "user", content: [] } }))); // ""
 * ```
 */
export function promptText(frame: Frame): string {
  const content = (frame.message as { content?: unknown } | undefined)?.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  // the text blocks' texts joined with newlines (empty ones left out), without arrays
  let text: string | undefined;
  for (const b of content) {
    if (!b || typeof b !== "object" || typeof b.text !== "string" || b.text === "") continue;
    text = text === undefined ? b.text : `${text}\n${b.text}`;
  }
  return text ?? "";
}
