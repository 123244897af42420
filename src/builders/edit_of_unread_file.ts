/**
 * An Edit's result when the session had not read the file, as the real CLI 2.1.328 writes it.
 *
 * @module
 */

import { FRESH_NOTE, type ToolCallResult } from "./tools.ts";

/**
 * An Edit's result as the real CLI writes it when the session had not read the file (or
 * written or edited it) before: no note that the file state is current, and
 * `contentNotInModelContext: true` last in `tool_use_result`.
 * Other results are returned as they are.
 *
 * @example An edit of a file the model never read
 * ```ts
 * import { createBuildContext, editTool } from "@x/claude-mock/builders";
 * import { editOfUnreadFile } from "./edit_of_unread_file.ts";
 * const ctx = createBuildContext({ seed: 1 });
 * const { result } = editTool(ctx, "/p/a.txt", { oldString: "a", newString: "b" });
 * console.log(editOfUnreadFile(result).content); // The file /p/a.txt has been updated successfully.
 * ```
 */
export function editOfUnreadFile(result: ToolCallResult): ToolCallResult {
  const tur = result.toolUseResult;
  if (
    result.isError || typeof result.content !== "string" ||
    !result.content.endsWith(` ${FRESH_NOTE}`) || typeof tur !== "object" || tur === null ||
    !("originalFile" in tur)
  ) {
    return result;
  }
  return {
    ...result,
    content: result.content.slice(0, -FRESH_NOTE.length - 1),
    toolUseResult: { ...tur, contentNotInModelContext: true },
  };
}
