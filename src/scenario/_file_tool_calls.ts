/**
 * The scripted calls of the file tools (Read, Write, Edit): the call, its results for another
 * input and for the file's content as the session knows it, and its scenario-file form.
 * Internal.
 *
 * @internal
 * @module
 */

import type { BuildContext } from "../builders/build_context.ts";
import { editTool, readTool, writeTool } from "../builders/tools.ts";
import { notebookEditTool, type NotebookEditToolOptions } from "../builders/notebook_edit.ts";
import type { RecordedForm } from "./_json_forms.ts";
import type { ScriptedToolCall } from "./step.ts";

/** What a `uses*` helper adds: the call, its other results, its file form. @internal */
export interface ToolCallSpec {
  /** Builds the call when the step runs. */
  make: (ctx: BuildContext) => ScriptedToolCall;
  /** The result for another input. */
  rerun?: ScriptedToolCall["rerun"];
  /** The result for the file's content as the session knows it. */
  onFile?: ScriptedToolCall["onFile"];
  /** The step's scenario-file form. */
  form: RecordedForm;
}

/** `o` without its undefined fields (a step's file form keeps only what was given). @internal */
export function present<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

const count = (value: unknown, fallback: number | undefined) =>
  typeof value === "number" ? value : fallback;

/** A Read of `filePath` (its content, or `null` for a missing file; a part of it). @internal */
export function readCall(
  filePath: string,
  read: { content: string | null; offset?: number; limit?: number },
): ToolCallSpec {
  const part = (offset: number | undefined, limit: number | undefined) => ({
    content: read.content,
    ...(offset !== undefined ? { offset } : {}),
    ...(limit !== undefined ? { limit } : {}),
  });
  const asked = part(read.offset, read.limit);
  // a notebook's result does not carry its text: the call does, for an edit of it
  const notebook = filePath.endsWith(".ipynb") && read.content !== null;
  return {
    make: (ctx) => ({
      ...readTool(ctx, filePath, asked),
      ...(notebook ? { fileContent: read.content as string } : {}),
    }),
    rerun: (input, ctx) =>
      readTool(
        ctx,
        String(input.file_path ?? filePath),
        part(count(input.offset, read.offset), count(input.limit, read.limit)),
      ).result,
    form: { read: { path: filePath, ...asked } },
  };
}

/**
 * An Edit: its results for another input, and (without the file's content before the edit) for
 * the content the session's tools last showed of the file. @internal
 */
export function editCall(
  filePath: string,
  edit: { oldString: string; newString: string; replaceAll?: boolean; originalFile?: string },
): ToolCallSpec {
  const edited = (input: Record<string, unknown>, ctx: BuildContext, original?: string) =>
    editTool(ctx, String(input.file_path ?? filePath), {
      oldString: typeof input.old_string === "string" ? input.old_string : edit.oldString,
      newString: typeof input.new_string === "string" ? input.new_string : edit.newString,
      replaceAll: typeof input.replace_all === "boolean" ? input.replace_all : edit.replaceAll,
      ...(original !== undefined ? { originalFile: original } : {}),
    }).result;
  return {
    make: (ctx) => editTool(ctx, filePath, edit),
    rerun: (input, ctx) => edited(input, ctx, edit.originalFile),
    ...(edit.originalFile === undefined
      ? { onFile: (content, input, ctx) => edited(input, ctx, content) }
      : {}),
    form: { edit: { path: filePath, ...edit } },
  };
}

/**
 * A Write: its results for another input, and (without the file's content before the write) for
 * the content the session's tools last showed of the file: the real CLI updates a file that
 * exists (read or not), with its old content as `originalFile` (2.1.328, 2.1.332). @internal
 */
export function writeCall(
  filePath: string,
  write: { content: string; originalFile?: string | null },
): ToolCallSpec {
  const written = (input: Record<string, unknown>, ctx: BuildContext, original?: string | null) =>
    writeTool(ctx, String(input.file_path ?? filePath), {
      content: typeof input.content === "string" ? input.content : write.content,
      ...(original !== undefined ? { originalFile: original } : {}),
    }).result;
  return {
    make: (ctx) => writeTool(ctx, filePath, write),
    rerun: (input, ctx) => written(input, ctx, write.originalFile),
    ...(write.originalFile === undefined
      ? { onFile: (content, input, ctx) => written(input, ctx, content) }
      : {}),
    form: { write: { path: filePath, ...write } },
  };
}

/** A NotebookEdit's options in a scenario: the edit; the notebook comes from the session. */
export type NotebookEditCallOptions = Omit<NotebookEditToolOptions, "notebook" | "id">;

/**
 * A NotebookEdit: it starts from the notebook the session's Read (or Write, or edit) last showed;
 * without one, the CLI's "read it first" error (2.1.332). @internal
 */
export function notebookEditCall(path: string, options: NotebookEditCallOptions): ToolCallSpec {
  const { cellId, newSource, cellType, editMode } = options;
  const edit = present({ cellId, newSource, cellType, editMode });
  const str = (value: unknown, fallback: string | undefined) =>
    typeof value === "string" ? value : fallback;
  const asked = (input: Record<string, unknown>, notebook: string | null) =>
    present({
      notebook,
      cellId: str(input.cell_id, edit.cellId),
      newSource: str(input.new_source, edit.newSource) as string,
      cellType: str(input.cell_type, edit.cellType) as NotebookEditCallOptions["cellType"],
      editMode: str(input.edit_mode, edit.editMode) as NotebookEditCallOptions["editMode"],
    });
  const at = (input: Record<string, unknown>) => str(input.notebook_path, path) as string;
  return {
    make: (ctx) => notebookEditTool(ctx, path, { ...edit, notebook: null }),
    rerun: (input, ctx) => notebookEditTool(ctx, at(input), asked(input, null)).result,
    onFile: (content, input, ctx) => notebookEditTool(ctx, at(input), asked(input, content)).result,
    form: { notebookEdit: { path, ...edit } },
  };
}
