/**
 * A NotebookEdit call: a cell of a Jupyter notebook replaced, inserted or deleted, with the
 * result the real CLI writes (2.1.332).
 *
 * @module
 */

import type { BuildContext } from "./build_context.ts";
import { checkString, describe } from "./_common.ts";
import type { ToolCall, ToolCallResult } from "./tools.ts";

/** How NotebookEdit changes the notebook (`edit_mode`). */
export type NotebookEditMode = "replace" | "insert" | "delete";

/** Options for {@linkcode notebookEditTool}. */
export interface NotebookEditToolOptions {
  /**
   * The notebook file before the edit, as the session read it; `null` when the session has
   * not read it (the result is the CLI's "read it first" error).
   */
  notebook: string | null;
  /** The cell edited, or the one an inserted cell follows (none: inserted first). */
  cellId?: string;
  /** The cell's new source. */
  newSource: string;
  /** `cell_type`: `code` or `markdown` (an inserted cell's type; default `code`). */
  cellType?: "code" | "markdown";
  /** `edit_mode` (default `replace`). */
  editMode?: NotebookEditMode;
  /** The tool use id (default: drawn from the context). */
  id?: string;
}

type Json = Record<string, unknown>;

/** An input validation error: no `tool_result_meta`, before hooks and permissions. */
function refused(message: string): ToolCallResult {
  return {
    content: `<tool_use_error>${message}</tool_use_error>`,
    isError: true,
    toolUseResult: `Error: ${message}`,
    permissionDecision: null,
  };
}

/**
 * A NotebookEdit call: input `{notebook_path, cell_id?, new_source, cell_type?, edit_mode?}`;
 * the result says what changed (`Updated cell c1 with …`, `Inserted cell <id> with …`,
 * `Deleted cell c1`) with `tool_use_result: {new_source, old_source, cell_type, language,
 * edit_mode, cell_id, error, notebook_path, original_file, updated_file}`, the notebook written
 * back as `JSON.stringify(notebook, null, 1)`. A notebook the session has not read, or a cell id
 * it does not have, is the CLI's input error. An inserted cell's id is drawn from the context
 * (the real CLI's is random).
 *
 * @example Replacing a cell
 * ```ts
 * import { createBuildContext, notebookEditTool } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const notebook = JSON.stringify({ cells: [{ cell_type: "code", id: "c1", source: ["1"] }] });
 * const call = notebookEditTool(ctx, "/p/nb.ipynb", { notebook, cellId: "c1", newSource: "2" });
 * console.log(call.result.content); // Updated cell c1 with 2
 * ```
 */
export function notebookEditTool(
  ctx: BuildContext,
  notebookPath: string,
  options: NotebookEditToolOptions,
): ToolCall {
  const where = `notebookEditTool("${notebookPath}")`;
  checkString(notebookPath, "notebookEditTool()", "the notebook path");
  checkString(options?.newSource, where, "options.newSource");
  const mode = options.editMode ?? "replace";
  if (!["replace", "insert", "delete"].includes(mode)) {
    throw new RangeError(
      `${where}: options.editMode must be replace, insert or delete, got ${describe(mode)}`,
    );
  }
  const input: Json = { notebook_path: notebookPath };
  if (options.cellId !== undefined) {
    checkString(options.cellId, where, "options.cellId");
    input.cell_id = options.cellId;
  }
  input.new_source = options.newSource;
  if (options.cellType !== undefined) input.cell_type = options.cellType;
  if (options.editMode !== undefined) input.edit_mode = options.editMode;
  if (options.id !== undefined) checkString(options.id, where, "options.id");
  const block = {
    type: "tool_use" as const,
    id: options.id ?? ctx.ids.toolUseId(),
    name: "NotebookEdit",
    input,
  };
  if (options.notebook === null) {
    return {
      block,
      result: refused("File has not been read yet. Read it first before writing to it."),
    };
  }
  checkString(options.notebook, where, "options.notebook");
  return { block, result: edited(ctx, options.notebook, { input, mode, options }) };
}

function edited(
  ctx: BuildContext,
  original: string,
  { input, mode, options }: {
    input: Json;
    mode: NotebookEditMode;
    options: NotebookEditToolOptions;
  },
): ToolCallResult {
  let notebook: Json;
  try {
    notebook = JSON.parse(original);
  } catch {
    return refused("Notebook is not valid JSON.");
  }
  const cells = Array.isArray(notebook.cells) ? notebook.cells as Json[] : [];
  const at = options.cellId === undefined ? -1 : cells.findIndex((c) => c.id === options.cellId);
  if (options.cellId !== undefined && at < 0) {
    return refused(`Cell with ID "${options.cellId}" not found in notebook.`);
  }
  const info = (notebook.metadata as Json | undefined)?.language_info as Json | undefined;
  const language = typeof info?.name === "string" ? info.name : "python";
  const cellType = options.cellType ?? "code";
  let cellId = options.cellId ?? "";
  let oldSource: string | undefined;
  let said: string;
  if (mode === "insert") {
    cellId = ctx.ids.uuid().replaceAll("-", "").slice(0, 8);
    const cell: Json = { cell_type: cellType, id: cellId, source: options.newSource, metadata: {} };
    if (cellType === "code") Object.assign(cell, { execution_count: null, outputs: [] });
    cells.splice(at + 1, 0, cell);
    said = `Inserted cell ${cellId} with ${options.newSource}`;
  } else {
    const source = cells[at].source;
    oldSource = Array.isArray(source) ? source.join("") : String(source ?? "");
    if (mode === "delete") {
      cells.splice(at, 1);
      said = `Deleted cell ${cellId}`;
    } else {
      cells[at].source = options.newSource;
      said = `Updated cell ${cellId} with ${options.newSource}`;
    }
  }
  return {
    content: said,
    isError: false,
    toolUseResult: {
      new_source: options.newSource,
      ...(oldSource !== undefined ? { old_source: oldSource } : {}),
      cell_type: cellType,
      language,
      edit_mode: mode,
      cell_id: cellId,
      error: "",
      notebook_path: input.notebook_path,
      original_file: original,
      updated_file: `${JSON.stringify(notebook, null, 1)}\n`,
    },
  };
}
