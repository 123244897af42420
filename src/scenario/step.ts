/**
 * Steps: the instructions an exchange is made of. The engine runs them in order.
 *
 * @module
 */

import type { BuildContext } from "../builders/build_context.ts";
import type { Delay } from "../timing/timing_profile.ts";
import type { ResultSubtype, TerminalReason } from "../builders/result.ts";
import type { ToolCall } from "../builders/tools.ts";
import type { AssistantContentBlock, Frame, UserFrame } from "../wire/frame.ts";
import type { Matcher } from "./matcher.ts";
import type { FailureName } from "./named_failures.ts";

/**
 * A tool use and what running it returns (a {@linkcode ToolCall} from the tool helpers),
 * plus the frames the CLI writes while it runs (a subagent's), sent before the result.
 */
export interface ScriptedToolCall extends ToolCall {
  /** Frames the CLI writes while the tool runs, before the result. */
  frames?: (ctx: BuildContext) => Iterable<Frame>;
  /** The result for another input (when a hook or the SDK's answer changes the input). */
  rerun?: (input: Record<string, unknown>, ctx: BuildContext) => ToolCall["result"];
  /**
   * The result when the session knows what the file holds (what its tools last showed of it):
   * an Edit whose scenario did not say the file's content before the edit starts from it.
   */
  onFile?: (
    content: string,
    input: Record<string, unknown>,
    ctx: BuildContext,
  ) => ToolCall["result"];
  /**
   * The file's whole content as the tool showed it, when its result does not carry it (a Read of
   * a notebook): what an edit of the file then starts from.
   */
  fileContent?: string;
  /** Overrides the permission rules for this tool use. */
  permission?: "allow" | "ask" | "deny";
  /** Steps that replace the rest of the exchange when this tool use is denied. */
  ifDenied?: StepSource;
  /** The tool runs until the client interrupts the turn (its result never comes). */
  untilInterrupt?: boolean;
}

/** One part of an assistant message: a content block, or a tool call made when it runs. */
export type MessagePart =
  | AssistantContentBlock
  | ScriptedToolCall
  | ((ctx: BuildContext) => AssistantContentBlock | ScriptedToolCall);

/** What a lazy step source gets: the turn that runs it. */
export interface TurnInfo {
  /** The user frame that started the turn. */
  input: UserFrame;
  /** Its text. */
  text: string;
  /** 0 for the first turn. */
  turn: number;
  /** The session's build context (ids, session id, model, time). */
  ctx: BuildContext;
  /** The capture groups when the trigger was a RegExp. */
  match?: RegExpExecArray;
}

/** Options of the result frame a `result` step writes. */
export interface ResultOptions {
  /** `success` (default), `error_during_execution`, `error_max_turns`, ... */
  subtype?: ResultSubtype;
  /** The result text (default: the turn's last assistant text). */
  result?: string;
  /** Error texts for error results. */
  errors?: string[];
  /** `terminal_reason` (default from the subtype). */
  terminalReason?: TerminalReason;
  /** `stop_reason` (default `end_turn` for success). */
  stopReason?: string | null;
  /** Cost in USD (default from the usage). */
  totalCostUsd?: number;
  /** Makes an API error result (`is_error`, `api_error_status`, `terminal_reason: "api_error"`). */
  apiErrorStatus?: number;
  /** Extra fields merged into the frame. */
  extra?: Record<string, unknown>;
}

/**
 * A step of any kind, by its `kind`: `emit` (a frame), `message` (one API response),
 * `delay`, `raw` (a line verbatim), `result`, `waitForWrite`, `request` (a control request
 * to the SDK), `apiError`, `failure` (a named failure), `exit` and `crash`. One kind is
 * `Extract<Step, { kind: "crash" }>`.
 *
 * @example Cutting the next message after three stream events
 * ```ts
 * import type { Step } from "@x/claude-mock";
 * const step: Step = { kind: "crash", midStream: 3, code: 2 };
 * console.log(step.kind); // crash
 * ```
 */
export type Step =
  /** Writes one frame (or the frames a function builds when the step runs). */
  | {
    /** Step kind. */
    kind: "emit";
    /** The frame, or a function building frames at run time. */
    frame: Frame | ((ctx: BuildContext) => Frame | Frame[]);
    /** This frame's delay instead of the profile's. */
    delay?: number | Delay;
  }
  /**
   * One API response: assistant frames, one per block (with stream events when partial
   * messages are on), then the results of its tool calls.
   */
  | {
    /** Step kind. */
    kind: "message";
    /** The content. */
    parts: MessagePart[];
    /** Delay before the message's first frame instead of the profile's. */
    delay?: number | Delay;
    /** Explicit API message id. */
    messageId?: string;
    /** Output tokens the message reports (default: estimated from the content). */
    outputTokens?: number;
    /** Size in characters of the text and thinking deltas when streaming (default 24). */
    chunkSize?: number;
    /**
     * Explicit deltas when streaming: for each text or thinking block in order, the pieces
     * it streams as (they must join back into the block's text).
     */
    chunks?: string[][];
    /**
     * Explicit `input_json_delta` fragments: for each tool use in order, the pieces its
     * input streams as (they must join back into the input's JSON).
     */
    inputChunks?: string[][];
  }
  /** Waits on the session's clock. */
  | {
    /** Step kind. */
    kind: "delay";
    /** Milliseconds (before the speed factor). */
    ms: number;
  }
  /** Writes a line verbatim: malformed output on purpose. */
  | {
    /** Step kind. */
    kind: "raw";
    /** The line. */
    line: string;
  }
  /** Ends the turn with a result frame. */
  | {
    /** Step kind. */
    kind: "result";
    /** How the result looks. */
    options: ResultOptions;
  }
  /** Waits until the SDK writes a matching frame. */
  | {
    /** Step kind. */
    kind: "waitForWrite";
    /** What to wait for. */
    matcher: Matcher;
    /** How long, on the session clock (default: the session's control timeout). */
    timeoutMs?: number;
  }
  /** Sends a control request to the SDK and waits for its answer. */
  | {
    /** Step kind. */
    kind: "request";
    /** The request body (`subtype` and fields). */
    request: { subtype: string; [key: string]: unknown };
    /** Called with the answer's `response` body. */
    onResponse?: (response: Record<string, unknown>) => void | Promise<void>;
    /** How long to wait (default: the session's control timeout). */
    timeoutMs?: number;
  }
  /**
   * The API answers the call with an HTTP error: on every attempt, or (`recovers`) on its first
   * `retries`. The CLI retries a retryable status as `CLAUDE_CODE_MAX_RETRIES` allows
   * (`api_retry` frames), then either goes on or writes the status's failure text and an error
   * result (`terminal_reason: "api_error"`), as the real CLI does when the Messages API errors.
   */
  | {
    /** Step kind. */
    kind: "apiError";
    /** The HTTP status (400, 429, 500, 529, ...). */
    status: number;
    /** The error text after "API Error: <status> ". */
    message?: string;
    /** With `recovers`: how many attempts fail before the call succeeds (default 0). */
    retries?: number;
    /** Delay between retries in ms (default: the CLI's backoff). */
    retryDelayMs?: number;
    /**
     * The call succeeds after `retries` failed attempts (when the CLI retries that often): the
     * exchange goes on (default false: every attempt fails).
     */
    recovers?: boolean;
  }
  /**
   * A named failure of the Messages API, exactly as the real CLI goes through it (see
   * `NAMED_FAILURES`): its `api_retry` frames (as many as the client's
   * `CLAUDE_CODE_MAX_RETRIES` allows), then the synthetic error message and an error result,
   * or (the `*_recovered` names, `max_budget`) the exchange's next message.
   */
  | {
    /** Step kind. */
    kind: "failure";
    /** Which failure. */
    name: FailureName;
    /** The API's error message, for the failures whose text carries it (403, 429, 400, 500, 529). */
    message?: string;
  }
  /** Ends the process with an exit code (output already written is delivered). */
  | {
    /** Step kind. */
    kind: "exit";
    /** The exit code. */
    code: number;
  }
  /**
   * The process crashes with `code` (default 1, from 1 to 255), output already written
   * delivered. Without a placement it crashes at this point of the exchange; `midStream: k`
   * cuts the message that follows in the exchange after k stream events (before its first
   * frame when it does not stream); `beforeToolResult: true` crashes just before the next
   * tool result (the tool ran, its result never comes). A placed crash the turn does not reach
   * comes before the turn's result.
   */
  | {
    /** Step kind. */
    kind: "crash";
    /** The exit code (default 1). */
    code?: number;
    /** Crash after this many stream events of the message that follows. */
    midStream?: number;
    /** Crash just before the next tool result. */
    beforeToolResult?: boolean;
  };

/** The `emit` step. */
export type EmitStep = Extract<Step, { kind: "emit" }>;
/** The `message` step. */
export type MessageStep = Extract<Step, { kind: "message" }>;
/** The `delay` step. */
export type DelayStep = Extract<Step, { kind: "delay" }>;
/** The `raw` step. */
export type RawStep = Extract<Step, { kind: "raw" }>;
/** The `result` step. */
export type ResultStep = Extract<Step, { kind: "result" }>;
/** The `waitForWrite` step. */
export type WaitForWriteStep = Extract<Step, { kind: "waitForWrite" }>;
/** The `request` step. */
export type RequestStep = Extract<Step, { kind: "request" }>;
/** The `apiError` step. */
export type ApiErrorStep = Extract<Step, { kind: "apiError" }>;
/** The `failure` step. */
export type FailureStep = Extract<Step, { kind: "failure" }>;
/** The `exit` step. */
export type ExitStep = Extract<Step, { kind: "exit" }>;
/** The `crash` step. */
export type CrashStep = Extract<Step, { kind: "crash" }>;

/** Steps, or a function producing them lazily when the turn runs (a generator is ideal). */
export type StepSource =
  | readonly Step[]
  | ((turn: TurnInfo) => Iterable<Step> | AsyncIterable<Step>);

/** Whether a message part is a tool call (as opposed to a content block). */
export function isToolCall(part: unknown): part is ScriptedToolCall {
  return typeof part === "object" && part !== null && "block" in part && "result" in part;
}
