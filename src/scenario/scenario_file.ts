/**
 * The scenario file format: a {@linkcode Scenario} as JSON, for everything in it that is
 * data. Keys mirror the builder's methods in camelCase; `scenario.schema.json` (shipped
 * beside this module, {@linkcode SCENARIO_SCHEMA_URL}) describes every key, so a file with
 * `"$schema"` gets completion and checks in an editor.
 *
 * A step does one thing, named by its action key (`say`, `read`, `write`, `edit`, `bash`,
 * `notebookEdit`, `glob`, `grep`, `task`, `tool`, `askUserQuestion`, `together`, `emit`, `raw`, `waitFor`, `request`,
 * `apiError`, `failure`, `result`, `exit`, `crash`, or `delay` on its own); the options of that action sit
 * beside the key (`{"read": {...}, "permission": "ask", "ifDenied": "..."}`), as the
 * builder's options sit beside its arguments.
 *
 * @module
 */

import type { Delay, Timing } from "../timing/timing_profile.ts";
import type { AssistantContentBlock, Frame } from "../wire/frame.ts";
import type { PermissionRules } from "./permission_rules.ts";
import type { FailureName } from "./named_failures.ts";
import type { CompactOptions } from "./scenario.ts";
import type { CrashPoint } from "./crash_point.ts";
import type { ResultOptions } from "./step.ts";
import type { BuiltinScenarioName } from "./builtin_scenarios.ts";

/**
 * Where the JSON Schema of scenario files is published (the `$schema` that
 * {@linkcode scenarioToJSON} writes; the file is `src/scenario/scenario.schema.json` in the
 * package).
 *
 * @example A file that editors complete
 * ```ts
 * import { SCENARIO_SCHEMA_URL } from "@x/claude-mock/scenario-file";
 * const file = { $schema: SCENARIO_SCHEMA_URL, exchanges: [{ on: "hi", steps: [{ say: "Hello!" }] }] };
 * console.log(file.$schema.endsWith("scenario.schema.json")); // true
 * ```
 */
export const SCENARIO_SCHEMA_URL: string =
  "https://jsr.io/@x/claude-mock/0.1.0/src/scenario/scenario.schema.json";

/**
 * What a user message (or, for `waitFor`, a frame the SDK writes) must match: a string
 * (contains it), or one matcher object.
 *
 * @example Triggers
 * ```ts
 * import type { TriggerFile } from "@x/claude-mock/scenario-file";
 * const triggers: TriggerFile[] = ["deploy", { exact: "hi" }, { regex: "^fix", flags: "i" }];
 * console.log(triggers.length); // 3
 * ```
 */
export type TriggerFile =
  | string
  | { contains: string }
  | { exact: string }
  | { regex: string; flags?: string }
  | { glob: string }
  | { any: true };

/** A delay: milliseconds, or a base with seeded jitter. */
export type DelayFile = number | Delay;

/**
 * How one assistant message is delayed, reported and streamed.
 *
 * @example Message options
 * ```ts
 * import type { MessageFileOptions } from "@x/claude-mock/scenario-file";
 * const options: MessageFileOptions = { delay: 250, outputTokens: 12, chunkSize: 8 };
 * console.log(options.chunkSize); // 8
 * ```
 */
export interface MessageFileOptions {
  /** Delay before the message (ms, or a `{baseMs, jitterMs}` delay). */
  delay?: DelayFile;
  /** Output tokens the message reports (default: estimated from its content). */
  outputTokens?: number;
  /** Size in characters of its text and thinking deltas when streaming (default 24). */
  chunkSize?: number;
}

/**
 * An assistant message (`respond`): a text, or texts and content blocks.
 *
 * @example Saying something
 * ```ts
 * import type { SayStepFile } from "@x/claude-mock/scenario-file";
 * const step: SayStepFile = { say: "Hello!", thinking: "Greet back.", chunks: [[], ["Hel", "lo!"]] };
 * console.log(step.say); // Hello!
 * ```
 */
export interface SayStepFile extends MessageFileOptions {
  /** The message: a text, or an array of texts and content blocks. */
  say: string | Array<string | AssistantContentBlock>;
  /** A thinking block before the content. */
  thinking?: string;
  /** Explicit deltas when streaming: for each text or thinking block, its pieces. */
  chunks?: string[][];
}

/**
 * The options of a tool step (the `uses*` helpers' options), beside its tool key.
 *
 * @example Asking first
 * ```ts
 * import type { ToolFileOptions } from "@x/claude-mock/scenario-file";
 * const options: ToolFileOptions = { permission: "ask", ifDenied: "Then I will not." };
 * console.log(options.permission); // ask
 * ```
 */
export interface ToolFileOptions extends MessageFileOptions {
  /** Text the assistant says in the same message before using the tool. */
  say?: string;
  /** A thinking block the message starts with (before `say` and the tool use). */
  thinking?: string;
  /** Overrides the permission rules for this tool use. */
  permission?: "allow" | "ask" | "deny";
  /** What happens when the tool use is denied: a reply text, or steps. */
  ifDenied?: string | StepFile[];
  /** Explicit `input_json_delta` fragments of the tool's input when streaming. */
  inputChunks?: string[];
}

/**
 * The assistant reads a file (`usesRead`); `content: null` for a missing file; `offset` (the
 * first line, from 1) and `limit` (how many lines) for a part of it.
 */
export interface ReadStepFile extends ToolFileOptions {
  /** The file and its content. */
  read: { path: string; content: string | null; offset?: number; limit?: number };
}

/**
 * The assistant writes a file (`usesWrite`); `originalFile` is what an existing file held
 * (default: what the session's tools last showed of it, else the file is new).
 */
export interface WriteStepFile extends ToolFileOptions {
  /** The file and what is written. */
  write: { path: string; content: string; originalFile?: string | null };
}

/** The assistant edits a file (`usesEdit`). */
export interface EditStepFile extends ToolFileOptions {
  /** The file and the replacement. */
  edit: {
    path: string;
    oldString: string;
    newString: string;
    replaceAll?: boolean;
    originalFile?: string;
  };
}

/** The assistant runs a command (`usesBash`). */
export interface BashStepFile extends ToolFileOptions {
  /** The command and its output. */
  bash: {
    command: string;
    stdout?: string;
    stderr?: string;
    exitCode?: number;
    description?: string;
  };
}

/**
 * The assistant edits a notebook cell (`usesNotebookEdit`): it starts from the notebook the
 * session read; without a Read of it, the CLI's "read it first" error.
 */
export interface NotebookEditStepFile extends ToolFileOptions {
  /** The notebook, the cell, its new source, the edit's mode. */
  notebookEdit: {
    path: string;
    newSource: string;
    cellId?: string;
    cellType?: "code" | "markdown";
    editMode?: "replace" | "insert" | "delete";
  };
}

/** The assistant finds files by name (`usesGlob`): the files that match, as the CLI shows them. */
export interface GlobStepFile extends ToolFileOptions {
  /** The pattern, the folder searched, the files that match. */
  glob: { pattern: string; files: string[]; path?: string };
}

/**
 * The assistant searches file contents (`usesGrep`): what matched, in its output mode's form
 * (`files`, `lines` for `content`, `counts` for `count`).
 */
export interface GrepStepFile extends ToolFileOptions {
  /** The pattern, what is searched, what matched. */
  grep: {
    pattern: string;
    outputMode?: "files_with_matches" | "content" | "count";
    path?: string;
    glob?: string;
    caseInsensitive?: boolean;
    files?: string[];
    lines?: string[];
    counts?: Record<string, number>;
  };
}

/** The assistant starts a subagent (`usesTask`). */
export interface TaskStepFile extends ToolFileOptions {
  /**
   * The subagent's task and result; `tools`: the subagent's own tool uses, in order (each
   * through the session's hooks, rules and `can_use_tool`, as the main agent's).
   */
  task: {
    description: string;
    prompt: string;
    result: string;
    subagentType?: string;
    tools?: ToolUseStepFile[];
  };
}

/** The assistant uses any tool (`usesTool`), `mcp__server__tool` included. */
export interface GenericToolStepFile extends ToolFileOptions {
  /** The tool, its input and its result. */
  tool: { name: string; input: Record<string, unknown>; result?: string; isError?: boolean };
}

/** One question of an {@linkcode AskUserQuestionStepFile}. */
export interface QuestionFile {
  /** The question. */
  question: string;
  /** A short header (a chip label). */
  header: string;
  /** The choices: labels, or labels with descriptions. */
  options: Array<string | { label: string; description: string }>;
  /** Whether several choices can be picked (default false). */
  multiSelect?: boolean;
}

/** The assistant asks the user questions (`usesAskUserQuestion`). */
export interface AskUserQuestionStepFile extends Omit<ToolFileOptions, "permission"> {
  /** The questions. */
  askUserQuestion: { questions: QuestionFile[] };
}

/** A step that uses one tool: what `together` groups. */
export type ToolUseStepFile =
  | ReadStepFile
  | WriteStepFile
  | EditStepFile
  | NotebookEditStepFile
  | BashStepFile
  | GlobStepFile
  | GrepStepFile
  | TaskStepFile
  | GenericToolStepFile
  | AskUserQuestionStepFile;

/**
 * Several tool uses in one assistant message (`usesTogether`).
 *
 * @example Two reads at once
 * ```ts
 * import type { TogetherStepFile } from "@x/claude-mock/scenario-file";
 * const step: TogetherStepFile = {
 *   together: [{ read: { path: "/a", content: "a" } }, { read: { path: "/b", content: "b" } }],
 *   say: "Reading both.",
 * };
 * console.log(step.together.length); // 2
 * ```
 */
export interface TogetherStepFile extends MessageFileOptions {
  /** The tool uses, each with its own options. */
  together: ToolUseStepFile[];
  /** Text the assistant says before the tool uses. */
  say?: string;
  /** A thinking block the message starts with (before `say` and the tool uses). */
  thinking?: string;
}

/** Writes a frame as it is. */
export interface EmitStepFile {
  /** The frame. */
  emit: Frame;
  /** This frame's delay instead of the profile's. */
  delay?: DelayFile;
}

/** Waits on the session clock. */
export interface DelayStepFile {
  /** Milliseconds (before the speed factor). */
  delay: number;
}

/** Writes a line verbatim (malformed output on purpose). */
export interface RawStepFile {
  /** The line, without newline. */
  raw: string;
}

/** Waits until the SDK writes a matching frame (`waitForWrite`). */
export interface WaitForStepFile {
  /** What to wait for. */
  waitFor: TriggerFile;
  /** How long, on the session clock. */
  timeoutMs?: number;
}

/** Sends a control request to the SDK and waits for its answer. */
export interface RequestStepFile {
  /** The request body. */
  request: { subtype: string; [key: string]: unknown };
  /** How long to wait. */
  timeoutMs?: number;
}

/** The Messages API fails (`apiError`). */
export interface ApiErrorStepFile {
  /** The failure. */
  apiError: {
    status: number;
    message?: string;
    retries?: number;
    retryDelayMs?: number;
    recovers?: boolean;
  };
}

/** A named failure of the Messages API (`failure`), e.g. `{"failure": "rate_limit"}`. */
export interface FailureStepFile {
  /** Which failure (see `FAILURE_NAMES`). */
  failure: FailureName;
  /** The API's error message, for the failures whose text carries it. */
  message?: string;
}

/** Ends the turn with a result frame (`thenResult`). */
export interface ResultStepFile {
  /** How the result looks (`{}` for the default). */
  result: ResultOptions;
}

/** Ends the process with an exit code (`exit`). */
export interface ExitStepFile {
  /** The exit code. */
  exit: number;
}

/**
 * The process crashes (`crash`): here, or placed in the message that follows.
 *
 * @example Cutting the next message after three stream events
 * ```ts
 * import type { CrashStepFile } from "@x/claude-mock/scenario-file";
 * const step: CrashStepFile = { crash: { midStream: 3, code: 2 } };
 * console.log(step.crash.midStream); // 3
 * ```
 */
export interface CrashStepFile {
  /** Where and how (`{}`: here, with exit code 1). */
  crash: { code?: number; midStream?: number; beforeToolResult?: boolean };
}

/**
 * A step of a scenario file.
 *
 * @example Steps
 * ```ts
 * import type { StepFile } from "@x/claude-mock/scenario-file";
 * const steps: StepFile[] = [
 *   { bash: { command: "npm test", stdout: "4 passing" }, permission: "ask", ifDenied: "OK." },
 *   { say: "All tests pass.", delay: 250 },
 *   { result: {} },
 * ];
 * console.log(steps.length); // 3
 * ```
 */
export type StepFile =
  | SayStepFile
  | ToolUseStepFile
  | TogetherStepFile
  | EmitStepFile
  | DelayStepFile
  | RawStepFile
  | WaitForStepFile
  | RequestStepFile
  | ApiErrorStepFile
  | FailureStepFile
  | ResultStepFile
  | ExitStepFile
  | CrashStepFile;

/** A step `onConnect` runs: an emit, raw or delay step. */
export type ConnectStepFile = EmitStepFile | RawStepFile | DelayStepFile;

/**
 * An exchange: a trigger and the steps that answer it.
 *
 * @example An exchange
 * ```ts
 * import type { ExchangeFile } from "@x/claude-mock/scenario-file";
 * const exchange: ExchangeFile = { on: { glob: "fix *" }, maxMatches: 2, steps: [{ say: "Fixed." }] };
 * console.log(exchange.maxMatches); // 2
 * ```
 */
export interface ExchangeFile {
  /** What the user message must match. */
  on: TriggerFile;
  /** Answer every matching message, not just the first. */
  repeat?: boolean;
  /** Answer up to this many matching messages. */
  maxMatches?: number;
  /** Only in this invocation of the fake binary (1 for the first). */
  invocation?: number;
  /** This exchange's timing instead of the session's. */
  timing?: Timing;
  /** The answer. */
  steps: StepFile[];
}

/**
 * A scenario file: the JSON form of a {@linkcode Scenario} (see {@linkcode scenarioFromJSON}
 * and {@linkcode scenarioToJSON}).
 *
 * @example A chat
 * ```ts
 * import type { ScenarioFile } from "@x/claude-mock/scenario-file";
 * const file: ScenarioFile = {
 *   name: "chat",
 *   seed: 42,
 *   exchanges: [{ on: "hello", steps: [{ say: "Hello! How can I help?" }] }],
 *   unmatched: { reply: "Sorry?" },
 * };
 * console.log(file.exchanges?.length); // 1
 * ```
 */
export interface ScenarioFile {
  /** The schema, for editors (ignored by the loader). */
  $schema?: string;
  /**
   * A predefined scenario this file builds on: its exchanges are tried after the file's,
   * and the file's top-level fields replace its own.
   */
  extends?: `builtin:${BuiltinScenarioName}`;
  /** A name for messages and reports. */
  name?: string;
  /** The seed for ids and jitter. */
  seed?: number;
  /** The timing profile. */
  timing?: Timing;
  /** Speed factor for delays. */
  speedFactor?: number;
  /** Stream events on or off regardless of the SDK's flag. */
  partialMessages?: boolean;
  /** Each exchange's steps are the turn's whole output (a converted recording). */
  verbatim?: boolean;
  /** Recorded answers to the app's control requests (a converted recording). */
  answers?: {
    request: { subtype: string; [key: string]: unknown };
    response?: Record<string, unknown>;
    error?: string;
  }[];
  /** The model frames report. */
  model?: string;
  /** Models `set_model` accepts besides the built-in aliases. */
  models?: string[];
  /** Skills by name: their inline shell commands (see `Scenario.skills`). */
  skills?: Record<string, { shell?: string[]; source?: string }>;
  /** The session id. */
  sessionId?: string;
  /** The working directory frames report. */
  cwd?: string;
  /** Tools `system/init` lists. */
  tools?: string[];
  /** Permission rules. */
  permissions?: PermissionRules;
  /** Fields merged into the `initialize` answer. */
  initialize?: Record<string, unknown>;
  /** What a `/compact` prompt does (summary, raw reply, token counts). */
  compact?: CompactOptions;
  /** The fake binary's live mode: `true`, or the tools to run for real. */
  live?: boolean | string[];
  /** The exit code when stdin closes. */
  exitCode?: number;
  /** Crash: where the process dies, by meaning or by frames written (see `CrashPoint`). */
  crashAfter?: CrashPoint;
  /** Steps written as soon as the process starts (emit, raw and delay steps). */
  onConnect?: ConnectStepFile[];
  /** What unmatched user messages get: an error result, a warning and a default reply, a reply, or steps. */
  unmatched?: "error" | "warn" | { reply: string } | StepFile[];
  /** The exchanges, tried in order (default: none). */
  exchanges?: ExchangeFile[];
}
