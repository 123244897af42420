/**
 * Hooks: which of the client's registered hook callbacks an event reaches (matchers as
 * the real CLI reads them), and the `hook_callback` round trip.
 *
 * @module
 */

import { hookCallbackRequest, hookInput } from "../builders/control.ts";
import { isObject } from "../wire/frame.ts";
import type { Engine } from "./engine.ts";
import { sendResult } from "./turn_result.ts";
import type { TurnState } from "./turn_state.ts";

/** The hook callback ids the client registered for `event` whose matcher covers `tool`. */
export function hookCallbacks(engine: Engine, event: string, tool?: string): string[] {
  const hooks = engine.initializeRequest?.hooks;
  if (!isObject(hooks)) return [];
  const matchers = hooks[event];
  if (!Array.isArray(matchers)) return [];
  const ids: string[] = [];
  for (const m of matchers) {
    if (!isObject(m) || !Array.isArray(m.hookCallbackIds)) continue;
    if (
      tool !== undefined && typeof m.matcher === "string" && m.matcher !== "" && m.matcher !== "*"
    ) {
      let re: RegExp;
      try {
        re = new RegExp(`^(?:${m.matcher})$`);
      } catch {
        continue;
      }
      if (!re.test(tool)) continue;
    }
    for (const id of m.hookCallbackIds) if (typeof id === "string") ids.push(id);
  }
  return ids;
}

/** Asks the client to run one hook callback; resolves with its output. */
export async function callHook(
  engine: Engine,
  callbackId: string,
  event: { hook_event_name: string; [key: string]: unknown },
  options: { turn: TurnState; toolUseId?: string },
): Promise<Record<string, unknown>> {
  const input = hookInput(engine.ctx, event, {
    promptId: options.turn.promptId,
    ...(engine.flags.effort !== undefined ? { effort: engine.flags.effort } : {}),
  });
  // the real CLI reports the effort level to tool and stop hooks, not to prompt hooks
  if (event.hook_event_name === "UserPromptSubmit") delete input.effort;
  const request = hookCallbackRequest(engine.ctx, callbackId, {
    input,
    // hooks that are not about a tool carry a fresh uuid there, as the real CLI's do
    toolUseId: options.toolUseId ?? engine.ctx.ids.uuid(),
  });
  return await engine.control.request(request, { signal: options.turn.abort.signal });
}

/** Keeps a hook's `additionalContext`. */
export function keepContext(engine: Engine, output: Record<string, unknown>): void {
  const specific = isObject(output.hookSpecificOutput) ? output.hookSpecificOutput : {};
  if (typeof specific.additionalContext === "string") {
    engine.hookContext.push(specific.additionalContext);
  }
}

/** The Stop hooks before a turn's result; one that says `continue: false` ends the turn. */
export async function stopHooks(engine: Engine, turn: TurnState): Promise<void> {
  for (const callbackId of hookCallbacks(engine, "Stop")) {
    const output = await callHook(engine, callbackId, {
      hook_event_name: "Stop",
      stop_hook_active: false,
      last_assistant_message: turn.lastText,
      background_tasks: [],
      session_crons: [],
    }, { turn });
    if (output.continue === false) {
      await stopByHook(engine, turn, String(output.stopReason ?? ""));
      return;
    }
  }
}

/** Ends the turn because a hook said so (`terminal_reason: "hook_stopped"`). */
export async function stopByHook(engine: Engine, turn: TurnState, reason: string): Promise<void> {
  turn.stopped = true;
  await sendResult(engine, turn, {
    subtype: "success",
    result: reason,
    terminalReason: "hook_stopped",
    stopReason: null,
  });
}
