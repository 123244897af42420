/**
 * Builders for `system` frames: `init`, `session_state_changed`, `status` and
 * `api_retry`, each in the real CLI's key order, and the permission modes.
 *
 * @module
 */

import { modelCatalogOf } from "./model_catalog.ts";
import type { SystemFrame, Uuid } from "../wire/frame.ts";
import type { BuildContext } from "./build_context.ts";
import { checkCount, describe, sessionPid } from "./_common.ts";
import type { AssistantMessageError } from "./api_error_message.ts";
import type { FastModeDisabledReason, FastModeState } from "./fast_mode.ts";
import { defaultTools } from "./inventory.ts";
import { DEFAULT_COMMANDS, TERMINAL_SLASH_COMMANDS } from "./slash_commands.ts";
import { modelFacts } from "./model_facts.ts";
import { DEFAULT_SKILLS } from "./skills.ts";
import { DEFAULT_AGENTS } from "./agents.ts";
import { DEFAULT_PLUGINS, type PluginEntry } from "./plugins.ts";
import { DEFAULT_HOME, projectSlug } from "./project_paths.ts";

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
 * import { permissionModeOf } from "./system.ts";
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
  /** MCP server entries the CLI skipped, with why (only when there are some). */
  mcp_server_errors?: Array<{ name: string; type: string; message: string }>;
  /** Whether analytics are off. */
  analytics_disabled: boolean;
  /** Whether product feedback is off. */
  product_feedback_disabled: boolean;
  /** Whether an Anthropic server answers (CLI 2.1.331 and later). */
  served_by_anthropic?: boolean;
  /** The frame's uuid. */
  uuid: Uuid;
  /** Whether the sandbox is on (CLI 2.1.331 and later). */
  sandbox_enabled?: boolean;
  /** Memory directories. */
  memory_paths: { auto: string };
  /** The directory the session started in. */
  original_cwd: string;
  /** Extra directories the session may touch. */
  additional_directories: string[];
  /**
   * The CLI's messaging socket, named after its process id: `<XDG_RUNTIME_DIR, else its temp
   * folder>/cc-socks/<pid>.sock`, or `/tmp/cc-socks-<uid>/<pid>.sock` when that path is
   * longer than a socket's may be (as the real CLI 2.1.328 to 2.1.332 do). The mock reports the default
   * `/tmp/cc-socks/<pid>.sock` for the `pid` of its `initialize` answer (deterministic, like
   * its cwd and home).
   */
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
  /**
   * MCP server entries the CLI skipped (`mcp_server_errors`, after `capabilities`; left out
   * when there are none).
   */
  mcpServerErrors?: Array<{ name: string; type: string; message: string }>;
  /** Extra fields (they override built ones, keeping their place). */
  extra?: Record<string, unknown>;
}

/**
 * The `system/init` frame the CLI sends at the start of every turn, with the real CLI's
 * key set and order for the version it impersonates (`ctx.cli`). Inventory lists default to
 * what the real CLI reported.
 *
 * @example The init frame of a turn
 * ```ts
 * import { createBuildContext, systemInit } from "@x/claude-mock/builders";
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
  const sandbox = ctx.cli.facts.sandboxFields;
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
    claude_code_version: ctx.cli.version,
    output_style: options.outputStyle ?? "default",
    agents: options.agents ?? DEFAULT_AGENTS.map((a) => a.name),
    skills: options.skills ?? [...DEFAULT_SKILLS],
    plugins: options.plugins ?? DEFAULT_PLUGINS.map((p) => ({ ...p })),
    capabilities: options.capabilities ?? [...ctx.cli.facts.initCapabilities],
    ...(options.mcpServerErrors?.length ? { mcp_server_errors: options.mcpServerErrors } : {}),
    analytics_disabled: true,
    product_feedback_disabled: true,
    ...(sandbox ? { served_by_anthropic: false } : {}),
    uuid: ctx.ids.uuid(),
    ...(sandbox ? { sandbox_enabled: false } : {}),
    memory_paths: { auto: `${DEFAULT_HOME}/.claude/projects/${projectSlug(ctx.cwd)}/memory/` },
    original_cwd: ctx.cwd,
    additional_directories: [],
    messaging_socket_path: `/tmp/cc-socks/${sessionPid(ctx.sessionId)}.sock`,
    fast_mode_state: "off",
    fast_mode_disabled_reason: "sdk_opt_in_required",
    per_turn_effort_active: modelFacts(options.model ?? ctx.model, modelCatalogOf(ctx.cli))
      .perTurnEffort,
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
 * import { createBuildContext, sessionStateChanged } from "@x/claude-mock/builders";
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
 * import { createBuildContext, systemStatus } from "@x/claude-mock/builders";
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
 * import { apiRetry, createBuildContext } from "@x/claude-mock/builders";
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

/** A `system/informational` frame: a notice the CLI shows (a skill's shell command not run, …). */
export interface SystemInformationalFrame extends SystemFrame {
  /** Always `informational`. */
  subtype: "informational";
  /** The notice. */
  content: string;
  /** How serious it is. */
  level: "info" | "warning" | "error";
  /** What it is about (`skill_shell_hook`, …). */
  tag: string;
  /** The frame's uuid. */
  uuid: Uuid;
  /** The session id. */
  session_id: string;
}

/**
 * A `system/informational` frame, in the real CLI's key order (2.1.332).
 *
 * @example A skill's shell command a hook refused
 * ```ts
 * import { createBuildContext, systemInformational } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * const frame = systemInformational(ctx, "Not run in /greet: echo hi (blocked by hook: no)", {
 *   level: "warning",
 *   tag: "skill_shell_hook",
 * });
 * console.log(frame.subtype, frame.tag); // informational skill_shell_hook
 * ```
 */
export function systemInformational(
  ctx: BuildContext,
  content: string,
  options: { level?: "info" | "warning" | "error"; tag: string },
): SystemInformationalFrame {
  if (typeof content !== "string") {
    throw new TypeError(
      `systemInformational(): content must be a string, got ${describe(content)}`,
    );
  }
  return {
    type: "system",
    subtype: "informational",
    content,
    level: options.level ?? "info",
    tag: options.tag,
    uuid: ctx.ids.uuid(),
    session_id: ctx.sessionId,
  };
}
