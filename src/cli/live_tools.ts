/**
 * The fake binary's live mode: allowed tool uses of Read, Write, Edit, Bash, Glob and Grep
 * really run in the session's working directory (permissions are decided first, as the real
 * CLI decides them), and their results take the real CLI's shapes. On Deno and Node (through
 * the runtime seam).
 *
 * @module
 */

import { bashTool, editTool, genericTool, readTool, writeTool } from "../builders/tools.ts";
import type { ToolRunner } from "../session/engine.ts";
import { listDir, readText, writeText } from "./_fs.ts";
import { runShell } from "./_host.ts";

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
      case "Glob": {
        const base = path(input.path ?? cwd);
        const files = await glob(base, String(input.pattern ?? "**/*"));
        return genericTool(ctx, "Glob", {
          input,
          result: files.length > 0 ? files.join("\n") : "No files found",
          isError: false,
        }).result;
      }
      case "Grep": {
        const base = path(input.path ?? cwd);
        const pattern = new RegExp(String(input.pattern ?? ""), input["-i"] === true ? "i" : "");
        const files: string[] = [];
        for (const file of await glob(base, String(input.glob ?? "**/*"))) {
          const text = await readOrNull(file);
          if (text !== null && pattern.test(text)) files.push(file);
        }
        return genericTool(ctx, "Grep", {
          input,
          result: files.length > 0
            ? `Found ${files.length} file${files.length === 1 ? "" : "s"}\n${files.join("\n")}`
            : "No files found",
          isError: false,
        }).result;
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

/** Files under `base` whose relative path matches a glob (`*`, `**`, `?`), sorted. */
async function glob(base: string, pattern: string): Promise<string[]> {
  const regex = globRegExp(pattern);
  const found: string[] = [];
  const walk = async (dir: string, rel: string) => {
    let entries: { name: string; isDirectory: boolean }[];
    try {
      entries = await listDir(dir);
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name === ".git" || entry.name === "node_modules") continue;
      const relPath = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory) await walk(`${dir}/${entry.name}`, relPath);
      else if (regex.test(relPath)) found.push(`${dir}/${entry.name}`);
    }
  };
  await walk(base.replace(/\/$/, ""), "");
  return found.sort();
}

/** A glob as a RegExp over relative paths: a double star spans folders, `*` and `?` stay within a name. */
function globRegExp(pattern: string): RegExp {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "*" && pattern[i + 1] === "*") {
      const slash = pattern[i + 2] === "/";
      source += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") source += "[^/]*";
    else if (c === "?") source += "[^/]";
    else source += ".+^$()|[]{}\\".includes(c) ? `\\${c}` : c;
  }
  return new RegExp(`^${source}$`);
}
