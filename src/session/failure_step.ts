/**
 * Runs a named failure (see `NAMED_FAILURES`), or an `apiError` step (an HTTP error of any
 * status, gone through as the named failure of that status), as the real CLI goes through it: each
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
  type FailureSpec,
  givesUpRepeated,
  httpFailure,
  NAMED_FAILURES,
} from "../scenario/named_failures.ts";
import type { ApiErrorStep, FailureStep } from "../scenario/step.ts";
import type { Engine } from "./engine.ts";
import { messageDisplayHooks, stopFailureHooks } from "./hook_runner.ts";
import { evaluateMessage } from "./message_step.ts";
import { sendResult } from "./turn_result.ts";
import type { TurnState } from "./turn_state.ts";

/** `CLAUDE_CODE_MAX_RETRIES` as the CLI reads it: default 10, clamped to 0..15. */
function maxRetriesOf(env: Record<string, string | undefined>): number {
  const n = Number.parseInt(env.CLAUDE_CODE_MAX_RETRIES ?? "", 10);
  return Number.isFinite(n) ? Math.min(15, Math.max(0, n)) : 10;
}

/**
 * The delay before retry `attempt` (from 1), with `u` and `v` uniform in [0, 1): the CLI's
 * `min(500 × 2^(attempt-1), 32000) × (1 + u/4)`, and with a `retry-after: 1` answer at least
 * `1000 × (1 + v/4)` (fits every delay the real CLI 2.1.328 took).
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
  if (step.name === "max_budget") {
    turn.budgetExhausted = true;
    return;
  }
  const spec = NAMED_FAILURES[step.name];
  const maxRetries = maxRetriesOf(engine.env);
  // an Opus-class model gives up on three 529s in a row, whatever the retries (outside a sandbox)
  const repeated = givesUpRepeated(spec, { maxRetries, model: engine.ctx.model, env: engine.env });
  const retries = repeated
    ? spec.repeated! - 1
    : spec.retries === "all"
    ? maxRetries
    : Math.min(spec.retries ?? 0, maxRetries);
  await failedAttempts(engine, turn, spec, { attempts: retries + 1, retries, maxRetries });
  if (spec.recovers) {
    turn.fallbackNext = true;
    return;
  }
  await endWithFailure(engine, turn, spec, {
    message: step.message ?? spec.defaultMessage,
    key: step.name,
    retried: retries,
    repeated,
  });
}

/**
 * Runs an `apiError` step: the API answers the call with an HTTP error, on every attempt, or
 * (`recovers`) on its first `retries` attempts. The CLI goes through it as through the named
 * failure of that status: it retries a retryable status (401, 429, 5xx, 529) as
 * `CLAUDE_CODE_MAX_RETRIES` says, and gives up with that failure's text when the API still
 * fails then (an Opus-class model at the third 529 in a row).
 */
export async function runApiError(
  engine: Engine,
  step: ApiErrorStep,
  turn: TurnState,
): Promise<void> {
  const spec = httpFailure(step.status, step.message);
  const maxRetries = maxRetriesOf(engine.env);
  const failing = step.recovers ? step.retries ?? 0 : Infinity;
  const repeated = failing >= (spec.repeated ?? Infinity) &&
    givesUpRepeated(spec, { maxRetries, model: engine.ctx.model, env: engine.env });
  const limit = repeated ? spec.repeated! - 1 : spec.retries === "all" ? maxRetries : 0;
  const recovers = failing <= limit;
  const retries = recovers ? failing : limit;
  await failedAttempts(engine, turn, spec, {
    attempts: recovers ? failing : limit + 1,
    retries,
    maxRetries,
    ...(step.retryDelayMs !== undefined ? { delayMs: step.retryDelayMs } : {}),
  });
  if (recovers) return;
  await endWithFailure(engine, turn, spec, {
    message: step.message ?? spec.defaultMessage,
    key: `apiError ${step.status}`,
    retried: retries,
    repeated,
  });
}

/**
 * The attempts that fail: each waits what it waits and bills what its broken stream carried;
 * before each retry's wait, an `api_retry` frame (the CLI's backoff, or `delayMs`).
 */
async function failedAttempts(
  engine: Engine,
  turn: TurnState,
  spec: FailureSpec,
  plan: { attempts: number; retries: number; maxRetries: number; delayMs?: number },
): Promise<void> {
  const ctx = engine.ctx;
  const env = engine.env;
  const apiTimeoutMs = positive(env.API_TIMEOUT_MS, 600_000);
  // jitter drawn from the session's seed (via its id) and the turn: deterministic
  const prng = new Pcg32(fnv1a(`${ctx.sessionId}|${turn.index}|${turn.calls.length}`));
  const sleep = (ms: number) =>
    engine.clock.sleep(ms * engine.speed, { signal: turn.abort.signal });
  for (let attempt = 1; attempt <= plan.attempts; attempt++) {
    engine.beforeApiCall();
    if (spec.stderr !== undefined) engine.stderr(spec.stderr);
    if (spec.waits === "apiTimeout") await sleep(apiTimeoutMs);
    if (spec.waits === "streamIdle") {
      // as the real CLI 2.1.328: the idle watchdog ends the stream and one silent streaming retry, then
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
    if (attempt > plan.retries) break;
    const delay = plan.delayMs ?? retryDelayMs(attempt, {
      retryAfterS: spec.retryAfter ? 1 : undefined,
      u: prng.nextFloat(),
      v: prng.nextFloat(),
    });
    // the frame comes when the failure is seen, before the wait
    await engine.send({
      frame: apiRetry(ctx, {
        attempt,
        maxRetries: plan.maxRetries,
        retryDelayMs: delay,
        errorStatus: spec.status,
        error: spec.retryError,
      }),
      delay: 0,
    });
    await sleep(delay);
  }
}

/** Ends the turn with the failure: the CLI's synthetic error message, then an error result. */
async function endWithFailure(
  engine: Engine,
  turn: TurnState,
  spec: FailureSpec,
  how: { message: string; key: string; retried: number; repeated: boolean },
): Promise<void> {
  const ctx = engine.ctx;
  const env = engine.env;
  const text = spec.text({
    message: how.message,
    gateway: gatewayOf(env.ANTHROPIC_BASE_URL),
    apiTimeoutMs: positive(env.API_TIMEOUT_MS, 600_000),
    retried: how.retried,
    repeated: how.repeated,
    unusableFallback: ctx.cli.facts.unusableFallback,
    // the failed stream's request id and its fallback's: the same for the same failure in the
    // same turn
    get requestId() {
      return requestIdOf(`${how.key}|${turn.index}`);
    },
    get fallbackRequestId() {
      return requestIdOf(`${how.key}|${turn.index}|fallback`);
    },
    firstEventMs: 0,
  });
  // the error's text is shown like any reply: MessageDisplay first (the real CLI 2.1.332)
  await messageDisplayHooks(engine, turn, { text, index: 0 });
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
  await stopFailureHooks(engine, turn, { error: spec.error, lastMessage: text });
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

/** A request id (`req_01` and 24 characters) drawn from `key`. */
function requestIdOf(key: string): string {
  const ids = new Pcg32(fnv1a(key));
  const chars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  let id = "req_01";
  for (let i = 0; i < 24; i++) id += chars[Math.floor(ids.nextFloat() * chars.length)];
  return id;
}
