/**
 * The `result` frame that ends a turn, in each of the shapes (key sets and key orders) the
 * real CLI 2.1.328 writes: success, success-with-API-error, error subtypes, and the result
 * of a local command such as `/compact`.
 *
 * @module
 */

import type { ResultFrame, Uuid } from "../wire/frame.ts";
import type { BuildContext } from "./build_context.ts";
import { checkCount, describe } from "./_common.ts";
import type { FastModeDisabledReason, FastModeState } from "./fast_mode.ts";
import {
  type ApiCallUsage,
  modelUsage as modelUsageOf,
  type ModelUsageEntry,
  type ResultUsage,
  resultUsage,
  totalCost,
} from "./usage.ts";

/** The subtypes of a `result` frame. */
export type ResultSubtype =
  | "success"
  | "error_during_execution"
  | "error_max_turns"
  | "error_max_budget_usd"
  | "error_max_structured_output_retries";

/** The error subtypes of a `result` frame. */
export type ResultErrorSubtype = Exclude<ResultSubtype, "success">;

/** Why the turn ended (the SDK's `TerminalReason`). */
export type TerminalReason =
  | "blocking_limit"
  | "rapid_refill_breaker"
  | "prompt_too_long"
  | "image_error"
  | "model_error"
  | "api_error"
  | "malformed_tool_use_exhausted"
  | "aborted_streaming"
  | "aborted_tools"
  | "stop_hook_prevented"
  | "hook_stopped"
  | "tool_deferred"
  | "max_turns"
  | "background_requested"
  | "completed"
  | "budget_exhausted"
  | "structured_output_retry_exhausted"
  | "tool_deferred_unavailable"
  | "turn_setup_failed";

/** A tool use that was denied (`permission_denials[]`). */
export interface PermissionDenial {
  /** The tool name. */
  tool_name: string;
  /** The tool use id. */
  tool_use_id: string;
  /** The tool input. */
  tool_input: Record<string, unknown>;
}

/** The `subagent_stats` of a `result` frame. */
export type SubagentStats = {
  spawned: number;
  requested: { background: number; foreground: number; unset: number };
  started_in_background: number;
  max_depth: number;
  spawned_by_subagents: number;
  completed: number;
  failed: number;
  killed: { parent: number; user: number; system: number };
  refused: { depth_limit: number; concurrency_limit: number; budget: number };
  by_type: Record<string, number>;
};

/**
 * The `subagent_stats` of a turn in which foreground subagents of the given types
 * completed (`{"general-purpose": 1}` as in the subagent recording); zeros without any.
 *
 * @example Stats for one general-purpose subagent
 * ```ts
 * import { subagentStats } from "./result.ts";
 * console.log(subagentStats({ "general-purpose": 1 }).spawned); // 1
 * ```
 */
export function subagentStats(completedByType: Record<string, number> = {}): SubagentStats {
  let total = 0;
  for (const [type, n] of Object.entries(completedByType)) {
    checkCount(n, "subagentStats()", `the count of ${type}`);
    total += n;
  }
  return {
    spawned: total,
    requested: { background: 0, foreground: total, unset: 0 },
    started_in_background: 0,
    max_depth: total > 0 ? 1 : 0,
    spawned_by_subagents: 0,
    completed: total,
    failed: 0,
    killed: { parent: 0, user: 0, system: 0 },
    refused: { depth_limit: 0, concurrency_limit: 0, budget: 0 },
    by_type: { ...completedByType },
  };
}

/** Fields every `result` frame carries. */
export interface ResultFrameBase extends ResultFrame {
  /** Frame type. */
  type: "result";
  /** Time spent in API calls. */
  duration_api_ms: number;
  /** The last API stop reason. */
  stop_reason: string | null;
  /** Cumulative session cost. */
  total_cost_usd: number;
  /** Main-loop usage of this turn. */
  usage: ResultUsage;
  /** Cumulative usage per model. */
  modelUsage: Record<string, ModelUsageEntry>;
  /** Denied tool uses. */
  permission_denials: PermissionDenial[];
  /** Why the turn ended (absent on local command results). */
  terminal_reason?: TerminalReason;
  /** Fast mode state. */
  fast_mode_state: FastModeState;
  /** Why fast mode is off. */
  fast_mode_disabled_reason: FastModeDisabledReason;
  /** Subagent counts. */
  subagent_stats: SubagentStats;
  /** Safety stops. */
  safety_stops: number;
  /** The frame's uuid. */
  uuid: Uuid;
  /** The API message ids the turn began (CLI 2.1.331 and later, with partial messages). */
  begun_message_ids?: string[];
  /** Sends still queued. */
  queued_turn_count: number;
  /** This result's number in the run, from 0. */
  result_index: number;
  /** Usage per model since the previous result. */
  model_usage_since_last_result: Record<string, ModelUsageEntry>;
}

/** A `result` frame with subtype `success` (also used for API errors, with `is_error`). */
export interface ResultSuccessFrame extends ResultFrameBase {
  /** Always `success`. */
  subtype: "success";
  /** The final text (or the API error text). */
  result: string;
  /** The HTTP status of a failed API call, else `null`. */
  api_error_status?: number | null;
  /** The API error type of a failed API call. */
  api_error_type?: string;
  /** The local command that produced this result (`compact`). */
  local_command?: string;
  /** What the model gave the `StructuredOutput` tool (`--json-schema`). */
  structured_output?: unknown;
  /** Time to first token. */
  ttft_ms?: number;
  /** Time to first streamed token. */
  ttft_stream_ms?: number;
  /** Time until the request was sent. */
  time_to_request_ms?: number;
  /** Time to the first content frame. */
  first_content_frame_ms?: number;
}

/** A `result` frame with an error subtype. */
export interface ResultErrorFrame extends ResultFrameBase {
  /** The error subtype. */
  subtype: ResultErrorSubtype;
  /** What went wrong. */
  errors: string[];
}

/** A `result` frame as {@linkcode resultFrame} builds it. */
export type ResultFrameOut = ResultSuccessFrame | ResultErrorFrame;

/** Latency fields of a successful result. */
export interface ResultTiming {
  /** `ttft_ms` (default 90). */
  ttftMs?: number;
  /** `ttft_stream_ms` (default `ttftMs - 1`). */
  ttftStreamMs?: number;
  /** `time_to_request_ms` (default `ttftMs - 10`). */
  timeToRequestMs?: number;
  /** `first_content_frame_ms` (default `ttftStreamMs`). */
  firstContentFrameMs?: number;
}

/** Options for {@linkcode resultFrame}. */
export interface ResultFrameOptions {
  /** The subtype (default `success`). */
  subtype?: ResultSubtype;
  /** The final text of a success (default `""`). */
  result?: string;
  /** The errors of an error subtype (default: what the CLI writes for the subtype). */
  errors?: string[];
  /** `error_max_turns`: the limit, for the default error text (default `numTurns - 1`). */
  maxTurns?: number;
  /** `error_max_budget_usd`: the budget, for the default error text (`$0.25`). */
  maxBudgetUsd?: number;
  /** `is_error` (default: true for error subtypes and API errors). */
  isError?: boolean;
  /** API round trips in the turn (default 1). */
  numTurns?: number;
  /** Wall time of the turn (default 100). */
  durationMs?: number;
  /** Time in API calls (default 30, 0 for errors). */
  durationApiMs?: number;
  /**
   * The API calls used to derive `usage`, `modelUsage` and the cost when those are not
   * given (default: `numTurns` calls of 120 in / 25 out for success and `error_max_turns`,
   * none otherwise).
   */
  apiCalls?: ApiCallUsage[];
  /** The turn's main-loop usage (default: from `apiCalls`). */
  usage?: ResultUsage;
  /** Cumulative usage per model (default: from `apiCalls`). */
  modelUsage?: Record<string, ModelUsageEntry>;
  /** Usage since the previous result (default: `modelUsage`). */
  modelUsageSinceLastResult?: Record<string, ModelUsageEntry>;
  /** Cumulative cost (default: the sum over `modelUsage`). */
  totalCostUsd?: number;
  /** Denied tool uses (default none). */
  permissionDenials?: PermissionDenial[];
  /** The last stop reason (default by shape: `end_turn`, `tool_use`, `stop_sequence` or null). */
  stopReason?: string | null;
  /** Why the turn ended (default by shape: `completed`, `max_turns`, `aborted_streaming`, `api_error`). */
  terminalReason?: TerminalReason;
  /**
   * Success subtype only: makes an API error result (`is_error`, `api_error_status`). `null`
   * for a failure with no HTTP status (a refused or reset connection, a timeout, a broken
   * stream): `api_error_status: null` and no `api_error_type`, as recorded.
   */
  apiErrorStatus?: number | null;
  /** With `apiErrorStatus: null`: `connection_failed` for a refused or reset connection. */
  apiError?: "connection_failed";
  /** The API error type (default from the status, e.g. `invalid_request_error` for 400). */
  apiErrorType?: string;
  /** Success subtype only: the local command (`compact`) that produced the result. */
  localCommand?: string;
  /**
   * Success subtype only: the value the model gave the `StructuredOutput` tool (`--json-schema`,
   * the SDK's `outputFormat`), written as `structured_output` after `result`.
   */
  structuredOutput?: unknown;
  /** Latencies of a success. */
  timing?: ResultTiming;
  /** The result's number in the run, from 0 (default 0). */
  resultIndex?: number;
  /**
   * The API message ids the turn began (`begun_message_ids`, after `uuid`): CLI 2.1.331 and
   * later report them with partial messages.
   */
  begunMessageIds?: string[];
  /** Sends still queued (default 0). */
  queuedTurnCount?: number;
  /** Subagent counts (default: none). */
  subagentStats?: SubagentStats;
  /** Extra fields (they override built ones, keeping their place). */
  extra?: Record<string, unknown>;
}

const API_ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "billing_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

const SUBTYPES: readonly ResultSubtype[] = [
  "success",
  "error_during_execution",
  "error_max_turns",
  "error_max_budget_usd",
  "error_max_structured_output_retries",
];

/**
 * A `result` frame in the real CLI's key set and order for its shape:
 * - success: `result`, `api_error_status: null` and latency fields;
 * - API error (`apiErrorStatus`): subtype `success` with `is_error: true`,
 *   `api_error_status`, `api_error_type`, `terminal_reason: "api_error"`;
 * - error subtypes: `errors` (`error_max_turns`: "Reached maximum number of turns (N)");
 * - local command (`localCommand`, e.g. `/compact`): `local_command`, no `terminal_reason`.
 *
 * `usage` counts this turn's main-loop calls; `modelUsage` and `total_cost_usd` are
 * cumulative for the session (give `modelUsage` explicitly on later turns).
 *
 * @example A successful turn
 * ```ts
 * import { createBuildContext, resultFrame } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const result = resultFrame(ctx, { result: "Hello! How can I help you today?" });
 * console.log(result.subtype, result.total_cost_usd); // success 0.00098
 * ```
 *
 * @example Reaching the turn limit
 * ```ts
 * import { createBuildContext, resultFrame } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const result = resultFrame(ctx, { subtype: "error_max_turns", numTurns: 2, maxTurns: 1 });
 * if (result.subtype !== "success") console.log(result.errors); // ["Reached maximum number of turns (1)"]
 * ```
 */
export function resultFrame(ctx: BuildContext, options: ResultFrameOptions = {}): ResultFrameOut {
  const parts = resultParts(ctx, options, checkShape(options));
  const frame = options.localCommand !== undefined
    ? localResult(parts, options)
    : parts.subtype === "success"
    ? successResult(parts, options)
    : errorResult(parts, options);
  return options.extra ? { ...frame, ...options.extra } as ResultFrameOut : frame;
}

/** The subtype, once the options fit together. */
function checkShape(options: ResultFrameOptions): ResultSubtype {
  const subtype = options.subtype ?? "success";
  if (!SUBTYPES.includes(subtype)) {
    throw new RangeError(
      `resultFrame(): unknown subtype ${describe(subtype)}; expected one of ${SUBTYPES.join(", ")}`,
    );
  }
  const apiError = options.apiErrorStatus !== undefined;
  const local = options.localCommand !== undefined;
  if (subtype !== "success" && (apiError || local || options.result !== undefined)) {
    throw new TypeError(
      `resultFrame(): apiErrorStatus, localCommand and result only apply to subtype "success", not "${subtype}"`,
    );
  }
  if (subtype === "success" && options.errors !== undefined) {
    throw new TypeError(`resultFrame(): errors only apply to error subtypes, not "success"`);
  }
  if (apiError && local) {
    throw new TypeError("resultFrame(): apiErrorStatus and localCommand cannot be combined");
  }
  return subtype;
}

/** Why the turn stopped and ended, as the real CLI says for each shape. */
function reasonsOf(options: ResultFrameOptions, subtype: ResultSubtype) {
  const apiError = options.apiErrorStatus !== undefined;
  const local = options.localCommand !== undefined;
  const stopReason = options.stopReason !== undefined
    ? options.stopReason
    : subtype === "error_max_turns"
    ? "tool_use"
    : apiError
    ? "stop_sequence"
    : subtype === "success" && !local
    ? "end_turn"
    : null;
  const terminalReason = options.terminalReason ??
    (apiError
      ? "api_error"
      : subtype === "error_max_turns"
      ? "max_turns"
      : subtype === "error_during_execution"
      ? "aborted_streaming"
      : subtype === "error_max_budget_usd"
      ? "budget_exhausted"
      : subtype === "error_max_structured_output_retries"
      ? "structured_output_retry_exhausted"
      : "completed");
  return { stopReason, terminalReason };
}

/** The values and key groups every shape of result is made of. */
function resultParts(ctx: BuildContext, options: ResultFrameOptions, subtype: ResultSubtype) {
  const apiError = options.apiErrorStatus !== undefined;
  const local = options.localCommand !== undefined;
  const numTurns = options.numTurns ?? (local ? 0 : 1);
  checkCount(numTurns, "resultFrame()", "options.numTurns");
  const countsCalls = subtype === "error_max_turns" ||
    (subtype === "success" && !apiError && !local);
  const calls = options.apiCalls ??
    (countsCalls ? Array.from({ length: numTurns }, () => ({})) : []);
  const byModel = options.modelUsage ?? modelUsageOf(calls, { model: ctx.model });
  const usage = options.usage ?? resultUsage(calls);
  const durationMs = options.durationMs ?? 100;
  const durationApiMs = options.durationApiMs ?? (countsCalls ? 30 : 0);
  checkCount(durationMs, "resultFrame()", "options.durationMs");
  checkCount(durationApiMs, "resultFrame()", "options.durationApiMs");
  return {
    subtype,
    numTurns,
    durationApiMs,
    isError: options.isError ?? (subtype !== "success" || apiError),
    ...reasonsOf(options, subtype),
    common: {
      session_id: ctx.sessionId,
      total_cost_usd: options.totalCostUsd ?? totalCost(byModel),
      usage,
      modelUsage: byModel,
      permission_denials: options.permissionDenials ?? [],
    },
    fast: {
      fast_mode_state: "off" as const,
      fast_mode_disabled_reason: "sdk_opt_in_required" as const,
      subagent_stats: options.subagentStats ?? subagentStats(),
      safety_stops: 0,
    },
    tail: {
      type: "result" as const,
      duration_ms: durationMs,
      uuid: ctx.ids.uuid(),
      ...(options.begunMessageIds ? { begun_message_ids: [...options.begunMessageIds] } : {}),
    },
    end: {
      queued_turn_count: options.queuedTurnCount ?? 0,
      result_index: options.resultIndex ?? 0,
      model_usage_since_last_result: options.modelUsageSinceLastResult ?? byModel,
    },
  };
}

type ResultParts = ReturnType<typeof resultParts>;

/** A local command's result (`/compact`): `local_command`, no `terminal_reason`. */
function localResult(p: ResultParts, options: ResultFrameOptions): ResultFrameOut {
  return {
    is_error: p.isError,
    duration_api_ms: p.durationApiMs,
    num_turns: p.numTurns,
    stop_reason: p.stopReason,
    ...p.common,
    ...p.fast,
    subtype: "success",
    result: options.result ?? "",
    local_command: options.localCommand,
    ...p.tail,
    ...p.end,
  };
}

/** An answer's result (most turns'): one literal, keyed as `successResult`'s spreads key it. */
function answerResult(p: ResultParts, options: ResultFrameOptions): ResultFrameOut {
  const { common, fast, tail, end } = p;
  const ttft = options.timing?.ttftMs ?? 90;
  const ttftStream = options.timing?.ttftStreamMs ?? Math.max(0, ttft - 1);
  return {
    duration_api_ms: p.durationApiMs,
    stop_reason: p.stopReason,
    session_id: common.session_id,
    total_cost_usd: common.total_cost_usd,
    usage: common.usage,
    modelUsage: common.modelUsage,
    permission_denials: common.permission_denials,
    terminal_reason: p.terminalReason,
    fast_mode_state: fast.fast_mode_state,
    fast_mode_disabled_reason: fast.fast_mode_disabled_reason,
    subagent_stats: fast.subagent_stats,
    safety_stops: fast.safety_stops,
    is_error: p.isError,
    num_turns: p.numTurns,
    subtype: "success",
    api_error_status: null,
    result: options.result ?? "",
    ttft_ms: ttft,
    type: tail.type,
    duration_ms: tail.duration_ms,
    uuid: tail.uuid,
    ttft_stream_ms: ttftStream,
    time_to_request_ms: options.timing?.timeToRequestMs ?? Math.max(0, ttft - 10),
    first_content_frame_ms: options.timing?.firstContentFrameMs ?? ttftStream,
    queued_turn_count: end.queued_turn_count,
    result_index: end.result_index,
    model_usage_since_last_result: end.model_usage_since_last_result,
  };
}

/** A `success` result: an answer with its latencies, or an API error (by status or none). */
function successResult(p: ResultParts, options: ResultFrameOptions): ResultFrameOut {
  const o = options;
  if (o.apiErrorStatus === undefined && o.structuredOutput === undefined && !o.begunMessageIds) {
    return answerResult(p, options);
  }
  const head = {
    duration_api_ms: p.durationApiMs,
    stop_reason: p.stopReason,
    ...p.common,
    terminal_reason: p.terminalReason,
    ...p.fast,
    is_error: p.isError,
    num_turns: p.numTurns,
    subtype: "success" as const,
  };
  if (options.apiErrorStatus === null) {
    if (options.apiError !== undefined && options.apiError !== "connection_failed") {
      throw new RangeError(
        `resultFrame(): apiError must be "connection_failed", got ${describe(options.apiError)}`,
      );
    }
    return {
      ...head,
      api_error_status: null,
      ...(options.apiError !== undefined ? { api_error: options.apiError } : {}),
      result: options.result ?? "API Error",
      ...p.tail,
      ...p.end,
    };
  }
  if (options.apiErrorStatus !== undefined) {
    const status = options.apiErrorStatus;
    checkCount(status, "resultFrame()", "options.apiErrorStatus");
    return {
      ...head,
      api_error_status: status,
      api_error_type: options.apiErrorType ??
        API_ERROR_TYPES[status] ?? (status >= 500 ? "api_error" : "invalid_request_error"),
      result: options.result ?? `API Error: ${status}`,
      ...p.tail,
      ...p.end,
    };
  }
  const ttft = options.timing?.ttftMs ?? 90;
  const ttftStream = options.timing?.ttftStreamMs ?? Math.max(0, ttft - 1);
  return {
    ...head,
    api_error_status: null,
    result: options.result ?? "",
    ...(options.structuredOutput !== undefined
      ? { structured_output: options.structuredOutput }
      : {}),
    ttft_ms: ttft,
    ...p.tail,
    ttft_stream_ms: ttftStream,
    time_to_request_ms: options.timing?.timeToRequestMs ?? Math.max(0, ttft - 10),
    first_content_frame_ms: options.timing?.firstContentFrameMs ?? ttftStream,
    ...p.end,
  };
}

/** An error subtype's result, with its `errors`. */
function errorResult(p: ResultParts, options: ResultFrameOptions): ResultFrameOut {
  const subtype = p.subtype as ResultErrorSubtype;
  const errors = options.errors ?? defaultErrors(subtype, {
    maxTurns: options.maxTurns ?? Math.max(1, p.numTurns - 1),
    maxBudgetUsd: options.maxBudgetUsd,
  });
  if (subtype === "error_max_structured_output_retries") {
    // its own key order, as the real CLI writes it
    return {
      is_error: p.isError,
      duration_api_ms: p.durationApiMs,
      num_turns: p.numTurns,
      stop_reason: p.stopReason,
      ...p.common,
      terminal_reason: p.terminalReason,
      ...p.fast,
      subtype,
      errors,
      ...p.tail,
      ...p.end,
    };
  }
  return {
    duration_api_ms: p.durationApiMs,
    stop_reason: p.stopReason,
    ...p.common,
    terminal_reason: p.terminalReason,
    ...p.fast,
    is_error: p.isError,
    num_turns: p.numTurns,
    subtype,
    errors,
    ...p.tail,
    ...p.end,
  };
}

/** The `errors` the real CLI writes for an error subtype, given the session's limits. */
function defaultErrors(
  subtype: ResultErrorSubtype,
  limits: { maxTurns: number; maxBudgetUsd: number | undefined },
): string[] {
  switch (subtype) {
    case "error_max_turns":
      return [`Reached maximum number of turns (${limits.maxTurns})`];
    case "error_during_execution":
      // As recorded after an interrupt.
      return ["[ede_diagnostic] result_type=user last_content_type=n/a stop_reason=null"];
    case "error_max_budget_usd":
      // as the real CLI writes it (run with `--max-budget-usd 0.000001`)
      return limits.maxBudgetUsd === undefined
        ? ["Reached maximum budget"]
        : [`Reached maximum budget ($${limits.maxBudgetUsd})`];
    case "error_max_structured_output_retries":
      return ["Reached maximum structured output retries"]; // not recorded; wording unverified
  }
}
