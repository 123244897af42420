/**
 * The results of a scripted Edit or Write beyond its own: for another input, and for the file's
 * content as the session knows it. Internal.
 *
 * @internal
 * @module
 */

import type { BuildContext } from "../builders/build_context.ts";
import { editTool, writeTool } from "../builders/tools.ts";
import type { ScriptedToolCall } from "./step.ts";

/**
 * An Edit's results for another input, and (without the file's content before the edit) for
 * the content the session's tools last showed of the file.
 *
 * @internal
 */
export function editResults(
  filePath: string,
  edit: { oldString: string; newString: string; replaceAll?: boolean; originalFile?: string },
): Required<Pick<ScriptedToolCall, "rerun">> & Pick<ScriptedToolCall, "onFile"> {
  const edited = (input: Record<string, unknown>, ctx: BuildContext, original?: string) =>
    editTool(ctx, String(input.file_path ?? filePath), {
      oldString: typeof input.old_string === "string" ? input.old_string : edit.oldString,
      newString: typeof input.new_string === "string" ? input.new_string : edit.newString,
      replaceAll: typeof input.replace_all === "boolean" ? input.replace_all : edit.replaceAll,
      ...(original !== undefined ? { originalFile: original } : {}),
    }).result;
  return {
    rerun: (input, ctx) => edited(input, ctx, edit.originalFile),
    ...(edit.originalFile === undefined
      ? { onFile: (content, input, ctx) => edited(input, ctx, content) }
      : {}),
  };
}

/**
 * A Write's results for another input, and (without the file's content before the write) for
 * the content the session's tools last showed of the file: the real CLI updates a file that
 * exists (read or not), with its old content as `originalFile` (2.1.328, 2.1.332).
 *
 * @internal
 */
export function writeResults(
  filePath: string,
  write: { content: string; originalFile?: string | null },
): Required<Pick<ScriptedToolCall, "rerun">> & Pick<ScriptedToolCall, "onFile"> {
  const written = (input: Record<string, unknown>, ctx: BuildContext, original?: string | null) =>
    writeTool(ctx, String(input.file_path ?? filePath), {
      content: typeof input.content === "string" ? input.content : write.content,
      ...(original !== undefined ? { originalFile: original } : {}),
    }).result;
  return {
    rerun: (input, ctx) => written(input, ctx, write.originalFile),
    ...(write.originalFile === undefined
      ? { onFile: (content, input, ctx) => written(input, ctx, content) }
      : {}),
  };
}
