/**
 * What the SDK's permission answers change for the rest of the session, as the real CLI
 * 2.1.328 applies them: an allow's `updatedPermissions` add,
 * replace or remove session rules and set the permission mode. Loaded when an answer carries
 * updates (the binary's start-up does not carry it).
 *
 * @module
 */

import { PERMISSION_MODES, type PermissionMode, systemStatus } from "../builders/system.ts";
import { isObject } from "../wire/frame.ts";
import type { Engine } from "./engine.ts";
import { TurnFailure } from "./turn_state.ts";

/**
 * What an allow's `updatedPermissions` changes for the rest of the session, as the real CLI
 * applies it (r7_*): `addRules` / `replaceRules` / `removeRules` change the session's rules,
 * `setMode` changes the permission mode and says so in a `system/status` frame; directories
 * are not modeled. A malformed update fails the turn, naming it.
 */
export async function applyPermissionUpdates(
  engine: Engine,
  updates: unknown,
  where: string,
): Promise<void> {
  if (!Array.isArray(updates)) {
    throw new TurnFailure(
      `claude-mock: ${where} is malformed: 'response.updatedPermissions' must be an array`,
    );
  }
  for (const [i, update] of updates.entries()) {
    const at = `'response.updatedPermissions[${i}]'`;
    if (!isObject(update) || typeof update.type !== "string") {
      throw new TurnFailure(
        `claude-mock: ${where} is malformed: ${at} must be an object with a type`,
      );
    }
    if (update.type === "setMode") {
      if (
        typeof update.mode !== "string" ||
        !(PERMISSION_MODES as readonly string[]).includes(update.mode)
      ) {
        throw new TurnFailure(
          `claude-mock: ${where} is malformed: ${at}.mode must be one of ${
            PERMISSION_MODES.join(", ")
          }`,
        );
      }
      engine.ctx.permissionMode = update.mode;
      await engine.send({
        frame: systemStatus(engine.ctx, null, { permissionMode: update.mode as PermissionMode }),
        delay: 0,
      });
    } else if (["addRules", "replaceRules", "removeRules"].includes(update.type)) {
      const behavior = update.behavior;
      if (behavior !== "allow" && behavior !== "ask" && behavior !== "deny") {
        throw new TurnFailure(
          `claude-mock: ${where} is malformed: ${at}.behavior must be allow, ask or deny`,
        );
      }
      if (
        !Array.isArray(update.rules) ||
        !update.rules.every((r) => isObject(r) && typeof r.toolName === "string")
      ) {
        throw new TurnFailure(
          `claude-mock: ${where} is malformed: ${at}.rules must be a list of { toolName, ruleContent? }`,
        );
      }
      const rules = (update.rules as { toolName: string; ruleContent?: unknown }[]).map((r) =>
        typeof r.ruleContent === "string" ? `${r.toolName}(${r.ruleContent})` : r.toolName
      );
      const list = engine.sessionRules[behavior];
      if (update.type === "replaceRules") list.splice(0, list.length, ...rules);
      else if (update.type === "addRules") list.push(...rules.filter((r) => !list.includes(r)));
      else engine.sessionRules[behavior] = list.filter((r) => !rules.includes(r));
    }
  }
}
