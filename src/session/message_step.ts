/**
 * One API response: its assistant frames (with stream events when partial messages are
 * on), each tool use checked right after its own frame, then the tools run and their
 * results written. Also the API failing (`apiError`).
 *
 * @module
 */

import { askedInput } from "./plan_mode.ts";
import { assistantMessage, mcpToolUseMeta } from "../builders/assistant.ts";
import { permissionDenied } from "../builders/permission_denied.ts";
import type { BuildContext } from "../builders/build_context.ts";
import { estimateOutputTokens } from "../builders/_api_stream.ts";
import {
  streamEvents,
  type StreamEventsOptions,
  thinkingTokenFrames,
} from "../builders/stream_events.ts";
import { systemStatus } from "../builders/system.ts";
import { type ApiCallUsage, DEFAULT_INPUT_TOKENS, resultUsage } from "../builders/usage.ts";
import { replyChunking } from "../scenario/_reply_chunking.ts";
import { toolResult } from "../builders/user.ts";
import { deniedResult } from "./denied_result.ts";
import { isToolCall, type MessageStep, type ScriptedToolCall } from "../scenario/step.ts";
import type { Delay } from "../timing/timing_profile.ts";
import type { AssistantContentBlock, AssistantFrame, Frame, UserFrame } from "../wire/frame.ts";
import type { Engine } from "./engine.ts";
import { execute, postToolHooks } from "./tool_flow.ts";
import { authorize, immediateDenial } from "./tool_permission.ts";
import { thinkingDisplayOf } from "./thinking_off.ts";
import { messageDisplayHooks, postToolBatchHooks } from "./hook_runner.ts";
import { flushHookNotices } from "./hook_notices.ts";
import { unavailableTool } from "./session_tools.ts";
import { requestStructuredOutput, settleStructuredOutput } from "./structured_output.ts";
import { sendResult } from "./turn_result.ts";
import { stateChange } from "./line_templates.ts";
import { SENT } from "./outbox.ts";
import { isBlockStop, isMessageStop, trackProgress } from "./_stream_progress.ts";
import type { EvaluatedMessage, StreamProgress, ToolDecision, TurnState } from "./turn_state.ts";

/**
 * Whether `--max-turns` forbids another API call in this turn: as the real CLI, the first call
 * is always made, and a next one only while its number stays within the limit (so `-1` and `1.5`
 * both end after one call, `2` after two).
 */
export function atMaxTurns(engine: Engine, turn: TurnState): boolean {
  const maxTurns = engine.flags.maxTurns;
  return maxTurns !== undefined && turn.calls.length > 0 && turn.calls.length + 1 > maxTurns;
}

/**
 * Ends the turn with `error_max_turns`: `--max-turns` limits API calls, and the result
 * reports the last stop reason and, as `num_turns`, the number of the turn it did not run (the
 * calls made + 1, however many tool results the last call had: recorded with two parallel tool
 * uses under `--max-turns 1`, `num_turns: 2`).
 */
export async function sendMaxTurns(engine: Engine, turn: TurnState): Promise<void> {
  await sendResult(engine, turn, {
    subtype: "error_max_turns",
    errors: [`Reached maximum number of turns (${engine.flags.maxTurns})`],
    stopReason: "tool_use",
  }, { numTurns: turn.calls.length + 1 });
  turn.stopped = true;
}

/**
 * Whether the budget is spent: a `max_budget` failure, or `--max-budget-usd` reached by the
 * session's cost.
 */
export function overBudget(engine: Engine, turn: TurnState): boolean {
  const budget = engine.flags.maxBudgetUsd;
  return turn.budgetExhausted === true ||
    (budget !== undefined && engine.ledger.costUsd >= budget);
}

/**
 * Ends the turn with `error_max_budget_usd` instead of another API call or its success
 * result (recorded: the reply, then this result, `stop_reason: "end_turn"`, no usage).
 */
export async function sendMaxBudget(engine: Engine, turn: TurnState): Promise<void> {
  await sendResult(engine, turn, {
    subtype: "error_max_budget_usd",
    stopReason: turn.awaitingReply ? "tool_use" : "end_turn",
  }, { apiCalls: [], durationApiMs: 0 });
  turn.stopped = true;
}

/** Tools the real CLI runs next to each other, and starts while their message streams. */
const CONCURRENCY_SAFE: ReadonlySet<string> = new Set(["Read", "Glob", "Grep"]);

/** Runs a message step. */
export async function runMessage(
  engine: Engine,
  step: MessageStep,
  turn: TurnState,
): Promise<void> {
  if (atMaxTurns(engine, turn)) return await sendMaxTurns(engine, turn);
  if (turn.calls.length > 0 && overBudget(engine, turn)) return await sendMaxBudget(engine, turn);
  engine.beforeApiCall();
  if (engine.jsonSchema !== undefined) await requestStructuredOutput(engine, turn);
  const message = buildMessage(engine, step, turn);
  const waiting = await streamMessage(engine, { step, turn, message });
  const { blocks, calls } = message;
  let said = "";
  for (const b of blocks) if (b.type === "text") said += b.text;
  if (said !== "") turn.lastText = said;
  // a message with tool uses means the CLI calls the API again once the tools ran
  turn.awaitingReply = calls.size > 0;
  turn.textOnly = calls.size === 0;
  // a reply that spent the budget: its tools do not run (the real CLI 2.1.328)
  if (calls.size > 0 && overBudget(engine, turn)) return await sendMaxBudget(engine, turn);
  // (each awaited only when it has something to do: a turn's awaits are most of its cost)
  if (waiting.length > 0) await runWaitingTools(engine, waiting, turn);
  if (turn.batchResults !== undefined || turn.structured !== undefined || turn.hookStop) {
    await finishMessage(engine, turn, blocks);
  }
}

/** A message step's frames, built, with what its API call cost. */
interface BuiltMessage extends EvaluatedMessage {
  /** The assistant frames, one per block. */
  frames: AssistantFrame[];
  /** A recovered failure's reply: from the non-streaming fallback. */
  fallback: boolean;
  /** The message's output tokens. */
  outputTokens: number;
}

/** A tool use of the message, with its permission decision once it was asked. */
type PendingTool = { call: ScriptedToolCall; decision?: ToolDecision };

/** Builds a message step's frames and books its API call. */
function buildMessage(engine: Engine, step: MessageStep, turn: TurnState): BuiltMessage {
  const ctx = engine.ctx;
  const { blocks, calls } = evaluateMessage(engine, step, turn);
  const frames = assistantMessage(ctx, blocks, {
    messageId: step.messageId,
    thinkingDisplay: thinkingDisplayOf(engine),
    // an MCP tool of a server the session does not have: its display name alone (2.1.328)
    toolUseMeta: (block) => {
      const meta = mcpToolUseMeta(block);
      if (!meta || unavailableTool(engine, block.name) === undefined) return meta;
      return { id: meta.id, display_name: meta.display_name };
    },
  });
  // A recovered failure's reply comes from the non-streaming fallback: no stream events,
  // and its frames carry the final stop reason (the real CLI 2.1.328).
  const fallback = turn.fallbackNext === true;
  turn.fallbackNext = false;
  if (fallback) {
    const stop = calls.size > 0 ? "tool_use" : "end_turn";
    for (const frame of frames) {
      (frame.message as { stop_reason: string | null }).stop_reason = stop;
    }
  }
  const outputTokens = step.outputTokens ?? estimateOutputTokens(blocks);
  const call: ApiCallUsage = { model: ctx.model, inputTokens: DEFAULT_INPUT_TOKENS, outputTokens };
  engine.ledger.add(call, ctx.model);
  turn.calls.push(call);
  if (fallback) {
    // the whole message at once: the CLI (2.1.328) writes its final usage, every key filled in
    const usage = resultUsage([call]);
    for (const frame of frames) (frame.message as { usage: unknown }).usage = usage;
  }
  return { blocks, calls, frames, fallback, outputTokens };
}

/**
 * Writes a message's frames (its tools starting as it streams), then the `running` states held
 * meanwhile; returns the tools that wait for the message's end.
 */
async function streamMessage(
  engine: Engine,
  options: { step: MessageStep; turn: TurnState; message: BuiltMessage },
): Promise<PendingTool[]> {
  const { step, turn, message } = options;
  const { frames, blocks, calls, fallback, outputTokens } = message;
  const ctx = engine.ctx;
  let first = true;
  const delayOnce = (frame: Frame): number | Delay | undefined => {
    if (!first) return engine.delayFor(frame, turn);
    first = false;
    return step.delay ?? engine.delayFor(frame, turn);
  };
  const partial = engine.partial() && !fallback;
  (turn.messageIds ??= []).push(frames[0].message.id);
  const sequence: Iterable<Frame> = partial
    ? streamEvents(ctx, frames, {
      outputTokens,
      thinkingDisplay: thinkingDisplayOf(engine),
      ...replyChunking(step, blocks),
    })
    : withThinkingTokens(ctx, frames, replyChunking(step, blocks));
  const progress: StreamProgress = { frames, partial, blockIndex: -1, text: "" };
  turn.streaming = progress;
  // the results of this message's tools, for the PostToolBatch hooks once they all ran
  turn.batchResults = calls.size > 0 ? new Map() : undefined;
  if (partial) await engine.send({ frame: systemStatus(ctx, "requesting"), delay: 0 });
  const tools = new ToolStarts(engine, { turn, message, partial });
  let texts = 0; // the message's texts shown so far (MessageDisplay's index)
  turn.heldRunning = 0;
  try {
    for (const frame of sequence) {
      if (turn.abort.aborted) throw turn.abort.reason;
      const stopped = tools.stopBeforeRunning(frame, progress);
      if (stopped !== false && await stopped) continue;
      if (frame.type === "assistant" && frame.parent_tool_use_id === null) {
        const shown = (frame as AssistantFrame).message.content[0];
        if (shown?.type === "text") {
          await messageDisplayHooks(engine, turn, { text: shown.text, index: texts++ });
        }
      }
      const sent = engine.send({ frame, delay: delayOnce(frame) });
      if (sent !== SENT) await sent;
      trackProgress(progress, frame);
      const started = tools.afterFrame(frame);
      if (started) await started;
    }
  } finally {
    const held = turn.heldRunning;
    turn.heldRunning = undefined;
    if (!turn.abort.aborted && held) await sendRunning(engine, held);
  }
  turn.streaming = undefined;
  return tools.waiting;
}

/** Writes `count` `running` state frames. */
async function sendRunning(engine: Engine, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await engine.send(stateChange(engine.ctx, "running", engine.outbox.sent !== undefined));
  }
}

/**
 * When each tool of a streaming message starts. As the real CLI runs a message's tools while it
 * still streams (2.1.328 to 2.1.332): a tool starts (hooks, permission) as soon as its block is complete
 * when it may run next to what runs already: a concurrency-safe tool (Read, Glob, Grep) after
 * only such tools, asked before its block's end; a first tool of another kind after its block's
 * end (with the message's end when it is the last block). Any other waits for the tools before
 * it to finish. `running` follows the message's end, once for each tool asked meanwhile.
 */
class ToolStarts {
  /** The tools asked or waiting, in order, to run after the message. */
  readonly waiting: PendingTool[] = [];
  #engine: Engine;
  #turn: TurnState;
  #message: BuiltMessage;
  #partial: boolean;
  #toolIds: string[];
  /** The last tool of a streamed message, checked at its message_stop. */
  #streamed: ScriptedToolCall[] = [];
  /** A first tool, checked one event after its block's end. */
  #head: { call: ScriptedToolCall; index: number; armed?: true } | undefined;
  /** Every tool so far is concurrency-safe and started. */
  #onlySafe = true;

  constructor(
    engine: Engine,
    options: { turn: TurnState; message: BuiltMessage; partial: boolean },
  ) {
    this.#engine = engine;
    this.#turn = options.turn;
    this.#message = options.message;
    this.#partial = options.partial;
    this.#toolIds = options.message.blocks.flatMap((b) => (b.type === "tool_use" ? [b.id] : []));
  }

  async #start(scripted: ScriptedToolCall): Promise<void> {
    const decision = await authorize(this.#engine, scripted, this.#turn);
    this.waiting.push({ call: scripted, decision });
  }

  /**
   * As the real CLI 2.1.328 with partial messages: a streamed message's last tool
   * is checked after its message_delta, and message_stop follows the first permission answer,
   * before `running`. True when `frame` went out so.
   */
  stopBeforeRunning(frame: Frame, progress: StreamProgress): false | Promise<boolean> {
    if (this.#streamed.length === 0 || !isMessageStop(frame)) return false;
    return this.#stopBeforeRunning(frame, progress);
  }

  async #stopBeforeRunning(frame: Frame, progress: StreamProgress): Promise<boolean> {
    let stopped = false;
    this.#turn.beforeRunning = async () => {
      stopped = true;
      await this.#engine.send({ frame, delay: 0 });
      trackProgress(progress, frame);
    };
    for (const scripted of this.#streamed.splice(0)) await this.#start(scripted);
    this.#turn.beforeRunning = undefined;
    return stopped;
  }

  /**
   * Starts what `frame`, just written, lets start: a promise while something starts, else
   * nothing (most frames start nothing, and are not made to wait for it).
   */
  afterFrame(frame: Frame): Promise<void> | undefined {
    const head = this.#head;
    if (head?.armed) return this.#afterFrame(frame);
    if (frame.type !== "assistant") {
      // its check ends one event after its block's end (as the real CLI: the next block's start)
      if (head && isBlockStop(frame, head.index)) head.armed = true;
      return undefined;
    }
    const block = (frame as AssistantFrame).message.content[0];
    if (block?.type !== "tool_use" || !this.#message.calls.has(block.id)) return undefined;
    return this.#afterFrame(frame);
  }

  async #afterFrame(frame: Frame): Promise<void> {
    const head = this.#head;
    if (head?.armed) {
      this.#head = undefined;
      await this.#start(head.call);
    } else if (head && isBlockStop(frame, head.index)) head.armed = true;
    if (frame.type !== "assistant") return;
    const block = (frame as AssistantFrame).message.content[0];
    if (block?.type !== "tool_use") return;
    const scripted = this.#message.calls.get(block.id);
    if (scripted) await this.#toolBlock(scripted);
  }

  /** A tool use block went out: fails, is denied, starts or waits. */
  async #toolBlock(scripted: ScriptedToolCall): Promise<void> {
    const engine = this.#engine;
    const block = scripted.block;
    const missing = unavailableTool(engine, block.name);
    if (missing !== undefined) {
      // As the real CLI 2.1.328: a tool the session does not have fails at once,
      // its result right after its own block, before the message's next block.
      return await sendUnavailable(engine, block.id, missing, this.#turn);
    }
    // As the real CLI 2.1.328: a denial the rules alone decide goes out at once, right after
    // the block, when no tool before it in the message is still to run; else in its turn,
    // after their results.
    const early = immediateDenial(engine, scripted);
    if (early) {
      if (this.waiting.length > 0 || this.#streamed.length > 0 || this.#head !== undefined) {
        this.#onlySafe = false;
        this.waiting.push({ call: scripted, decision: early });
      } else await sendDenial(engine, scripted, early, this.#turn);
      return;
    }
    await this.#place(scripted);
  }

  /** When a tool the rules do not deny at once starts. */
  async #place(scripted: ScriptedToolCall): Promise<void> {
    const block = scripted.block;
    const first = this.#toolIds[0] === block.id;
    const last = this.#toolIds.at(-1) === block.id;
    if (this.#onlySafe && CONCURRENCY_SAFE.has(block.name)) return await this.#start(scripted);
    this.#onlySafe = false;
    if (first && !last) {
      if (this.#partial) {
        const index = this.#message.blocks.findIndex((b) =>
          b.type === "tool_use" && b.id === block.id
        );
        this.#head = { call: scripted, index };
      } else await this.#start(scripted);
    } else if (first && this.#partial) {
      this.#streamed.push(scripted);
    } else {
      // waits for the tools before it: checked as it runs, after the message (2.1.328)
      this.waiting.push({ call: scripted });
    }
  }
}

/** Runs the tools that waited for the message's end, in order. */
async function runWaitingTools(
  engine: Engine,
  waiting: PendingTool[],
  turn: TurnState,
): Promise<void> {
  for (let i = 0; i < waiting.length; i++) {
    if (turn.abort.aborted) throw turn.abort.reason;
    const { call: scripted, decision } = waiting[i];
    const next = waiting[i + 1];
    // a concurrency-safe tool waiting on this one starts as it ends: its quick check comes
    // before this tool's result, `running` after it (2.1.328 to 2.1.332)
    const early = next && !next.decision && CONCURRENCY_SAFE.has(next.call.block.name) &&
      !CONCURRENCY_SAFE.has(scripted.block.name);
    let held = 0;
    await runTool(engine, scripted, decision ?? await authorize(engine, scripted, turn), turn, {
      beforeResult: early
        ? async () => {
          turn.heldRunning = 0;
          try {
            next.decision = await authorize(engine, next.call, turn);
          } finally {
            held = turn.heldRunning ?? 0;
            turn.heldRunning = undefined;
          }
        }
        : undefined,
    });
    await sendRunning(engine, held);
  }
}

/** After a message's tools: the PostToolBatch hooks, structured output, a hook's stop. */
export async function finishMessage(
  engine: Engine,
  turn: TurnState,
  blocks: AssistantContentBlock[],
): Promise<void> {
  const results = turn.batchResults;
  turn.batchResults = undefined;
  if (results !== undefined && !turn.abort.aborted) {
    await postToolBatchHooks(engine, turn, blocks, results);
  }
  if (await settleStructuredOutput(engine, turn)) return;
  if (turn.hookStop && !turn.resultSent) {
    turn.stopped = true;
    await sendResult(engine, turn, {
      result: "",
      stopReason: "tool_use",
      terminalReason: "hook_stopped",
    });
  }
}

/**
 * A main-thread tool use that will not run, written as the flow writes it (a denial, or the
 * error of a tool the session does not have), then its message's end (PostToolBatch hooks, a
 * hook's stop): for a tool use played outside a message step (a `__mock__` subagent's Agent
 * tool use).
 */
export async function refuseTool(
  engine: Engine,
  scripted: ScriptedToolCall,
  options: { decision: Exclude<ToolDecision, { kind: "allow" }>; turn: TurnState },
): Promise<void> {
  const { decision, turn } = options;
  turn.batchResults = new Map();
  if (decision.kind === "deny") await sendDenial(engine, scripted, decision, turn);
  else if (decision.kind === "invalid") await runTool(engine, scripted, decision, turn);
  else await sendUnavailable(engine, scripted.block.id, decision.message, turn);
  await finishMessage(engine, turn, [scripted.block]);
}

/** A denied tool use: its `permission_denied` frame if it has one, its error result. */
async function sendDenial(
  engine: Engine,
  scripted: ScriptedToolCall,
  decision: Extract<ToolDecision, { kind: "deny" }>,
  turn: TurnState,
): Promise<void> {
  const block = scripted.block;
  if (!decision.cancelled) {
    turn.denials.push({
      tool_name: block.name,
      tool_use_id: block.id,
      tool_input: askedInput(block.name, block.input),
    });
  }
  turn.userMessages++;
  if (decision.deniedFrame) {
    const { reasonType, reason } = decision.deniedFrame;
    await engine.send({
      frame: permissionDenied(engine.ctx, {
        toolName: block.name,
        toolUseId: block.id,
        ...(reasonType !== undefined ? { decisionReasonType: reasonType } : {}),
        ...(reason !== undefined ? { decisionReason: reason } : {}),
        message: decision.message,
      }),
      delay: 0,
    });
  }
  await sendToolResult(
    engine,
    turn,
    toolResult(engine.ctx, block.id, deniedResult(block.id, decision)),
  );
  if (scripted.ifDenied && !turn.continuation) turn.continuation = scripted.ifDenied;
}

/** The result of a use of a tool the session does not have: the CLI's error, unasked. */
async function sendUnavailable(
  engine: Engine,
  toolUseId: string,
  message: string,
  turn: TurnState,
): Promise<void> {
  turn.userMessages++;
  await sendToolResult(
    engine,
    turn,
    toolResult(engine.ctx, toolUseId, {
      content: `<tool_use_error>${message}</tool_use_error>`,
      isError: true,
      toolUseResult: message,
      permissionDecision: null,
    }),
  );
}

async function runTool(
  engine: Engine,
  scripted: ScriptedToolCall,
  decision: ToolDecision,
  turn: TurnState,
  options: { beforeResult?: () => Promise<void> } = {},
): Promise<void> {
  const block = scripted.block;
  if (decision.kind === "unavailable") {
    return sendUnavailable(engine, block.id, decision.message, turn);
  }
  if (decision.kind === "invalid") {
    turn.userMessages++;
    return sendToolResult(engine, turn, toolResult(engine.ctx, block.id, decision.result));
  }
  if (decision.kind === "deny") return sendDenial(engine, scripted, decision, turn);
  const started = engine.clock.now();
  const ran = await execute(engine, scripted, decision.input, turn);
  const result = await postToolHooks(engine, scripted, {
    input: decision.input,
    result: ran,
    durationMs: Math.round(engine.clock.now() - started),
  }, turn);
  await options.beforeResult?.();
  turn.userMessages++;
  await sendToolResult(
    engine,
    turn,
    toolResult(engine.ctx, block.id, {
      ...result,
      permissionDecision: result.permissionDecision !== undefined
        ? result.permissionDecision
        : decision.meta,
    }),
  );
}

/** Writes a tool's result frame, and keeps its content for the PostToolBatch hooks. */
async function sendToolResult(engine: Engine, turn: TurnState, frame: UserFrame): Promise<void> {
  const content = frame.message.content;
  const block = Array.isArray(content) ? content[0] : undefined;
  const toolUseId = typeof block?.tool_use_id === "string" ? block.tool_use_id : undefined;
  if (toolUseId !== undefined) turn.batchResults?.set(toolUseId, block?.content);
  // the hooks' systemMessage notices about this tool use: PreToolUse's before, PostToolUse's after
  if (toolUseId !== undefined && turn.hookNotices?.length) {
    await flushHookNotices(engine, turn, ["PreToolUse"], toolUseId);
  }
  await engine.send({ frame, delay: engine.delayFor({ type: "user" }, turn) });
  if (toolUseId !== undefined && turn.hookNotices?.length) {
    await flushHookNotices(engine, turn, ["PostToolUse", "PostToolUseFailure"], toolUseId);
  }
}

/**
 * Without partial messages the CLI still reports thinking estimates before a thinking block,
 * one per delta the API sent (the message's chunking).
 */
function* withThinkingTokens(
  ctx: BuildContext,
  frames: AssistantFrame[],
  chunks: Pick<StreamEventsOptions, "chunkSize" | "split">,
): Generator<Frame> {
  for (const frame of frames) {
    const block = frame.message.content[0];
    if (block?.type === "thinking") {
      yield* thinkingTokenFrames(ctx, block.thinking, { ...chunks, signature: block.signature });
    }
    yield frame;
  }
}

/**
 * A message step's blocks and scripted tool calls, evaluated once per turn (its parts that
 * are functions draw their ids then): a failure before it may look at it first.
 */
export function evaluateMessage(
  engine: Engine,
  step: MessageStep,
  turn: TurnState,
): EvaluatedMessage {
  const cache = turn.evaluated ??= new Map();
  const known = cache.get(step);
  if (known) return known;
  const blocks: AssistantContentBlock[] = [];
  const calls = new Map<string, ScriptedToolCall>();
  for (const part of step.parts) {
    const value = typeof part === "function" ? part(engine.ctx) : part;
    if (isToolCall(value)) {
      calls.set(value.block.id, value);
      blocks.push(value.block);
    } else blocks.push(value);
  }
  if (blocks.length === 0) throw new TypeError("a message step needs at least one part");
  const evaluated = { blocks, calls };
  cache.set(step, evaluated);
  return evaluated;
}
