/**
 * The `Scenario` data type: what a mock session does, as plain data.
 *
 * @module
 */

import type { Timing } from "../timing/timing_profile.ts";
import type { PermissionRules } from "./permission_rules.ts";
import type { Matcher } from "./matcher.ts";
import type { StepSource } from "./step.ts";
import type { CrashPoint } from "./crash_point.ts";
import type { UnmatchedStrategy } from "./unmatched_strategy.ts";

/** One exchange: a trigger on a user message, and the steps that answer it. */
export interface Exchange {
  /** What the user message must match. */
  trigger: Matcher;
  /** The answer. */
  steps: StepSource;
  /** The exchange's timing instead of the session's. */
  timing?: Timing;
  /** Whether the exchange can answer more than once (default: used once). */
  repeat?: boolean;
  /** How many messages it answers at most (default 1, or unlimited with `repeat`). */
  maxMatches?: number;
  /**
   * Only in this invocation of the fake binary (1 for the first; the in-process mock is
   * invocation 1): a scenario scripts what each run of `claude` does.
   */
  invocation?: number;
}

/**
 * What a session does. Exchanges are tried in order for each user message; the first
 * open one (not used up: once by default, `maxMatches` times, or always with `repeat`)
 * whose trigger matches answers it.
 */
export interface Scenario {
  /** A name for messages and reports. */
  name?: string;
  /** Frames written as soon as the process starts, before any input. */
  onConnect?: StepSource;
  /** The exchanges. */
  exchanges: readonly Exchange[];
  /**
   * What a user message no exchange matches gets: `error` (default: an error result that
   * names the message, the triggers and the closest exchange), `warn` (a warning and a
   * default reply), steps, or a function deciding per message.
   */
  unmatched?: UnmatchedStrategy;
  /** The exit code when stdin closes (default: 1 after an error result, else 0). */
  exitCode?: number;
  /** Crash: where the process dies, by meaning or by frames written (see {@linkcode CrashPoint}). */
  crashAfter?: CrashPoint;
  /** The timing profile (default: the global default, `instant`). */
  timing?: Timing;
  /** The seed for ids and jitter (default: the global default). */
  seed?: bigint | number;
  /** Speed factor for delays (default: the global default). */
  speedFactor?: number;
  /** Stream events: on, off, or (default) as the SDK asked with `--include-partial-messages`. */
  partialMessages?: boolean;
  /** The model frames report (default: `--model` or `claude-opus-5-5`). */
  model?: string;
  /** The session id (default: drawn from the seed). */
  sessionId?: string;
  /** The working directory frames report. */
  cwd?: string;
  /** Fields merged into the `initialize` answer. */
  initialize?: Record<string, unknown>;
  /**
   * The session's tools, as `system/init` lists them (default: the real CLI's, as `--tools`,
   * the deny rules and `canUseTool` choose them, then the SDK's MCP tools). A tool use of a
   * tool not in it fails with the CLI's `No such tool available` error.
   */
  tools?: string[];
  /** Permission rules, on top of the SDK's `--settings`, `--allowedTools`, `--disallowedTools`. */
  permissions?: PermissionRules;
  /** Models `set_model` accepts besides the built-in aliases (`opus`, `sonnet`, ...). */
  models?: string[];
  /** What a `/compact` prompt does (the real CLI compacts the conversation locally). */
  compact?: CompactOptions;
  /**
   * The session's skills (and custom commands) by name: a prompt `/name …` loads one, and
   * the CLI runs the inline shell commands of its text (`!`cmd``) first, asking the client's
   * `PreSkillShellCommand` hooks about each (CLI 2.1.332 and later). The model's reply comes
   * from the exchange that matches the prompt, as for any prompt.
   */
  skills?: Record<string, SkillSpec>;
  /**
   * The fake binary's live mode: allowed tool uses really run in the working directory
   * (`true`: Read, Write, Edit, Bash, Glob and Grep; or the names of those to run).
   */
  live?: boolean | string[];
  /**
   * The exchanges' steps are each turn's whole output, as `tapeToScenario` makes them from a
   * recording: the engine adds no state changes, init frame, hook calls or result of its own.
   */
  verbatim?: boolean;
  /**
   * Recorded answers to the app's own control requests (interrupt, set_model, mcp_status,
   * …), given instead of the engine's when a request matches (a converted recording). Each
   * is used once, in order: the first whose request equals the app's, else the first of its
   * subtype.
   */
  answers?: readonly RecordedAnswer[];
}

/** A skill of {@linkcode Scenario.skills}. */
export interface SkillSpec {
  /** The inline shell commands its text holds (`!`cmd``), in order. */
  shell?: string[];
  /** Where it was defined (`command_source` of the hook input; default `projectSettings`). */
  source?: string;
}

/**
 * How `/compact` goes: the summarization call the real CLI makes, and what it reports.
 * Every field is optional; the defaults are what the real CLI reported in a recorded session.
 */
export interface CompactOptions {
  /** What the summary says (the model's reply is then `<summary>` tagged). Default: "Summary of the conversation." */
  summary?: string;
  /**
   * The model's raw reply instead of `summary`. A reply without `<summary>` tags makes the
   * CLI ask again (`retryReply`, default the same text) and keep the first reply as it is.
   */
  reply?: string;
  /** The reply to the second summarization request, when `reply` had no `<summary>` tags. */
  retryReply?: string;
  /** `compact_metadata.pre_tokens` (default: the context of the last API call). */
  preTokens?: number;
  /** `compact_metadata.post_tokens` (default 2543, as recorded). */
  postTokens?: number;
  /** `compact_metadata.duration_ms` (default 19, as recorded). */
  durationMs?: number;
  /** Output tokens of each summarization call (default: estimated from the reply). */
  outputTokens?: number;
}

/** A recorded answer to one of the app's control requests (see {@linkcode Scenario.answers}). */
export interface RecordedAnswer {
  /** The request as the app sent it (`subtype` and fields, no `request_id`). */
  request: { subtype: string; [key: string]: unknown };
  /** The success answer's body, if it succeeded. */
  response?: Record<string, unknown>;
  /** The error text, if it failed. */
  error?: string;
}
