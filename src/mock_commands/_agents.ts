/**
 * Internal: the subagents of `__mock__` commands (`agent_id`). A subagent runs as the real
 * CLI runs one: an `Agent` tool use on the main
 * thread, `system/task_started`, the subagent's prompt, its frames (each with
 * `parent_tool_use_id` = the Agent tool use, `agent_id`, `subagent_type`,
 * `task_description`), then `system/task_updated`, `system/task_notification` and the Agent
 * tool's result (the hand-back text); the hooks and checks around them are `_run.ts`'s, the
 * session's own. Not part of the public API.
 *
 * @module
 */

import { agentResult, type AgentRun, type AgentRunCall } from "../builders/_agent_run.ts";
import type { BuildContext } from "../builders/build_context.ts";
import type { SubagentInfo } from "../builders/subagent.ts";
import {
  newTask,
  type TaskInfo,
  taskNotification,
  taskStarted,
  taskUpdated,
} from "../builders/task_frames.ts";
import { userText } from "../builders/user.ts";
import type { Frame, ToolUseBlock } from "../wire/frame.ts";
import type { HookAgent } from "../session/hook_runner.ts";

/** The subagent type the Agent tool use asks for. */
const SUBAGENT_TYPE = "general-purpose";

/** A subagent whose frames are being written. */
export interface OpenAgent {
  /** The id the command gave (`agent_id`, also the task id). */
  agentId: string;
  /** The main thread's Agent tool use that started it. */
  block: ToolUseBlock;
  /** Its task ids. */
  task: TaskInfo;
  /** What its frames carry. */
  subagent: SubagentInfo;
  /** The tool calls it made. */
  tools: AgentRunCall[];
  /** The last thing it said (its report). */
  lastText: string;
  /** When it started, on the session clock. */
  startedAt: number;
  /** Its assistant frames written so far (what it costs the session). */
  said: Frame[];
}

/** The Agent tool use that starts subagent `agentId` (ids drawn from `ctx`). */
export function agentToolUse(ctx: BuildContext, agentId: string): ToolUseBlock {
  return {
    type: "tool_use",
    id: ctx.ids.toolUseId(),
    name: "Agent",
    input: {
      description: `Subagent ${agentId}`,
      prompt: promptOf(agentId),
      subagent_type: SUBAGENT_TYPE,
      run_in_background: false,
    },
  };
}

/**
 * The subagent started by `block`, and its first frame: `task_started` (its prompt follows,
 * after the SubagentStart hooks: {@linkcode agentPrompt}).
 */
export function startAgent(
  ctx: BuildContext,
  block: ToolUseBlock,
  options: { agentId: string; now: number },
): { agent: OpenAgent; started: Frame } {
  const { agentId } = options;
  const description = String(block.input.description);
  const task = newTask(ctx, {
    toolUseId: block.id,
    description,
    subagentType: SUBAGENT_TYPE,
    prompt: promptOf(agentId),
    taskId: agentId,
  });
  const subagent: SubagentInfo = {
    parentToolUseId: block.id,
    agentId,
    subagentType: SUBAGENT_TYPE,
    taskDescription: description,
  };
  const agent: OpenAgent = {
    agentId,
    block,
    task,
    subagent,
    tools: [],
    lastText: "",
    startedAt: options.now,
    said: [],
  };
  return { agent, started: taskStarted(ctx, task) };
}

/** The subagent's prompt, its first message. */
export function agentPrompt(ctx: BuildContext, agent: OpenAgent): Frame {
  return userText(ctx, promptOf(agent.agentId), { subagent: agent.subagent });
}

/** The subagent as its hooks (and `can_use_tool`) are told about it. */
export function hookAgentOf(agent: OpenAgent): HookAgent {
  return { id: agent.agentId, type: agent.subagent.subagentType };
}

/**
 * The frames that end a subagent: `task_updated`, `task_notification` (its last text as the
 * summary); and what the Agent tool returns to the main thread (its result's options).
 */
export function finishAgent(
  ctx: BuildContext,
  agent: OpenAgent,
  options: { now: number },
): { frames: Frame[]; outcome: ReturnType<typeof agentResult> } {
  const durationMs = Math.max(0, Math.round(options.now - agent.startedAt));
  const totalTokens = 145 + 123 * agent.tools.length;
  const run: AgentRun = {
    task: agent.task,
    subagent: agent.subagent,
    subagentType: SUBAGENT_TYPE,
    options: { prompt: promptOf(agent.agentId), result: agent.lastText },
    tools: agent.tools,
    totalTokens,
    durationMs,
  };
  const frames: Frame[] = [
    taskUpdated(ctx, agent.task),
    taskNotification(ctx, agent.task, {
      summary: agent.lastText,
      usage: { total_tokens: totalTokens, tool_uses: agent.tools.length, duration_ms: durationMs },
    }),
  ];
  return { frames, outcome: agentResult(ctx, run) };
}

function promptOf(agentId: string): string {
  return `Carry out the task of subagent ${agentId}.`;
}
