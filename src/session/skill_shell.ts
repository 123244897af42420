/**
 * A skill's inline shell commands (`!`cmd`` in its text), run when a prompt `/name …`
 * loads one of the scenario's skills. CLI 2.1.332 and later ask the client's
 * `PreSkillShellCommand` hooks about each command first:
 * after `running`, before `system/init`, with the command as a Bash tool input; a hook that
 * refuses (deny, ask or defer) keeps the command from running, and the CLI says so in a
 * `system/informational` warning after `system/init`. Earlier versions run the commands
 * without asking (2.1.331 and 2.1.328, even with such a hook).
 *
 * @module
 */

import { systemInformational } from "../builders/system.ts";
import type { Frame } from "../wire/frame.ts";
import { isObject } from "../wire/frame.ts";
import type { Engine } from "./engine.ts";
import { callHook, hookCallbacks } from "./hook_runner.ts";
import type { TurnState } from "./turn_state.ts";

/**
 * Runs the hooks of the skill the turn's prompt loads, if any; resolves with the frames the
 * CLI writes after `system/init` (a warning per command a hook kept from running).
 */
export async function skillShellHooks(engine: Engine, turn: TurnState): Promise<Frame[]> {
  const skills = engine.scenario.skills;
  if (!skills || !engine.ctx.cli.facts.preSkillShellCommand) return [];
  const match = /^\/([^\s/]+)/.exec(turn.text.trimStart());
  const name = match?.[1];
  const skill = name !== undefined && Object.hasOwn(skills, name) ? skills[name] : undefined;
  if (!skill?.shell?.length) return [];
  const callbacks = hookCallbacks(engine, "PreSkillShellCommand", "Bash");
  if (callbacks.length === 0) return [];
  const after: Frame[] = [];
  const load = engine.ctx.ids.uuid();
  for (const [i, command] of skill.shell.entries()) {
    // it names no tool call of the transcript: the load's id, and the command's place
    const toolUseId = `${load}:inner:preamble-${i}`;
    for (const callbackId of callbacks) {
      const output = await callHook(engine, callbackId, {
        hook_event_name: "PreSkillShellCommand",
        tool_name: "Bash",
        tool_input: { command },
        tool_use_id: toolUseId,
        command_name: name!,
        command_source: skill.source ?? "projectSettings",
        invoked_by: "user",
      }, { turn, toolUseId });
      const specific = isObject(output.hookSpecificOutput) ? output.hookSpecificOutput : {};
      const decision = specific.permissionDecision;
      if (decision === "deny" || decision === "ask" || decision === "defer") {
        const reason = typeof specific.permissionDecisionReason === "string"
          ? `: ${specific.permissionDecisionReason}`
          : "";
        after.push(systemInformational(
          engine.ctx,
          `Not run in /${name}: ${command} (blocked by hook${reason})`,
          { level: "warning", tag: "skill_shell_hook" },
        ));
        break;
      }
    }
  }
  return after;
}
