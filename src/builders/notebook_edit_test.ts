import assert from "node:assert/strict";
import { createBuildContext } from "./build_context.ts";
import { notebookEditTool } from "./notebook_edit.ts";

// As the real CLI 2.1.332 edited notebooks (conformance case files_notebook_edit).
const NOTEBOOK = `${
  JSON.stringify(
    {
      cells: [
        {
          cell_type: "code",
          execution_count: null,
          id: "c1",
          metadata: {},
          outputs: [],
          source: ["print(1)"],
        },
        { cell_type: "markdown", id: "m1", metadata: {}, source: ["# Title"] },
      ],
      metadata: { language_info: { name: "python" } },
      nbformat: 4,
      nbformat_minor: 5,
    },
    null,
    1,
  )
}\n`;

Deno.test("notebookEditTool: replace, insert, delete, as recorded", () => {
  const ctx = createBuildContext({ seed: 1 });
  const path = "/p/nb.ipynb";
  const replaced = notebookEditTool(ctx, path, {
    notebook: NOTEBOOK,
    cellId: "m1",
    newSource: "# New",
  });
  assert.deepEqual(replaced.block.input, {
    notebook_path: path,
    cell_id: "m1",
    new_source: "# New",
  });
  assert.equal(replaced.result.content, "Updated cell m1 with # New");
  const r = replaced.result.toolUseResult as Record<string, unknown>;
  // the cell keeps its type; the result says code unless cell_type was given
  assert.deepEqual(
    { ...r, original_file: undefined, updated_file: undefined },
    {
      new_source: "# New",
      old_source: "# Title",
      cell_type: "code",
      language: "python",
      edit_mode: "replace",
      cell_id: "m1",
      error: "",
      notebook_path: path,
      original_file: undefined,
      updated_file: undefined,
    },
  );
  assert.equal(r.original_file, NOTEBOOK);
  assert.match(
    String(r.updated_file),
    /"cell_type": "markdown",\n {3}"id": "m1",\n {3}"metadata": \{\},\n {3}"source": "# New"\n/,
  );
  const inserted = notebookEditTool(ctx, path, {
    notebook: NOTEBOOK,
    newSource: "import os",
    editMode: "insert",
  }).result.toolUseResult as Record<string, unknown>;
  const id = String(inserted.cell_id);
  assert.match(id, /^[0-9a-f]{8}$/);
  assert.equal("old_source" in inserted, false);
  const cells = JSON.parse(String(inserted.updated_file)).cells;
  assert.deepEqual(cells[0], {
    cell_type: "code",
    id,
    source: "import os",
    metadata: {},
    execution_count: null,
    outputs: [],
  });
  const deleted = notebookEditTool(ctx, path, {
    notebook: NOTEBOOK,
    cellId: "c1",
    newSource: "",
    editMode: "delete",
  }).result;
  assert.equal(deleted.content, "Deleted cell c1");
  assert.equal(
    JSON.parse(String((deleted.toolUseResult as Record<string, unknown>).updated_file)).cells
      .length,
    1,
  );
});

Deno.test("notebookEditTool: an unread notebook and an unknown cell are input errors, unasked", () => {
  const ctx = createBuildContext({ seed: 1 });
  assert.deepEqual(
    notebookEditTool(ctx, "/p/nb.ipynb", { notebook: null, newSource: "x" }).result,
    {
      content:
        "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>",
      isError: true,
      toolUseResult: "Error: File has not been read yet. Read it first before writing to it.",
      permissionDecision: null,
    },
  );
  assert.equal(
    notebookEditTool(ctx, "/p/nb.ipynb", { notebook: NOTEBOOK, cellId: "zz", newSource: "x" })
      .result
      .toolUseResult,
    'Error: Cell with ID "zz" not found in notebook.',
  );
  assert.throws(
    () =>
      notebookEditTool(ctx, "/p/nb.ipynb", {
        notebook: NOTEBOOK,
        newSource: "x",
        editMode: "move" as never,
      }),
    /options\.editMode must be replace, insert or delete/,
  );
});
