/**
 * Plan mode's tools as the real CLI (2.1.328, 2.1.332) runs them: `EnterPlanMode` switches the
 * session to plan mode unasked; `ExitPlanMode` is asked of the user in plan mode (its plan
 * kept out of the request, `requires_user_interaction`) and, allowed, switches back; outside
 * plan mode it fails.
 *
 * @module
 */

import { DEFAULT_HOME } from "../builders/project_paths.ts";
import { type PermissionMode, systemStatus } from "../builders/system.ts";
import type { ScriptedToolCall } from "../scenario/step.ts";
import type { Engine } from "./engine.ts";
import type { ToolDecision, TurnState } from "./turn_state.ts";

/** What `EnterPlanMode` tells the model (its `tool_use_result.message`). */
const ENTERED = "Entered plan mode. You should now focus on exploring the codebase and designing " +
  "an implementation approach.";

/** The rest of `EnterPlanMode`'s result text. */
const ENTERED_GUIDE = "\n\nIn plan mode, you should:\n" +
  "1. Thoroughly explore the codebase to understand existing patterns\n" +
  "2. Identify similar features and architectural approaches\n" +
  "3. Consider multiple approaches and their trade-offs\n" +
  "4. Use AskUserQuestion if you need to clarify the approach\n" +
  "5. Design a concrete implementation strategy\n" +
  "6. When ready, use ExitPlanMode to present your plan for approval\n\n" +
  "Remember: DO NOT write or edit any files yet. This is a read-only exploration and planning phase.";

/** `ExitPlanMode`'s error outside plan mode. */
const NOT_IN_PLAN_MODE = "You are not in plan mode. To enter plan mode, call the EnterPlanMode " +
  "tool first. If your plan was already approved, continue with implementation.";

/** The tools this file runs. */
export const PLAN_MODE_TOOLS: ReadonlySet<string> = new Set(["EnterPlanMode", "ExitPlanMode"]);

/** How `EnterPlanMode` is allowed: by the configuration, no reason given (2.1.332). */
export const ENTER_PLAN_MODE_META: { decision: "accept"; source: "config" } = Object.freeze({
  decision: "accept",
  source: "config",
});

/**
 * What the CLI decides about `ExitPlanMode` outside plan mode, before hooks and rules: its
 * error; otherwise `undefined` (in plan mode it is asked, as an interactive tool).
 *
 * @example ExitPlanMode outside plan mode
 * ```ts
 * import { planModeDecision } from "./plan_mode.ts";
 * const block = { type: "tool_use" as const, id: "t", name: "ExitPlanMode", input: {} };
 * const d = planModeDecision("default", block);
 * console.log(d?.kind); // invalid
 * ```
 */
export function planModeDecision(
  mode: string,
  block: ScriptedToolCall["block"],
): ToolDecision | undefined {
  if (block.name !== "ExitPlanMode" || mode === "plan") return undefined;
  return {
    kind: "invalid",
    result: {
      content: `<tool_use_error>${NOT_IN_PLAN_MODE}</tool_use_error>`,
      isError: true,
      toolUseResult: `Error: ${NOT_IN_PLAN_MODE}`,
      permissionDecision: null,
    },
  };
}

/**
 * The input `can_use_tool` and `permission_denials` show of a plan mode tool: `ExitPlanMode`'s
 * without its plan (`{}` as recorded), any other's as it is.
 *
 * @example ExitPlanMode's plan kept out
 * ```ts
 * import { askedInput } from "./plan_mode.ts";
 * console.log(askedInput("ExitPlanMode", { plan: "1. Fix it." })); // {}
 * ```
 */
export function askedInput(
  tool: string,
  input: Record<string, unknown>,
): Record<string, unknown> {
  if (tool !== "ExitPlanMode") return input;
  const { plan: _plan, ...rest } = input;
  return rest;
}

/**
 * Runs an allowed plan mode tool: the mode switches (a `system/status` frame naming it), and
 * the tool's result as the real CLI writes it. `ExitPlanMode` goes back to the mode the session
 * was in before plan mode (`default` when it started in plan mode); its result names the plan
 * file (`<config>/plans/<first prompt words>-<two drawn words>.md`).
 */
export async function runPlanModeTool(
  engine: Engine,
  call: ScriptedToolCall,
  turn: TurnState,
): Promise<ScriptedToolCall["result"]> {
  const ctx = engine.ctx;
  const entering = call.block.name === "EnterPlanMode";
  const from = ctx.permissionMode;
  const to: PermissionMode = entering ? "plan" : engine.modeBeforePlan ?? "default";
  if (entering && from !== "plan") engine.modeBeforePlan = from as PermissionMode;
  ctx.permissionMode = to;
  const frame = systemStatus(ctx, null, { permissionMode: to });
  await engine.send({ frame, delay: engine.delayFor(frame, turn) });
  if (entering) {
    return {
      content: ENTERED + ENTERED_GUIDE,
      isError: false,
      toolUseResult: { message: ENTERED },
    };
  }
  engine.modeBeforePlan = undefined;
  return {
    content: "User has approved exiting plan mode. You can now proceed.",
    isError: false,
    toolUseResult: {
      plan: null,
      isAgent: false,
      filePath: `${DEFAULT_HOME}/.claude/plans/${planSlug(engine, turn.text)}.md`,
    },
  };
}

/** Words the plan file's name draws two of (as the CLI's `<adjective>-<noun>`). */
const ADJECTIVES = ["floating", "piped", "quiet", "bright", "gentle", "rapid", "silver", "steady"];
const NOUNS = ["pancake", "harbor", "meadow", "lantern", "comet", "willow", "pebble", "falcon"];

/**
 * The plan file's name: the prompt's first words, then two words drawn from the session id
 * (deterministic by seed; the real CLI's are random).
 */
function planSlug(engine: Engine, prompt: string): string {
  const words = prompt.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim().split(" ")
    .filter((w) => w !== "").slice(0, 4).join("-");
  let h = 0x811c9dc5;
  for (const ch of engine.ctx.sessionId) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  const tail = `${ADJECTIVES[h % ADJECTIVES.length]}-${NOUNS[(h >>> 8) % NOUNS.length]}`;
  return words === "" ? tail : `${words}-${tail}`;
}
