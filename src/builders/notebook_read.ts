/**
 * A Read of a Jupyter notebook (`.ipynb`), as the real CLI reports it (2.1.332): its cells in
 * tags with their outputs, and a `notebook` result.
 *
 * @module
 */

/** What a Read of a notebook reports (a `ToolCallResult` of tools.ts). */
export interface NotebookReadResult {
  /** One text block of the cells. */
  content: Array<{ text: string; type: "text" }>;
  /** A notebook read is no error. */
  isError: false;
  /** `{type: "notebook", file: {filePath, cells}}`. */
  toolUseResult: unknown;
}

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A notebook field that is a string or a list of lines, as one string. */
function joined(value: unknown): string {
  if (Array.isArray(value)) return value.map((v) => String(v)).join("");
  return typeof value === "string" ? value : "";
}

/** An output's text: a stream's, a result's `text/plain`, an error's name, value and traceback. */
function outputText(output: Json): string {
  if (output.output_type === "stream") return joined(output.text);
  if (output.output_type === "error") {
    const traceback = Array.isArray(output.traceback) ? output.traceback.map(String) : [];
    return [`${output.ename}: ${output.evalue}`, ...traceback].join("\n");
  }
  return isRecord(output.data) ? joined(output.data["text/plain"]) : "";
}

/**
 * The result of a Read of the notebook `content` at `filePath`, as the real CLI writes it: one
 * text block with each cell as `<cell id="c1">source</cell id="c1">` (other types than code
 * named in `<cell_type>`), a code cell's outputs after it, and `tool_use_result: {type:
 * "notebook", file: {filePath, cells}}`; `undefined` when `content` is not a notebook's JSON.
 *
 * @example A notebook with one code cell
 * ```ts
 * import { notebookRead } from "./notebook_read.ts";
 * const nb = { cells: [{ cell_type: "code", id: "c1", source: ["1+1"], outputs: [] }] };
 * const result = notebookRead("/p/nb.ipynb", JSON.stringify(nb));
 * console.log(result?.content); // [ { text: '<cell id="c1">1+1</cell id="c1">', type: "text" } ]
 * ```
 */
export function notebookRead(filePath: string, content: string): NotebookReadResult | undefined {
  let notebook: unknown;
  try {
    notebook = JSON.parse(content);
  } catch {
    return undefined;
  }
  if (!isRecord(notebook) || !Array.isArray(notebook.cells)) return undefined;
  const info = isRecord(notebook.metadata) && isRecord(notebook.metadata.language_info)
    ? notebook.metadata.language_info
    : {};
  const language = typeof info.name === "string" ? info.name : "python";
  const texts: string[] = [];
  const cells = notebook.cells.filter(isRecord).map((cell, index) => {
    const id = typeof cell.id === "string" ? cell.id : `cell-${index}`;
    const type = typeof cell.cell_type === "string" ? cell.cell_type : "code";
    const source = joined(cell.source);
    const code = type === "code";
    const outputs = code && Array.isArray(cell.outputs)
      ? cell.outputs.filter(isRecord).map((o) => ({
        output_type: String(o.output_type),
        text: outputText(o),
      }))
      : [];
    const kind = code ? "" : `<cell_type>${type}</cell_type>`;
    texts.push(
      `<cell id="${id}">${kind}${source}</cell id="${id}">` +
        (outputs.length > 0 ? `\n${outputs.map((o) => `\n${o.text}`).join("\n")}` : ""),
    );
    return {
      cellType: type,
      source,
      ...(code && typeof cell.execution_count === "number"
        ? { execution_count: cell.execution_count }
        : {}),
      cell_id: id,
      ...(code ? { language } : {}),
      ...(outputs.length > 0 ? { outputs } : {}),
    };
  });
  return {
    content: [{ text: texts.join("\n"), type: "text" }],
    isError: false,
    toolUseResult: { type: "notebook", file: { filePath, cells } },
  };
}
