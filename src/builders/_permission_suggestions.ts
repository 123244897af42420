/**
 * What a `can_use_tool` request says of a tool use when the caller does not: its description
 * and the permission suggestions the real CLI makes when it asks without a rule (as CLI
 * 2.1.328 does in the default and acceptEdits modes). Internal to the builders.
 *
 * @module
 */

import type { ToolUseBlock } from "../wire/frame.ts";
import { mcpToolUseMeta } from "./assistant.ts";
import type { PermissionSuggestion } from "./permission_suggestion.ts";

/** The description of a tool use in a permission request, if the CLI gives one. */
export function defaultDescription(toolUse: ToolUseBlock, cwd: string): string | undefined {
  const input = toolUse.input;
  // Bash: its description, else the command itself (as the real CLI 2.1.328 names it)
  if (toolUse.name === "Bash" && typeof input.description === "string") return input.description;
  if (toolUse.name === "Bash" && typeof input.command === "string") return input.command;
  // WebFetch: its url
  if (toolUse.name === "WebFetch" && typeof input.url === "string") return input.url;
  // Glob and Grep: their pattern (v*_conc_glob_grep_write)
  if ((toolUse.name === "Glob" || toolUse.name === "Grep") && typeof input.pattern === "string") {
    return input.pattern;
  }
  // a file tool's path (a notebook's for NotebookEdit)
  const file = input.file_path ?? input.notebook_path;
  if (typeof file === "string" && FILE_TOOLS.has(toolUse.name)) {
    // as recorded: relative inside the cwd, absolute outside it
    return insideDir(file, cwd) ? file.slice(cwd.replace(/\/$/, "").length + 1) : file;
  }
  return undefined;
}

/** The file tools: their description is the path. */
export const FILE_TOOLS: ReadonlySet<string> = new Set([
  "Read",
  "Edit",
  "Write",
  "MultiEdit",
  "NotebookEdit",
]);
const EDIT_TOOLS = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);

function insideDir(path: string, dir: string): boolean {
  const base = dir.replace(/\/$/, "");
  return path.startsWith(`${base}/`);
}

/** What the real CLI suggests when it asks without a rule. */
export function defaultSuggestions(
  toolUse: ToolUseBlock,
  cwd: string,
): PermissionSuggestion[] | undefined {
  const input = toolUse.input;
  if (mcpToolUseMeta(toolUse)) {
    return [{
      type: "addRules",
      rules: [{ toolName: toolUse.name }],
      behavior: "allow",
      destination: "localSettings",
    }];
  }
  if (toolUse.name === "WebFetch" && typeof input.url === "string") {
    // its domain, keys in the real CLI's order
    let host: string | undefined;
    try {
      host = new URL(input.url).hostname;
    } catch {
      host = undefined;
    }
    if (host) {
      return [{
        type: "addRules",
        destination: "localSettings",
        rules: [{ toolName: "WebFetch", ruleContent: `domain:${host}` }],
        behavior: "allow",
      }];
    }
  }
  if (toolUse.name === "Bash" && typeof input.command === "string") {
    return [{
      type: "addRules",
      rules: [{ toolName: "Bash", ruleContent: input.command }],
      behavior: "allow",
      destination: "localSettings",
    }];
  }
  const file = input.file_path ?? input.notebook_path;
  if (typeof file !== "string") return undefined;
  if (!insideDir(file, cwd)) {
    const dir = file.slice(0, file.lastIndexOf("/")) || "";
    return [{
      type: "addRules",
      rules: [{ toolName: toolUse.name, ruleContent: `/${dir}/**` }],
      behavior: "allow",
      destination: "session",
    }];
  }
  if (EDIT_TOOLS.has(toolUse.name)) {
    return [{ type: "setMode", mode: "acceptEdits", destination: "session" }];
  }
  return undefined;
}
