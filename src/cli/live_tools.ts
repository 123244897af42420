/**
 * The fake binary's live mode: allowed tool uses of Read, Write, Edit, Bash, Glob and Grep
 * really run in the session's working directory (permissions are decided first, as the real
 * CLI decides them), and their results take the real CLI's shapes. Glob and Grep run when the
 * session has them (`--tools` names them, or Bash is denied), as in the real CLI. On Deno and Node (through
 * the runtime seam).
 *
 * @module
 */

import { bashTool, editTool, readTool, writeTool } from "../builders/tools.ts";
import type { ToolRunner } from "../session/engine.ts";
import { readText, writeText } from "../host/_fs.ts";
import { runShell } from "../host/_process.ts";

/** The tools live mode can run. */
export const LIVE_TOOLS: readonly string[] = ["Read", "Write", "Edit", "Bash", "Glob", "Grep"];

/**
 * A {@linkcode ToolRunner} that runs `tools` (default: all of {@linkcode LIVE_TOOLS}) for
 * real in `cwd`.
 */
export function liveToolRunner(cwd: string, tools: readonly string[] = LIVE_TOOLS): ToolRunner {
  const live = new Set(tools);
  return async ({ name, input, ctx }) => {
    if (!live.has(name)) return undefined;
    const path = (p: unknown) => {
      const s = String(p ?? "");
      return s.startsWith("/") ? s : `${cwd.replace(/\/$/, "")}/${s}`;
    };
    switch (name) {
      case "Read": {
        const file = path(input.file_path);
        return readTool(ctx, file, { content: await readOrNull(file) }).result;
      }
      case "Write": {
        const file = path(input.file_path);
        const before = await readOrNull(file);
        const content = String(input.content ?? "");
        await writeText(file, content);
        return writeTool(ctx, file, { content, originalFile: before }).result;
      }
      case "Edit": {
        const file = path(input.file_path);
        const before = await readOrNull(file);
        const oldString = String(input.old_string ?? "");
        const newString = String(input.new_string ?? "");
        const replaceAll = input.replace_all === true;
        const call = editTool(ctx, file, {
          oldString,
          newString,
          replaceAll,
          originalFile: before ?? "",
        });
        if (before !== null && !call.result.isError) {
          await writeText(
            file,
            replaceAll
              ? before.split(oldString).join(newString)
              : before.replace(oldString, () => newString),
          );
        }
        return call.result;
      }
      case "Bash": {
        const command = String(input.command ?? "");
        const out = await runShell(command, cwd);
        return bashTool(ctx, command, {
          stdout: out.stdout,
          stderr: out.stderr,
          exitCode: out.code,
        }).result;
      }
      case "Glob":
      case "Grep": {
        // loaded on first use: most runs search nothing (the binary's start-up stays small)
        const { liveGlob, liveGrep } = await import("./live_search.ts");
        return await (name === "Glob" ? liveGlob : liveGrep)(input, cwd);
      }
    }
    return undefined;
  };
}

async function readOrNull(file: string): Promise<string | null> {
  try {
    return await readText(file);
  } catch {
    return null;
  }
}
