/**
 * The synthetic `assistant` frames the CLI writes when an API call fails for good: model
 * `<synthetic>`, `is_api_error_message: true`, the error text as the only block, and
 * `request_id`, `api_error_status` and `api_error_type` only
 * when the API answered with an HTTP status; `api_error: "connection_failed"` for a
 * refused or reset connection; neither for a timeout or a broken stream.
 *
 * @module
 */

import type { PlainTextBlock } from "./assistant.ts";
import type { AssistantFrame, Uuid } from "../wire/frame.ts";
import type { BuildContext } from "./build_context.ts";
import { checkString, timestampOf } from "./_common.ts";

/** The usage of the synthetic API-error assistant message (every field present, zeroed). */
export type SyntheticUsage = {
  /** Always `null`. */
  output_tokens_details: null;
  /** Always 0. */
  input_tokens: 0;
  /** Always 0. */
  output_tokens: 0;
  /** Always 0. */
  cache_creation_input_tokens: 0;
  /** Always 0. */
  cache_read_input_tokens: 0;
  /** Zero server tool use. */
  server_tool_use: { web_search_requests: 0; web_fetch_requests: 0 };
  /** Always `null`. */
  service_tier: null;
  /** Zero cache writes. */
  cache_creation: { ephemeral_1h_input_tokens: 0; ephemeral_5m_input_tokens: 0 };
  /** Always `null`. */
  inference_geo: null;
  /** Always `null`. */
  iterations: null;
  /** Always `null`. */
  speed: null;
  /** Always `null`. */
  fallback_credit: null;
};

/**
 * The usage of a message the CLI makes itself (`model: "<synthetic>"`: an API error's text, a
 * local command's output): no tokens, and nulls where a real answer has values.
 */
export function syntheticUsage(): SyntheticUsage {
  return {
    output_tokens_details: null,
    input_tokens: 0,
    output_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
    service_tier: null,
    cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
    inference_geo: null,
    iterations: null,
    speed: null,
    fallback_credit: null,
  };
}

/** The error categories of assistant frames (the SDK's `SDKAssistantMessageError`). */
export type AssistantMessageError =
  | "authentication_failed"
  | "oauth_org_not_allowed"
  | "account_on_hold"
  | "verification_required"
  | "billing_error"
  | "rate_limit"
  | "overloaded"
  | "invalid_request"
  | "model_not_found"
  | "server_error"
  | "unknown"
  | "max_output_tokens"
  | "cloud_credential_error";

/** The synthetic assistant frame the CLI writes when an API call fails for good. */
export interface ApiErrorAssistantFrame extends AssistantFrame {
  /** The synthetic message (model `<synthetic>`, id a UUID). */
  message: {
    diagnostics: null;
    id: string;
    container: null;
    model: "<synthetic>";
    role: "assistant";
    stop_details: null;
    stop_reason: "stop_sequence";
    stop_sequence: "";
    type: "message";
    usage: SyntheticUsage;
    content: [PlainTextBlock];
    context_management: null;
  };
  /** The frame's uuid. */
  uuid: Uuid;
  /** When the frame was written. */
  timestamp: string;
  /** The error category. */
  error: AssistantMessageError;
  /** The request id of the failed call (only when the API answered with an HTTP status). */
  request_id?: string;
  /** Always `true`. */
  is_api_error_message: true;
  /** The HTTP status (absent for a failure with none: a connection, a timeout, a stream). */
  api_error_status?: number;
  /** The API error type (`invalid_request_error`, `overloaded_error`, ...). */
  api_error_type?: string;
  /** `connection_failed` for a refused or reset connection. */
  api_error?: "connection_failed";
}

/** Options for {@linkcode apiErrorMessage}. */
export interface ApiErrorMessageOptions {
  /** The API's error message (default: a stock message for the status). */
  message?: string;
  /** The API error type (default: the usual one for the status). */
  errorType?: string;
  /** The `error` category (default: from the status; `unknown` for 400 as recorded). */
  error?: AssistantMessageError;
  /** The request id (default: drawn from the context's ids). */
  requestId?: string;
  /** The parent tool use id (default `null`). */
  parentToolUseId?: string | null;
}

const STATUS_DEFAULTS: Record<
  number,
  [type: string, message: string, error: AssistantMessageError]
> = {
  400: ["invalid_request_error", "Invalid request", "unknown"],
  401: ["authentication_error", "invalid x-api-key", "authentication_failed"],
  402: ["billing_error", "Your credit balance is too low", "billing_error"],
  403: ["permission_error", "Your API key does not have permission", "unknown"],
  404: ["not_found_error", "Not found", "model_not_found"],
  413: ["request_too_large", "Request exceeds the maximum allowed size", "unknown"],
  429: ["rate_limit_error", "Rate limited", "rate_limit"],
  500: ["api_error", "Internal server error", "server_error"],
  529: ["overloaded_error", "Overloaded", "overloaded"],
};

/**
 * The synthetic `assistant` frame the CLI writes when the API answers with an error it
 * will not retry: `model: "<synthetic>"`, `is_api_error_message: true`,
 * `api_error_status`, and the text `API Error: <status> <message>`. Follow it with a
 * `result` built by {@linkcode resultFrame} with `apiErrorStatus`.
 *
 * @example A 400 from the API
 * ```ts
 * import { apiErrorMessage, createBuildContext } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const frame = apiErrorMessage(ctx, 400, { message: "messages: bad request" });
 * console.log(frame.message.content[0].text); // API Error: 400 messages: bad request
 * ```
 */
export function apiErrorMessage(
  ctx: BuildContext,
  status: number,
  options: ApiErrorMessageOptions = {},
): ApiErrorAssistantFrame {
  if (!Number.isInteger(status) || status < 100 || status > 599) {
    throw new RangeError(`apiErrorMessage(): status must be an HTTP status code, got ${status}`);
  }
  const defaults = STATUS_DEFAULTS[status] ??
    [
      status >= 500 ? "api_error" : "invalid_request_error",
      `HTTP ${status}`,
      status >= 500 ? "server_error" : "unknown",
    ];
  return apiFailureMessage(ctx, {
    text: `API Error: ${status} ${options.message ?? defaults[1]}`,
    error: options.error ?? defaults[2],
    status,
    errorType: options.errorType ?? defaults[0],
    requestId: options.requestId ?? ctx.ids.requestId(),
    parentToolUseId: options.parentToolUseId,
  });
}

/** Options for {@linkcode apiFailureMessage}. */
export interface ApiFailureMessageOptions {
  /** The error text the CLI shows (also the result's `result`). */
  text: string;
  /** The error category (`server_error`, `rate_limit`, `unknown`, ...). */
  error: AssistantMessageError;
  /** The HTTP status, or `null`/absent for a failure with none. */
  status?: number | null;
  /** The API error type (with a status; default from the status). */
  errorType?: string;
  /** The failing response's request id (with a status; default: drawn from the context). */
  requestId?: string;
  /** `connection_failed` for a refused or reset connection (no status). */
  apiError?: "connection_failed";
  /** The parent tool use id (default `null`). */
  parentToolUseId?: string | null;
}

/**
 * The synthetic `assistant` frame of any API failure, with the key set the real CLI writes
 * for its kind (see the module doc).
 *
 * @example A refused connection
 * ```ts
 * import { apiFailureMessage, createBuildContext } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const frame = apiFailureMessage(ctx, {
 *   text: "API Error: Connection refused — a firewall or proxy may be blocking it (ECONNREFUSED)",
 *   error: "server_error",
 *   apiError: "connection_failed",
 * });
 * console.log(frame.api_error, "request_id" in frame); // connection_failed false
 * ```
 */
export function apiFailureMessage(
  ctx: BuildContext,
  options: ApiFailureMessageOptions,
): ApiErrorAssistantFrame {
  checkString(options?.text, "apiFailureMessage()", "options.text");
  const status = options.status ?? null;
  if (status !== null && (!Number.isInteger(status) || status < 100 || status > 599)) {
    throw new RangeError(
      `apiFailureMessage(): status must be an HTTP status code or null, got ${status}`,
    );
  }
  if (status !== null && options.apiError !== undefined) {
    throw new TypeError("apiFailureMessage(): apiError is for failures without a status");
  }
  return {
    type: "assistant",
    message: {
      diagnostics: null,
      id: ctx.ids.uuid(),
      container: null,
      model: "<synthetic>",
      role: "assistant",
      stop_details: null,
      stop_reason: "stop_sequence",
      stop_sequence: "",
      type: "message",
      usage: syntheticUsage(),
      content: [{ type: "text", text: options.text }],
      context_management: null,
    },
    parent_tool_use_id: options.parentToolUseId ?? null,
    session_id: ctx.sessionId,
    uuid: ctx.ids.uuid(),
    timestamp: timestampOf(ctx),
    error: options.error,
    ...(status !== null ? { request_id: options.requestId ?? ctx.ids.requestId() } : {}),
    is_api_error_message: true,
    ...(status !== null
      ? {
        api_error_status: status,
        api_error_type: options.errorType ?? STATUS_DEFAULTS[status]?.[0] ??
          (status >= 500 ? "api_error" : "invalid_request_error"),
      }
      : options.apiError !== undefined
      ? { api_error: options.apiError }
      : {}),
  };
}
