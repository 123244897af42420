/**
 * What the engine knows about the turn it is running, and the sentinels that unwind one.
 *
 * @module
 */

import type { PermissionDenial } from "../builders/result.ts";
import type { TaskInfo } from "../builders/task_frames.ts";
import type { ToolCallResult } from "../builders/tools.ts";
import type { ApiCallUsage } from "../builders/usage.ts";
import type { PermissionDecision, PermissionDecisionName } from "../builders/user.ts";
import type { Exchange } from "../scenario/scenario.ts";
import type { MessageStep, ScriptedToolCall, StepSource } from "../scenario/step.ts";
import type { AbortLatch } from "../timing/_abort_latch.ts";
import type { TimingProfile } from "../timing/timing_profile.ts";
import type {
  AssistantContentBlock,
  AssistantFrame,
  Frame,
  ToolUseBlock,
  UserFrame,
} from "../wire/frame.ts";

/** A message step's content, evaluated once: its blocks and its scripted tool calls by id. */
export interface EvaluatedMessage {
  /** The content blocks, in order. */
  blocks: AssistantContentBlock[];
  /** The scripted tool calls by tool use id. */
  calls: Map<string, ScriptedToolCall>;
  /**
   * The blocks as the API sent them, when the CLI's frames read a tool input differently
   * (a number sent as a string): what the call's output tokens count.
   */
  sent?: AssistantContentBlock[];
}

/** How far an assistant message got, so an interrupt can close it like the real CLI. */
export interface StreamProgress {
  /** The message's assistant frames (one per block). */
  frames: AssistantFrame[];
  /** Whether stream events are being written. */
  partial: boolean;
  /** Index of the content block whose stream is open (-1: none). */
  blockIndex: number;
  /** Text streamed so far in the open block. */
  text: string;
}

/** One turn: from a user frame to its result. */
export interface TurnState {
  /** 0 for the session's first turn. */
  index: number;
  /** The user frame that started it. */
  input: UserFrame;
  /** Its prompt text ("" when it carries none). */
  text: string;
  /** When it started, on the session clock. */
  startedAt: number;
  /** The API calls (assistant messages) of this turn. */
  calls: ApiCallUsage[];
  /** The ids of the API messages this turn began, in order. */
  messageIds?: string[];
  /** The results (`tool_result` content) of the running message's tools, by tool use id. */
  batchResults?: Map<string, unknown>;
  /**
   * The notices of hooks' `systemMessage`s not written yet, each with its hook's event and tool
   * use: written where the real CLI writes them (`hook_notices.ts`).
   */
  hookNotices?: Array<{ event: string; toolUseId?: string; frame: Frame }>;
  /** The session's model, set back as the turn ends (a custom command's `model` ran it). */
  restoreModel?: string;
  /** The `turn_id` MessageDisplay hooks get (one uuid for the turn, made when first asked). */
  displayTurnId?: string;
  /** API calls that failed but were billed (partial streams before a named failure). */
  failedCalls: ApiCallUsage[];
  /** The next message comes from the non-streaming fallback (a recovered failure). */
  fallbackNext?: boolean;
  /**
   * The first message step still to come in the steps running now (what the API streams
   * next: a broken stream bills what it carried of it).
   */
  nextMessage?: () => Promise<MessageStep | undefined>;
  /** Message steps evaluated ahead of running (their blocks and tool calls, ids drawn once). */
  evaluated?: Map<MessageStep, EvaluatedMessage>;
  /** The budget is spent (`max_budget`, or `--max-budget-usd` reached). */
  budgetExhausted?: boolean;
  /**
   * The user messages of this turn: the prompt, each tool result, an interruption notice.
   * The real CLI 2.1.328 reports this as `num_turns` (two tools in one message: 2 API calls, 3).
   */
  userMessages: number;
  /** The last text the assistant said. */
  lastText: string;
  /** Tool uses denied in this turn. */
  denials: PermissionDenial[];
  /** Whether its result frame was written. */
  resultSent: boolean;
  /** Whether a step ended it early (no more steps run). */
  stopped: boolean;
  /** Whether its first content frame was written (for the first-frame delay). */
  contentStarted: boolean;
  /** The exchange answering it, and its index in the scenario. */
  exchange?: Exchange;
  /** The exchange's index. */
  exchangeIndex?: number;
  /** The exchange's timing profile, if it has one. */
  profile?: TimingProfile;
  /** Aborted with the reason the turn stops (interrupt, failure, session end). */
  abort: AbortLatch;
  /** The prompt id hooks report. */
  promptId: string;
  /** The assistant message being written. */
  streaming?: StreamProgress;
  /** Steps that replace the rest of the exchange (a denied tool use's `ifDenied`). */
  continuation?: StepSource;
  /** The last message used tools: the CLI would call the API again after their results. */
  awaitingReply?: boolean;
  /** A PreToolUse hook answered `continue: false`: the turn ends after this message's tools. */
  hookStop?: boolean;
  /** Whether a Stop hook kept this turn going (the next ones are told `stop_hook_active`). */
  stopHookActive?: boolean;
  /**
   * Written before the `running` state frame that follows a permission answer (a streamed
   * message's `message_stop`, which the real CLI writes after the first answer).
   */
  beforeRunning?: () => Promise<void>;
  /**
   * While a message streams, the `running` frames its early permission answers owe: the real
   * CLI (2.1.328 to 2.1.332) writes them after the message's end.
   */
  heldRunning?: number;
  /** The can_use_tool request the turn waits on (an interrupt cancels it). */
  pendingPermission?: { requestId: string; block: ToolUseBlock };
  /** The tool use an interrupt rejected while its permission was pending (or while it ran). */
  rejectedTool?: ToolUseBlock;
  /** The rejected tool use was running when the interrupt came (not waiting for permission). */
  rejectedRunning?: boolean;
  /** The subagents an interrupt stopped while they ran, innermost first (their tasks). */
  stoppedTasks?: TaskInfo[];
  /**
   * What started a turn the CLI started by itself (a background task's notification): its
   * result's `origin`.
   */
  origin?: Record<string, unknown>;
  /** Structured output (`--json-schema`): what the StructuredOutput tool got and fit. */
  structured?: { value: unknown } | { failures: number; lastError: string };
  /** The last message had no tool use (under a schema, the CLI then asks for the tool). */
  textOnly?: boolean;
  /** The CLI's one request for the StructuredOutput tool was made. */
  enforced?: boolean;
  /** A `__mock__` command prompt planned the turn (its tools run live only when allowed). */
  byCommand?: boolean;
}

/** What the checks before a tool use decided. */
export type ToolDecision =
  | {
    kind: "allow";
    input: Record<string, unknown>;
    meta: PermissionDecisionName | PermissionDecision;
  }
  | {
    kind: "deny";
    message: string;
    /** The permission decision of the result's meta (`null`: none, a cancelled use). */
    meta: PermissionDecisionName | PermissionDecision | null;
    /**
     * The use was cancelled, not denied (a PreToolUse hook callback no one can answer): it is
     * not one of the result's `permission_denials`.
     */
    cancelled?: boolean;
    nonExecutionKind?: string;
    /** The result's `tool_use_result` (default `"Error: <message>"`). */
    toolUseResult?: string;
    /**
     * A `permission_denied` frame goes out before the result, with this
     * `decision_reason_type` and `decision_reason` when given.
     */
    deniedFrame?: { reasonType?: string; reason?: string };
    /**
     * The result goes out at once, right after the tool's block (a Bash command a deny rule
     * matched, a prompt no one can answer), not with the results of the tools that run.
     */
    immediate?: boolean;
  }
  | {
    /** The session does not have the tool: its use fails with the CLI's error. */
    kind: "unavailable";
    /** The error (`Error: No such tool available: …`). */
    message: string;
  }
  | {
    /**
     * The tool refuses its input before hooks and permissions (an Edit whose `old_string` is
     * not in the file): this result, unhooked and unasked.
     */
    kind: "invalid";
    /** The tool's error result. */
    result: ToolCallResult;
  };

/** What asking about a tool use decides: it runs, or it is denied. */
export type PermissionOutcome = Extract<ToolDecision, { kind: "allow" | "deny" }>;

/** The reason a turn is aborted by the client's `interrupt`. */
export class Interrupted extends Error {
  /** Creates the reason. */
  constructor() {
    super("Request interrupted by user");
    this.name = "Interrupted";
  }
}

/** Unwinds whatever runs when the process ends. One instance: it carries no detail. */
export class SessionEnded extends Error {
  /** Creates the sentinel (use {@linkcode sessionEnded}). */
  constructor() {
    super("The claude-mock session ended");
    this.name = "SessionEnded";
  }
}

let ended: SessionEnded | undefined;
/**
 * The one {@linkcode SessionEnded}: thrown and used as abort reason, never rebuilt. Made on
 * first use, not when the module loads: an error built during a bundle's evaluation makes V8
 * re-parse the whole bundle for the error's location (about 6 ms of the binary's start-up).
 */
export function sessionEnded(): SessionEnded {
  if (ended) return ended;
  // made with no stack: the sentinel carries no detail, and the frames an error captures
  // would keep the first session's objects (its engine) alive for as long as the process runs
  const errors = Error as { stackTraceLimit?: number };
  const limit = errors.stackTraceLimit;
  errors.stackTraceLimit = 0;
  try {
    ended = new SessionEnded();
  } finally {
    errors.stackTraceLimit = limit;
  }
  return ended;
}

/**
 * Why a request to the client fails once stdin has closed: the client can no longer answer.
 * The real CLI (2.1.328 to 2.1.332) says `AbortError: Stream closed` and writes no request;
 * of a permission request it had written, `AbortError: Tool permission stream closed before
 * response received`.
 */
export class StreamClosed extends Error {
  /** Creates the reason (`Stream closed` unless told). */
  constructor(message = "Stream closed") {
    super(message);
    this.name = "AbortError";
  }
}

/** A failure a turn reports as an error result (and keeps the session alive). */
export class TurnFailure extends Error {
  /** Creates the failure; `message` is what the error result carries. */
  constructor(message: string) {
    super(message);
    this.name = "TurnFailure";
  }
}
