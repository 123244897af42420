/**
 * Builders for the control plane: `control_request` and `control_response` frames in
 * both directions, the body of the CLI's `initialize` answer, and the requests the CLI
 * sends the SDK (`can_use_tool`, `hook_callback`, `mcp_message`) in the real key order.
 *
 * @module
 */

import { modelCatalogOf } from "./model_catalog.ts";
import type { ControlRequestFrame, ControlResponseFrame, ToolUseBlock } from "../wire/frame.ts";
import type { BuildContext } from "./build_context.ts";
import { checkString, describe, sessionPid } from "./_common.ts";
import { type AgentInfoEntry, DEFAULT_AGENTS } from "./agents.ts";
import { commandsOf, type SlashCommandInfo } from "./slash_commands.ts";
import { type ModelInfoEntry, offeredModels } from "./models.ts";
import { OUTPUT_STYLES } from "./output_styles.ts";
import { DEFAULT_HOME, projectSlug } from "./project_paths.ts";
import { mcpToolUseMeta } from "./assistant.ts";
import { defaultDescription, defaultSuggestions, FILE_TOOLS } from "./_permission_suggestions.ts";
import type { PermissionSuggestion } from "./permission_suggestion.ts";
import type { FastModeDisabledReason, FastModeState } from "./fast_mode.ts";
import { type PermissionMode, permissionModeOf } from "./system.ts";

// the suggestions of its `can_use_tool` requests, for its callers
export type { PermissionSuggestion };

/** A `control_request` frame with a known request body. */
export interface ControlRequestFrameOut<R extends { subtype: string } = { subtype: string }>
  extends ControlRequestFrame {
  /** The request. */
  request: R & { [key: string]: unknown };
}

/**
 * A `control_request` frame. CLI→SDK requests use UUID request ids (the default here);
 * pass `requestId` for SDK-style short ids (see `IdGenerator.shortId()`).
 *
 * @example An interrupt request
 * ```ts
 * import { controlRequest, createBuildContext } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const frame = controlRequest(ctx, { subtype: "interrupt" }, { requestId: ctx.ids.shortId() });
 * console.log(frame.request.subtype); // interrupt
 * ```
 */
export function controlRequest<R extends { subtype: string }>(
  ctx: BuildContext,
  request: R,
  options: { requestId?: string } = {},
): ControlRequestFrameOut<R> {
  if (typeof request !== "object" || request === null || typeof request.subtype !== "string") {
    throw new TypeError(
      `controlRequest(): request must be an object with a string subtype, got ${describe(request)}`,
    );
  }
  return {
    type: "control_request",
    request_id: options.requestId ?? ctx.ids.uuid(),
    request: request as R & { [key: string]: unknown },
  };
}

/** A successful `control_response` frame. */
export interface ControlSuccessFrame extends ControlResponseFrame {
  /** The response. */
  response: {
    subtype: "success";
    request_id: string;
    response?: Record<string, unknown>;
    pending_permission_requests?: never[];
    pending_user_dialog_requests?: never[];
  };
}

/** A failed `control_response` frame. */
export interface ControlErrorFrame extends ControlResponseFrame {
  /** The response. */
  response: { subtype: "error"; request_id: string; error: string };
}

/**
 * A successful `control_response`. The CLI's `initialize` answer also lists the pending
 * requests (empty): pass `{pending: true}` for `pending_permission_requests: []` and
 * `pending_user_dialog_requests: []`.
 *
 * @example Answering an interrupt
 * ```ts
 * import { controlSuccess } from "@x/claude-mock/builders";
 * console.log(JSON.stringify(controlSuccess("8oazmpmefcx", { still_queued: [] })));
 * ```
 */
export function controlSuccess(
  requestId: string,
  response?: Record<string, unknown>,
  options: { pending?: boolean } = {},
): ControlSuccessFrame {
  checkString(requestId, "controlSuccess()", "the request id");
  return {
    type: "control_response",
    response: {
      subtype: "success",
      request_id: requestId,
      ...(response !== undefined ? { response } : {}),
      ...(options.pending
        ? { pending_permission_requests: [], pending_user_dialog_requests: [] }
        : {}),
    },
  };
}

/**
 * A failed `control_response` (for example `Model 'x' not found` for an unknown model,
 * or an unsupported request subtype).
 *
 * @example Refusing an unknown request
 * ```ts
 * import { controlError } from "@x/claude-mock/builders";
 * console.log(controlError("req1", "Unsupported control request subtype: frobnicate").response.error);
 * ```
 */
export function controlError(requestId: string, error: string): ControlErrorFrame {
  checkString(requestId, "controlError()", "the request id");
  checkString(error, "controlError()", "the error message");
  return { type: "control_response", response: { subtype: "error", request_id: requestId, error } };
}

/** The account block of the `initialize` answer. */
export interface AccountInfoEntry {
  /** Where the token came from. */
  tokenSource?: string;
  /** Where the API key came from. */
  apiKeySource?: string;
  /** The API provider. */
  apiProvider?: "firstParty" | "bedrock" | "vertex" | "foundry";
  /** The account email. */
  email?: string;
  /** The organization. */
  organization?: string;
  /** The subscription. */
  subscriptionType?: string;
}

/** The body of the CLI's successful `initialize` answer (the SDK's `SDKControlInitializeResponse`). */
export type InitializeResponse = {
  commands: SlashCommandInfo[];
  agents: AgentInfoEntry[];
  output_style: string;
  available_output_styles: string[];
  user_output_styles_dir: string;
  models: ModelInfoEntry[];
  account: AccountInfoEntry;
  pid: number;
  claude_code_version: string;
  current_permission_mode: PermissionMode;
  hooks_applied?: boolean;
  hook_on_failure_supported: boolean;
  hooks_when_unanswered_kept: number;
  other_hook_ask_outranks_host: boolean;
  sdk_mcp_manifests_parked?: Record<
    string,
    "parked" | "already_connected" | "protocol_version_mismatch" | "malformed" | "not_honoured"
  >;
  feedback_mode: { kind: string };
  analytics_disabled: boolean;
  sandbox_enabled?: boolean;
  remote_control_auto_enable: boolean;
  remote_control_auto_connect_default: boolean;
  remote_control_available: boolean;
  remote_control_auto_on_by_default: boolean;
  ide_rc_auto_enable_gate: boolean;
  fast_mode_state: FastModeState;
  fast_mode_disabled_reason: FastModeDisabledReason;
  session_state: "idle" | "running" | "requires_action";
  capabilities: string[];
  settings_applied?: boolean;
  disallowed_tools_applied?: boolean;
  mcp_servers_applied?: boolean;
};

/** Options for {@linkcode initializeResponse}. */
export interface InitializeResponseOptions {
  /** Slash commands (default: the CLI's, with their full descriptions). */
  commands?: SlashCommandInfo[];
  /** Agents (default: the CLI's). */
  agents?: AgentInfoEntry[];
  /** Models (default: the CLI's). */
  models?: ModelInfoEntry[];
  /** The account (default: API key from the environment, as recorded). */
  account?: AccountInfoEntry;
  /** The process id (default: derived from the session id, so deterministic). */
  pid?: number;
  /** The output style (default `default`). */
  outputStyle?: string;
  /** Set when the SDK registered hooks in `initialize` (adds `hooks_applied: true`). */
  hooksApplied?: boolean;
  /** The SDK MCP servers whose manifests were parked (adds `sdk_mcp_manifests_parked`). */
  sdkMcpServers?: readonly string[];
  /** Set when the SDK delivered settings in `initialize`: adds `settings_applied: true`. */
  settingsApplied?: boolean;
  /** Set when the SDK delivered its disallowed tools in `initialize`: `disallowed_tools_applied`. */
  disallowedToolsApplied?: boolean;
  /**
   * Set when the SDK delivered MCP servers in `initialize` (`mcpServersDelivery:
   * "initialize"`): adds `mcp_servers_applied: true`, which that SDK requires.
   */
  mcpServersApplied?: boolean;
  /** Extra fields (they override built ones, keeping their place). */
  extra?: Record<string, unknown>;
}

/**
 * The `response` body of a successful answer to the SDK's `initialize` request, with the
 * real CLI's key order; wrap it with {@linkcode controlSuccess} (and `{pending: true}`).
 *
 * @example Answering initialize
 * ```ts
 * import { controlSuccess, createBuildContext, initializeResponse } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const frame = controlSuccess("o4kdaq6ovgg", initializeResponse(ctx), { pending: true });
 * console.log(frame.response.subtype); // success
 * ```
 */
export function initializeResponse(
  ctx: BuildContext,
  options: InitializeResponseOptions = {},
): InitializeResponse {
  const pid = options.pid ?? sessionPid(ctx.sessionId);
  if (!Number.isInteger(pid) || pid <= 0) {
    throw new RangeError(`initializeResponse(): pid must be a positive integer, got ${pid}`);
  }
  const body: InitializeResponse = {
    commands: options.commands ?? commandsOf(ctx.cli, ctx.model),
    agents: options.agents ?? DEFAULT_AGENTS.map((a) => ({ ...a })),
    output_style: options.outputStyle ?? "default",
    available_output_styles: [...OUTPUT_STYLES],
    user_output_styles_dir: `${DEFAULT_HOME}/.claude/output-styles`,
    models: options.models ??
      offeredModels(ctx.model, {
        catalog: modelCatalogOf(ctx.cli),
        requested: ctx.requestedModel,
      }),
    account: options.account ??
      { tokenSource: "none", apiKeySource: "ANTHROPIC_API_KEY", apiProvider: "firstParty" },
    pid,
    claude_code_version: ctx.cli.version,
    current_permission_mode: permissionModeOf(
      ctx.permissionMode,
      "initializeResponse(): ctx.permissionMode",
    ),
    ...(options.hooksApplied ? { hooks_applied: true } : {}),
    hook_on_failure_supported: true,
    hooks_when_unanswered_kept: 0,
    other_hook_ask_outranks_host: true,
    ...(options.sdkMcpServers?.length
      ? {
        sdk_mcp_manifests_parked: Object.fromEntries(
          options.sdkMcpServers.map((s) => [s, "parked" as const]),
        ),
      }
      : {}),
    feedback_mode: { kind: "disabled" },
    analytics_disabled: true,
    ...(ctx.cli.facts.sandboxFields ? { sandbox_enabled: false } : {}),
    remote_control_auto_enable: false,
    remote_control_auto_connect_default: false,
    remote_control_available: false,
    remote_control_auto_on_by_default: false,
    ide_rc_auto_enable_gate: false,
    fast_mode_state: "off",
    fast_mode_disabled_reason: "sdk_opt_in_required",
    session_state: "idle",
    capabilities: [...ctx.cli.facts.initializeCapabilities],
    ...(options.settingsApplied ? { settings_applied: true } : {}),
    ...(options.disallowedToolsApplied ? { disallowed_tools_applied: true } : {}),
    ...(options.mcpServersApplied ? { mcp_servers_applied: true } : {}),
  };
  return options.extra ? { ...body, ...options.extra } as InitializeResponse : body;
}

/** Why the CLI asks for permission (`decision_reason_type`). */
export type DecisionReasonType =
  | "rule"
  | "mode"
  | "subcommandResults"
  | "permissionPromptTool"
  | "hook"
  | "asyncAgent"
  | "sandboxOverride"
  | "workingDir"
  | "safetyCheck"
  | "classifier"
  | "other";

/** The body of a `can_use_tool` request. */
export type CanUseToolRequest = {
  subtype: "can_use_tool";
  tool_name: string;
  mcp_server?: { name: string; source: string };
  display_name: string;
  input: Record<string, unknown>;
  description?: string;
  permission_suggestions?: PermissionSuggestion[];
  blocked_path?: string;
  decision_reason?: string;
  decision_reason_type?: DecisionReasonType;
  decision_reason_rule_source?: string;
  server_policy_ask_only?: boolean;
  requires_user_interaction?: boolean;
  tool_use_id: string;
};

/** Options for {@linkcode canUseToolRequest}. */
export interface CanUseToolRequestOptions {
  /** The request id (default: a UUID from the context). */
  requestId?: string;
  /** The tool's display name (default: the tool name; `Add` for `mcp__calc__add`). */
  displayName?: string;
  /** The description (default: Bash's `description` input, else its command; a file tool's path). */
  description?: string | null;
  /** Suggested permission updates (default: an allow rule for Bash and MCP tools, as recorded). */
  permissionSuggestions?: PermissionSuggestion[] | null;
  /** Why the CLI asks (`rule` for an `ask` rule, as recorded for Read). */
  decisionReasonType?: DecisionReasonType;
  /** Why, in words (recorded for a Read outside the cwd). */
  decisionReason?: string;
  /** Where the deciding rule came from (`flagSettings` for `--settings`, as recorded). */
  decisionReasonRuleSource?: string;
  /** Where an MCP tool's server comes from (`sdk`, default; `dynamic` for one the CLI runs). */
  mcpServerSource?: string;
  /** `server_policy_ask_only` (recorded `false` with an ask rule, `true` for MCP tools). */
  serverPolicyAskOnly?: boolean;
  /** The path outside the allowed directories (recorded for `rm -rf build`). */
  blockedPath?: string;
  /** Set for tools that need the user (AskUserQuestion). */
  requiresUserInteraction?: boolean;
}

/**
 * The CLI's `can_use_tool` request for a tool use, in the recorded key order. MCP tools
 * get `mcp_server` and `server_policy_ask_only: true`.
 *
 * @example Asking to run a Bash command
 * ```ts
 * import { canUseToolRequest, createBuildContext } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const frame = canUseToolRequest(ctx, {
 *   type: "tool_use",
 *   id: "toolu_01BashRm",
 *   name: "Bash",
 *   input: { command: "rm -rf build", description: "Delete the build directory" },
 * });
 * console.log(frame.request.description); // Delete the build directory
 * ```
 */
export function canUseToolRequest(
  ctx: BuildContext,
  toolUse: ToolUseBlock,
  options: CanUseToolRequestOptions = {},
): ControlRequestFrameOut<CanUseToolRequest> {
  if (typeof toolUse !== "object" || toolUse === null || toolUse.type !== "tool_use") {
    throw new TypeError(`canUseToolRequest(): expected a tool_use block, got ${describe(toolUse)}`);
  }
  checkString(toolUse.id, "canUseToolRequest()", "the tool use id");
  const mcp = mcpToolUseMeta(toolUse);
  const input = toolUse.input;
  const description = options.description !== undefined
    ? options.description ?? undefined
    : defaultDescription(toolUse, ctx.cwd);
  const byRule = options.decisionReasonType === "rule";
  const suggestions: PermissionSuggestion[] | undefined =
    options.permissionSuggestions !== undefined
      ? options.permissionSuggestions ?? undefined
      : byRule
      ? undefined
      : defaultSuggestions(toolUse, ctx.cwd);
  // As recorded: `false` when a rule asked; `true` for MCP and file tools asked without one;
  // absent for Bash asked by its own checks, for AskUserQuestion, and when the permission mode
  // itself asks (plan mode before an edit: the tool's own check is never reached).
  // (file tools: `true` up to 2.1.328, none from 2.1.331)
  const serverPolicy = options.serverPolicyAskOnly ??
    (options.decisionReasonType === "mode" ? undefined : byRule && !mcp ? false : mcp ||
        // NotebookEdit is asked without it (files_notebook_edit, 2.1.328)
        (FILE_TOOLS.has(toolUse.name) && toolUse.name !== "NotebookEdit" &&
          ctx.cli.facts.fileToolServerPolicy)
      ? true
      : undefined);
  const request: CanUseToolRequest = {
    subtype: "can_use_tool",
    tool_name: toolUse.name,
    ...(mcp
      ? { mcp_server: { name: mcp.server_display_name, source: options.mcpServerSource ?? "sdk" } }
      : {}),
    display_name: options.displayName ?? mcp?.display_name ?? toolUse.name,
    input,
    ...(description !== undefined ? { description } : {}),
    ...(suggestions !== undefined ? { permission_suggestions: suggestions } : {}),
    ...(options.blockedPath !== undefined ? { blocked_path: options.blockedPath } : {}),
    ...(options.decisionReason !== undefined ? { decision_reason: options.decisionReason } : {}),
    ...(options.decisionReasonType !== undefined
      ? { decision_reason_type: options.decisionReasonType }
      : {}),
    ...(options.decisionReasonRuleSource !== undefined
      ? { decision_reason_rule_source: options.decisionReasonRuleSource }
      : {}),
    ...(serverPolicy !== undefined ? { server_policy_ask_only: serverPolicy } : {}),
    tool_use_id: toolUse.id,
    // recorded after tool_use_id (cp_ask_user_question)
    ...(options.requiresUserInteraction ? { requires_user_interaction: true } : {}),
  };
  return controlRequest(ctx, request, { requestId: options.requestId });
}

/** The body of a `hook_callback` request. */
export type HookCallbackRequest = {
  subtype: "hook_callback";
  callback_id: string;
  input: Record<string, unknown>;
  tool_use_id?: string;
};

/** Options for {@linkcode hookCallbackRequest}. */
export interface HookCallbackRequestOptions {
  /** The hook input (see {@linkcode hookInput}). */
  input: Record<string, unknown>;
  /** The tool use the hook is about (tool hooks). */
  toolUseId?: string;
  /** The request id (default: a UUID from the context). */
  requestId?: string;
}

/**
 * The CLI's `hook_callback` request for a hook the SDK registered in `initialize.hooks`.
 *
 * @example Calling a PreToolUse hook
 * ```ts
 * import { createBuildContext, hookCallbackRequest, hookInput } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const input = hookInput(ctx, {
 *   hook_event_name: "PreToolUse",
 *   tool_name: "Read",
 *   tool_input: { file_path: "/home/user/project/notes.txt" },
 *   tool_use_id: "toolu_01A",
 * });
 * const frame = hookCallbackRequest(ctx, "hook_0", { input, toolUseId: "toolu_01A" });
 * console.log(frame.request.callback_id); // hook_0
 * ```
 */
export function hookCallbackRequest(
  ctx: BuildContext,
  callbackId: string,
  options: HookCallbackRequestOptions,
): ControlRequestFrameOut<HookCallbackRequest> {
  checkString(callbackId, "hookCallbackRequest()", "the callback id");
  if (typeof options?.input !== "object" || options.input === null) {
    throw new TypeError(`hookCallbackRequest("${callbackId}"): options.input must be an object`);
  }
  return controlRequest(ctx, {
    subtype: "hook_callback",
    callback_id: callbackId,
    input: options.input,
    ...(options.toolUseId !== undefined ? { tool_use_id: options.toolUseId } : {}),
  }, { requestId: options.requestId });
}

/** The event-specific fields of a hook input: `hook_event_name` and the event's own fields. */
export interface HookEventFields {
  /** The hook event (`PreToolUse`, `PostToolUse`, `UserPromptSubmit`, `Stop`, ...). */
  hook_event_name: string;
  /** The event's own fields (`tool_name`, `tool_input`, `tool_use_id`, ...). */
  [key: string]: unknown;
}

/**
 * The input of a hook callback as the CLI builds it: `session_id`, `transcript_path`,
 * `cwd`, `prompt_id`, `permission_mode`, `effort` (`options.effort`, `--effort`; default
 * `medium`), then `hook_event_name` and the event's own fields (for PreToolUse: `tool_name`,
 * `tool_input`, `tool_use_id`), as recorded.
 *
 * @example PreToolUse input
 * ```ts
 * import { createBuildContext, hookInput } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const input = hookInput(ctx, { hook_event_name: "PreToolUse", tool_name: "Read" });
 * console.log(input.transcript_path);
 * ```
 */
export function hookInput(
  ctx: BuildContext,
  event: HookEventFields,
  options: { promptId?: string; effort?: string } = {},
): Record<string, unknown> {
  checkString(event?.hook_event_name, "hookInput()", "event.hook_event_name");
  if (options.effort !== undefined) checkString(options.effort, "hookInput()", "options.effort");
  const { hook_event_name, ...fields } = event;
  return {
    session_id: ctx.sessionId,
    transcript_path: `${DEFAULT_HOME}/.claude/projects/${
      projectSlug(ctx.cwd)
    }/${ctx.sessionId}.jsonl`,
    cwd: ctx.cwd,
    prompt_id: options.promptId ?? ctx.ids.uuid(),
    permission_mode: ctx.permissionMode,
    effort: { level: options.effort ?? "medium" },
    hook_event_name,
    ...fields,
  };
}

/** The body of an `mcp_message` request. */
export type McpMessageRequest = {
  subtype: "mcp_message";
  server_name: string;
  message: Record<string, unknown>;
};

/**
 * The CLI's `mcp_message` request carrying a JSON-RPC `tools/call` for an in-process SDK
 * MCP server, as recorded: `{method, params: {name, arguments, _meta:
 * {"claudecode/toolUseId", progressToken}}, jsonrpc, id}`.
 *
 * @example Calling an SDK MCP tool
 * ```ts
 * import { createBuildContext, mcpToolCallRequest } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const frame = mcpToolCallRequest(ctx, {
 *   type: "tool_use", id: "toolu_01McpAdd", name: "mcp__calc__add", input: { a: 2, b: 3 },
 * }, { jsonRpcId: 2 });
 * console.log(frame.request.server_name); // calc
 * ```
 */
export function mcpToolCallRequest(
  ctx: BuildContext,
  toolUse: ToolUseBlock,
  options: { jsonRpcId?: number; requestId?: string } = {},
): ControlRequestFrameOut<McpMessageRequest> {
  const meta = mcpToolUseMeta(toolUse);
  if (!meta) {
    throw new RangeError(
      `mcpToolCallRequest(): tool "${toolUse?.name}" is not an MCP tool (expected mcp__<server>__<tool>)`,
    );
  }
  const id = options.jsonRpcId ?? 2;
  return controlRequest(ctx, {
    subtype: "mcp_message",
    server_name: meta.server_display_name,
    message: {
      method: "tools/call",
      params: {
        name: meta.tool_name,
        arguments: toolUse.input,
        _meta: { "claudecode/toolUseId": toolUse.id, progressToken: id },
      },
      jsonrpc: "2.0",
      id,
    },
  }, { requestId: options.requestId });
}
