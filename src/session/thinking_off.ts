/**
 * Whether the session's thinking is turned off, as the real CLI decides what it asks the API
 * for: its assistant and stream frames then carry no `thinking_display`.
 *
 * @module
 */

import { catalogModel, modelCatalogOf } from "../builders/model_catalog.ts";
import type { CliFlags } from "./cli_args.ts";
import type { Engine } from "./engine.ts";

/**
 * Whether a session's thinking is off, as the real CLI (2.1.328 to 2.1.332) turns it off:
 * `--thinking disabled` (the SDK's `thinking: {type: "disabled"}` and `maxThinkingTokens: 0`),
 * or with no `--thinking`, a budget of 0 (`--max-thinking-tokens 0`, `set_max_thinking_tokens`);
 * `enabled` or `adaptive` keeps it on whatever the budget. A model whose thinking is always on
 * (the 5 generation) keeps it on whatever the flags say.
 *
 * @example Thinking turned off, on a model that allows it
 * ```ts
 * import { thinkingTurnedOff } from "./thinking_off.ts";
 * const flags = { thinking: "disabled" };
 * const cli = { basis: "2.1.332" };
 * console.log(thinkingTurnedOff(flags, { model: "claude-sonnet-4-5", maxThinkingTokens: null, cli })); // true
 * console.log(thinkingTurnedOff(flags, { model: "claude-opus-5-5", maxThinkingTokens: null, cli })); // false
 * ```
 */
export function thinkingTurnedOff(
  flags: Pick<CliFlags, "thinking" | "maxThinkingTokens">,
  session: { model: string; maxThinkingTokens: number | null; cli: { readonly basis: string } },
): boolean {
  const budget = session.maxThinkingTokens ?? flags.maxThinkingTokens;
  const off = flags.thinking === "disabled" || (flags.thinking === undefined && budget === 0);
  if (!off) return false;
  return catalogModel(session.model, modelCatalogOf(session.cli))?.thinkingAlwaysOn !== true;
}

/**
 * The `thinking_display` of the session's thinking frames: `null` (none) when it is off, else
 * the one `set_max_thinking_tokens` chose, else `updates`.
 */
export function thinkingDisplayOf(engine: Engine): string | null {
  return thinkingTurnedOff(engine.flags, {
      model: engine.ctx.model,
      maxThinkingTokens: engine.maxThinkingTokens,
      cli: engine.ctx.cli,
    })
    ? null
    : engine.thinkingDisplay ?? "updates";
}
