/**
 * Type-level test: every builder's output must be assignable to the matching type the real
 * `@anthropic-ai/claude-agent-sdk` exports (and to the `SDKMessage` union), so
 * `deno check` fails when the SDK's shapes move away from ours.
 *
 * The real CLI leaves out some fields that the SDK's types (through `@anthropic-ai/sdk`'s
 * `BetaMessage`, `BetaUsage` and stream event types) declare required. `Wire<…>` below
 * makes exactly those fields optional, each listed with the recording that shows it
 * missing; every other field must still match.
 */

import type {
  SDKAPIRetryMessage,
  SDKAssistantMessage,
  SDKCompactBoundaryMessage,
  SDKControlInitializeResponse,
  SDKControlRequest,
  SDKControlResponse,
  SDKMessage,
  SDKPartialAssistantMessage,
  SDKResultError,
  SDKResultMessage,
  SDKResultSuccess,
  SDKSessionStateChangedMessage,
  SDKStatusMessage,
  SDKSystemMessage,
  SDKTaskNotificationMessage,
  SDKTaskProgressMessage,
  SDKTaskStartedMessage,
  SDKTaskUpdatedMessage,
  SDKThinkingTokensMessage,
  SDKUserMessage,
  SDKUserMessageReplay,
} from "@anthropic-ai/claude-agent-sdk";
import { createBuildContext } from "./build_context.ts";
import { apiErrorMessage } from "./api_error_message.ts";
import { assistantMessage, text, thinking, toolUse } from "./assistant.ts";
import { abortedStreamEnd, type StreamEventFrameOut, streamEvents } from "./stream_events.ts";
import { apiRetry, sessionStateChanged, systemInit, systemStatus } from "./system.ts";
import { compactBoundary } from "./compact_boundary.ts";
import { thinkingTokens } from "./thinking_tokens.ts";
import {
  newTask,
  taskNotification,
  taskProgress,
  taskStarted,
  taskUpdated,
} from "./task_frames.ts";
import { toolResult, type ToolResultBlockOut, userPrompt, userText } from "./user.ts";
import { resultFrame, type ResultSuccessFrame } from "./result.ts";
import {
  canUseToolRequest,
  controlError,
  controlRequest,
  controlSuccess,
  initializeResponse,
} from "./control.ts";
import type { ToolResultBlock } from "../wire/frame.ts";

// ---- the precise omissions -------------------------------------------------------------

/** Makes the keys `K` of `T` optional and leaves every other key as it is. */
type Optional<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

type BetaMessage = SDKAssistantMessage["message"];
type BetaUsage = BetaMessage["usage"];
type BetaContentBlock = BetaMessage["content"][number];
type BetaTextBlock = Extract<BetaContentBlock, { type: "text" }>;
type BetaStreamEvent = SDKPartialAssistantMessage["event"];
type BetaMessageDelta = Extract<BetaStreamEvent, { type: "message_delta" }>;
type BetaContentBlockStart = Extract<BetaStreamEvent, { type: "content_block_start" }>;
type BetaContentBlockDelta = Extract<BetaStreamEvent, { type: "content_block_delta" }>;
type BetaDelta = BetaContentBlockDelta["delta"];
type BetaThinkingDelta = Extract<BetaDelta, { type: "thinking_delta" }>;

/**
 * Usage on assistant frames and in `message_start`: the CLI copies the API's
 * `message_start` usage, which has only input/cache/output tokens and `service_tier`
 * (hello.jsonl, every assistant frame; partial_messages.jsonl, message_start).
 */
type WireUsage = Optional<
  BetaUsage,
  | "cache_creation" // absent: hello.jsonl assistant frame usage
  | "fallback_credit" // absent: hello.jsonl assistant frame usage
  | "inference_geo" // absent: hello.jsonl assistant frame usage
  | "iterations" // absent: hello.jsonl assistant frame usage
  | "output_tokens_details" // absent: hello.jsonl assistant frame usage
  | "server_tool_use" // absent: hello.jsonl assistant frame usage
  | "speed" // absent: hello.jsonl assistant frame usage
>;

/** Text blocks never carry `citations` (hello.jsonl, partial_messages.jsonl). */
type WireTextBlock = Optional<BetaTextBlock, "citations">;

type WireContentBlock = Exclude<BetaContentBlock, BetaTextBlock> | WireTextBlock;

/** The API message of an assistant frame. */
type WireMessage =
  & Optional<
    Omit<BetaMessage, "usage" | "content">,
    | "container" // absent: hello.jsonl assistant frame message
    | "diagnostics" // absent: hello.jsonl assistant frame message
    | "stop_details" // absent: hello.jsonl assistant frame message
  >
  & { usage: WireUsage; content: WireContentBlock[] };

/** The message of `message_start`: as above, and no `context_management` either. */
type WireStartMessage =
  & Optional<
    Omit<BetaMessage, "usage" | "content">,
    | "container" // absent: partial_messages.jsonl message_start
    | "diagnostics" // absent: partial_messages.jsonl message_start
    | "stop_details" // absent: partial_messages.jsonl message_start
    | "context_management" // absent: partial_messages.jsonl message_start
  >
  & { usage: WireUsage; content: WireContentBlock[] };

/** A normal `message_delta`: only `delta.stop_reason`, `delta.stop_sequence` and `usage.output_tokens`. */
type WireMessageDelta =
  & Optional<
    Omit<BetaMessageDelta, "delta" | "usage">,
    "context_management" // absent: partial_messages.jsonl message_delta
  >
  & {
    delta: Optional<
      BetaMessageDelta["delta"],
      | "container" // absent: partial_messages.jsonl message_delta
      | "stop_details" // absent: partial_messages.jsonl message_delta
    >;
    usage: Optional<
      BetaMessageDelta["usage"],
      | "cache_creation_input_tokens" // absent: partial_messages.jsonl message_delta
      | "cache_read_input_tokens" // absent: partial_messages.jsonl message_delta
      | "fallback_credit" // absent: partial_messages.jsonl message_delta
      | "input_tokens" // absent: partial_messages.jsonl message_delta
      | "iterations" // absent: partial_messages.jsonl message_delta
      | "output_tokens_details" // absent: partial_messages.jsonl message_delta
      | "server_tool_use" // absent: partial_messages.jsonl message_delta
    >;
  };

type WireStreamEvent =
  | Exclude<
    BetaStreamEvent,
    { type: "message_start" | "message_delta" | "content_block_start" | "content_block_delta" }
  >
  | { type: "message_start"; message: WireStartMessage }
  | WireMessageDelta
  | Omit<BetaContentBlockStart, "content_block"> & {
    content_block: Exclude<BetaContentBlockStart["content_block"], BetaTextBlock> | WireTextBlock;
  }
  | Omit<BetaContentBlockDelta, "delta"> & {
    delta:
      | Exclude<BetaDelta, BetaThinkingDelta>
      // absent: extra_partial_thinking_tool.jsonl thinking_delta
      | Optional<BetaThinkingDelta, "estimated_tokens">;
  };

/** The SDK's types with the fields the real CLI leaves out made optional. */
type Wire<T> = T extends SDKAssistantMessage ? Omit<T, "message"> & { message: WireMessage }
  : T extends SDKPartialAssistantMessage ? Omit<T, "event"> & { event: WireStreamEvent }
  : T;

/** The synthetic API-error assistant message: every field present but text `citations`. */
type SyntheticAssistant = Omit<SDKAssistantMessage, "message"> & {
  message: Omit<BetaMessage, "content"> & { content: WireContentBlock[] };
};

/** What the app may receive: the SDK union, with the wire omissions above. */
type WireSDKMessage =
  | Exclude<SDKMessage, SDKAssistantMessage | SDKPartialAssistantMessage>
  | Wire<SDKAssistantMessage>
  | Wire<SDKPartialAssistantMessage>;

/** Compile-time assignability check; the call itself does nothing. */
function accept<T>(_value: T): void {}

// ---- the assignments ---------------------------------------------------------------------

Deno.test("sdk types: builders produce what the SDK's types describe", () => {
  const ctx = createBuildContext({ seed: 7 });

  // assistant frames (text, thinking, tool use, MCP tool use, subagent, aborted)
  const assistantFrames = [
    ...assistantMessage(ctx, [text("hi"), thinking("hmm"), toolUse("Read", { file_path: "/a" })]),
    ...assistantMessage(ctx, toolUse("mcp__calc__add", { a: 1 })),
    ...assistantMessage(ctx, "partial", { aborted: true }),
    ...assistantMessage(ctx, "sub", {
      subagent: {
        parentToolUseId: "toolu_1",
        agentId: "a1",
        subagentType: "general-purpose",
        taskDescription: "d",
      },
    }),
  ];
  for (const frame of assistantFrames) {
    accept<Wire<SDKAssistantMessage>>(frame);
    accept<WireSDKMessage>(frame);
  }
  // The synthetic API error frame carries every BetaMessage field; only its text block
  // lacks `citations` (api_error.jsonl).
  const apiError = apiErrorMessage(ctx, 400);
  accept<SyntheticAssistant>(apiError);
  accept<WireSDKMessage>(apiError);

  // stream events
  for (
    const frame of streamEvents(
      ctx,
      assistantMessage(ctx, [thinking("a b c"), text("d e"), toolUse("Bash", {})]),
    )
  ) {
    accept<WireSDKMessage>(frame);
    if (frame.type === "stream_event") accept<Wire<SDKPartialAssistantMessage>>(frame);
  }
  for (const frame of abortedStreamEnd(ctx, assistantMessage(ctx, "x")[0])) {
    // The interrupted stream's message_delta carries context_management and the full usage.
    accept<Wire<SDKPartialAssistantMessage>>(frame satisfies StreamEventFrameOut);
  }

  // user frames
  const users = [
    toolResult(ctx, "toolu_1", { content: "ok" }),
    toolResult(ctx, "toolu_1", { content: "no", isError: true, permissionDecision: "userDenied" }),
    toolResult(ctx, "toolu_1", { content: [{ type: "text", text: "5" }] }),
    userText(ctx, "[Request interrupted by user]"),
    userText(ctx, "summary", { isReplay: false, isSynthetic: true }),
  ];
  for (const frame of users) {
    accept<SDKUserMessage>(frame);
    accept<SDKMessage>(frame);
  }
  const replay = userText(ctx, "<local-command-stdout>x</local-command-stdout>", {
    isReplay: true,
  });
  accept<SDKUserMessageReplay>({ ...replay, isReplay: true as const });
  accept<SDKUserMessage>(userPrompt("hello"));
  accept<SDKUserMessage>(userPrompt("hello", { streaming: true }));
  const block: ToolResultBlockOut = { type: "tool_result", tool_use_id: "t", content: "c" };
  accept<ToolResultBlock>(block);

  // result frames
  const success = resultFrame(ctx, { result: "done" });
  const errors = [
    resultFrame(ctx, { subtype: "error_max_turns", numTurns: 2 }),
    resultFrame(ctx, { subtype: "error_during_execution" }),
  ];
  const apiErrorResult = resultFrame(ctx, { apiErrorStatus: 400, result: "API Error: 400 x" });
  const compact = resultFrame(ctx, { localCommand: "compact" });
  for (const frame of [success, apiErrorResult, compact, ...errors]) {
    accept<SDKResultMessage>(frame);
    accept<SDKMessage>(frame);
    if (frame.subtype === "success") accept<SDKResultSuccess>(frame satisfies ResultSuccessFrame);
    else accept<SDKResultError>(frame);
  }

  // system frames
  const init = systemInit(ctx);
  accept<SDKSystemMessage>(init);
  accept<SDKSessionStateChangedMessage>(sessionStateChanged(ctx, "running"));
  accept<SDKStatusMessage>(systemStatus(ctx, "requesting"));
  accept<SDKStatusMessage>(systemStatus(ctx, null, { permissionMode: "acceptEdits" }));
  accept<SDKStatusMessage>(systemStatus(ctx, null, { compactResult: "success" }));
  accept<SDKCompactBoundaryMessage>(compactBoundary(ctx));
  accept<SDKAPIRetryMessage>(apiRetry(ctx, { attempt: 1 }));
  accept<SDKThinkingTokensMessage>(
    thinkingTokens(ctx, { estimatedTokens: 5, estimatedTokensDelta: 5 }),
  );
  const task = newTask(ctx, { toolUseId: "toolu_1", description: "d", prompt: "p" });
  accept<SDKTaskStartedMessage>(taskStarted(ctx, task));
  accept<SDKTaskProgressMessage>(taskProgress(ctx, task));
  accept<SDKTaskUpdatedMessage>(taskUpdated(ctx, task));
  accept<SDKTaskNotificationMessage>(taskNotification(ctx, task, { summary: "s" }));
  for (
    const frame of [
      init,
      sessionStateChanged(ctx, "idle"),
      systemStatus(ctx, "compacting"),
      compactBoundary(ctx),
      apiRetry(ctx, { attempt: 2 }),
      thinkingTokens(ctx, { estimatedTokens: 1, estimatedTokensDelta: 1 }),
      taskStarted(ctx, task),
      taskProgress(ctx, task),
      taskUpdated(ctx, task),
      taskNotification(ctx, task, { summary: "s" }),
    ]
  ) accept<SDKMessage>(frame);

  // control plane
  accept<SDKControlInitializeResponse>(
    initializeResponse(ctx, { hooksApplied: true, sdkMcpServers: ["calc"] }),
  );
  accept<SDKControlResponse>(controlSuccess("r1", initializeResponse(ctx), { pending: true }));
  accept<SDKControlResponse>(controlSuccess("r1"));
  accept<SDKControlResponse>(controlError("r1", "nope"));
  accept<SDKControlRequest>(
    canUseToolRequest(ctx, { type: "tool_use", id: "t", name: "Bash", input: { command: "ls" } }),
  );
  accept<SDKControlRequest>(
    canUseToolRequest(ctx, { type: "tool_use", id: "t", name: "mcp__calc__add", input: {} }, {
      decisionReasonType: "rule",
    }),
  );
  accept<SDKControlRequest>(controlRequest(ctx, { subtype: "interrupt" as const }));
});
