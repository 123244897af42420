/**
 * What the session knows of its files' contents: what its tools last showed of each (a whole
 * Read, a Write, an Edit applied), so that an Edit whose scenario did not say what the file
 * held before starts from that, as the real CLI starts from the file on disk.
 *
 * @module
 */

import type { ToolCallResult } from "../builders/tools.ts";
import type { ScriptedToolCall } from "../scenario/step.ts";

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
  if (tool === "NotebookEdit") {
    return typeof r.updated_file === "string" ? r.updated_file : undefined;
  }
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

/**
 * A file tool's result as the session's files make it: an Edit or Write whose scenario did not
 * say what the file held starts from what the session's tools last showed of it
 * (`fileContents`, by path); any other result is returned as it is.
 *
 * @example An Edit of a file the session read
 * ```ts
 * import { createBuildContext, editTool } from "@x/claude-mock/builders";
 * import { resultOnFile } from "./file_contents.ts";
 * const ctx = createBuildContext({ seed: 1 });
 * const call = {
 *   ...editTool(ctx, "/p/a.txt", { oldString: "x", newString: "y" }),
 *   onFile: (content: string) => editTool(ctx, "/p/a.txt", { oldString: "x", newString: "y", originalFile: content }).result,
 * };
 * const files = new Map([["/p/a.txt", "no such text"]]);
 * console.log(resultOnFile(files, call, call.block.input, ctx).isError); // true
 * ```
 */
export function resultOnFile(
  files: ReadonlyMap<string, string>,
  call: ScriptedToolCall,
  input: Record<string, unknown>,
  ctx: Parameters<NonNullable<ScriptedToolCall["onFile"]>>[2],
  result: ToolCallResult = call.result,
): ToolCallResult {
  const file = input.file_path ?? input.notebook_path;
  const content = typeof file === "string" ? files.get(file) : undefined;
  return call.onFile && content !== undefined ? call.onFile(content, input, ctx) : result;
}

/**
 * The error of a tool use whose input the tool refuses before anything else runs, as the
 * session's files make its result: an input validation error (an Edit whose `old_string` is
 * not in the file), which the real CLI writes before PreToolUse hooks and the permission
 * check, without `tool_result_meta` (2.1.328, 2.1.332). `undefined` for any other use.
 *
 * @example An Edit whose old_string is not in the file
 * ```ts
 * import { createBuildContext, editTool } from "@x/claude-mock/builders";
 * import { refusedInput } from "./file_contents.ts";
 * const ctx = createBuildContext({ seed: 1 });
 * const call = editTool(ctx, "/p/a.txt", { oldString: "x", newString: "y", originalFile: "z" });
 * console.log(refusedInput(new Map(), call, ctx)?.toolUseResult); // Error: String to replace not found in file.…
 * ```
 */
export function refusedInput(
  files: ReadonlyMap<string, string>,
  call: ScriptedToolCall,
  ctx: Parameters<NonNullable<ScriptedToolCall["onFile"]>>[2],
): ToolCallResult | undefined {
  const result = resultOnFile(files, call, call.block.input, ctx);
  return result.isError && result.permissionDecision === null ? result : undefined;
}
