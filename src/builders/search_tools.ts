/**
 * The search tools' calls: Glob (files by name) and Grep (file contents), with the results the
 * real CLI writes (2.1.328 to 2.1.332, a session that has them: `tools: ["Glob", "Grep", …]`).
 *
 * @module
 */

import type { BuildContext } from "./build_context.ts";
import { checkString, describe } from "./_common.ts";
import type { ToolCall } from "./tools.ts";

/** Options for {@linkcode globTool}. */
export interface GlobToolOptions {
  /** The files that match, as the CLI shows them (relative to the cwd when inside it). */
  files: readonly string[];
  /** The folder searched (the input's `path`; default: the cwd). */
  path?: string;
  /** `durationMs` of the result (default 15). */
  durationMs?: number;
  /** The tool use id (default: drawn from the context). */
  id?: string;
}

/**
 * A Glob call: input `{pattern[, path]}`; the result lists the files, one a line, or says
 * `No files found`; `tool_use_result: {filenames, durationMs, numFiles, truncated,
 * totalMatches, countIsComplete}`, as recorded.
 *
 * @example Two files that match
 * ```ts
 * import { createBuildContext, globTool } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const call = globTool(ctx, "src/*.ts", { files: ["src/a.ts", "src/b.ts"] });
 * console.log(call.result.content); // src/a.ts\nsrc/b.ts
 * ```
 */
export function globTool(ctx: BuildContext, pattern: string, options: GlobToolOptions): ToolCall {
  checkString(pattern, "globTool()", "the pattern");
  const files = checkFiles(options?.files, `globTool("${pattern}")`, "options.files");
  const input: Record<string, unknown> = { pattern };
  if (options.path !== undefined) {
    checkString(options.path, `globTool("${pattern}")`, "options.path");
    input.path = options.path;
  }
  return {
    block: block(ctx, "Glob", input, options.id),
    result: {
      content: files.length === 0 ? "No files found" : files.join("\n"),
      isError: false,
      toolUseResult: {
        filenames: [...files],
        durationMs: options.durationMs ?? 15,
        numFiles: files.length,
        truncated: false,
        totalMatches: files.length,
        countIsComplete: true,
      },
    },
  };
}

/** How Grep reports its matches (`output_mode`). */
export type GrepOutputMode = "files_with_matches" | "content" | "count";

/** Options for {@linkcode grepTool}: what is searched, and what matched. */
export interface GrepToolOptions {
  /** `output_mode` (default `files_with_matches`, left out of the input). */
  outputMode?: GrepOutputMode;
  /** The file or folder searched (`path`). */
  path?: string;
  /** The files searched, by name (`glob`). */
  glob?: string;
  /** Case-insensitive (`-i`). */
  caseInsensitive?: boolean;
  /** `files_with_matches`: the files that match, as the CLI shows them. */
  files?: readonly string[];
  /** `content`: the lines that match, as ripgrep prints them (`notes.txt:2:The build`). */
  lines?: readonly string[];
  /** `count`: matches per file, in the order shown. */
  counts?: Readonly<Record<string, number>>;
  /** The tool use id (default: drawn from the context). */
  id?: string;
}

/**
 * A Grep call: input `{pattern[, path, glob, output_mode, -i]}`; the result as the CLI words
 * each output mode (`Found 2 files\n…`, the matching lines, `a.ts:1\n\nFound 1 total occurrences
 * across 1 file.`; `No files found` / `No matches found` for none) with its `tool_use_result`,
 * as recorded.
 *
 * @example The files that match
 * ```ts
 * import { createBuildContext, grepTool } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const call = grepTool(ctx, "export const b", { files: ["src/b.ts"] });
 * console.log(call.result.content); // Found 1 file\nsrc/b.ts
 * ```
 */
export function grepTool(
  ctx: BuildContext,
  pattern: string,
  options: GrepToolOptions = {},
): ToolCall {
  const where = `grepTool("${pattern}")`;
  checkString(pattern, "grepTool()", "the pattern");
  const mode = options.outputMode ?? "files_with_matches";
  if (!["files_with_matches", "content", "count"].includes(mode)) {
    throw new RangeError(
      `${where}: options.outputMode must be files_with_matches, content or count, got ${
        describe(mode)
      }`,
    );
  }
  const given = (["files", "lines", "counts"] as const).filter((k) => options[k] !== undefined);
  const wanted = mode === "content" ? "lines" : mode === "count" ? "counts" : "files";
  if (given.some((k) => k !== wanted)) {
    throw new TypeError(
      `${where}: output mode ${mode} reports options.${wanted}, got options.${given.join(", ")}`,
    );
  }
  const input: Record<string, unknown> = { pattern };
  for (const [key, value] of [["path", options.path], ["glob", options.glob]] as const) {
    if (value === undefined) continue;
    checkString(value, where, `options.${key}`);
    input[key] = value;
  }
  if (options.outputMode !== undefined) input.output_mode = mode;
  if (options.caseInsensitive !== undefined) input["-i"] = options.caseInsensitive;
  const result = (content: string, toolUseResult: Record<string, unknown>) => ({
    block: block(ctx, "Grep", input, options.id),
    result: { content, isError: false, toolUseResult: { mode, ...toolUseResult } },
  });
  if (mode === "content") {
    const lines = checkFiles(options.lines ?? [], where, "options.lines");
    const content = lines.join("\n");
    return result(lines.length === 0 ? "No matches found" : content, {
      numFiles: 0,
      filenames: [],
      content,
      numLines: lines.length,
      totalLines: lines.length,
    });
  }
  if (mode === "count") {
    const counts = Object.entries(options.counts ?? {});
    for (const [file, n] of counts) {
      if (!Number.isSafeInteger(n) || n < 1) {
        throw new RangeError(
          `${where}: options.counts["${file}"] must be an integer >= 1, got ${describe(n)}`,
        );
      }
    }
    const total = counts.reduce((sum, [, n]) => sum + n, 0);
    const content = counts.map(([file, n]) => `${file}:${n}`).join("\n");
    return result(
      `${content === "" ? "No matches found" : content}\n\nFound ${total} total ${
        total === 1 ? "occurrence" : "occurrences"
      } across ${counts.length} ${counts.length === 1 ? "file" : "files"}.`,
      { numFiles: counts.length, filenames: [], content, numMatches: total },
    );
  }
  const files = checkFiles(options.files ?? [], where, "options.files");
  return result(
    files.length === 0
      ? "No files found"
      : `Found ${files.length} ${files.length === 1 ? "file" : "files"}\n${files.join("\n")}`,
    { filenames: [...files], numFiles: files.length, totalFiles: files.length },
  );
}

function checkFiles(value: unknown, where: string, what: string): readonly string[] {
  if (!Array.isArray(value) || value.some((f) => typeof f !== "string")) {
    throw new TypeError(`${where}: ${what} must be an array of strings, got ${describe(value)}`);
  }
  return value;
}

function block(ctx: BuildContext, name: string, input: Record<string, unknown>, id?: string) {
  if (id !== undefined) checkString(id, `${name} tool`, "options.id");
  return { type: "tool_use" as const, id: id ?? ctx.ids.toolUseId(), name, input };
}
