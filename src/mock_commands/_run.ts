/**
 * Internal: runs the checked commands of one `__mock__` prompt as the turn's steps. Messages,
 * tool uses, results, errors, delays and scenario exchanges are ordinary engine steps (paced,
 * counted, checked and asked about as any scenario's); a subagent's frames and the
 * `can_use_tool` of a `permission_request` with suggestions or from a subagent are written
 * here, with the builders, in the real CLI's order. Not part of the public API.
 *
 * @module
 */

import { text, thinking } from "../builders/assistant.ts";
import { assistantMessage } from "../builders/assistant.ts";
import { compactBoundary } from "../builders/compact_boundary.ts";
import type { PermissionSuggestion } from "../builders/control.ts";
import { systemInit, systemStatus } from "../builders/system.ts";
import { taskProgress } from "../builders/task_frames.ts";
import { progressTokens } from "../builders/_agent_run.ts";
import { genericTool } from "../builders/tools.ts";
import { toolResult } from "../builders/user.ts";
import { askUserQuestionInput } from "../scenario/_ask_user_question.ts";
import type { Exchange } from "../scenario/scenario.ts";
import type {
  MessagePart,
  ResultOptions,
  ScriptedToolCall,
  Step,
  TurnInfo,
} from "../scenario/step.ts";
import { timingProfile } from "../timing/timing_profile.ts";
import type { AssistantContentBlock, Frame, ToolUseBlock } from "../wire/frame.ts";
import {
  agentPrompt,
  agentToolUse,
  finishAgent,
  hookAgentOf,
  type OpenAgent,
  startAgent,
} from "./_agents.ts";
import type { ParsedCommand } from "./_parse.ts";
import { activityOf, askClientFor, mockToolCall, type ToolOutcome } from "./_tools.ts";
import type { Engine } from "../session/engine.ts";
import {
  callHook,
  hookCallbacks,
  keepContext,
  stopByHook,
  subagentStartHooks,
  subagentStopHooks,
} from "../session/hook_runner.ts";
import { keepFileContext, subagentCall, subagentSender } from "../session/subagent_run.ts";
import { authorize } from "../session/tool_permission.ts";
import { billSubagent } from "../session/subagent_billing.ts";
import { finishMessage, refuseTool } from "../session/message_step.ts";
import { execute, postToolHooks } from "../session/tool_flow.ts";
import { type ToolDecision, TurnFailure, type TurnState } from "../session/turn_state.ts";

type Of<K extends ParsedCommand["command"]> = Extract<ParsedCommand, { command: K }>;
type ToolCommand = Of<"tool_use" | "permission_request" | "ask_user_question">;

/** Tool uses: they join the thinking and text written just before them in their thread. */
const TOOL_COMMANDS = new Set(["tool_use", "permission_request", "ask_user_question"]);

/** Commands that join thinking written just before them in their thread. */
const SAYS = new Set(["thinking_response", "text_response", "stream_delta"]);

/** Commands that speak on the main thread unless they carry `agent_id`. */
const THREADED = new Set([...TOOL_COMMANDS, ...SAYS]);

/** The steps of one `__mock__` prompt's turn. */
export class CommandRun {
  #engine: Engine;
  #turn: TurnState;
  #commands: ParsedCommand[];
  #outcomes = new Map<string, ToolOutcome>();
  #agent?: OpenAgent;
  /** How the running subagent's Agent tool use was allowed, and when it started. */
  #agentRun?: {
    input: Record<string, unknown>;
    meta: Extract<ToolDecision, { kind: "allow" }>["meta"];
    startedAt: number;
  };
  /** Subagents whose Agent tool use was denied: their commands are left out. */
  #refused = new Set<string>();
  /** Puts back the main agent's file context when the running subagent ends. */
  #restoreFiles?: () => void;
  /**
   * The thinking and text of the message being put together in one thread: the real CLI's
   * model says them in the same API response as the tool use (or text) that follows.
   */
  #lead?: { agentId?: string; blocks: AssistantContentBlock[] };

  constructor(engine: Engine, turn: TurnState, commands: ParsedCommand[]) {
    this.#engine = engine;
    this.#turn = turn;
    this.#commands = commands;
    for (const c of commands) {
      if (c.command === "tool_result") {
        this.#outcomes.set(c.toolUseId, {
          ...(c.result !== undefined ? { result: c.result } : {}),
          ...(c.error !== undefined ? { error: c.error } : {}),
        });
      }
    }
  }

  /** Runs the commands in order; stops when the turn ended (a result, a hook's stop). */
  async *steps(): AsyncGenerator<Step> {
    try {
      yield* this.#play();
    } finally {
      // a turn that ended inside a subagent: the main agent's file context as it was
      this.#restoreFiles?.();
      this.#restoreFiles = undefined;
    }
  }

  async *#play(): AsyncGenerator<Step> {
    for (const c of this.#commands) {
      if (this.#ended) return;
      const agentId = "agentId" in c ? c.agentId : undefined;
      if (agentId !== undefined && this.#refused.has(agentId)) continue;
      if (this.#lead && !this.#joins(c.command, agentId)) yield* this.#flushLead();
      const mainThread = THREADED.has(c.command) ? agentId === undefined : isMainThread(c);
      if (mainThread) yield* this.#leave();
      else if (agentId !== undefined) {
        yield* this.#enter(agentId);
        if (this.#refused.has(agentId)) continue;
      }
      if (c.command === "thinking_response" || c.command === "text_response") {
        (this.#lead ??= { agentId, blocks: [] }).blocks.push(
          c.command === "thinking_response" ? thinking(c.thinking) : text(c.text),
        );
        continue;
      }
      yield* this.#run(c);
    }
    if (this.#ended) return;
    yield* this.#flushLead();
    yield* this.#leave();
  }

  get #ended(): boolean {
    return this.#turn.stopped || this.#turn.resultSent;
  }

  /**
   * Whether a command joins the lead's message: a tool use of the same thread; thinking or
   * text after thinking only; and a subagent's first command after main-thread words (they
   * go with its Agent tool use).
   */
  #joins(command: string, agentId: string | undefined): boolean {
    const lead = this.#lead!;
    if (lead.agentId === agentId) {
      return TOOL_COMMANDS.has(command) ||
        (SAYS.has(command) && lead.blocks.every((b) => b.type === "thinking"));
    }
    return lead.agentId === undefined && agentId !== undefined && THREADED.has(command) &&
      this.#agent?.agentId !== agentId;
  }

  /** The lead's blocks, for the message that takes them. */
  #takeLead(): AssistantContentBlock[] {
    const blocks = this.#lead?.blocks ?? [];
    this.#lead = undefined;
    return blocks;
  }

  async *#run(c: ParsedCommand): AsyncGenerator<Step> {
    const ctx = this.#engine.ctx;
    switch (c.command) {
      case "stream_delta": {
        const before = this.#takeLead();
        const said = text(c.pieces.join(""));
        if (this.#agent) return yield* this.#emitAgent([...before, said]);
        return yield {
          kind: "message",
          parts: [...before, said],
          chunks: [...before.map(() => []), c.pieces],
        };
      }
      case "tool_use":
      case "permission_request":
      case "ask_user_question":
        return yield* this.#tool(c);
      case "tool_result":
        return; // its outcome is the result of the tool use it names
      case "result":
        return yield { kind: "result", options: resultOptions(c) };
      case "error":
        if (typeof c.code === "number") {
          return yield { kind: "apiError", status: c.code, message: c.message };
        }
        if (c.code !== undefined) {
          return yield { kind: "failure", name: c.code, message: c.message };
        }
        throw new TurnFailure(c.message);
      case "delay":
        return yield { kind: "delay", ms: c.ms };
      case "system_init": {
        const base = this.#engine.initBase?.options ?? {};
        const frameCtx = c.cwd !== undefined ? { ...ctx, cwd: c.cwd } : ctx;
        return yield emit(systemInit(frameCtx, {
          ...base,
          ...(c.model !== undefined ? { model: c.model } : {}),
          ...(c.permissionMode !== undefined ? { permissionMode: c.permissionMode as never } : {}),
          ...(c.tools !== undefined ? { tools: c.tools } : {}),
        }));
      }
      case "system_status":
        return yield emit(systemStatus(ctx, c.status));
      case "compact_boundary":
        return yield emit(compactBoundary(ctx, {
          trigger: c.trigger,
          ...(c.preTokens !== undefined ? { preTokens: c.preTokens } : {}),
        }));
      case "hook_request":
        return await this.#hook(c);
      case "scenario":
        return yield* this.#scenario(c);
    }
  }

  /**
   * A tool use: the engine's tool flow (hooks, rules or always asking, execution, result), on
   * the main thread or a subagent's; a permission request with suggestions asked here, with them.
   */
  async *#tool(c: ToolCommand): AsyncGenerator<Step> {
    const agent = this.#agent;
    const before = this.#takeLead();
    const makeCall = this.#callMaker(c);
    const suggestions = c.command === "permission_request" ? c.suggestions : undefined;
    if (suggestions === undefined) {
      const part = (ctx?: Engine["ctx"]): ScriptedToolCall => ({
        ...makeCall(ctx),
        ...(c.command === "permission_request" ? { permission: "ask" as const } : {}),
      });
      if (agent) return await this.#agentTool(part(), { before });
      return yield { kind: "message", parts: [...before, part as MessagePart] };
    }
    const call = makeCall();
    if (agent) {
      return await this.#agentTool(call, {
        before,
        decide: () =>
          askClientFor(this.#engine, this.#turn, {
            block: call.block,
            agentId: agent.agentId,
            suggestions,
          }),
      });
    }
    // written and counted as a message; asked here, with the command's suggestions
    yield { kind: "message", parts: [...before, call.block] };
    this.#turn.textOnly = false; // a reply with a tool use (asked here)
    yield* this.#settle(call, suggestions);
  }

  /**
   * A subagent's tool use, through the scenario path's subagent tool flow: checked as the
   * main agent's (PreToolUse hooks, the permission rules, `can_use_tool` with the subagent's
   * `agent_id`), or `decide`d (a permission request's own suggestions); run, then the
   * PostToolUse and PostToolBatch hooks naming the agent.
   */
  async #agentTool(
    call: ScriptedToolCall,
    { before, decide }: {
      before: AssistantContentBlock[];
      decide?: () => Promise<ToolDecision>;
    },
  ): Promise<void> {
    const engine = this.#engine;
    const turn = this.#turn;
    const agent = this.#agent!;
    const block = call.block;
    const n = agent.tools.length + 1;
    const progress = taskProgress(engine.ctx, agent.task, {
      description: activityOf(block),
      usage: {
        total_tokens: progressTokens(block),
        tool_uses: n,
        duration_ms: 55 * n,
      },
      lastToolName: block.name,
    });
    const { ran } = await subagentCall(engine, call, {
      progress,
      frames: this.#agentMessage([...before, block]),
      turn,
      flow: { authorize, execute, postToolHooks },
      agent: hookAgentOf(agent),
      subagent: agent.subagent,
      send: subagentSender(engine, turn),
      ...(decide ? { decide } : {}),
    });
    if (ran) agent.tools.push({ block, result: ran });
  }

  /** How the command's call is made (in a context): the question asked, or the tool use. */
  #callMaker(c: ToolCommand): (ctx?: Engine["ctx"]) => ScriptedToolCall {
    const ask = c.command === "ask_user_question"
      ? askUserQuestionInput({ name: undefined, path: c.at }, c.questions)
      : undefined;
    return (ctx = this.#engine.ctx) => {
      if (ask) {
        return {
          ...genericTool(ctx, "AskUserQuestion", { input: ask.input, result: "", isError: false }),
          rerun: (updated) => ask.answered(updated.answers),
        };
      }
      const use = c as Of<"tool_use" | "permission_request">;
      return mockToolCall(ctx, {
        name: use.name,
        input: use.input,
        id: use.toolUseId ?? ctx.ids.toolUseId(),
        outcome: this.#outcomes.get(use.toolUseId ?? "") ?? {},
      });
    };
  }

  /**
   * A main-thread permission request with suggestions, written here: asked about with them,
   * then denied or run (PostToolUse hooks), its result emitted and counted by the turn.
   */
  async *#settle(
    call: ScriptedToolCall,
    suggestions: PermissionSuggestion[],
  ): AsyncGenerator<Step> {
    const engine = this.#engine;
    const turn = this.#turn;
    const block = call.block;
    const decision = await askClientFor(engine, turn, {
      block,
      suggestions,
    });
    turn.userMessages++;
    if (decision.kind === "deny") {
      turn.denials.push({
        tool_name: block.name,
        tool_use_id: block.id,
        tool_input: block.input,
      });
      yield emit(toolResult(engine.ctx, block.id, {
        content: decision.message,
        isError: true,
        permissionDecision: decision.meta,
        ...(decision.nonExecutionKind ? { nonExecutionKind: decision.nonExecutionKind } : {}),
      }));
    } else {
      const started = engine.clock.now();
      const result = await execute(engine, call, decision.input, turn);
      await postToolHooks(engine, call, {
        input: decision.input,
        result,
        durationMs: Math.round(engine.clock.now() - started),
      }, turn);
      yield emit(toolResult(engine.ctx, block.id, {
        ...result,
        permissionDecision: result.permissionDecision !== undefined
          ? result.permissionDecision
          : decision.meta,
      }));
    }
    turn.awaitingReply = true;
  }

  /** A `hook_callback` to each hook the app registered for the event; their outputs taken. */
  async #hook(c: Of<"hook_request">): Promise<void> {
    const engine = this.#engine;
    const tool = typeof c.input.tool_name === "string" ? c.input.tool_name : undefined;
    const ids = hookCallbacks(engine, c.event, tool);
    if (ids.length === 0) {
      const hooks = engine.initializeRequest?.hooks;
      const registered = hooks && typeof hooks === "object" ? Object.keys(hooks) : [];
      throw new TurnFailure(
        `__mock__ hook_request: the app registered no hook for '${c.event}'${
          tool !== undefined ? ` whose matcher covers '${tool}'` : ""
        } (the SDK's hooks option; registered: ${
          registered.length > 0 ? registered.join(", ") : "none"
        })`,
      );
    }
    for (const id of ids) {
      const output = await callHook(engine, id, { ...c.input, hook_event_name: c.event }, {
        turn: this.#turn,
        ...(c.toolUseId !== undefined ? { toolUseId: c.toolUseId } : {}),
      });
      keepContext(engine, output);
      if (output.continue === false) {
        await stopByHook(engine, this.#turn, String(output.stopReason ?? ""));
        return;
      }
    }
  }

  /** One exchange of a scenario: the first whose trigger matches the prompt. */
  async *#scenario(c: Of<"scenario">): AsyncGenerator<Step> {
    const turn = this.#turn;
    const prompt = c.prompt ?? "";
    const exchanges = c.scenario.exchanges;
    let picked: Exchange | undefined;
    try {
      picked = exchanges.find((e) => e.trigger.test(prompt, turn.input));
    } catch (error) {
      throw new TurnFailure(
        `__mock__ scenario: a trigger of scenario ${c.label} threw: ${(error as Error).message}`,
      );
    }
    if (!picked && c.prompt === undefined) picked = exchanges[0];
    if (!picked) {
      throw new TurnFailure(
        `__mock__ scenario: ${
          exchanges.length === 0
            ? `scenario ${c.label} has no exchanges`
            : `no exchange of scenario ${c.label} matches the prompt ${JSON.stringify(prompt)}`
        }`,
      );
    }
    const info: TurnInfo = {
      input: turn.input,
      text: prompt,
      turn: turn.index,
      ctx: this.#engine.ctx,
      match: picked.trigger.exec?.(prompt) ?? undefined,
    };
    const timing = picked.timing ?? c.scenario.timing;
    const profile = turn.profile;
    if (timing) turn.profile = timingProfile(timing);
    try {
      const steps = typeof picked.steps === "function" ? picked.steps(info) : picked.steps;
      for await (const step of steps) {
        yield step;
        if (this.#ended) return;
      }
    } finally {
      turn.profile = profile;
    }
  }

  /** Writes a subagent's assistant message (one frame per block). */
  *#emitAgent(blocks: Array<AssistantContentBlock | ToolUseBlock>): Generator<Step> {
    yield emit(this.#agentMessage(blocks));
  }

  /** A subagent's assistant message (one frame per block); what it said is its report so far. */
  #agentMessage(blocks: Array<AssistantContentBlock | ToolUseBlock>): Frame[] {
    const agent = this.#agent!;
    const said = blocks.flatMap((b) => b.type === "text" ? [b.text] : []).join("");
    if (said !== "") agent.lastText = said;
    const frames = assistantMessage(this.#engine.ctx, blocks, { subagent: agent.subagent });
    agent.said.push(...frames);
    return frames;
  }

  /** Writes the lead as a message of its own (no tool use followed it). */
  async *#flushLead(): AsyncGenerator<Step> {
    const lead = this.#lead;
    if (!lead) return;
    const blocks = this.#takeLead();
    if (lead.agentId !== undefined && this.#agent?.agentId === lead.agentId) {
      return yield* this.#emitAgent(blocks);
    }
    yield { kind: "message", parts: blocks };
  }

  /**
   * Makes `agentId` the running subagent (ending another one first): its Agent tool use on the
   * main thread, checked as any tool use (PreToolUse hooks, the rules), then `task_started`,
   * SubagentStart and its prompt, as the scenario path's subagent. An Agent tool use that may
   * not run gets its denial (or error) and no subagent: its commands are left out.
   */
  async *#enter(agentId: string): AsyncGenerator<Step> {
    if (this.#agent?.agentId === agentId) return;
    yield* this.#leave();
    const engine = this.#engine;
    const turn = this.#turn;
    const block = agentToolUse(engine.ctx, agentId);
    // the Agent tool use is a message of the main thread (counted), with what the main
    // thread said just before it
    const said = this.#lead?.agentId === undefined ? this.#takeLead() : [];
    yield { kind: "message", parts: [...said, block] };
    turn.textOnly = false; // a reply with a tool use (written here, not by the message step)
    const call: ScriptedToolCall = {
      block,
      result: { content: "", isError: false, toolUseResult: null },
    };
    const decision = await authorize(engine, call, turn);
    if (decision.kind !== "allow") {
      this.#refused.add(agentId);
      await refuseTool(engine, call, { decision, turn });
      turn.awaitingReply = true;
      return;
    }
    const now = engine.clock.now();
    const { agent, started } = startAgent(engine.ctx, block, { agentId, now });
    this.#agent = agent;
    this.#agentRun = { input: decision.input, meta: decision.meta, startedAt: now };
    this.#restoreFiles = keepFileContext(engine);
    // as the scenario path's subagent: SubagentStart right after task_started, then its prompt
    yield emit(started);
    await subagentStartHooks(engine, turn, hookAgentOf(agent));
    yield emit(agentPrompt(engine.ctx, agent));
  }

  /**
   * Ends the running subagent as the scenario path does: SubagentStop with its report, its
   * task frames, the Agent tool's PostToolUse hooks, its result, its PostToolBatch hooks.
   */
  async *#leave(): AsyncGenerator<Step> {
    const agent = this.#agent;
    const ran = this.#agentRun;
    if (!agent || !ran) return;
    const engine = this.#engine;
    const turn = this.#turn;
    this.#agent = undefined;
    this.#agentRun = undefined;
    this.#restoreFiles?.();
    this.#restoreFiles = undefined;
    await subagentStopHooks(engine, turn, {
      agent: hookAgentOf(agent),
      lastMessage: agent.lastText,
    });
    const { frames, outcome } = finishAgent(engine.ctx, agent, { now: engine.clock.now() });
    yield emit(frames);
    const call: ScriptedToolCall = { block: agent.block, result: outcome };
    // its API calls, as a scenario's subagent's: its messages (its report among them: a
    // subagent's report is its last message, which the commands wrote)
    billSubagent(engine, {
      ...call,
      result: { ...outcome, toolUseResult: agent.lastText === "" ? outcome.toolUseResult : null },
    }, agent.said);
    await postToolHooks(engine, call, {
      input: ran.input,
      result: outcome,
      durationMs: Math.round(engine.clock.now() - ran.startedAt),
    }, turn);
    turn.userMessages++;
    const result = toolResult(engine.ctx, agent.block.id, {
      ...outcome,
      permissionDecision: outcome.permissionDecision ?? ran.meta,
    });
    yield emit(result);
    turn.awaitingReply = true;
    // the end of the Agent tool use's message: PostToolBatch, a hook's stop
    const content = (result.message.content as Array<{ content?: unknown }>)[0].content;
    turn.batchResults = new Map([[agent.block.id, content]]);
    await finishMessage(engine, turn, [agent.block]);
  }
}

/** Whether a command that carries no `agent_id` speaks on the main thread. */
function isMainThread(c: ParsedCommand): boolean {
  return c.command === "result" || c.command === "error" || c.command === "scenario";
}

function emit(frame: Frame | Frame[]): Step {
  return { kind: "emit", frame: Array.isArray(frame) ? () => frame : frame };
}

function resultOptions(c: Of<"result">): ResultOptions {
  const options: ResultOptions = {};
  if (c.isError) {
    options.subtype = "error_during_execution";
    options.errors = [c.result ?? "__mock__ result: the turn ended with an error result"];
  } else if (c.result !== undefined) options.result = c.result;
  if (c.cost !== undefined) options.totalCostUsd = c.cost;
  if (c.durationMs !== undefined) options.extra = { duration_ms: c.durationMs };
  return options;
}
