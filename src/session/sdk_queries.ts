/**
 * The client's read-only requests to the CLI, answered as the real CLI (2.1.328 to 2.1.332)
 * answers them: `mcp_status`, `get_context_usage`, `get_settings`, `get_session_cost`,
 * `get_usage`, `list_permission_rules`, `rewind_files`, `get_binary_version`, `get_plan`,
 * `list_models`, `get_hooks_listing`, `reload_output_styles`, and the notices the SDK sends that its types do not list
 * (`prompt_draft_activity`, `set_prompt_suggestions_paused`).
 *
 * @module
 */

import { contextUsageAnswer } from "../builders/context_usage.ts";
import { OUTPUT_STYLES } from "../builders/output_styles.ts";
import { hookEventCatalogue } from "../builders/hook_events.ts";
import { DEFAULT_MODELS } from "../builders/models.ts";
import { type PermissionRules, rulesFromSettings } from "../scenario/permission_rules.ts";
import { isObject } from "../wire/frame.ts";
import type { Engine } from "./engine.ts";
import { mcpToolEntries } from "./mcp_servers.ts";
import { shownConfig, UNKNOWN_TYPE } from "./mcp_roster.ts";

/** Registers the read-only answers on the engine's control channel. */
export function installSdkQueries(engine: Engine): void {
  const control = engine.control;
  const ctx = engine.ctx;
  control.handle("mcp_status", () => ({ mcpServers: mcpStatus(engine) }));
  control.handle("get_context_usage", () => contextUsage(engine));
  control.handle("get_settings", () => settingsAnswer(engine));
  control.handle("get_session_cost", () => ({ text: sessionCostText(engine) }));
  control.handle("get_usage", () => usageAnswer(engine));
  control.handle("list_permission_rules", () => ({
    state: {
      rules: permissionRules(engine),
      workspaceDirectories: [],
      originalCwd: ctx.cwd,
      managedOnly: false,
    },
  }));
  control.handle("rewind_files", () => ({
    canRewind: false,
    // the SDK's enableFileCheckpointing sets CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING
    error: engine.env.CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING === "true"
      ? "No file checkpoint found for this message."
      : "File rewinding is not enabled.",
  }));
  control.handle("get_binary_version", () => ({
    version: ctx.cli.version,
    buildTime: ctx.cli.facts.buildTime,
    oldestDesktopSdk: "0.3.280",
  }));
  control.handle("get_plan", () => ({ exists: false }));
  control.handle("list_models", () => ({ models: DEFAULT_MODELS.map((m) => ({ ...m })) }));
  control.handle("get_hooks_listing", () => hooksListing(engine));
  control.handle("reload_output_styles", () => ({ available_output_styles: [...OUTPUT_STYLES] }));
  // notices the SDK sends (notePromptDraftActivity, setPromptSuggestionsPaused): no payload
  control.handle("prompt_draft_activity", () => undefined);
  control.handle("set_prompt_suggestions_paused", () => undefined);
}

/** `get_context_usage`: the context's categories, with the last API call's usage. */
function contextUsage(engine: Engine): Record<string, unknown> {
  const last = engine.ledger.lastCall;
  const initialize = engine.initializeRequest;
  return contextUsageAnswer(engine.ctx, {
    tally: engine.context,
    permissionPrompts: engine.flags.permissionPromptTool === "stdio",
    mcpTools: mcpToolEntries(initialize),
    ...(last
      ? {
        apiUsage: {
          input_tokens: last.inputTokens ?? 0,
          output_tokens: last.outputTokens ?? 0,
          cache_creation_input_tokens: last.cacheCreationInputTokens ?? 0,
          cache_read_input_tokens: last.cacheReadInputTokens ?? 0,
        },
      }
      : {}),
  });
}

/** `get_settings`: the `--settings` given, and what is applied. */
function settingsAnswer(engine: Engine): Record<string, unknown> {
  const settings = flagSettings(engine);
  return {
    effective: settings ?? {},
    sources: settings ? [{ source: "flagSettings", settings }] : [],
    served_settings_state: "ineligible",
    applied: {
      model: engine.ctx.model,
      effort: engine.flags.effort ?? "medium",
      advisor: null,
      ultracode: false,
      ultracodeRequested: false,
      ultracodeAvailable: true,
      ultrathinkAvailable: false,
      outsideFileToolReadsBlocked: false,
      outsideFileToolWritesBlocked: false,
      outsideBlocksCountLaunchFoldersOnly: false,
      launchEnvLeftOwnFilesInPlace: false,
    },
  };
}

/** `get_usage`: the session's cost and durations; no subscription, no rate limits. */
function usageAnswer(engine: Engine): Record<string, unknown> {
  return {
    session: {
      total_cost_usd: engine.ledger.costUsd,
      total_api_duration_ms: engine.ledger.apiMs,
      total_duration_ms: Math.round(engine.clock.now() - engine.startedAt),
      total_lines_added: 0,
      total_lines_removed: 0,
      model_usage: engine.ledger.modelUsage(),
    },
    subscription_type: null,
    rate_limits_available: false,
    rate_limits: null,
    behaviors: null,
  };
}

/**
 * `get_hooks_listing`: the event catalogue, no hooks. The real CLI (2.1.332) does not list the
 * SDK's callback hooks, even when the SDK registered some in `initialize`.
 */
function hooksListing(engine: Engine): Record<string, unknown> {
  return {
    events: [],
    hooks: [],
    eventCatalog: hookEventCatalogue(engine.ctx.cli),
    policy: {
      disabledByPolicy: false,
      managedOnly: false,
      pluginOnly: false,
      allDisabled: false,
      policyHookCount: 0,
    },
  };
}

/**
 * The `mcp_status` entries, as the session's roster lists them: a connected SDK server with its
 * `serverInfo` and tools; a server the CLI runs with its shown config (the mock knows neither
 * its `serverInfo` nor its tools); a failed one with its `error`; a disabled or pending one
 * with neither.
 */
function mcpStatus(engine: Engine): Record<string, unknown>[] {
  const initialize = engine.initializeRequest;
  return engine.mcpRoster.entries.map((entry) => {
    const connected = entry.status === "connected";
    if (entry.source === "sdk") {
      return {
        name: entry.name,
        status: entry.status,
        ...(connected ? { serverInfo: serverInfoOf(initialize, entry.name) } : {}),
        transport: "sdk",
        scope: "dynamic",
        source: "sdk",
        ...(connected
          ? {
            tools: mcpToolEntries(initialize).filter((t) => t.serverName === entry.name).map((
              t,
            ) => ({ name: t.tool, annotations: {} })),
          }
          : {}),
      };
    }
    const config = shownConfig(entry);
    // (a server of a type the CLI does not know shows no config: 2.1.332)
    const known = entry.error !== UNKNOWN_TYPE;
    return {
      name: entry.name,
      status: entry.status,
      ...(entry.error !== undefined ? { error: entry.error } : {}),
      ...(known ? { config } : {}),
      transport: config.type,
      scope: entry.source,
      source: entry.source,
    };
  });
}

function serverInfoOf(
  initialize: Record<string, unknown> | undefined,
  server: string,
): Record<string, unknown> {
  const manifests = initialize?.sdkMcpServerManifests;
  const manifest = isObject(manifests) && isObject(manifests[server]) ? manifests[server] : {};
  const result = isObject(manifest.initializeResult) ? manifest.initializeResult : {};
  const info = isObject(result.serverInfo) ? result.serverInfo : {};
  return {
    name: typeof info.name === "string" ? info.name : server,
    version: typeof info.version === "string" ? info.version : "1.0.0",
  };
}

/** The `--settings` object, when one was given as JSON. */
function flagSettings(engine: Engine): Record<string, unknown> | undefined {
  const text = engine.flags.settings;
  if (!text || !text.trim().startsWith("{")) return undefined;
  try {
    const value = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** `$0.0010` under half a dollar, `$1.25` above, as the CLI writes a cost. */
function formatCost(usd: number): string {
  return usd > 0.5 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

function formatDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${s % 60}s`;
}

/** The text of the `get_session_cost` answer (what `/cost` prints). */
function sessionCostText(engine: Engine): string {
  const ledger = engine.ledger;
  const lines = [
    `Estimated cost:        ${formatCost(ledger.costUsd)}`,
    `Total duration (API):  ${formatDuration(ledger.apiMs)}`,
    `Total duration (wall): ${formatDuration(engine.clock.now() - engine.startedAt)}`,
    "Total code changes:    0 lines added, 0 lines removed",
  ];
  const usage = Object.entries(ledger.modelUsage());
  if (usage.length > 0) {
    lines.push("Usage by model:");
    for (const [model, u] of usage) {
      lines.push(
        `${
          model.padStart(20)
        }:  ${u.inputTokens} input, ${u.outputTokens} output, ${u.cacheReadInputTokens} cache read, ${u.cacheCreationInputTokens} cache write (${
          formatCost(u.costUSD)
        })`,
      );
    }
    const requests = ledger.calls;
    lines.push(
      `Prompt cache (main):   ${requests} request${
        requests === 1 ? "" : "s"
      } · 0% of input tokens from cache · no misses · no prompt caching reported by the API`,
    );
  }
  return lines.join("\n");
}

const SOURCE_ORDER = ["flagSettings", "cliArg", "session"];

/** The rules of `list_permission_rules`, by behaviour, then by where they come from. */
function permissionRules(engine: Engine): Record<string, unknown>[] {
  const settings = rulesFromSettings(engine.flags.settings);
  const flags = engine.flags;
  const sources: Array<{ source: string; rules: PermissionRules }> = [
    { source: "flagSettings", rules: settings },
    { source: "cliArg", rules: { allow: flags.allowedTools, deny: flags.disallowedTools } },
    { source: "session", rules: engine.sessionRules },
  ];
  const out: Record<string, unknown>[] = [];
  for (const behavior of ["allow", "ask", "deny"]) {
    for (const source of SOURCE_ORDER) {
      const rules = sources.find((s) => s.source === source)?.rules[behavior as "allow"] ?? [];
      for (const rule of rules) {
        out.push({
          behavior,
          source,
          rule,
          description: describeRule(rule),
          editability: source === "flagSettings" ? "readonly" : "session",
        });
      }
    }
  }
  return out;
}

/** How the CLI describes a rule: a whole tool, or a Bash command prefix. */
function describeRule(rule: string): Record<string, string> {
  const open = rule.indexOf("(");
  if (open < 0) return { prefix: "Any use of the ", emphasis: rule, suffix: " tool" };
  const tool = rule.slice(0, open);
  const content = rule.slice(open + 1, rule.endsWith(")") ? -1 : undefined);
  if (tool === "Bash" && content.endsWith(":*")) {
    return { prefix: "Any Bash command starting with ", emphasis: content.slice(0, -2) };
  }
  return { prefix: `${tool} `, emphasis: content };
}
