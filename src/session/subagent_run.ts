/**
 * A foreground subagent's run (the Agent tool), played as the real CLI runs it: its frames in
 * order, its tool uses through the session's own tool flow (PreToolUse hooks, the permission
 * rules, `can_use_tool`, PostToolUse hooks, PostToolBatch), each hook told the subagent it is
 * about, between SubagentStart and SubagentStop.
 *
 * @module
 */

import { type AgentRun, type AgentRunMoment, agentRunMoments } from "../builders/_agent_run.ts";
import { toolResult } from "../builders/user.ts";
import { subagentNoSuchToolError } from "../builders/tool_availability.ts";
import { deniedResult } from "./denied_result.ts";
import type { ScriptedToolCall } from "../scenario/step.ts";
import type { SubagentInfo } from "../builders/subagent.ts";
import type { TaskInfo } from "../builders/task_frames.ts";
import { assistantMessage } from "../builders/assistant.ts";
import { backgroundTasksChanged } from "../builders/_background_agent.ts";
import type { Frame, UserFrame } from "../wire/frame.ts";
import type { Engine } from "./engine.ts";
import {
  type HookAgent,
  postToolBatchHooks,
  subagentStartHooks,
  subagentStopHooks,
} from "./hook_runner.ts";
import type { ToolDecision, TurnState } from "./turn_state.ts";
import { agentLacksTool, agentToolLimits } from "./session_agents.ts";
import { runUntilInterrupt } from "./run_until_interrupt.ts";
import { Interrupted } from "./turn_state.ts";

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
    options?: { agent?: HookAgent; mode?: string },
  ): Promise<ToolDecision>;
  /** Runs an allowed tool use; its result. */
  execute(
    engine: Engine,
    call: ScriptedToolCall,
    input: Record<string, unknown>,
    turn: TurnState,
  ): Promise<ScriptedToolCall["result"]>;
  /** PostToolUse (or PostToolUseFailure) hooks after a tool ran; the result it then has. */
  postToolHooks(
    engine: Engine,
    call: ScriptedToolCall,
    ran: { input: Record<string, unknown>; result: ScriptedToolCall["result"]; durationMs: number },
    turn: TurnState,
    options?: { agent?: HookAgent },
  ): Promise<ScriptedToolCall["result"]>;
}

/** Tools the real CLI starts (hooks, permission) while their message still streams. */
const CONCURRENCY_SAFE: ReadonlySet<string> = new Set(["Read", "Glob", "Grep"]);

/**
 * Plays a subagent's run: `task_started`, SubagentStart, the subagent's prompt, each tool call
 * (its `task_progress`, its assistant frame, checked as the main agent's tools are, run, its
 * result, the PostToolBatch of its message), SubagentStop with the subagent's report, then
 * `task_updated` and `task_notification`. The subagent sees the session's file context but
 * what it reads or writes does not change the main agent's. Resolves with the frames written
 * (kept in `options.sent` as well, when given: an interrupt that stops the subagent rejects,
 * its task listed in the turn's `stoppedTasks`, and what it had written is there).
 */
export async function runSubagent(
  engine: Engine,
  run: AgentRun,
  options: {
    turn: TurnState;
    flow: ToolFlow;
    model?: string;
    mode?: string;
    sent?: Frame[];
    background?: readonly TaskInfo[];
    moments?: Iterable<AgentRunMoment>;
  },
): Promise<{ sent: Frame[]; missing: Set<string> }> {
  const { turn, flow } = options;
  const sent: Frame[] = options.sent ?? [];
  const nested = nestedRun(engine, run, { turn, sent, model: options.model });
  run = nested.run;
  const send = nested.send;
  const nesting = engine.subagentNesting;
  const agent: HookAgent = { id: run.task.taskId, type: run.subagentType };
  const background = options.background;
  const missing = new Set<string>();
  const restore = keepFileContext(engine);
  nesting.running.push(run.task.taskId);
  try {
    // the SubagentStart hooks run while the subagent's prompt is written (a command hook's
    // hook_response comes after it, 2.1.332)
    let starting: Promise<void> | undefined;
    for (const moment of options.moments ?? agentRunMoments(engine.ctx, run)) {
      if (moment.kind === "start") {
        starting = subagentStartHooks(engine, turn, agent);
        starting.catch(() => {});
        continue;
      }
      if (moment.kind === "frame") {
        const frames = background ? asBackground(engine, moment.frame, background) : [moment.frame];
        for (const frame of frames) await send(frame);
        if (starting) await starting;
        starting = undefined;
        continue;
      }
      if (starting) await starting;
      starting = undefined;
      if (moment.kind === "stop") {
        // a background subagent's report is written as its last message (2.1.332)
        if (background && !moment.written) await send(backgroundReport(engine, run, moment.report));
        await subagentStopHooks(engine, turn, { agent, lastMessage: moment.report });
      } else {
        const call = moment.call as ScriptedToolCall;
        const lacking = agentLacks(engine, run.subagentType, call.block.name);
        const outcome = await subagentCall(engine, call, {
          ...(lacking !== undefined ? { decide: () => Promise.resolve(lacking) } : {}),
          progress: moment.progress,
          frames: moment.frames,
          turn,
          flow,
          agent,
          subagent: run.subagent,
          send,
          ...(options.mode !== undefined ? { mode: options.mode } : {}),
          ...(background ? { messageFirst: true } : {}),
          ...(moment.written ? { written: true } : {}),
        });
        // a tool it could not use is not among those it used (its agent's or the session's)
        if (outcome.unavailable) missing.add(call.block.id);
      }
    }
  } catch (error) {
    // an interrupt stops the subagent where it is (2.1.328, 2.1.332): its task is killed
    if (turn.abort.aborted && turn.abort.reason instanceof Interrupted) {
      (turn.stoppedTasks ??= []).push(run.task);
    }
    throw error;
  } finally {
    nesting.running.pop();
    restore();
  }
  return { sent, missing };
}

/**
 * The run as it is nested in the subagents running now, and how its frames are written: a
 * subagent's own subagent (2.1.332) is started at depth 2 under its parent's task, and of its
 * run only its task frames are written (no prompt, messages or tool results, which are billed).
 */
function nestedRun(
  engine: Engine,
  run: AgentRun,
  options: { turn: TurnState; sent: Frame[]; model?: string },
): { run: AgentRun; send: (frame: Frame, whole?: boolean) => Promise<void> } {
  const { sent, model } = options;
  const write = subagentSender(engine, options.turn, sent);
  const nesting = engine.subagentNesting;
  const parent = nesting.running.at(-1);
  if (parent !== undefined) {
    run = {
      ...run,
      task: { ...run.task, spawnDepth: nesting.running.length + 1, parentTaskId: parent },
    };
    nesting.spawnedBySubagents++;
  }
  nesting.maxDepth = Math.max(nesting.maxDepth, nesting.running.length + 1);
  const send = (frame: Frame, whole?: boolean) => {
    const out = model === undefined ? frame : onModel(frame, model);
    if (parent === undefined || (out.type !== "user" && out.type !== "assistant")) {
      return write(out, whole);
    }
    // not written, but billed
    sent.push(out);
    return Promise.resolve();
  };
  return { run, send };
}

/** A background subagent's report, its last message (2.1.332). */
export function backgroundReport(engine: Engine, run: AgentRun, report: string): Frame {
  return assistantMessage(engine.ctx, report, { subagent: run.subagent })[0];
}

/**
 * A foreground run's frame as a background subagent's run writes it (2.1.332): no
 * `task_started` (written at launch) nor prompt; its `task_notification` says the summary is its
 * report, and `background_tasks_changed` follows it with the tasks still running (`others`).
 */
function asBackground(engine: Engine, frame: Frame, others: readonly TaskInfo[]): Frame[] {
  if (frame.type === "system" && frame.subtype === "task_started") return [];
  if (frame.type === "user") return [];
  if (frame.type === "system" && frame.subtype === "task_notification") {
    const { usage, uuid, session_id, ...head } = frame as Record<string, unknown>;
    const notice = { ...head, summary_is_report: true, usage, uuid, session_id };
    return [notice as unknown as Frame, backgroundTasksChanged(engine.ctx, others)];
  }
  return [frame];
}

/**
 * Whether a subagent of `type` lacks the tool `name` (its custom agent's `tools` leave it out,
 * or its `disallowedTools` name it; a built-in agent's limits; ExitPlanMode, which no subagent
 * has): the CLI's error, unasked and unhooked (2.1.328, 2.1.332).
 */
function agentLacks(engine: Engine, type: string, name: string): ToolDecision | undefined {
  const lacks = name === "ExitPlanMode" ||
    agentLacksTool(agentToolLimits(engine.customAgents, type), name);
  return lacks ? { kind: "unavailable", message: subagentNoSuchToolError(name) } : undefined;
}

/**
 * A subagent's frame as it is written when the subagent runs on `model` (its agent's): its
 * assistant messages name that model.
 */
export function onModel(frame: Frame, model: string): Frame {
  if (frame.type !== "assistant") return frame;
  const message = (frame as { message?: { model?: unknown } }).message;
  if (!message || message.model === model || typeof message.model !== "string") return frame;
  return { ...frame, message: { ...message, model } } as Frame;
}

/**
 * Writes a subagent's frames as the session writes any (paced), unless the turn was
 * interrupted (but for a frame of a unit already begun, `whole`: a message's frames after its
 * `task_progress`); each frame written is kept in `sent` too when given.
 */
export function subagentSender(
  engine: Engine,
  turn: TurnState,
  sent?: Frame[],
): (frame: Frame, whole?: boolean) => Promise<void> {
  return async (frame, whole) => {
    if (turn.abort.aborted && !whole) throw turn.abort.reason;
    sent?.push(frame);
    await engine.send({ frame, delay: engine.delayFor(frame, turn) });
  };
}

/**
 * Keeps the session's file context as it is now: the function returned puts it back (what a
 * subagent reads or writes does not change the main agent's).
 */
export function keepFileContext(engine: Engine): () => void {
  const files = new Set(engine.filesInContext);
  const contents = new Map(engine.fileContents);
  return () => {
    engine.filesInContext.clear();
    for (const file of files) engine.filesInContext.add(file);
    engine.fileContents.clear();
    for (const [file, content] of contents) engine.fileContents.set(file, content);
  };
}

/**
 * One tool call of a subagent, as the real CLI makes it: its frames (its `task_progress`, its
 * assistant frames), checked as the main agent's tools are (a concurrency-safe tool before
 * its block is written), with `agent` named to the hooks and `can_use_tool`; denied or run
 * (PostToolUse hooks), its result written, then the PostToolBatch hooks of its message.
 * `decide`, when given, takes the place of the check (after the block); `mode`, when given,
 * is the permission mode the check is made in (the subagent's agent's). Resolves with the
 * result frame, what the tool returned when it ran, and whether it was a tool the subagent
 * does not have.
 */
export async function subagentCall(
  engine: Engine,
  call: ScriptedToolCall,
  options: {
    progress: Frame;
    frames: Frame[];
    turn: TurnState;
    flow: ToolFlow;
    agent: HookAgent;
    subagent: SubagentInfo;
    send: (frame: Frame, whole?: boolean) => Promise<void>;
    decide?: () => Promise<ToolDecision>;
    mode?: string;
    messageFirst?: boolean;
    written?: boolean;
  },
): Promise<{ frame: UserFrame; ran?: ScriptedToolCall["result"]; unavailable: boolean }> {
  const { turn, flow, agent, send, decide } = options;
  const { authorize } = flow;
  const how = { agent, ...(options.mode !== undefined ? { mode: options.mode } : {}) };
  // a background subagent's message comes before its task_progress (2.1.332)
  if (!options.written) {
    if (options.messageFirst) { for (const frame of options.frames) await send(frame); }
    await send(options.progress, options.messageFirst);
  }
  // as the real CLI: a concurrency-safe tool is checked before its block is written
  const early = !decide && CONCURRENCY_SAFE.has(call.block.name)
    ? await authorize(engine, call, turn, how)
    : undefined;
  // the message's frames go out with its task_progress, an interrupt meanwhile or not (the real
  // CLI 2.1.328 and 2.1.332 write the assistant frame after an interrupt that came after the
  // progress)
  if (!options.messageFirst && !options.written) {
    for (const frame of options.frames) await send(frame, true);
  }
  if (turn.abort.aborted) throw turn.abort.reason;
  const decision = early ??
    (decide ? await decide() : await authorize(engine, call, turn, how));
  const outcome = await runCall(engine, call, decision, {
    turn,
    flow,
    agent,
    subagent: options.subagent,
  });
  await send(outcome.frame);
  const blocks = outcome.frame.message.content;
  const content = Array.isArray(blocks) ? (blocks[0] as { content?: unknown }).content : blocks;
  await postToolBatchHooks(engine, turn, [call.block], new Map([[call.block.id, content]]), {
    agent,
  });
  return { ...outcome, unavailable: decision.kind === "unavailable" };
}

/** Runs one of the subagent's tool calls as `decision` says; its result frame, what it returned. */
async function runCall(
  engine: Engine,
  call: ScriptedToolCall,
  decision: ToolDecision,
  options: { turn: TurnState; flow: ToolFlow; agent: HookAgent; subagent: SubagentInfo },
): Promise<{ frame: UserFrame; ran?: ScriptedToolCall["result"] }> {
  const { turn, agent, subagent } = options;
  const { execute, postToolHooks } = options.flow;
  const block = call.block;
  if (decision.kind === "unavailable") {
    return {
      frame: toolResult(engine.ctx, block.id, {
        content: `<tool_use_error>${decision.message}</tool_use_error>`,
        isError: true,
        toolUseResult: decision.message,
        permissionDecision: null,
        subagent,
      }),
    };
  }
  if (decision.kind === "invalid") {
    return { frame: toolResult(engine.ctx, block.id, { ...decision.result, subagent }) };
  }
  if (decision.kind === "deny") {
    // the subagent's denials are the session's (`permission_denials`), as 2.1.332 reports them
    if (!decision.cancelled) {
      turn.denials.push({ tool_name: block.name, tool_use_id: block.id, tool_input: block.input });
    }
    return {
      frame: toolResult(engine.ctx, block.id, { ...deniedResult(block.id, decision), subagent }),
    };
  }
  // a tool that runs until the app interrupts: the interrupt stops the subagent with it
  if (call.untilInterrupt) await runUntilInterrupt(engine, turn, call, { subagent: true });
  const started = engine.clock.now();
  const ran = await execute(engine, call, decision.input, turn);
  const result = await postToolHooks(
    engine,
    call,
    {
      input: decision.input,
      result: ran,
      durationMs: Math.round(engine.clock.now() - started),
    },
    turn,
    { agent },
  );
  return {
    frame: toolResult(engine.ctx, block.id, {
      ...result,
      permissionDecision: result.permissionDecision !== undefined
        ? result.permissionDecision
        : decision.meta,
      subagent,
    }),
    ran: result,
  };
}
