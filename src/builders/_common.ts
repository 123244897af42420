/**
 * Small helpers the builders share. Internal: not part of the public API.
 *
 * @internal
 * @module
 */

import type { BuildContext } from "./build_context.ts";
import type { SubagentInfo } from "./subagent.ts";
import { isoTime } from "../timing/_iso_time.ts";
import { kindOf } from "../wire/_kind_of.ts";
import { show } from "../wire/_show.ts";

/**
 * The ISO 8601 `timestamp` of a frame written now, by the context's clock.
 *
 * @internal
 */
export function timestampOf(ctx: BuildContext): string {
  const now = ctx.now();
  if (!Number.isFinite(now)) {
    throw new RangeError(`Cannot stamp a frame: ctx.now() returned ${now}, not a finite number`);
  }
  return isoTime(now);
}

/**
 * Checks a {@linkcode SubagentInfo} and throws a TypeError naming the bad field.
 *
 * @internal
 */
export function checkSubagent(subagent: SubagentInfo, where: string): void {
  for (const key of ["parentToolUseId", "agentId", "subagentType", "taskDescription"] as const) {
    if (typeof subagent[key] !== "string" || subagent[key] === "") {
      throw new TypeError(
        `${where}: subagent.${key} must be a non-empty string, got ${
          JSON.stringify(subagent[key])
        }`,
      );
    }
  }
}

/**
 * Throws a TypeError unless `value` is a string.
 *
 * @internal
 */
export function checkString(value: unknown, where: string, what: string): asserts value is string {
  if (typeof value !== "string") {
    throw new TypeError(`${where}: ${what} must be a string, got ${describe(value)}`);
  }
}

/**
 * Throws a RangeError unless `value` is a non-negative integer.
 *
 * @internal
 */
export function checkCount(value: unknown, where: string, what: string): asserts value is number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw new RangeError(
      `${where}: ${what} must be a non-negative integer, got ${describe(value)}`,
    );
  }
}

/**
 * A short description of a value for error messages: an object or array by its kind, any
 * other value as {@linkcode show} quotes it.
 *
 * @internal
 */
export function describe(value: unknown): string {
  return typeof value === "object" && value !== null ? kindOf(value) : show(value);
}

/** FNV-1a of a string: a cheap, stable 32-bit hash (pids, seeds derived from ids). */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/**
 * The process id the mock reports for a session (the `initialize` answer's `pid`, the
 * messaging socket's name): derived from the session id, so deterministic.
 */
export function sessionPid(sessionId: string): number {
  return 2000 + (fnv1a(sessionId) % 8000);
}
