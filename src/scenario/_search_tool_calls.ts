/**
 * The scripted calls of the search tools (Glob, Grep): their checks, the call, its result for
 * another input, its scenario-file form. Internal.
 *
 * @internal
 * @module
 */

import { createBuildContext } from "../builders/build_context.ts";
import {
  globTool,
  type GlobToolOptions,
  grepTool,
  type GrepToolOptions,
} from "../builders/search_tools.ts";
import type { ToolCall } from "../builders/tools.ts";
import { type At, checkUses, fail } from "./_builder_checks.ts";
import { present, type ToolCallSpec } from "./_file_tool_calls.ts";
import type { UsesOptions } from "./exchange_options.ts";

/** Builds the call once when the step is added: a bad option fails there, naming the step. */
function checked(at: At, method: string, make: () => ToolCall): void {
  try {
    make();
  } catch (error) {
    if (!(error instanceof TypeError || error instanceof RangeError)) throw error;
    const problem = error.message.replace(/^\w+Tool\("[^"]*"\): /, "");
    fail(
      error instanceof RangeError ? RangeError : TypeError,
      at.name,
      at.path,
      `${method}: ${problem}`,
    );
  }
}

/** What a pattern the SDK's answer changed becomes. */
const patternOf = (input: Record<string, unknown>, pattern: string): string =>
  typeof input.pattern === "string" && input.pattern !== "" ? input.pattern : pattern;

/** A Glob of `pattern`: the files that match. @internal */
export function globCall(
  at: At,
  pattern: string,
  options: UsesOptions & Pick<GlobToolOptions, "files" | "path">,
): ToolCallSpec {
  checkUses(at, "usesGlob", options, [["a pattern", pattern, "string"]]);
  const glob = present({ files: options.files, path: options.path });
  checked(at, "usesGlob", () => globTool(createBuildContext(), pattern, glob));
  return {
    make: (ctx) => globTool(ctx, pattern, glob),
    rerun: (input, ctx) => globTool(ctx, patternOf(input, pattern), glob).result,
    form: { glob: { pattern, ...glob } },
  };
}

/** The options of a Grep step: what is searched, and what matched. @internal */
export type GrepCallOptions = Omit<GrepToolOptions, "id">;

/** A Grep of `pattern`: the files, lines or counts that match. @internal */
export function grepCall(
  at: At,
  pattern: string,
  options: UsesOptions & GrepCallOptions,
): ToolCallSpec {
  checkUses(at, "usesGrep", options, [["a pattern", pattern, "string"]]);
  const { outputMode, path, glob, caseInsensitive, files, lines, counts } = options;
  const grep = present({ outputMode, path, glob, caseInsensitive, files, lines, counts });
  checked(at, "usesGrep", () => grepTool(createBuildContext(), pattern, grep));
  return {
    make: (ctx) => grepTool(ctx, pattern, grep),
    rerun: (input, ctx) => grepTool(ctx, patternOf(input, pattern), grep).result,
    form: { grep: { pattern, ...grep } },
  };
}
