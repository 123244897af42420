/**
 * What a foreground subagent costs the session: its API calls, as the Messages API serves
 * them.
 *
 * @module
 */

import { subagentReplies } from "../builders/_agent_run.ts";
import { estimateOutputTokens } from "../builders/_api_stream.ts";
import { DEFAULT_INPUT_TOKENS } from "../builders/usage.ts";
import type { ScriptedToolCall } from "../scenario/step.ts";
import type { Frame } from "../wire/frame.ts";
import type { Engine } from "./engine.ts";

/**
 * A foreground subagent's API calls, as the Messages API serves them (its assistant messages,
 * then its report): counted in the session's `modelUsage` and cost, not in the turn's `usage`
 * (which is the main loop's), under the model it ran on (`model`, default the session's), the
 * report's call left out when `report` is false; the subagent counts as spawned and completed
 * in `subagent_stats` (as spawned and killed by the user when `killed`).
 */
export function billSubagent(
  engine: Engine,
  call: ScriptedToolCall,
  frames: Frame[],
  options: { model?: string; report?: boolean; killed?: boolean } = {},
): void {
  billReplies(engine, call, frames, options);
  const type = String(call.block.input.subagent_type ?? "general-purpose");
  const tally = options.killed ? engine.subagentsKilled : engine.subagents;
  tally[type] = (tally[type] ?? 0) + 1;
}

/**
 * A subagent's API calls alone (its assistant messages among `frames`, then its report unless
 * `report` is false), billed to the session under `model` (default the session's).
 */
export function billReplies(
  engine: Engine,
  call: ScriptedToolCall,
  frames: Frame[],
  options: { model?: string; report?: boolean } = {},
): void {
  const model = options.model ?? engine.ctx.model;
  // a subagent stopped at its turn limit made no call for a report
  const result = options.report === false ? undefined : call.result.toolUseResult;
  for (const blocks of subagentReplies(frames, call.block.id, result)) {
    engine.ledger.add(
      { model, inputTokens: DEFAULT_INPUT_TOKENS, outputTokens: estimateOutputTokens(blocks) },
      model,
      { subagent: true },
    );
  }
}
