/**
 * Builders for `system` frames: `init`, `session_state_changed`, `status`,
 * `compact_boundary`, `api_retry`, `thinking_tokens` and the subagent task events
 * (`task_started`, `task_progress`, `task_updated`, `task_notification`), each in the
 * real CLI's key order.
 *
 * @module
 */

import type { SystemFrame, Uuid } from "../wire/frame.ts";
import type { BuildContext } from "./build_context.ts";
import { CLAUDE_CODE_VERSION } from "./build_context.ts";
import { checkCount, checkString, describe } from "./_common.ts";
import type { AssistantMessageError } from "./assistant.ts";
import {
  DEFAULT_AGENTS,
  DEFAULT_COMMANDS,
  DEFAULT_HOME,
  DEFAULT_PLUGINS,
  DEFAULT_SKILLS,
  defaultTools,
  INIT_CAPABILITIES,
  type PluginEntry,
  projectSlug,
  TERMINAL_SLASH_COMMANDS,
} from "./inventory.ts";

/** The permission modes (the SDK's `PermissionMode`). */
export type PermissionMode =
  | "default"
  | "acceptEdits"
  | "bypassPermissions"
  | "plan"
  | "dontAsk"
  | "auto";

/** Every {@linkcode PermissionMode}, for validation. */
export const PERMISSION_MODES: readonly PermissionMode[] = Object.freeze([
  "default",
  "acceptEdits",
  "bypassPermissions",
  "plan",
  "dontAsk",
  "auto",
]);

/**
 * Checks that `mode` is a permission mode the CLI knows and returns it typed.
 *
 * @example Validating a permission mode
 * ```ts
 * import { permissionModeOf } from "@x/claude-mock";
 * console.log(permissionModeOf("acceptEdits", "ctx.permissionMode")); // acceptEdits
 * ```
 */
export function permissionModeOf(mode: string, where: string): PermissionMode {
  if (!(PERMISSION_MODES as readonly string[]).includes(mode)) {
    throw new RangeError(
      `${where}: unknown permission mode ${describe(mode)}; expected one of ${
        PERMISSION_MODES.join(", ")
      }`,
    );
  }
  return mode as PermissionMode;
}

/** Where the API key came from (the SDK's `ApiKeySource`, current values). */
export type ApiKeySource = "ANTHROPIC_API_KEY" | "apiKeyHelper" | "/login managed key" | "none";

/** An MCP server entry of `system/init`. */
export interface McpServerEntry {
  /** The server name. */
  name: string;
  /** Its status (`connected`, `failed`, `pending`, ...). */
  status: string;
  /** Where it was configured (`sdk` for in-process servers). */
  source?: string;
}

/** The fast mode state (the SDK's `FastModeState`). */
export type FastModeState = "off" | "cooldown" | "on";

/** Why fast mode is off (the SDK's `FastModeDisabledReason`). */
export type FastModeDisabledReason =
  | "free"
  | "preference"
  | "extra_usage_disabled"
  | "network_error"
  | "unknown"
  | "not_first_party"
  | "disabled_by_env"
  | "model_not_allowed"
  | "sdk_opt_in_required"
  | "pending";

/** A `system/init` frame. */
export interface SystemInitFrame extends SystemFrame {
  /** Always `init`. */
  subtype: "init";
  /** The working directory. */
  cwd: string;
  /** The session id. */
  session_id: string;
  /** Tool names. */
  tools: string[];
  /** MCP servers. */
  mcp_servers: McpServerEntry[];
  /** The model. */
  model: string;
  /** The permission mode. */
  permissionMode: PermissionMode;
  /** Slash command names. */
  slash_commands: string[];
  /** Slash commands bound to the terminal. */
  terminal_slash_commands: string[];
  /** Where the API key came from. */
  apiKeySource: ApiKeySource;
  /** The CLI version. */
  claude_code_version: string;
  /** The output style. */
  output_style: string;
  /** Agent names. */
  agents: string[];
  /** Skill names. */
  skills: string[];
  /** Plugins. */
  plugins: PluginEntry[];
  /** Protocol capabilities. */
  capabilities: string[];
  /** Whether analytics are off. */
  analytics_disabled: boolean;
  /** Whether product feedback is off. */
  product_feedback_disabled: boolean;
  /** The frame's uuid. */
  uuid: Uuid;
  /** Memory directories. */
  memory_paths: { auto: string };
  /** The directory the session started in. */
  original_cwd: string;
  /** Extra directories the session may touch. */
  additional_directories: string[];
  /** The CLI's messaging socket (scrubbed to `/tmp/x` in the recordings). */
  messaging_socket_path: string;
  /** Fast mode state. */
  fast_mode_state: FastModeState;
  /** Why fast mode is off. */
  fast_mode_disabled_reason: FastModeDisabledReason;
  /** Whether per-turn effort is active. */
  per_turn_effort_active: boolean;
  /** Whether ultrathink is available. */
  ultrathink_available: boolean;
  /** Whether typing ultrathink raises effort. */
  ultrathink_typed_raises: boolean;
  /** The transcript view mode. */
  view_mode: "default" | "focus";
}

/** Options for {@linkcode systemInit}. */
export interface SystemInitOptions {
  /** Tool names (default {@linkcode defaultTools}`()` plus the MCP servers' tools given here). */
  tools?: string[];
  /** MCP servers (default none). */
  mcpServers?: McpServerEntry[];
  /** The model (default `ctx.model`). */
  model?: string;
  /** The permission mode (default `ctx.permissionMode`). */
  permissionMode?: PermissionMode;
  /** Slash command names (default: the CLI's built-in commands). */
  slashCommands?: string[];
  /** Agent names (default: the CLI's built-in agents). */
  agents?: string[];
  /** Skill names (default: the CLI's built-in skills). */
  skills?: string[];
  /** Plugins (default: the CLI's built-in plugins). */
  plugins?: PluginEntry[];
  /** The API key source (default `ANTHROPIC_API_KEY`). */
  apiKeySource?: ApiKeySource;
  /** The output style (default `default`). */
  outputStyle?: string;
  /** Protocol capabilities (default: the CLI's). */
  capabilities?: string[];
  /** Extra fields (they override built ones, keeping their place). */
  extra?: Record<string, unknown>;
}

/**
 * The `system/init` frame the CLI sends at the start of every turn, with the real CLI's
 * key set and order. Inventory lists default to what CLI 2.1.328 reported.
 *
 * @example The init frame of a turn
 * ```ts
 * import { createBuildContext, systemInit } from "@x/claude-mock";
 * const ctx = createBuildContext({ seed: 1 });
 * const init = systemInit(ctx, { mcpServers: [{ name: "calc", status: "connected", source: "sdk" }] });
 * console.log(init.model, init.permissionMode, init.cwd);
 * ```
 */
export function systemInit(ctx: BuildContext, options: SystemInitOptions = {}): SystemInitFrame {
  const permissionMode = permissionModeOf(
    options.permissionMode ?? ctx.permissionMode,
    options.permissionMode
      ? "systemInit(): options.permissionMode"
      : "systemInit(): ctx.permissionMode",
  );
  const frame: SystemInitFrame = {
    type: "system",
    subtype: "init",
    cwd: ctx.cwd,
    session_id: ctx.sessionId,
    tools: options.tools ?? defaultTools(),
    mcp_servers: options.mcpServers ?? [],
    model: options.model ?? ctx.model,
    permissionMode,
    slash_commands: options.slashCommands ?? DEFAULT_COMMANDS.map((c) => c.name),
    terminal_slash_commands: [...TERMINAL_SLASH_COMMANDS],
    apiKeySource: options.apiKeySource ?? "ANTHROPIC_API_KEY",
    claude_code_version: CLAUDE_CODE_VERSION,
    output_style: options.outputStyle ?? "default",
    agents: options.agents ?? DEFAULT_AGENTS.map((a) => a.name),
    skills: options.skills ?? [...DEFAULT_SKILLS],
    plugins: options.plugins ?? DEFAULT_PLUGINS.map((p) => ({ ...p })),
    capabilities: options.capabilities ?? [...INIT_CAPABILITIES],
    analytics_disabled: true,
    product_feedback_disabled: true,
    uuid: ctx.ids.uuid(),
    memory_paths: { auto: `${DEFAULT_HOME}/.claude/projects/${projectSlug(ctx.cwd)}/memory/` },
    original_cwd: ctx.cwd,
    additional_directories: [],
    messaging_socket_path: "/tmp/x",
    fast_mode_state: "off",
    fast_mode_disabled_reason: "sdk_opt_in_required",
    per_turn_effort_active: true,
    ultrathink_available: false,
    ultrathink_typed_raises: false,
    view_mode: "default",
  };
  return options.extra ? { ...frame, ...options.extra } : frame;
}

/** The session states of `session_state_changed`. */
export type SessionState = "running" | "idle" | "requires_action";

/** A `system/session_state_changed` frame (consumed by the SDK, never shown to the app). */
export interface SessionStateChangedFrame extends SystemFrame {
  /** Always `session_state_changed`. */
  subtype: "session_state_changed";
  /** The new state. */
  state: SessionState;
  /** Always `true`: the SDK host keeps it to itself. */
  sdk_host_only: true;
  /** The frame's uuid. */
  uuid: Uuid;
  /** The session id. */
  session_id: string;
}

/**
 * A `system/session_state_changed` frame: `running` when a turn starts or resumes,
 * `requires_action` before a `can_use_tool` request, `idle` after the result.
 *
 * @example Marking the session as running
 * ```ts
 * import { createBuildContext, sessionStateChanged } from "@x/claude-mock";
 * const ctx = createBuildContext({ seed: 1 });
 * console.log(sessionStateChanged(ctx, "running").state); // running
 * ```
 */
export function sessionStateChanged(
  ctx: BuildContext,
  state: SessionState,
): SessionStateChangedFrame {
  if (state !== "running" && state !== "idle" && state !== "requires_action") {
    throw new RangeError(
      `sessionStateChanged(): state must be running, idle or requires_action, got ${
        describe(state)
      }`,
    );
  }
  return {
    type: "system",
    subtype: "session_state_changed",
    state,
    sdk_host_only: true,
    uuid: ctx.ids.uuid(),
    session_id: ctx.sessionId,
  };
}

/** The statuses of `system/status`. */
export type SessionStatus = "requesting" | "compacting" | null;

/** A `system/status` frame. */
export interface SystemStatusFrame extends SystemFrame {
  /** Always `status`. */
  subtype: "status";
  /** The status (`requesting` before an API call, `compacting`, or `null`). */
  status: SessionStatus;
  /** After `set_permission_mode`: the new mode. */
  permissionMode?: PermissionMode;
  /** After a compaction: how it went. */
  compact_result?: "success" | "failed";
  /** After a failed compaction: why. */
  compact_error?: string;
  /** The frame's uuid. */
  uuid: Uuid;
  /** The session id. */
  session_id: string;
}

/** Options for {@linkcode systemStatus}. */
export interface SystemStatusOptions {
  /** Reports a permission mode change (the frame after a `set_permission_mode` answer). */
  permissionMode?: PermissionMode;
  /** Reports the end of a compaction. */
  compactResult?: "success" | "failed";
  /** Why the compaction failed. */
  compactError?: string;
}

/**
 * A `system/status` frame: `requesting` before each API call (with partial messages on),
 * `compacting` during `/compact`, or `null` with `compact_result` or `permissionMode`.
 * Key order follows the recordings (a permission mode change puts `uuid` before
 * `session_id`, as the CLI does).
 *
 * @example Status before an API call, and after a mode change
 * ```ts
 * import { createBuildContext, systemStatus } from "@x/claude-mock";
 * const ctx = createBuildContext({ seed: 1 });
 * systemStatus(ctx, "requesting");
 * console.log(systemStatus(ctx, null, { permissionMode: "acceptEdits" }).permissionMode);
 * ```
 */
export function systemStatus(
  ctx: BuildContext,
  status: SessionStatus,
  options: SystemStatusOptions = {},
): SystemStatusFrame {
  if (status !== null && status !== "requesting" && status !== "compacting") {
    throw new RangeError(
      `systemStatus(): status must be "requesting", "compacting" or null, got ${describe(status)}`,
    );
  }
  if (options.permissionMode !== undefined) {
    // Recorded after set_permission_mode: type, subtype, status, permissionMode, uuid, session_id.
    return {
      type: "system",
      subtype: "status",
      status,
      permissionMode: permissionModeOf(
        options.permissionMode,
        "systemStatus(): options.permissionMode",
      ),
      uuid: ctx.ids.uuid(),
      session_id: ctx.sessionId,
    };
  }
  const frame: SystemStatusFrame = {
    type: "system",
    subtype: "status",
    status,
    session_id: ctx.sessionId,
    uuid: ctx.ids.uuid(),
  };
  if (options.compactResult === undefined && options.compactError === undefined) return frame;
  // Recorded after /compact: type, subtype, status, compact_result, session_id, uuid.
  const { session_id, uuid, ...head } = frame;
  return {
    ...head,
    ...(options.compactResult !== undefined ? { compact_result: options.compactResult } : {}),
    ...(options.compactError !== undefined ? { compact_error: options.compactError } : {}),
    session_id,
    uuid,
  };
}

/** A `system/compact_boundary` frame. */
export interface CompactBoundaryFrame extends SystemFrame {
  /** Always `compact_boundary`. */
  subtype: "compact_boundary";
  /** The session id. */
  session_id: string;
  /** The frame's uuid. */
  uuid: Uuid;
  /** What was compacted. */
  compact_metadata: {
    trigger: "manual" | "auto";
    pre_tokens: number;
    post_tokens: number;
    cumulative_dropped_tokens: number;
    duration_ms: number;
  };
  /** The uuid of the last message before the boundary. */
  logical_parent_uuid: Uuid;
}

/** Options for {@linkcode compactBoundary}. */
export interface CompactBoundaryOptions {
  /** What started the compaction (default `manual`). */
  trigger?: "manual" | "auto";
  /** Tokens before (default 255, as recorded). */
  preTokens?: number;
  /** Tokens after (default 2547, as recorded). */
  postTokens?: number;
  /** Tokens dropped so far (default 0). */
  cumulativeDroppedTokens?: number;
  /** How long it took (default 27 ms). */
  durationMs?: number;
  /** The uuid of the last message before the boundary (default: a fresh uuid). */
  logicalParentUuid?: Uuid;
}

/**
 * A `system/compact_boundary` frame, as the CLI writes it after `/compact` (after the
 * `status` with `compact_result` and a fresh `system/init`).
 *
 * @example A manual compaction boundary
 * ```ts
 * import { compactBoundary, createBuildContext } from "@x/claude-mock";
 * const ctx = createBuildContext({ seed: 1 });
 * console.log(compactBoundary(ctx).compact_metadata.trigger); // manual
 * ```
 */
export function compactBoundary(
  ctx: BuildContext,
  options: CompactBoundaryOptions = {},
): CompactBoundaryFrame {
  const metadata = {
    trigger: options.trigger ?? "manual",
    pre_tokens: options.preTokens ?? 255,
    post_tokens: options.postTokens ?? 2547,
    cumulative_dropped_tokens: options.cumulativeDroppedTokens ?? 0,
    duration_ms: options.durationMs ?? 27,
  } as const;
  for (const [key, value] of Object.entries(metadata)) {
    if (key !== "trigger") checkCount(value, "compactBoundary()", key);
  }
  if (metadata.trigger !== "manual" && metadata.trigger !== "auto") {
    throw new RangeError(
      `compactBoundary(): trigger must be manual or auto, got ${describe(metadata.trigger)}`,
    );
  }
  return {
    type: "system",
    subtype: "compact_boundary",
    session_id: ctx.sessionId,
    uuid: ctx.ids.uuid(),
    compact_metadata: metadata,
    logical_parent_uuid: options.logicalParentUuid ?? ctx.ids.uuid(),
  };
}

/** A `system/api_retry` frame. */
export interface ApiRetryFrame extends SystemFrame {
  /** Always `api_retry`. */
  subtype: "api_retry";
  /** Which retry this is (1-based). */
  attempt: number;
  /** The retry budget. */
  max_retries: number;
  /** The delay before the retry. */
  retry_delay_ms: number;
  /** The HTTP status, or `null` for a connection error. */
  error_status: number | null;
  /** The error category. */
  error: AssistantMessageError;
  /** The session id. */
  session_id: string;
  /** The frame's uuid. */
  uuid: Uuid;
}

/** Options for {@linkcode apiRetry}. */
export interface ApiRetryOptions {
  /** Which retry this is, from 1. */
  attempt: number;
  /** The retry budget (default 10, as recorded). */
  maxRetries?: number;
  /** The delay before the retry in ms (default 500 × 2^(attempt-1)). */
  retryDelayMs?: number;
  /** The HTTP status, or `null` for a connection error (default 529). */
  errorStatus?: number | null;
  /** The error category (default from the status: 529 `overloaded`, 429 `rate_limit`, ...). */
  error?: AssistantMessageError;
}

/**
 * A `system/api_retry` frame: an API call failed with a retryable error and will be
 * retried after a delay.
 *
 * @example An overloaded API, first retry
 * ```ts
 * import { apiRetry, createBuildContext } from "@x/claude-mock";
 * const ctx = createBuildContext({ seed: 1 });
 * console.log(apiRetry(ctx, { attempt: 1, errorStatus: 529 }).error); // overloaded
 * ```
 */
export function apiRetry(ctx: BuildContext, options: ApiRetryOptions): ApiRetryFrame {
  checkCount(options?.attempt, "apiRetry()", "options.attempt");
  const status = options.errorStatus === undefined ? 529 : options.errorStatus;
  const maxRetries = options.maxRetries ?? 10;
  const delay = options.retryDelayMs ?? 500 * 2 ** Math.max(0, options.attempt - 1);
  checkCount(maxRetries, "apiRetry()", "options.maxRetries");
  checkCount(delay, "apiRetry()", "options.retryDelayMs");
  return {
    type: "system",
    subtype: "api_retry",
    attempt: options.attempt,
    max_retries: maxRetries,
    retry_delay_ms: delay,
    error_status: status,
    error: options.error ?? retryErrorOf(status),
    session_id: ctx.sessionId,
    uuid: ctx.ids.uuid(),
  };
}

function retryErrorOf(status: number | null): AssistantMessageError {
  if (status === 529) return "overloaded";
  if (status === 429) return "rate_limit";
  if (status === 401) return "authentication_failed";
  if (status !== null && status >= 500) return "server_error";
  return "unknown";
}

/** A `system/thinking_tokens` frame. */
export interface ThinkingTokensFrame extends SystemFrame {
  /** Always `thinking_tokens`. */
  subtype: "thinking_tokens";
  /** Running estimate for the current thinking block. */
  estimated_tokens: number;
  /** The increment this frame carries. */
  estimated_tokens_delta: number;
  /** The session id. */
  session_id: string;
  /** The frame's uuid. */
  uuid: Uuid;
}

/**
 * A `system/thinking_tokens` frame: the CLI sends one before each thinking delta (with or
 * without partial messages), with the running estimate for the block (see
 * {@linkcode thinkingTokenFrames} for a whole block).
 *
 * @example A thinking-token estimate
 * ```ts
 * import { createBuildContext, thinkingTokens } from "@x/claude-mock";
 * const ctx = createBuildContext({ seed: 1 });
 * console.log(thinkingTokens(ctx, { estimatedTokens: 10, estimatedTokensDelta: 5 }).estimated_tokens);
 * ```
 */
export function thinkingTokens(
  ctx: BuildContext,
  options: { estimatedTokens: number; estimatedTokensDelta: number },
): ThinkingTokensFrame {
  checkCount(options?.estimatedTokens, "thinkingTokens()", "options.estimatedTokens");
  checkCount(options.estimatedTokensDelta, "thinkingTokens()", "options.estimatedTokensDelta");
  return {
    type: "system",
    subtype: "thinking_tokens",
    estimated_tokens: options.estimatedTokens,
    estimated_tokens_delta: options.estimatedTokensDelta,
    session_id: ctx.sessionId,
    uuid: ctx.ids.uuid(),
  };
}

/** A subagent task, as its `system/task_*` frames identify it. */
export interface TaskInfo {
  /** The task id (also the subagent's `agent_id`), e.g. `a8b0a0e708be712e2`. */
  taskId: string;
  /** The id of this run of the task, e.g. `0mwr0gyb3-aeca1704`. */
  runId: string;
  /** The Agent tool use that started it. */
  toolUseId: string;
  /** The task description. */
  description: string;
  /** The subagent type (default `general-purpose`). */
  subagentType?: string;
  /** The prompt the subagent got. */
  prompt?: string;
  /** Whether it runs in the background (default false). */
  isBackgrounded?: boolean;
  /** Nesting depth (default 1). */
  spawnDepth?: number;
  /** The task type (default `local_agent`). */
  taskType?: string;
}

/**
 * A new {@linkcode TaskInfo} with ids drawn from the context: a task id like
 * `a8b0a0e708be712e2` and a run id like `0mwr0gyb3-aeca1704`, as recorded.
 *
 * @example A task for an Agent tool use
 * ```ts
 * import { createBuildContext, newTask } from "@x/claude-mock";
 * const ctx = createBuildContext({ seed: 1 });
 * const task = newTask(ctx, { toolUseId: "toolu_01A", description: "Summarize notes file" });
 * console.log(task.taskId.length); // 17
 * ```
 */
export function newTask(
  ctx: BuildContext,
  options: Omit<TaskInfo, "taskId" | "runId"> & { taskId?: string; runId?: string },
): TaskInfo {
  checkString(options?.toolUseId, "newTask()", "options.toolUseId");
  checkString(options.description, "newTask()", "options.description");
  const hex = (n: number) => {
    let out = "";
    while (out.length < n) out += ctx.ids.uuid().replaceAll("-", "");
    return out.slice(0, n);
  };
  const base36 = ctx.ids.shortId().slice(0, 9);
  return {
    ...options,
    taskId: options.taskId ?? "a" + hex(16),
    runId: options.runId ?? `${base36}-${hex(8)}`,
  };
}

/** A `system/task_started` frame. */
export interface TaskStartedFrame extends SystemFrame {
  /** Always `task_started`. */
  subtype: "task_started";
  /** The task id. */
  task_id: string;
  /** The run id. */
  run_id: string;
  /** The Agent tool use id. */
  tool_use_id: string;
  /** The task description. */
  description: string;
  /** The subagent type. */
  subagent_type: string;
  /** Whether it runs in the background. */
  is_backgrounded: boolean;
  /** Nesting depth. */
  spawn_depth: number;
  /** The task type. */
  task_type: string;
  /** The prompt. */
  prompt?: string;
  /** The frame's uuid. */
  uuid: Uuid;
  /** The session id. */
  session_id: string;
}

/**
 * A `system/task_started` frame: a subagent task began (right after the Agent tool use
 * frame).
 *
 * @example Starting a subagent task
 * ```ts
 * import { createBuildContext, newTask, taskStarted } from "@x/claude-mock";
 * const ctx = createBuildContext({ seed: 1 });
 * const task = newTask(ctx, { toolUseId: "toolu_01A", description: "Summarize", prompt: "Summarize notes.txt" });
 * console.log(taskStarted(ctx, task).subagent_type); // general-purpose
 * ```
 */
export function taskStarted(ctx: BuildContext, task: TaskInfo): TaskStartedFrame {
  checkTask(task, "taskStarted()");
  return {
    type: "system",
    subtype: "task_started",
    task_id: task.taskId,
    run_id: task.runId,
    tool_use_id: task.toolUseId,
    description: task.description,
    subagent_type: task.subagentType ?? "general-purpose",
    is_backgrounded: task.isBackgrounded ?? false,
    spawn_depth: task.spawnDepth ?? 1,
    task_type: task.taskType ?? "local_agent",
    ...(task.prompt !== undefined ? { prompt: task.prompt } : {}),
    uuid: ctx.ids.uuid(),
    session_id: ctx.sessionId,
  };
}

/** Task usage so far. */
export interface TaskUsage {
  /** Tokens used. */
  total_tokens: number;
  /** Tool uses. */
  tool_uses: number;
  /** Elapsed time. */
  duration_ms: number;
}

/** A `system/task_progress` frame. */
export interface TaskProgressFrame extends SystemFrame {
  /** Always `task_progress`. */
  subtype: "task_progress";
  /** The task id. */
  task_id: string;
  /** The run id. */
  run_id: string;
  /** The Agent tool use id. */
  tool_use_id: string;
  /** What the task is doing now. */
  description: string;
  /** The subagent type. */
  subagent_type: string;
  /** Usage so far. */
  usage: TaskUsage;
  /** The last tool the subagent used. */
  last_tool_name?: string;
  /** The frame's uuid. */
  uuid: Uuid;
  /** The session id. */
  session_id: string;
}

/** Options for {@linkcode taskProgress}. */
export interface TaskProgressOptions {
  /** What the task is doing now (default: the task description). */
  description?: string;
  /** Usage so far (default: 123 tokens, 1 tool use, 55 ms, as recorded). */
  usage?: Partial<TaskUsage>;
  /** The last tool the subagent used. */
  lastToolName?: string;
}

/**
 * A `system/task_progress` frame (sent when a subagent uses a tool).
 *
 * @example Progress of a subagent
 * ```ts
 * import { createBuildContext, newTask, taskProgress } from "@x/claude-mock";
 * const ctx = createBuildContext({ seed: 1 });
 * const task = newTask(ctx, { toolUseId: "toolu_01A", description: "Summarize" });
 * console.log(taskProgress(ctx, task, { description: "Reading notes.txt", lastToolName: "Read" }).usage);
 * ```
 */
export function taskProgress(
  ctx: BuildContext,
  task: TaskInfo,
  options: TaskProgressOptions = {},
): TaskProgressFrame {
  checkTask(task, "taskProgress()");
  return {
    type: "system",
    subtype: "task_progress",
    task_id: task.taskId,
    run_id: task.runId,
    tool_use_id: task.toolUseId,
    description: options.description ?? task.description,
    subagent_type: task.subagentType ?? "general-purpose",
    usage: taskUsage(
      options.usage,
      { total_tokens: 123, tool_uses: 1, duration_ms: 55 },
      "taskProgress()",
    ),
    ...(options.lastToolName !== undefined ? { last_tool_name: options.lastToolName } : {}),
    uuid: ctx.ids.uuid(),
    session_id: ctx.sessionId,
  };
}

/** The task states of `task_updated` patches. */
export type TaskStatus = "pending" | "running" | "completed" | "failed" | "killed" | "paused";

/** A `system/task_updated` frame. */
export interface TaskUpdatedFrame extends SystemFrame {
  /** Always `task_updated`. */
  subtype: "task_updated";
  /** The task id. */
  task_id: string;
  /** The run id. */
  run_id: string;
  /** The fields that changed. */
  patch: {
    status?: TaskStatus;
    description?: string;
    end_time?: number;
    total_paused_ms?: number;
    error?: string;
    is_backgrounded?: boolean;
  };
  /** The frame's uuid. */
  uuid: Uuid;
  /** The session id. */
  session_id: string;
}

/**
 * A `system/task_updated` frame. The default patch is the one recorded when a subagent
 * finishes: `{status: "completed", end_time: ctx.now()}`.
 *
 * @example A finished task
 * ```ts
 * import { createBuildContext, newTask, taskUpdated } from "@x/claude-mock";
 * const ctx = createBuildContext({ seed: 1 });
 * const task = newTask(ctx, { toolUseId: "toolu_01A", description: "Summarize" });
 * console.log(taskUpdated(ctx, task).patch.status); // completed
 * ```
 */
export function taskUpdated(
  ctx: BuildContext,
  task: TaskInfo,
  options: { patch?: TaskUpdatedFrame["patch"] } = {},
): TaskUpdatedFrame {
  checkTask(task, "taskUpdated()");
  return {
    type: "system",
    subtype: "task_updated",
    task_id: task.taskId,
    run_id: task.runId,
    patch: options.patch ?? { status: "completed", end_time: ctx.now() },
    uuid: ctx.ids.uuid(),
    session_id: ctx.sessionId,
  };
}

/** A `system/task_notification` frame. */
export interface TaskNotificationFrame extends SystemFrame {
  /** Always `task_notification`. */
  subtype: "task_notification";
  /** The task id. */
  task_id: string;
  /** The run id. */
  run_id: string;
  /** The Agent tool use id. */
  tool_use_id: string;
  /** How the task ended. */
  status: "completed" | "failed" | "stopped";
  /** Where the task's output went (scrubbed to `/tmp/x` in the recordings). */
  output_file: string;
  /** The task's final summary. */
  summary: string;
  /** Final usage. */
  usage: TaskUsage;
  /** The frame's uuid. */
  uuid: Uuid;
  /** The session id. */
  session_id: string;
}

/** Options for {@linkcode taskNotification}. */
export interface TaskNotificationOptions {
  /** How the task ended (default `completed`). */
  status?: "completed" | "failed" | "stopped";
  /** The task's final summary (the subagent's final text). */
  summary: string;
  /** Where the output went (default `/tmp/x`, as scrubbed in the recordings). */
  outputFile?: string;
  /** Final usage (default: 145 tokens, 1 tool use, 184 ms, as recorded). */
  usage?: Partial<TaskUsage>;
}

/**
 * A `system/task_notification` frame: a subagent task ended (right after its
 * `task_updated`).
 *
 * @example A completed subagent
 * ```ts
 * import { createBuildContext, newTask, taskNotification } from "@x/claude-mock";
 * const ctx = createBuildContext({ seed: 1 });
 * const task = newTask(ctx, { toolUseId: "toolu_01A", description: "Summarize" });
 * console.log(taskNotification(ctx, task, { summary: "Build with make." }).status); // completed
 * ```
 */
export function taskNotification(
  ctx: BuildContext,
  task: TaskInfo,
  options: TaskNotificationOptions,
): TaskNotificationFrame {
  checkTask(task, "taskNotification()");
  checkString(options?.summary, "taskNotification()", "options.summary");
  return {
    type: "system",
    subtype: "task_notification",
    task_id: task.taskId,
    run_id: task.runId,
    tool_use_id: task.toolUseId,
    status: options.status ?? "completed",
    output_file: options.outputFile ?? "/tmp/x",
    summary: options.summary,
    usage: taskUsage(
      options.usage,
      { total_tokens: 145, tool_uses: 1, duration_ms: 184 },
      "taskNotification()",
    ),
    uuid: ctx.ids.uuid(),
    session_id: ctx.sessionId,
  };
}

function taskUsage(
  given: Partial<TaskUsage> | undefined,
  defaults: TaskUsage,
  where: string,
): TaskUsage {
  const usage = { ...defaults, ...given };
  checkCount(usage.total_tokens, where, "usage.total_tokens");
  checkCount(usage.tool_uses, where, "usage.tool_uses");
  checkCount(usage.duration_ms, where, "usage.duration_ms");
  return {
    total_tokens: usage.total_tokens,
    tool_uses: usage.tool_uses,
    duration_ms: usage.duration_ms,
  };
}

function checkTask(task: TaskInfo, where: string): void {
  if (typeof task !== "object" || task === null) {
    throw new TypeError(
      `${where}: task must be a TaskInfo object (see newTask()), got ${describe(task)}`,
    );
  }
  checkString(task.taskId, where, "task.taskId");
  checkString(task.runId, where, "task.runId");
  checkString(task.toolUseId, where, "task.toolUseId");
  checkString(task.description, where, "task.description");
}
