/**
 * What the session knows of its files' contents: what its tools last showed of each (a whole
 * Read, a Write, an Edit applied), so that an Edit whose scenario did not say what the file
 * held before starts from that, as the real CLI starts from the file on disk.
 *
 * @module
 */

import type { ToolCallResult } from "../builders/tools.ts";

/**
 * The content a tool's successful result shows the file `tool` worked on has now, or
 * `undefined` when it shows none (a partial Read, another tool, an error).
 *
 * @example A whole Read, then an Edit
 * ```ts
 * import { contentAfter } from "./file_contents.ts";
 * const read = { type: "text", file: { content: "a - b", startLine: 1, numLines: 1, totalLines: 1 } };
 * console.log(contentAfter("Read", { content: "", isError: false, toolUseResult: read })); // a - b
 * const edit = { originalFile: "a - b", oldString: "-", newString: "+", replaceAll: false };
 * console.log(contentAfter("Edit", { content: "", isError: false, toolUseResult: edit })); // a + b
 * ```
 */
export function contentAfter(tool: string, result: ToolCallResult): string | undefined {
  if (result.isError) return undefined;
  const r = result.toolUseResult as Record<string, unknown> | null;
  if (r === null || typeof r !== "object") return undefined;
  if (tool === "Read") {
    const file = r.file as Record<string, unknown> | undefined;
    const whole = file?.startLine === 1 && file.numLines === file.totalLines;
    return whole && typeof file?.content === "string" ? file.content : undefined;
  }
  if (tool === "Write") return typeof r.content === "string" ? r.content : undefined;
  if (tool === "Edit") {
    const { originalFile, oldString, newString, replaceAll } = r;
    if (
      typeof originalFile !== "string" || typeof oldString !== "string" ||
      typeof newString !== "string"
    ) return undefined;
    return replaceAll
      ? originalFile.split(oldString).join(newString)
      : originalFile.replace(oldString, () => newString);
  }
  return undefined;
}
