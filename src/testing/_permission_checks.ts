/**
 * Checks the `PermissionRecorder` applies to tool patterns and scripted answers.
 * Internal: not part of the public API.
 *
 * @internal
 * @module
 */

import type { ToolPermissionResult } from "./permission_types.ts";
import { show } from "../wire/_show.ts";

const WHERE = "PermissionRecorder";

/**
 * The answer a scripted response gave, checked: an allow carries the original input as
 * `updatedInput` unless it changed it, and every answer carries the request's `toolUseID`.
 *
 * @internal
 */
export function normalize(
  raw: unknown,
  toolName: string,
  input: Record<string, unknown>,
  toolUseID: string | undefined,
): ToolPermissionResult {
  if (typeof raw !== "object" || raw === null) {
    throw new TypeError(
      `${WHERE}: the responder for '${toolName}' returned ${
        show(raw)
      }; expected { behavior: "allow" } or { behavior: "deny", message }`,
    );
  }
  const result = raw as ToolPermissionResult;
  if (result.behavior === "allow") {
    return {
      ...result,
      updatedInput: result.updatedInput ?? input,
      ...(toolUseID !== undefined ? { toolUseID } : {}),
    };
  }
  if (result.behavior === "deny" && typeof result.message === "string") {
    return { ...result, ...(toolUseID !== undefined ? { toolUseID } : {}) };
  }
  throw new TypeError(
    `${WHERE}: the responder for '${toolName}' returned ${
      show(raw)
    }; expected { behavior: "allow" } or { behavior: "deny", message: string }`,
  );
}

/**
 * Checks a tool name or `prefix*` pattern and throws a TypeError naming the problem.
 *
 * @internal
 */
export function checkPattern(tool: unknown, where: string): asserts tool is string {
  if (typeof tool !== "string" || tool === "") {
    throw new TypeError(`${where}: the tool name must be a non-empty string, got ${show(tool)}`);
  }
  const star = tool.indexOf("*");
  if (star !== -1 && star !== tool.length - 1) {
    throw new TypeError(
      `${where}: '*' may only end a tool pattern (as in "mcp__server__*"), got ${show(tool)}`,
    );
  }
}

/**
 * Checks a scripted response (an allow, a deny with a message, or a function).
 *
 * @internal
 */
export function checkResponse(response: unknown, where: string): void {
  if (typeof response === "function") return;
  if (typeof response !== "object" || response === null) {
    throw new TypeError(
      `${where}: the response must be { behavior: "allow" }, { behavior: "deny", message } or a function, got ${
        show(response)
      }`,
    );
  }
  const r = response as Record<string, unknown>;
  if (r.behavior === "allow") {
    if (
      r.updatedInput !== undefined &&
      (typeof r.updatedInput !== "object" || r.updatedInput === null)
    ) {
      throw new TypeError(
        `${where}: updatedInput must be an object, got ${show(r.updatedInput)}`,
      );
    }
    return;
  }
  if (r.behavior === "deny") {
    if (typeof r.message !== "string") {
      throw new TypeError(
        `${where}: a deny response needs a message string, got ${show(r.message)}`,
      );
    }
    return;
  }
  throw new TypeError(
    `${where}: response.behavior must be "allow" or "deny", got ${show(r.behavior)}`,
  );
}

/**
 * Whether `tool` matches `pattern` (an exact name, or a prefix with a trailing `*`).
 *
 * @internal
 */
export function matches(pattern: string, tool: string): boolean {
  return pattern.endsWith("*") ? tool.startsWith(pattern.slice(0, -1)) : tool === pattern;
}
