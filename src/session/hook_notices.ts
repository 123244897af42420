/**
 * A hook's `systemMessage`: the `system/informational` notice the real CLI 2.1.328 and 2.1.332
 * write for it (`<Event>[:<Tool>] says: <message>`, level `notice`), for an SDK hook callback
 * and a command hook alike, each where the real CLI writes it: a UserPromptSubmit (or
 * UserPromptExpansion) hook's after `system/init`, a PreToolUse hook's right before its tool use's result, a PostToolUse hook's
 * right after it, any other hook's at once.
 *
 * @module
 */

import { isObject } from "../wire/frame.ts";
import type { Engine } from "./engine.ts";
import type { TurnState } from "./turn_state.ts";

/** The events whose notices wait for their place (the others are written at once). */
const HELD: ReadonlySet<string> = new Set([
  "UserPromptSubmit",
  "UserPromptExpansion",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
]);

/**
 * The events whose `systemMessage` the real CLI 2.1.332 does not write (a callback's or a
 * command hook's): the compaction's (a PreCompact block says it in `/compact`'s output
 * instead), StopFailure's and SessionEnd's.
 */
const UNSAID: ReadonlySet<string> = new Set([
  "PreCompact",
  "PostCompact",
  "StopFailure",
  "SessionEnd",
]);

/**
 * Takes the notice of a hook's answer, if it has a `systemMessage`: held for its place, or
 * written now (a promise to await; `undefined` when there is nothing to write now).
 */
export function hookNotice(
  engine: Engine,
  turn: TurnState,
  hook: { event: string; tool?: string; toolUseId?: string },
  output: Record<string, unknown>,
): Promise<void> | undefined {
  if (!isObject(output) || typeof output.systemMessage !== "string") return undefined;
  if (UNSAID.has(hook.event)) return undefined;
  const ctx = engine.ctx;
  const frame = {
    type: "system",
    subtype: "informational",
    content: `${hook.event}${
      hook.tool !== undefined ? `:${hook.tool}` : ""
    } says: ${output.systemMessage}`,
    level: "notice",
    uuid: ctx.ids.uuid(),
    session_id: ctx.sessionId,
  };
  if (!HELD.has(hook.event)) return engine.send({ frame, delay: 0 });
  (turn.hookNotices ??= []).push({
    event: hook.event,
    ...(hook.toolUseId !== undefined ? { toolUseId: hook.toolUseId } : {}),
    frame,
  });
  return undefined;
}

/**
 * Writes the held notices of `events` (for the tool use `toolUseId`, when given), in order: a
 * promise to await, or `undefined` (nothing held: no await, so a turn without notices takes
 * not one more step).
 */
export function flushHookNotices(
  engine: Engine,
  turn: TurnState,
  events: readonly string[],
  toolUseId?: string,
): Promise<void> | undefined {
  const held = turn.hookNotices;
  if (!held || held.length === 0) return undefined;
  const due = held.filter((n) =>
    events.includes(n.event) && (toolUseId === undefined || n.toolUseId === toolUseId)
  );
  if (due.length === 0) return undefined;
  turn.hookNotices = held.filter((n) => !due.includes(n));
  return (async () => {
    for (const n of due) await engine.send({ frame: n.frame, delay: 0 });
  })();
}
