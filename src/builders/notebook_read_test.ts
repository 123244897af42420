import assert from "node:assert/strict";
import { createBuildContext } from "./build_context.ts";
import { notebookRead } from "./notebook_read.ts";
import { readTool } from "./tools.ts";

// As the real CLI 2.1.328 and 2.1.332 read them (conformance case files_read_notebook).
const NOTEBOOK = {
  cells: [
    {
      cell_type: "code",
      execution_count: 3,
      id: "c1",
      outputs: [
        { output_type: "stream", name: "stdout", text: ["hello\n", "world\n"] },
        { output_type: "execute_result", data: { "text/plain": ["42"] }, execution_count: 3 },
      ],
      source: ["x = 42\n", "print('hello')"],
    },
    { cell_type: "markdown", id: "m1", source: ["# Title\n", "Some text"] },
    {
      cell_type: "code",
      execution_count: null,
      id: "c2",
      outputs: [{
        output_type: "error",
        ename: "ValueError",
        evalue: "bad",
        traceback: ["T", "V"],
      }],
      source: "raise ValueError('bad')",
    },
  ],
  metadata: { language_info: { name: "python" } },
};

Deno.test("notebookRead: the cells in tags, a code cell's outputs after it, the notebook result", () => {
  const result = notebookRead("/p/nb.ipynb", JSON.stringify(NOTEBOOK))!;
  assert.deepEqual(result.content, [{
    text: `<cell id="c1">x = 42\nprint('hello')</cell id="c1">\n\nhello\nworld\n\n\n42\n` +
      `<cell id="m1"><cell_type>markdown</cell_type># Title\nSome text</cell id="m1">\n` +
      `<cell id="c2">raise ValueError('bad')</cell id="c2">\n\nValueError: bad\nT\nV`,
    type: "text",
  }]);
  assert.deepEqual(result.toolUseResult, {
    type: "notebook",
    file: {
      filePath: "/p/nb.ipynb",
      cells: [
        {
          cellType: "code",
          source: "x = 42\nprint('hello')",
          execution_count: 3,
          cell_id: "c1",
          language: "python",
          outputs: [
            { output_type: "stream", text: "hello\nworld\n" },
            { output_type: "execute_result", text: "42" },
          ],
        },
        { cellType: "markdown", source: "# Title\nSome text", cell_id: "m1" },
        {
          cellType: "code",
          source: "raise ValueError('bad')",
          cell_id: "c2",
          language: "python",
          outputs: [{ output_type: "error", text: "ValueError: bad\nT\nV" }],
        },
      ],
    },
  });
});

Deno.test("notebookRead: cells without ids are cell-<n>, python by default; not a notebook: undefined", () => {
  const old = { cells: [{ cell_type: "code", execution_count: 1, outputs: [], source: ["1+1"] }] };
  assert.deepEqual(notebookRead("/p/o.ipynb", JSON.stringify(old))?.toolUseResult, {
    type: "notebook",
    file: {
      filePath: "/p/o.ipynb",
      cells: [{
        cellType: "code",
        source: "1+1",
        execution_count: 1,
        cell_id: "cell-0",
        language: "python",
      }],
    },
  });
  assert.equal(notebookRead("/p/x.ipynb", "not json"), undefined);
  assert.equal(notebookRead("/p/x.ipynb", "{}"), undefined);
  // readTool reads an .ipynb as a notebook, anything else as text
  const ctx = createBuildContext({ seed: 1 });
  const read = readTool(ctx, "/p/o.ipynb", { content: JSON.stringify(old) }).result;
  assert.equal((read.toolUseResult as { type: string }).type, "notebook");
  assert.equal(readTool(ctx, "/p/o.json", { content: "{}" }).result.content, "1\t{}");
});
