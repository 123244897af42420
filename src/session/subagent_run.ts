/**
 * A foreground subagent's run (the Agent tool), played as the real CLI runs it: its frames in
 * order, its tool uses through the session's own tool flow (PreToolUse hooks, the permission
 * rules, `can_use_tool`, PostToolUse hooks, PostToolBatch), each hook told the subagent it is
 * about, between SubagentStart and SubagentStop.
 *
 * @module
 */

import { type AgentRun, agentRunMoments } from "../builders/_agent_run.ts";
import { toolResult } from "../builders/user.ts";
import type { ScriptedToolCall } from "../scenario/step.ts";
import type { SubagentInfo } from "../builders/subagent.ts";
import type { Frame, UserFrame } from "../wire/frame.ts";
import type { Engine } from "./engine.ts";
import {
  type HookAgent,
  postToolBatchHooks,
  subagentStartHooks,
  subagentStopHooks,
} from "./hook_runner.ts";
import type { ToolDecision, TurnState } from "./turn_state.ts";

/**
 * The main agent's tool flow, which a subagent's tool uses go through as well (the flow passes
 * itself in: it runs subagents, so this file does not import it).
 */
export interface ToolFlow {
  /** Hooks, rules and the client's answer: what to do with a tool use. */
  authorize(
    engine: Engine,
    call: ScriptedToolCall,
    turn: TurnState,
    options?: { agent?: HookAgent },
  ): Promise<ToolDecision>;
  /** Runs an allowed tool use; its result. */
  execute(
    engine: Engine,
    call: ScriptedToolCall,
    input: Record<string, unknown>,
    turn: TurnState,
  ): Promise<ScriptedToolCall["result"]>;
  /** PostToolUse (or PostToolUseFailure) hooks after a tool ran. */
  postToolHooks(
    engine: Engine,
    call: ScriptedToolCall,
    ran: { input: Record<string, unknown>; result: ScriptedToolCall["result"]; durationMs: number },
    turn: TurnState,
    options?: { agent?: HookAgent },
  ): Promise<void>;
}

/** Tools the real CLI starts (hooks, permission) while their message still streams. */
const CONCURRENCY_SAFE: ReadonlySet<string> = new Set(["Read", "Glob", "Grep"]);

/**
 * Plays a subagent's run: `task_started`, SubagentStart, the subagent's prompt, each tool call
 * (its `task_progress`, its assistant frame, checked as the main agent's tools are, run, its
 * result, the PostToolBatch of its message), SubagentStop with the subagent's report, then
 * `task_updated` and `task_notification`. The subagent sees the session's file context but
 * what it reads or writes does not change the main agent's. Resolves with the frames written.
 */
export async function runSubagent(
  engine: Engine,
  run: AgentRun,
  options: { turn: TurnState; flow: ToolFlow },
): Promise<Frame[]> {
  const { turn, flow } = options;
  const { authorize } = flow;
  const sent: Frame[] = [];
  const send = async (frame: Frame) => {
    if (turn.abort.aborted) throw turn.abort.reason;
    sent.push(frame);
    await engine.send({ frame, delay: engine.delayFor(frame, turn) });
  };
  const agent: HookAgent = { id: run.task.taskId, type: run.subagentType };
  const files = new Set(engine.filesInContext);
  const contents = new Map(engine.fileContents);
  try {
    for (const moment of agentRunMoments(engine.ctx, run)) {
      if (moment.kind === "frame") await send(moment.frame);
      else if (moment.kind === "start") await subagentStartHooks(engine, turn, agent);
      else if (moment.kind === "stop") {
        await subagentStopHooks(engine, turn, { agent, lastMessage: moment.report });
      } else {
        const call = moment.call as ScriptedToolCall;
        await send(moment.progress);
        // as the real CLI: a concurrency-safe tool is checked before its block is written
        const early = CONCURRENCY_SAFE.has(call.block.name)
          ? await authorize(engine, call, turn, { agent })
          : undefined;
        for (const frame of moment.frames) await send(frame);
        const decision = early ?? await authorize(engine, call, turn, { agent });
        const result = await runCall(engine, call, decision, {
          turn,
          flow,
          agent,
          subagent: run.subagent,
        });
        await send(result);
        const blocks = result.message.content;
        const content = Array.isArray(blocks)
          ? (blocks[0] as { content?: unknown }).content
          : blocks;
        await postToolBatchHooks(engine, turn, [call.block], new Map([[call.block.id, content]]), {
          agent,
        });
      }
    }
  } finally {
    engine.filesInContext.clear();
    for (const file of files) engine.filesInContext.add(file);
    engine.fileContents.clear();
    for (const [file, content] of contents) engine.fileContents.set(file, content);
  }
  return sent;
}

/** Runs one of the subagent's tool calls as `decision` says; its result frame. */
async function runCall(
  engine: Engine,
  call: ScriptedToolCall,
  decision: ToolDecision,
  options: { turn: TurnState; flow: ToolFlow; agent: HookAgent; subagent: SubagentInfo },
): Promise<UserFrame> {
  const { turn, agent, subagent } = options;
  const { execute, postToolHooks } = options.flow;
  const block = call.block;
  if (decision.kind === "unavailable") {
    return toolResult(engine.ctx, block.id, {
      content: `<tool_use_error>${decision.message}</tool_use_error>`,
      isError: true,
      toolUseResult: decision.message,
      permissionDecision: null,
      subagent,
    });
  }
  if (decision.kind === "deny") {
    return toolResult(engine.ctx, block.id, {
      content: decision.message,
      isError: true,
      permissionDecision: decision.meta,
      ...(decision.toolUseResult !== undefined ? { toolUseResult: decision.toolUseResult } : {}),
      ...(decision.nonExecutionKind ? { nonExecutionKind: decision.nonExecutionKind } : {}),
      subagent,
    });
  }
  const started = engine.clock.now();
  const result = await execute(engine, call, decision.input, turn);
  await postToolHooks(
    engine,
    call,
    {
      input: decision.input,
      result,
      durationMs: Math.round(engine.clock.now() - started),
    },
    turn,
    { agent },
  );
  return toolResult(engine.ctx, block.id, {
    ...result,
    permissionDecision: result.permissionDecision !== undefined
      ? result.permissionDecision
      : decision.meta,
    subagent,
  });
}
