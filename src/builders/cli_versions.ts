/**
 * The CLI versions the mock can impersonate, and every fact that the recordings of the real
 * CLI show changed from one version to the next, in one table: {@linkcode CLI_VERSION_HISTORY}.
 * Each row names what its version changed; a version's facts are the oldest row's, with each
 * later row's changes applied up to that version. A version newer than the newest row
 * behaves as the newest row (and reports its own number); one older than the oldest behaves
 * as the oldest.
 *
 * @module
 */

/** A `(version, its facts)` pair the mock impersonates (see {@linkcode cliVersionFacts}). */
export interface CliVersion {
  /** The version the mock reports (`--version`, `system/init`, `initialize`). */
  readonly version: string;
  /** The recorded version whose behaviour applies (the newest known one not above `version`). */
  readonly basis: string;
  /** The behaviour of that version. */
  readonly facts: CliVersionFacts;
}

/** The token counts a `get_context_usage` answer reports for the CLI's own context. */
export interface ContextUsageBaseline {
  /** The built-in tools' schemas (`system_tools`). */
  readonly systemTools: number;
  /** The deferred tools' schemas (`system_tools_deferred`). */
  readonly systemToolsDeferred: number;
  /** The system prompt snapshot attachment (`prompt_snapshot`). */
  readonly promptSnapshot: number;
  /** The deferred tools list attachment (`deferred_tools_delta`). */
  readonly deferredToolsDelta: number;
}

/** What one CLI version does, where versions differ. */
export interface CliVersionFacts {
  /** The `capabilities` of `system/init`. */
  readonly initCapabilities: readonly string[];
  /** The `capabilities` of the `initialize` answer. */
  readonly initializeCapabilities: readonly string[];
  /**
   * `sandbox_enabled` in `system/init` and the `initialize` answer, and
   * `served_by_anthropic` in `system/init` (2.1.331).
   */
  readonly sandboxFields: boolean;
  /** The description of the `/clear` command (changed in 2.1.331). */
  readonly clearDescription: string;
  /** `mcp_call` honours `soft_error_result` (`mcp_call_soft_error_result_v1`, 2.1.331). */
  readonly mcpCallSoftErrors: boolean;
  /**
   * A `can_use_tool` for a file tool asked without a rule (a Write, a Read outside the
   * working directories) carries `server_policy_ask_only: true` (2.1.328; none from 2.1.331).
   */
  readonly fileToolServerPolicy: boolean;
  /**
   * With partial messages, a result lists the API message ids its turn began
   * (`begun_message_ids`, after `uuid`; 2.1.331).
   */
  readonly begunMessageIds: boolean;
  /** The CLI calls `PreSkillShellCommand` hooks before a skill's inline shell command (2.1.332). */
  readonly preSkillShellCommand: boolean;
  /**
   * A task marked completed is taken off the other tasks' `blockedBy` (`TaskGet` no longer
   * names it, 2.1.332); before, it stays there and only `TaskList` leaves it out.
   */
  readonly completedTaskUnblocks: boolean;
  /**
   * The text of the `stop-hook-error` notification after a Stop hook blocked
   * (`stop hook reported a problem · ctrl+o to see` in 2.1.328; shorter from 2.1.331).
   */
  readonly stopHookNotice: string;
  /**
   * What a turn says when the stream broke and the non-streaming fallback's body is not a
   * message either: the JSON parser's words (`"parse_error"`), or from 2.1.332 a description
   * of the malformed response (`"malformed_response"`).
   */
  readonly unusableFallback: "parse_error" | "malformed_response";
  /**
   * Built-in tools' input schemas (as JSON text) where this version's differ from the newest
   * recorded ones (`tool_input_schemas.ts`): an `InputValidationError`'s hint shows them.
   */
  readonly toolInputSchemas: Readonly<Record<string, string>>;
  /**
   * What print mode's text output says on stderr about `--settings` it could not take whole:
   * the heading when entries were skipped, the heading when the settings did not load, and the
   * closing line (none on 2.1.328).
   */
  readonly settingsWarning: {
    readonly skipped: string;
    readonly failed: string;
    readonly footer?: string;
  };
  /**
   * An SDK session's first turn repeats that warning in a `system/informational` frame (tag
   * `settings_not_in_effect`) after its `system/init` (2.1.331; print mode writes none).
   */
  readonly settingsNotice: boolean;
  /** `buildTime` of the `get_binary_version` answer. */
  readonly buildTime: string;
  /**
   * The models the CLI warns about in print mode's text output (first-party API): model id →
   * its display name and retirement date (`⚠ <name> will be retired on <date>. …`).
   */
  readonly modelRetirements: Readonly<Record<string, ModelRetirement>>;
  /** The `get_context_usage` counts of the CLI's own context, without and with the prompt tool. */
  readonly contextUsage: {
    readonly plain: ContextUsageBaseline;
    readonly withPermissionPrompts: ContextUsageBaseline;
  };
}

/** A model the CLI retires: its display name and the first-party retirement date. */
export interface ModelRetirement {
  /** As the CLI names it (`Claude Opus 4.5`). */
  readonly name: string;
  /** As the CLI writes it (`January 22, 2027`). */
  readonly date: string;
}

/** One row of {@linkcode CLI_VERSION_HISTORY}: a version and what it changed. */
export interface CliVersionRow {
  /** The CLI version. */
  readonly version: string;
  /** The Agent SDK version that bundles it (`manifest.json`). */
  readonly sdkVersion: string;
  /** What changed in this version (the first row: everything). */
  readonly changes: Partial<CliVersionFacts>;
  /** Which recordings of the real CLI the facts come from (the repository's test data). */
  readonly recordings: string;
}

const INIT_CAPABILITIES_328 = [
  "interrupt_receipt_v1",
  "interrupt_cancel_queued_v1",
  "interrupt_send_now_v1",
  "interrupt_requeue_taken_v1",
  "msg_lifecycle_v1",
  "request_marker_lists_v1",
  "ask_user_question_unanswered_v1",
  "lifecycle_wakeup_source_v1",
  "sdk_mcp_tools_list_changed",
  "sdk_mcp_manifests",
  "mcp_read_resource_v1",
  "mcp_tool_ui_meta_v1",
  "ui_surface_v1",
  "mcp_call_result_not_for_model_v1",
  "mcp_call_check_permissions_v1",
  "voice_call_talk_line_v1",
  "withdrawn_files_note_v2",
  "ui_pane_widget_v1",
  "reload_plugins_refuse_if_busy_v1",
  "silent_resend_files_v1",
];

/** The models CLI 2.1.328 warns about (first party; from its bundled table). */
const RETIREMENTS_328: Readonly<Record<string, ModelRetirement>> = {
  "claude-3-opus": { name: "Claude 3 Opus", date: "January 5, 2026" },
  "claude-3-5-haiku": { name: "Claude 3.5 Haiku", date: "February 19, 2026" },
  "claude-3-7-sonnet": { name: "Claude 3.7 Sonnet", date: "February 19, 2026" },
  "claude-opus-4-0": { name: "Claude Opus 4", date: "June 15, 2026" },
  "claude-sonnet-4-0": { name: "Claude Sonnet 4", date: "June 15, 2026" },
};

/** 2.1.331 adds Claude 3.5 Sonnet and Claude Sonnet 4.5. */
const RETIREMENTS_331: Readonly<Record<string, ModelRetirement>> = {
  ...RETIREMENTS_328,
  "claude-3-5-sonnet": { name: "Claude 3.5 Sonnet", date: "October 28, 2025" },
  "claude-sonnet-4-5": { name: "Claude Sonnet 4.5", date: "November 30, 2026" },
};

/** 2.1.332 adds Claude Opus 4.5. */
const RETIREMENTS_332: Readonly<Record<string, ModelRetirement>> = {
  ...RETIREMENTS_331,
  "claude-opus-4-5": { name: "Claude Opus 4.5", date: "January 22, 2027" },
};

/**
 * Every CLI version the recordings cover, oldest first, each with what it changed. The one
 * place where behaviour depends on the version: builders and the engine read the facts of
 * the session's version (`ctx.cli.facts`), never a version number.
 */
export const CLI_VERSION_HISTORY: readonly CliVersionRow[] = Object.freeze([
  {
    version: "2.1.328",
    sdkVersion: "0.3.328",
    recordings: "every tape without a v33x_ prefix, and v328_*",
    changes: {
      settingsNotice: false,
      settingsWarning: {
        skipped: "These settings entries were skipped; the rest of each file is in effect:",
        failed: "These settings files did not load, so nothing in them is in effect, including " +
          "hooks and permission rules. Each loads again once the problem listed for it is fixed:",
      },
      // CronCreate described a 7-day expiry and no Session-only note (2.1.331 changed it)
      toolInputSchemas: {
        CronCreate:
          '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"cron":{"description":"Standard 5-field cron ' +
          'expression in local time: \\"M H DoM Mon DoW\\" (e.g. \\"*/5 * * * *\\" = every 5 minutes, \\"30 14 28 2 *\\" = Feb 28 at 2:30pm local once).' +
          '","type":"string"},"prompt":{"description":"The prompt to enqueue at each fire time.","type":"string"},"recurring":{"description"' +
          ':"true (default) = fire on every cron match until deleted or auto-expired after 7 days. false = fire once at the next match, then auto-delete. Use ' +
          'false for \\"remind me at X\\" one-shot requests with pinned minute/hour/dom/month.","type":"boolean"},"durable":{"description":"true = ' +
          "persist to .claude/scheduled_tasks.json and survive restarts. false (default) = in-memory only, dies when this Claude session ends. Use true only wh" +
          'en the user asks the task to survive across sessions.","type":"boolean"}},"required":["cron","prompt"],"additionalProperties":false}',
      },
      initCapabilities: INIT_CAPABILITIES_328,
      initializeCapabilities: [
        "ui_surface_v1",
        "mcp_call_result_not_for_model_v1",
        "mcp_call_check_permissions_v1",
        "voice_call_talk_line_v1",
        "ui_pane_widget_v1",
        "reload_plugins_refuse_if_busy_v1",
      ],
      sandboxFields: false,
      clearDescription:
        "Start a new session with empty context; previous session stays on disk (resumable with /resume)",
      mcpCallSoftErrors: false,
      fileToolServerPolicy: true,
      begunMessageIds: false,
      stopHookNotice: "stop hook reported a problem · ctrl+o to see",
      preSkillShellCommand: false,
      completedTaskUnblocks: false,
      unusableFallback: "parse_error",
      buildTime: "2026-11-18T21:07:35Z",
      modelRetirements: RETIREMENTS_328,
      contextUsage: {
        plain: {
          systemTools: 5671,
          systemToolsDeferred: 3898,
          promptSnapshot: 12493,
          deferredToolsDelta: 118,
        },
        withPermissionPrompts: {
          systemTools: 6795,
          systemToolsDeferred: 4629,
          promptSnapshot: 13985,
          deferredToolsDelta: 133,
        },
      },
    },
  },
  {
    version: "2.1.331",
    sdkVersion: "0.3.331",
    recordings: "v331_*",
    changes: {
      // reworded, with a closing line, and said to the SDK too (2.1.331 and 2.1.332 alike)
      settingsNotice: true,
      settingsWarning: {
        skipped: "These settings entries were skipped; the rest of each source is in effect:",
        failed: "These settings did not load, so nothing in them is in effect, including hooks, " +
          "permission rules and sandbox settings, though environment variables they already set " +
          "can stay:",
        footer: "Fix each problem listed, then start Claude Code again. For settings sent with " +
          "applyFlagSettings, shown as SDK inline settings, send them again instead.",
      },
      toolInputSchemas: {} as Readonly<Record<string, string>>,
      initCapabilities: [
        "interrupt_receipt_v1",
        "interrupt_cancel_queued_v1",
        "interrupt_send_now_v1",
        "interrupt_requeue_taken_v1",
        "msg_lifecycle_v1",
        "request_marker_lists_v1",
        "ask_user_question_unanswered_v1",
        "lifecycle_wakeup_source_v1",
        "sdk_mcp_tools_list_changed",
        "sdk_mcp_manifests",
        "mcp_read_resource_v1",
        "mcp_tool_ui_meta_v1",
        "ui_surface_v1",
        "mcp_call_result_not_for_model_v1",
        "mcp_call_soft_error_result_v1",
        "mcp_call_check_permissions_v1",
        "voice_call_talk_line_v1",
        "withdrawn_files_note_v2",
        "withdrawn_tools_v1",
        "ui_pane_widget_v1",
        "reload_plugins_refuse_if_busy_v1",
        "get_usage_detached_v1",
        "silent_resend_files_v1",
      ],
      initializeCapabilities: [
        "ui_surface_v1",
        "mcp_call_result_not_for_model_v1",
        "mcp_call_soft_error_result_v1",
        "mcp_call_check_permissions_v1",
        "voice_call_talk_line_v1",
        "ui_pane_widget_v1",
        "reload_plugins_refuse_if_busy_v1",
        "get_usage_detached_v1",
      ],
      sandboxFields: true,
      clearDescription:
        "Start a new session with empty context; loops carry over, and the old one stays in /resume",
      mcpCallSoftErrors: true,
      fileToolServerPolicy: false,
      begunMessageIds: true,
      stopHookNotice: "stop hook problem · ctrl+o to see",
      buildTime: "2026-11-23T15:17:48Z",
      modelRetirements: RETIREMENTS_331,
      // the deferred tools' schemas grew by 95 tokens (as on 2.1.332, /context recorded on
      // 2.1.331: 3994 under the SDK); the rest as 2.1.328
      contextUsage: {
        plain: {
          systemTools: 5671,
          systemToolsDeferred: 3993,
          promptSnapshot: 12493,
          deferredToolsDelta: 118,
        },
        withPermissionPrompts: {
          systemTools: 6795,
          systemToolsDeferred: 4724,
          promptSnapshot: 13985,
          deferredToolsDelta: 133,
        },
      },
    },
  },
  {
    version: "2.1.332",
    sdkVersion: "0.3.332",
    recordings: "v332_*",
    changes: {
      preSkillShellCommand: true,
      completedTaskUnblocks: true,
      unusableFallback: "malformed_response",
      buildTime: "2026-11-24T19:09:44Z",
      modelRetirements: RETIREMENTS_332,
      contextUsage: {
        plain: {
          systemTools: 5667,
          systemToolsDeferred: 3993,
          promptSnapshot: 12489,
          deferredToolsDelta: 118,
        },
        withPermissionPrompts: {
          systemTools: 6792,
          systemToolsDeferred: 4724,
          promptSnapshot: 13981,
          deferredToolsDelta: 133,
        },
      },
    },
  },
]);

/** The CLI versions the recordings cover, oldest first. */
export const KNOWN_CLI_VERSIONS: readonly string[] = Object.freeze(
  CLI_VERSION_HISTORY.map((row) => row.version),
);

/** The newest known version: what the mock impersonates when nothing says otherwise. */
export const NEWEST_CLI_VERSION: string = KNOWN_CLI_VERSIONS[KNOWN_CLI_VERSIONS.length - 1];

const VERSION = /^(\d+)\.(\d+)\.(\d+)(?:[-+][0-9A-Za-z.+-]*)?$/;

/** Compares two `x.y.z` versions (a pre-release or build suffix is not compared). */
function compare(a: string, b: string): number {
  const pa = VERSION.exec(a)!, pb = VERSION.exec(b)!;
  for (let i = 1; i <= 3; i++) {
    const d = Number(pa[i]) - Number(pb[i]);
    if (d !== 0) return d;
  }
  return 0;
}

const FACTS = new Map<string, CliVersionFacts>();
{
  let facts = {} as CliVersionFacts;
  for (const row of CLI_VERSION_HISTORY) {
    facts = Object.freeze({ ...facts, ...row.changes });
    FACTS.set(row.version, facts);
  }
}

/**
 * The behaviour of CLI `version`: the facts of the newest known version not above it (the
 * oldest known one for an older version). The version itself is what the mock reports.
 *
 * @throws {TypeError} When `version` is not a version such as `2.1.332`.
 *
 * @example Facts of a known version and of a newer one
 * ```ts
 * import { cliVersionFacts } from "@x/claude-mock/builders";
 * console.log(cliVersionFacts("2.1.328").facts.preSkillShellCommand); // false
 * const future = cliVersionFacts("2.1.400");
 * console.log(future.version, future.basis); // 2.1.400 2.1.332
 * ```
 */
export function cliVersionFacts(version: string): CliVersion {
  if (typeof version !== "string" || !VERSION.test(version)) {
    throw new TypeError(
      `Unknown CLI version ${
        JSON.stringify(version)
      }: expected a version such as ${NEWEST_CLI_VERSION}`,
    );
  }
  // every session asks: worked out once per version, then shared (frozen)
  let cli = VERSIONS.get(version);
  if (!cli) {
    let basis = KNOWN_CLI_VERSIONS[0];
    for (const known of KNOWN_CLI_VERSIONS) if (compare(known, version) <= 0) basis = known;
    cli = Object.freeze({ version, basis, facts: FACTS.get(basis)! });
    if (VERSIONS.size >= 64) VERSIONS.clear();
    VERSIONS.set(version, cli);
  }
  return cli;
}

/** The versions asked for so far, with their facts. */
const VERSIONS = new Map<string, CliVersion>();

/**
 * The CLI version an Agent SDK version bundles: the known pairs of
 * {@linkcode CLI_VERSION_HISTORY}, else the rule every known release follows (SDK
 * `0.3.N` bundles CLI `2.1.N`); `undefined` for a version outside that rule.
 *
 * @example The CLI of an SDK
 * ```ts
 * import { cliVersionOfSdk } from "@x/claude-mock/builders";
 * console.log(cliVersionOfSdk("0.3.332")); // 2.1.332
 * ```
 */
export function cliVersionOfSdk(sdkVersion: string): string | undefined {
  const row = CLI_VERSION_HISTORY.find((r) => r.sdkVersion === sdkVersion);
  if (row) return row.version;
  const m = /^0\.3\.(\d+)$/.exec(sdkVersion);
  return m ? `2.1.${m[1]}` : undefined;
}

/** Where {@linkcode resolveCliVersion} found the version. */
export type CliVersionSource =
  | "option"
  | "CLAUDE_MOCK_VERSION"
  | "CLAUDE_AGENT_SDK_VERSION"
  | "installed SDK"
  | "default";

/** What {@linkcode resolveCliVersion} reads. */
export interface ResolveCliVersionOptions {
  /** A version given in code (wins over everything). */
  version?: string;
  /** The environment the process was spawned with (`CLAUDE_MOCK_VERSION`, `CLAUDE_AGENT_SDK_VERSION`). */
  env?: Record<string, string | undefined>;
  /**
   * The installed Agent SDK, when one was found: its version and the CLI version its
   * `manifest.json` names; or a function that looks for it (called only when needed).
   */
  installedSdk?: InstalledSdkInfo | (() => InstalledSdkInfo | undefined);
}

/** An installed Agent SDK: its version and the CLI version it bundles. */
export interface InstalledSdkInfo {
  /** The SDK's version. */
  version: string;
  /** The CLI version its `manifest.json` names. */
  cliVersion: string;
}

/**
 * The CLI version to impersonate: `version`, else `CLAUDE_MOCK_VERSION`, else the CLI of
 * the SDK that spawned the process (`CLAUDE_AGENT_SDK_VERSION`, which the SDK sets: the
 * installed SDK's `manifest.json` when it is that SDK, else {@linkcode cliVersionOfSdk}),
 * else the installed SDK's CLI, else {@linkcode NEWEST_CLI_VERSION}.
 *
 * @throws {TypeError} When the version given or in `CLAUDE_MOCK_VERSION` is not a version.
 *
 * @example The SDK that spawned the mock decides
 * ```ts
 * import { resolveCliVersion } from "@x/claude-mock/builders";
 * const { cli, source } = resolveCliVersion({ env: { CLAUDE_AGENT_SDK_VERSION: "0.3.328" } });
 * console.log(cli.version, source); // 2.1.328 CLAUDE_AGENT_SDK_VERSION
 * ```
 */
export function resolveCliVersion(
  options: ResolveCliVersionOptions = {},
): { cli: CliVersion; source: CliVersionSource } {
  const env = options.env ?? {};
  if (options.version !== undefined) {
    return { cli: checked(options.version, "the cliVersion option"), source: "option" };
  }
  const override = env.CLAUDE_MOCK_VERSION;
  if (override !== undefined && override !== "") {
    return { cli: checked(override, "CLAUDE_MOCK_VERSION"), source: "CLAUDE_MOCK_VERSION" };
  }
  let looked = false;
  let found: InstalledSdkInfo | undefined;
  const installed = () => {
    if (!looked) {
      looked = true;
      const given = options.installedSdk;
      found = typeof given === "function" ? given() : given;
    }
    return found;
  };
  const sdk = env.CLAUDE_AGENT_SDK_VERSION;
  if (sdk !== undefined && sdk !== "") {
    // a known SDK needs no look at the disk; another is looked up in the installed one
    const known = CLI_VERSION_HISTORY.find((r) => r.sdkVersion === sdk)?.version;
    const here = known === undefined ? installed() : undefined;
    const version = known ?? (here?.version === sdk ? here.cliVersion : cliVersionOfSdk(sdk));
    if (version !== undefined && VERSION.test(version)) {
      return { cli: cliVersionFacts(version), source: "CLAUDE_AGENT_SDK_VERSION" };
    }
  }
  const here = installed();
  if (here && VERSION.test(here.cliVersion)) {
    return { cli: cliVersionFacts(here.cliVersion), source: "installed SDK" };
  }
  return { cli: cliVersionFacts(NEWEST_CLI_VERSION), source: "default" };
}

function checked(version: string, where: string): CliVersion {
  if (typeof version !== "string" || !VERSION.test(version)) {
    throw new TypeError(
      `Cannot impersonate CLI version ${
        JSON.stringify(version)
      } (${where}): expected a version such as ${NEWEST_CLI_VERSION}`,
    );
  }
  return cliVersionFacts(version);
}
