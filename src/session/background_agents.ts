/**
 * Background subagents, as the real CLI 2.1.332 runs them: an Agent call whose agent is defined
 * with `background: true` (or that asks `run_in_background: true`) launches the subagent and
 * returns at once with the CLI's launch text; the turn goes on and ends; then the subagent runs
 * (its frames after the turn's result), finishes (`task_updated`, `task_notification` with its
 * report, `background_tasks_changed`), and the CLI starts a turn by itself to tell the model:
 * its text is the `<task-notification>`, answered by the exchange that matches it, its result
 * carrying `origin: {kind: "task-notification"}`. The mock plays the subagent after the turn
 * that launched it, where the real CLI runs it alongside (a race in real time).
 *
 * @module
 */

import { type AgentRun, type AgentRunMoment, agentRunMoments } from "../builders/_agent_run.ts";
import {
  backgroundLaunchResult,
  backgroundTasksChanged,
  taskNotificationText,
} from "../builders/_background_agent.ts";
import { taskStarted } from "../builders/task_frames.ts";
import type { ScriptedToolCall } from "../scenario/step.ts";
import type { Frame, UserFrame } from "../wire/frame.ts";
import type { Engine } from "./engine.ts";
import { billReplies, billSubagent } from "./subagent_billing.ts";
import { backgroundReport, onModel, runSubagent, type ToolFlow } from "./subagent_run.ts";
import type { TurnState } from "./turn_state.ts";

/** A background subagent launched and not yet played. */
export interface BackgroundRun {
  /** The subagent's run (its task backgrounded). */
  run: AgentRun;
  /** The Agent call that launched it. */
  call: ScriptedToolCall;
  /** The model it runs on. */
  model: string;
  /** The permission mode its tools are decided in. */
  mode?: string;
  /** The tool flow its tool uses go through. */
  flow: ToolFlow;
  /** Its run's moments, drawn when its first message was written. */
  moments?: AgentRunMoment[];
}

/** The background subagents waiting to run (the engine keeps them untyped). */
function pendingRuns(engine: Engine): BackgroundRun[] {
  return engine.background.pending as BackgroundRun[];
}

/**
 * Launches a subagent in the background: `background_tasks_changed` listing it with those
 * already waiting, its `task_started` (`is_backgrounded: true`); the Agent call's result is the
 * CLI's launch text (2.1.332).
 */
export async function launchBackground(
  engine: Engine,
  launch: BackgroundRun,
  turn: TurnState,
): Promise<ScriptedToolCall["result"]> {
  const bg = engine.background;
  const run: AgentRun = { ...launch.run, task: { ...launch.run.task, isBackgrounded: true } };
  const tasks = [...pendingRuns(engine).map((p) => p.run.task), run.task];
  const send = async (frame: Frame) => {
    if (turn.abort.aborted) throw turn.abort.reason;
    await engine.send({ frame, delay: engine.delayFor(frame, turn) });
  };
  await send(backgroundTasksChanged(engine.ctx, tasks));
  await send(taskStarted(engine.ctx, run.task));
  bg.pending.push({ ...launch, run });
  bg.started++;
  if (launch.call.block.input.run_in_background === true) bg.requested++;
  bg.running[run.subagentType] = (bg.running[run.subagentType] ?? 0) + 1;
  return backgroundLaunchResult(engine.ctx, run, launch.model);
}

/**
 * Runs the background subagents launched so far, each in the turn the CLI starts for its
 * notification (`turnFor` runs that turn: its frames after `before`, the subagent's run).
 */
export async function runBackgroundAgents(
  engine: Engine,
  turnFor: (
    input: UserFrame,
    options: { origin: Record<string, unknown>; before: (turn: TurnState) => Promise<void> },
  ) => Promise<void>,
): Promise<void> {
  const bg = engine.background;
  const pending = pendingRuns(engine);
  while (pending.length > 0 && !engine.closed) {
    const next = pending[0];
    const { run } = next;
    const text = taskNotificationText(engine.ctx, run, {
      totalTokens: run.totalTokens,
      toolUses: run.tools.length,
      durationMs: Math.max(0, run.durationMs - 2),
    });
    const input: UserFrame = {
      type: "user",
      message: { role: "user", content: [{ type: "text", text }] },
      parent_tool_use_id: null,
      session_id: engine.ctx.sessionId,
    } as UserFrame;
    await turnFor(input, {
      origin: { kind: "task-notification", producer: "session-task", runId: run.task.runId },
      before: async (turn) => {
        pending.shift();
        const sent: Frame[] = [];
        try {
          await runSubagent(engine, run, {
            turn,
            flow: next.flow,
            model: next.model,
            ...(next.mode !== undefined ? { mode: next.mode } : {}),
            sent,
            background: pending.map((p) => p.run.task),
            ...(next.moments ? { moments: next.moments } : {}),
          });
        } finally {
          bg.running[run.subagentType] = Math.max(0, (bg.running[run.subagentType] ?? 1) - 1);
        }
        billSubagent(engine, next.call, sent, { model: next.model, report: false });
      },
    });
  }
}

/**
 * Before the result of the turn that launched them: each background subagent's first message
 * (its first tool use, `task_progress` after it, or its report), its API call billed. The real
 * CLI 2.1.332 starts the subagent at launch; its first reply comes before the turn's result
 * (seven runs of case agents_background out of seven).
 */
export async function headStart(engine: Engine, turn: TurnState): Promise<void> {
  for (const next of pendingRuns(engine)) {
    if (next.moments) continue;
    const moments = [...agentRunMoments(engine.ctx, next.run)];
    next.moments = moments;
    const first = moments.find((m) => m.kind === "tool" || m.kind === "stop");
    if (!first || (first.kind !== "tool" && first.kind !== "stop")) continue;
    const frames = first.kind === "tool"
      ? [...first.frames, first.progress]
      : [backgroundReport(engine, next.run, first.report)];
    const written = frames.map((frame) => onModel(frame, next.model));
    for (const frame of written) {
      if (turn.abort.aborted) throw turn.abort.reason;
      await engine.send({ frame, delay: engine.delayFor(frame, turn) });
    }
    first.written = true;
    billReplies(engine, next.call, written, { model: next.model, report: false });
  }
}
