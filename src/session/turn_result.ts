/**
 * The result frame that ends a turn. A turn always ends: when the result cannot be built
 * from what the turn did (a bad token count, a bad duration), an error result that says
 * why is written instead, and when even that fails the process exits 1.
 *
 * @module
 */

import { resultFrame, type SubagentStats, subagentStats } from "../builders/result.ts";
import type { ApiCallUsage } from "../builders/usage.ts";
import type { ResultOptions } from "../scenario/step.ts";
import type { Frame } from "../wire/frame.ts";
import type { Engine } from "./engine.ts";
import { SessionEnded, TurnFailure, type TurnState } from "./turn_state.ts";
import { SENT } from "./outbox.ts";

/** Overrides of what a result counts. */
export interface ResultOverride {
  /** `num_turns` instead of the turn's API calls. */
  numTurns?: number;
  /** The API calls `usage` sums instead of the turn's. */
  apiCalls?: ApiCallUsage[];
  /** `duration_api_ms` instead of the turn's time. */
  durationApiMs?: number;
  /**
   * The local command (`compact`) the result reports; `null`: the same shape without
   * `local_command` (a prompt a UserPromptSubmit hook stopped).
   */
  localCommand?: string | null;
  /** An API failure without an HTTP status (`api_error_status: null`). */
  apiFailure?: { apiError?: "connection_failed" };
  /** The API error type of an HTTP failure. */
  apiErrorType?: string;
  /** The structured output (`--json-schema`) the result carries. */
  structuredOutput?: unknown;
}

/** Writes the turn's result frame. Throws a {@linkcode TurnFailure} when it cannot be built. */
export async function sendResult(
  engine: Engine,
  turn: TurnState,
  options: ResultOptions,
  override: ResultOverride = {},
): Promise<void> {
  const subtype = options.subtype ?? "success";
  const isError = subtype !== "success" || (options.errors?.length ?? 0) > 0 ||
    options.apiErrorStatus !== undefined || override.apiFailure !== undefined;
  const elapsed = Math.round(engine.clock.now() - turn.startedAt);
  engine.ledger.apiMs += override.durationApiMs ?? elapsed;
  let frame;
  try {
    frame = resultFrame(engine.ctx, {
      subtype,
      isError,
      result: options.result ?? (subtype === "success" ? turn.lastText : undefined),
      errors: options.errors,
      maxTurns: engine.flags.maxTurns,
      numTurns: override.numTurns ?? turn.userMessages,
      durationMs: elapsed,
      durationApiMs: override.durationApiMs ?? elapsed,
      ...(override.localCommand !== undefined ? { localCommand: override.localCommand ?? "" } : {}),
      apiCalls: override.apiCalls ?? [...turn.failedCalls, ...turn.calls],
      modelUsage: engine.ledger.modelUsage(),
      modelUsageSinceLastResult: engine.ledger.takeSinceLastResult(),
      subagentStats: nestedStats(
        withOthers(subagentStats(engine.subagents), engine),
        engine.subagentNesting,
      ),
      permissionDenials: turn.denials,
      stopReason: options.stopReason,
      terminalReason: options.terminalReason,
      totalCostUsd: options.totalCostUsd,
      resultIndex: engine.resultCount,
      // as CLI 2.1.331 and later with partial messages
      ...(engine.ctx.cli.facts.begunMessageIds && engine.partial() && turn.messageIds?.length
        ? { begunMessageIds: turn.messageIds }
        : {}),
      ...(options.apiErrorStatus !== undefined ? { apiErrorStatus: options.apiErrorStatus } : {}),
      ...(override.apiFailure ? { apiErrorStatus: null, ...override.apiFailure } : {}),
      ...(override.apiErrorType !== undefined ? { apiErrorType: override.apiErrorType } : {}),
      ...(override.structuredOutput !== undefined
        ? { structuredOutput: override.structuredOutput }
        : {}),
      ...(options.subtype === "error_max_budget_usd" && engine.flags.maxBudgetUsd !== undefined
        ? { maxBudgetUsd: engine.flags.maxBudgetUsd }
        : {}),
      // a turn the CLI started by itself says why (2.1.332)
      extra: turn.origin ? { origin: turn.origin, ...options.extra } : options.extra,
    });
  } catch (error) {
    throw new TurnFailure(
      `claude-mock: cannot build the result of ${describeTurn(engine, turn)}: ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
  }
  if (override.localCommand === null) delete (frame as { local_command?: string }).local_command;
  engine.resultCount++;
  turn.resultSent = true;
  engine.lastResultError = isError;
  const sent = engine.send({ frame, delay: engine.delayFor(frame, turn) });
  if (sent !== SENT) await sent;
}

/**
 * Ends a failed turn: an `error_during_execution` result carrying `message`; if that
 * cannot be built from the turn, a bare one; if nothing can be written, exit 1.
 */
export async function sendFailure(engine: Engine, turn: TurnState, message: string): Promise<void> {
  try {
    await sendResult(engine, turn, { subtype: "error_during_execution", errors: [message] });
    return;
  } catch (error) {
    if (error instanceof SessionEnded || engine.closed) return;
    message = `${message}\n${error instanceof Error ? error.message : String(error)}`;
  }
  try {
    const frame = bareErrorResult(engine, message);
    turn.resultSent = true;
    await engine.send({ frame, delay: 0 });
  } catch (error) {
    if (error instanceof SessionEnded || engine.closed) return;
    await engine.shutdown({ code: 1, signal: null }, true);
  }
}

/**
 * An `error_during_execution` result carrying `message` that needs nothing from a turn
 * (counted as the session's next result).
 */
export function bareErrorResult(engine: Engine, message: string): Frame {
  const frame = resultFrame(engine.ctx, {
    subtype: "error_during_execution",
    isError: true,
    errors: [message],
    numTurns: 0,
    durationMs: 0,
    durationApiMs: 0,
    apiCalls: [],
    modelUsage: {},
    permissionDenials: [],
    resultIndex: engine.resultCount,
  });
  engine.resultCount++;
  engine.lastResultError = true;
  return frame;
}

/** `exchange 2 (contains "x")`, or "the unmatched answer". */
export function describeTurn(engine: Engine, turn: TurnState): string {
  return turn.exchangeIndex !== undefined
    ? engine.picker.describe(turn.exchangeIndex)
    : "the unmatched answer";
}

/** `stats` with the subagents' nesting: a subagent's own subagent is at depth 2 (2.1.332). */
/**
 * The stats with the subagents that did not complete in the foreground: those an interrupt
 * stopped (killed by the user, 2.1.328, 2.1.332) and those started in the background, still
 * running or not (2.1.332). All count as spawned and by type; the background ones as requested
 * in the background only when the Agent call asked `run_in_background`.
 */
function withOthers(stats: SubagentStats, engine: Engine): SubagentStats {
  const bg = engine.background;
  const byType = { ...stats.by_type };
  const add = (counts: Record<string, number>) => {
    let n = 0;
    for (const [type, count] of Object.entries(counts)) {
      if (count === 0) continue;
      n += count;
      byType[type] = (byType[type] ?? 0) + count;
    }
    return n;
  };
  const killed = add(engine.subagentsKilled);
  const extra = killed + add(bg.running);
  if (extra === 0 && bg.started === 0) return stats;
  const spawned = stats.spawned + extra;
  return {
    ...stats,
    spawned,
    requested: { background: bg.requested, foreground: spawned - bg.requested, unset: 0 },
    started_in_background: bg.started,
    max_depth: Math.max(stats.max_depth, spawned > 0 ? 1 : 0),
    killed: { ...stats.killed, user: stats.killed.user + killed },
    by_type: byType,
  };
}

function nestedStats(
  stats: SubagentStats,
  nesting: { maxDepth: number; spawnedBySubagents: number },
): SubagentStats {
  return {
    ...stats,
    max_depth: Math.max(stats.max_depth, nesting.maxDepth),
    spawned_by_subagents: nesting.spawnedBySubagents,
  };
}
