/**
 * Runs a named failure (see `NAMED_FAILURES`) as the real CLI 2.1.328 goes through it: each
 * failed attempt (waiting what it waits, billing what a partial stream billed), an
 * `api_retry` frame before each retry's wait, then the synthetic error message and an error
 * result; or, for the recovered ones, the exchange's next message from the non-streaming
 * fallback.
 *
 * @module
 */

import { apiFailureMessage } from "../builders/api_error_message.ts";
import { fnv1a } from "../builders/_common.ts";
import { apiRetry } from "../builders/system.ts";
import type { ApiCallUsage } from "../builders/usage.ts";
import { Pcg32 } from "../random/pcg32.ts";
import {
  apiStreamEvents,
  brokenStreamUsage,
  estimateOutputTokens,
  type StreamBreak,
} from "../builders/_api_stream.ts";
import { replyChunking } from "../scenario/_reply_chunking.ts";
import {
  BROKEN_STREAM_REPLY,
  givesUpRepeated,
  NAMED_FAILURES,
} from "../scenario/named_failures.ts";
import type { FailureStep } from "../scenario/step.ts";
import type { Engine } from "./engine.ts";
import { evaluateMessage } from "./message_step.ts";
import { sendResult } from "./turn_result.ts";
import type { TurnState } from "./turn_state.ts";

/** `CLAUDE_CODE_MAX_RETRIES` as the CLI reads it: default 10, clamped to 0..15. */
export function maxRetriesOf(env: Record<string, string | undefined>): number {
  const n = Number.parseInt(env.CLAUDE_CODE_MAX_RETRIES ?? "", 10);
  return Number.isFinite(n) ? Math.min(15, Math.max(0, n)) : 10;
}

/**
 * The delay before retry `attempt` (from 1), with `u` and `v` uniform in [0, 1): the CLI's
 * `min(500 × 2^(attempt-1), 32000) × (1 + u/4)`, and with a `retry-after: 1` answer at least
 * `1000 × (1 + v/4)` (fits every delay in the recordings).
 */
export function retryDelayMs(
  attempt: number,
  options: { retryAfterS?: number; u: number; v: number },
): number {
  const backoff = Math.round(Math.min(500 * 2 ** (attempt - 1), 32000) * (1 + options.u * 0.25));
  if (options.retryAfterS === undefined) return backoff;
  return Math.max(Math.round(options.retryAfterS * 1000 * (1 + options.v * 0.25)), backoff);
}

/** Runs a `failure` step. */
export async function runFailure(
  engine: Engine,
  step: FailureStep,
  turn: TurnState,
): Promise<void> {
  const spec = NAMED_FAILURES[step.name];
  const ctx = engine.ctx;
  if (step.name === "max_budget") {
    turn.budgetExhausted = true;
    return;
  }
  const env = engine.env;
  const maxRetries = maxRetriesOf(env);
  // an Opus-class model gives up on three 529s in a row, whatever the retries (outside a sandbox)
  const repeated = givesUpRepeated(spec, { maxRetries, model: ctx.model, env });
  const retries = repeated
    ? spec.repeated! - 1
    : spec.retries === "all"
    ? maxRetries
    : Math.min(spec.retries ?? 0, maxRetries);
  const apiTimeoutMs = positive(env.API_TIMEOUT_MS, 600_000);
  // jitter drawn from the session's seed (via its id) and the turn: deterministic
  const prng = new Pcg32(fnv1a(`${ctx.sessionId}|${turn.index}|${turn.calls.length}`));
  const sleep = (ms: number) =>
    engine.clock.sleep(ms * engine.speed, { signal: turn.abort.signal });
  for (let attempt = 1; attempt <= retries + 1; attempt++) {
    if (spec.stderr !== undefined) engine.stderr(spec.stderr);
    if (spec.waits === "apiTimeout") await sleep(apiTimeoutMs);
    if (spec.waits === "streamIdle") {
      // as recorded: the idle watchdog ends the stream and one silent streaming retry, then
      // the non-streaming fallback times out
      const idleMs = positive(env.CLAUDE_BYTE_STREAM_IDLE_TIMEOUT_MS, 10_000);
      await sleep(idleMs * 2 + apiTimeoutMs);
    }
    if (spec.brokenStream) {
      const call: ApiCallUsage = {
        model: ctx.model,
        ...await brokenStreamBill(engine, turn, spec.brokenStream),
      };
      engine.ledger.add(call, ctx.model);
      turn.failedCalls.push(call);
    }
    if (attempt > retries) break;
    const delay = retryDelayMs(attempt, {
      retryAfterS: spec.retryAfter ? 1 : undefined,
      u: prng.nextFloat(),
      v: prng.nextFloat(),
    });
    // the frame comes when the failure is seen, before the wait
    await engine.send({
      frame: apiRetry(ctx, {
        attempt,
        maxRetries,
        retryDelayMs: delay,
        errorStatus: spec.status,
        error: spec.retryError,
      }),
      delay: 0,
    });
    await sleep(delay);
  }
  if (spec.recovers) {
    turn.fallbackNext = true;
    return;
  }
  const text = spec.text({
    message: step.message ?? spec.defaultMessage,
    gateway: gatewayOf(env.ANTHROPIC_BASE_URL),
    apiTimeoutMs,
    retried: retries,
    repeated,
    unusableFallback: ctx.cli.facts.unusableFallback,
    // the failed stream's request id: the same for the same failure in the same turn
    get requestId() {
      const ids = new Pcg32(fnv1a(`${step.name}|${turn.index}`));
      const chars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
      let id = "req_01";
      for (let i = 0; i < 24; i++) id += chars[Math.floor(ids.nextFloat() * chars.length)];
      return id;
    },
    firstEventMs: 0,
  });
  await engine.send({
    frame: apiFailureMessage(ctx, {
      text,
      error: spec.error,
      status: spec.status,
      ...(spec.errorType !== undefined ? { errorType: spec.errorType } : {}),
      ...(spec.connection ? { apiError: "connection_failed" as const } : {}),
    }),
    delay: engine.delayFor({ type: "assistant" }, turn),
  });
  await sendResult(
    engine,
    turn,
    spec.status !== null ? { apiErrorStatus: spec.status, result: text } : { result: text },
    {
      durationApiMs: 0,
      ...(spec.status === null
        ? { apiFailure: spec.connection ? { apiError: "connection_failed" as const } : {} }
        : { apiErrorType: spec.errorType }),
    },
  );
  turn.stopped = true;
}

/** `host:port` of a base URL, as the CLI names the gateway (`api.anthropic.com` without one). */
function gatewayOf(baseUrl: string | undefined): string {
  if (!baseUrl) return "api.anthropic.com";
  try {
    const url = new URL(baseUrl);
    return url.host;
  } catch {
    return baseUrl;
  }
}

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && Number.isFinite(n) && n > 0 ? n : fallback;
}

/**
 * What one broken streaming attempt bills: the part of the reply it carried (the next message
 * step's, as the Messages API streams it; with none, what a broken stream says by default).
 */
async function brokenStreamBill(
  engine: Engine,
  turn: TurnState,
  how: StreamBreak,
): Promise<ApiCallUsage> {
  const step = await turn.nextMessage?.();
  const blocks = step
    ? evaluateMessage(engine, step, turn).blocks
    : [{ type: "text" as const, text: BROKEN_STREAM_REPLY }];
  const events = apiStreamEvents(blocks, {
    ...(step ? replyChunking(step, blocks) : {}),
    outputTokens: step?.outputTokens ?? estimateOutputTokens(blocks),
  });
  return brokenStreamUsage(events, how);
}
