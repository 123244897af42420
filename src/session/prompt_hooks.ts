/**
 * The hooks of a prompt before the model is called: UserPromptSubmit (every prompt), then
 * UserPromptExpansion (a prompt that runs a custom slash command, which then becomes the
 * command's body), and what the real CLI 2.1.328 to 2.1.332 writes when one of them stops the
 * prompt: `system/init`, a `system/informational` warning, no API call, a result of no turns.
 *
 * @module
 */

import { startupErrorResult } from "../builders/_startup_result.ts";
import { systemInformational } from "../builders/system.ts";
import { type Frame, isObject } from "../wire/frame.ts";
import type { CommandExpansion } from "./custom_commands.ts";
import type { Engine } from "./engine.ts";
import { flushHookNotices } from "./hook_notices.ts";
import { callHooksTogether, hookCallbacks, keepContext } from "./hook_runner.ts";
import { initFrame } from "./init_frame.ts";
import { sendResult } from "./turn_result.ts";
import type { TurnState } from "./turn_state.ts";

/**
 * The UserPromptSubmit hooks; true when one stopped the prompt. As the real CLI 2.1.332 (for a
 * callback and a command hook alike): `system/init`, no API call, a `system/informational`
 * notice (`prevent_continuation`, the `prompt_submit_outcome`), then a result of no turns whose
 * text is the notice's.
 */
export async function userPromptSubmitStops(engine: Engine, turn: TurnState): Promise<boolean> {
  const outputs = await callHooksTogether(engine, hookCallbacks(engine, "UserPromptSubmit"), {
    hook_event_name: "UserPromptSubmit",
    prompt: turn.text,
  }, { turn });
  const misplaced = outputs.find((output) =>
    isObject(output.hookSpecificOutput) &&
    output.hookSpecificOutput.hookEventName !== "UserPromptSubmit"
  );
  if (misplaced) return await sessionCrash(engine, turn, misplaced);
  for (const output of outputs) {
    keepContext(engine, output);
    if (output.continue === false) {
      const reason = String(output.stopReason ?? "");
      await promptStopped(engine, turn, `Operation stopped by hook: ${reason}`, {
        outcome: { kind: "stopped_by_hook", prompt_kept: true, reason },
      });
      return true;
    }
    if (output.decision === "block") {
      const reason = String(output.reason ?? "");
      await promptStopped(
        engine,
        turn,
        `UserPromptSubmit operation blocked by hook:\n${reason}\n\nOriginal prompt: ${turn.text}`,
        {
          outcome: {
            kind: "blocked_by_hook",
            prompt_kept: false,
            reason: typeof output.outcomeReason === "string" ? output.outcomeReason : reason,
          },
        },
      );
      return true;
    }
  }
  return false;
}

/**
 * The UserPromptExpansion hooks of a prompt that runs a custom slash command; true when one
 * stopped the prompt. Else the turn's prompt becomes the command's body (what the model is
 * sent and the exchanges match), and the command's `model` that of the turn. As the real CLI
 * 2.1.332: after the UserPromptSubmit hooks; `continue: false` and `decision: "block"` (a
 * command hook's exit 2) stop it as a UserPromptSubmit hook's do, without
 * `prompt_submit_outcome`, the result a local command's (`local_command: "custom"`), and the
 * hooks' `systemMessage` notices unsaid.
 */
export async function userPromptExpansionStops(
  engine: Engine,
  turn: TurnState,
  expansion: CommandExpansion,
): Promise<boolean> {
  const { command, args } = expansion;
  const outputs = await callHooksTogether(
    engine,
    hookCallbacks(engine, "UserPromptExpansion", command.name),
    {
      hook_event_name: "UserPromptExpansion",
      expansion_type: "slash_command",
      command_name: command.name,
      command_args: args,
      command_source: command.source,
      prompt: turn.text,
    },
    { turn },
  );
  for (const output of outputs) {
    keepContext(engine, output);
    const stopped = output.continue === false
      ? `Operation stopped by hook: ${String(output.stopReason ?? "")}`
      : output.decision === "block"
      ? `UserPromptExpansion operation blocked by hook:\n${
        String(output.reason ?? "")
      }\n\nOriginal prompt: ${turn.text}`
      : undefined;
    if (stopped !== undefined) {
      // the expansion's notices are not written
      turn.hookNotices = turn.hookNotices?.filter((n) => n.event !== "UserPromptExpansion");
      await promptStopped(engine, turn, stopped, { localCommand: "custom" });
      return true;
    }
  }
  turn.text = expansion.text;
  if (command.model !== undefined) {
    const before = engine.ctx.model;
    engine.ctx.model = command.model;
    turn.restoreModel = before;
  }
  return false;
}

/**
 * A prompt a hook stopped: the notice (with the prompt's outcome, for UserPromptSubmit), then
 * the result of no turns that repeats it.
 */
async function promptStopped(
  engine: Engine,
  turn: TurnState,
  text: string,
  how: {
    outcome?: { kind: string; prompt_kept: boolean; reason: string };
    localCommand?: string;
  },
): Promise<void> {
  await engine.send(initFrame(engine));
  const said = flushHookNotices(engine, turn, ["UserPromptSubmit"]);
  if (said) await said;
  const { uuid, session_id, tag: _tag, ...head } = systemInformational(engine.ctx, text, {
    level: "warning",
    tag: "",
  });
  await engine.send({
    frame: {
      ...head,
      prevent_continuation: true,
      ...(how.outcome ? { prompt_submit_outcome: how.outcome } : {}),
      uuid,
      session_id,
    },
    delay: 0,
  });
  turn.stopped = true;
  await sendResult(engine, turn, { result: text, stopReason: null }, {
    numTurns: 0,
    apiCalls: [],
    durationApiMs: 0,
    localCommand: how.localCommand ?? null,
  });
}

/**
 * A UserPromptSubmit hook's output about another event, as the real CLI 2.1.332 takes it: the
 * session crashes, an error result of no turns with its two errors, then exit 1.
 */
async function sessionCrash(
  engine: Engine,
  turn: TurnState,
  misplaced: Record<string, unknown>,
): Promise<true> {
  const named = (misplaced.hookSpecificOutput as Record<string, unknown>).hookEventName;
  turn.resultSent = true;
  const errors = [
    `Hook returned incorrect event name: expected 'UserPromptSubmit' but got '${
      String(named)
    }'. Full stdout: ${JSON.stringify(misplaced, null, 2)}`,
    "[session_crash] error_name=TelemetrySafeError api_error_status=none cause_name=none",
  ];
  const frame = startupErrorResult(engine.ctx.sessionId, {
    uuid: engine.ctx.ids.uuid(),
    errors,
    crashed: { resultIndex: engine.resultCount++ },
  });
  engine.lastResultError = true;
  await engine.send({ frame: frame as Frame, delay: 0 });
  await engine.shutdown({ code: 1, signal: null }, true);
  return true;
}
