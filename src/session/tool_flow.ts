/**
 * The tool flow, as the real CLI runs a tool use: PreToolUse hooks, then the permission
 * rules, then (when they say ask) `can_use_tool` (`tool_permission.ts`); then the tool (an
 * in-process MCP tool through `mcp_message`, else its scripted result); then PostToolUse hooks.
 *
 * @module
 */

import { mcpToolOutcome } from "./mcp_tool_result.ts";
import { mcpToolCallRequest } from "../builders/control.ts";
import type { ScriptedToolCall } from "../scenario/step.ts";
import { billSubagent } from "./subagent_billing.ts";
import { contentAfter, resultOnFile } from "./file_contents.ts";
import { editOfUnreadFile } from "../builders/edit_of_unread_file.ts";
import { type Frame, isObject } from "../wire/frame.ts";
import { STRUCTURED_OUTPUT, structuredOutput } from "./structured_output.ts";
import type { Engine } from "./engine.ts";
import { callHooksTogether, type HookAgent, hookCallbacks, keepContext } from "./hook_runner.ts";
import { AGENT_RUN, agentResult, type AgentRun } from "../builders/_agent_run.ts";
import { onModel, runSubagent } from "./subagent_run.ts";
import { runUntilInterrupt } from "./run_until_interrupt.ts";
import { launchBackground } from "./background_agents.ts";
import { subagentMode, subagentModel } from "./session_agents.ts";
import { limitTurns } from "./subagent_turn_limit.ts";
import { PLAN_MODE_TOOLS, runPlanModeTool } from "./plan_mode.ts";
import {
  deferredSchemaHint,
  mcpServerField,
  mcpServerOf,
  mcpServerProvenance,
  sdkMcpServers,
} from "./mcp_servers.ts";
import { TurnFailure, type TurnState } from "./turn_state.ts";

import { authorize } from "./tool_permission.ts";
import { TASK_TOOL_NAMES } from "./task_list.ts";

/**
 * Runs a tool (an in-process MCP tool through `mcp_message`, else its scripted result) and
 * reports it as the session's file context makes the real CLI report it.
 */
export async function execute(
  engine: Engine,
  call: ScriptedToolCall,
  input: Record<string, unknown>,
  turn: TurnState,
): Promise<ScriptedToolCall["result"]> {
  const result = await runTool(engine, call, input, turn);
  return inContext(engine, call, input, result);
}

/** Tools after which the session knows a file's state (an Edit of one it does not differs). */
const CONTEXT_TOOLS: ReadonlySet<string> = new Set([
  "Read",
  "Write",
  "Edit",
  "MultiEdit",
  "NotebookEdit",
]);

/**
 * Keeps track of the files the session read, wrote or edited: an Edit of any other is
 * reported as the real CLI 2.1.328 reports it.
 */
function inContext(
  engine: Engine,
  call: ScriptedToolCall,
  input: Record<string, unknown>,
  result: ScriptedToolCall["result"],
): ScriptedToolCall["result"] {
  const tool = call.block.name;
  const file = input.file_path ?? input.notebook_path;
  if (!CONTEXT_TOOLS.has(tool) || typeof file !== "string") return result;
  // an Edit or Write that did not say the file's content starts from what the session's tools
  // showed
  result = resultOnFile(engine.fileContents, call, input, engine.ctx, result);
  const known = engine.filesInContext.has(file);
  if (!result.isError) engine.filesInContext.add(file);
  const after = result.isError ? undefined : call.fileContent ?? contentAfter(tool, result);
  if (after !== undefined) engine.fileContents.set(file, after);
  return tool === "Edit" && !known ? editOfUnreadFile(result) : result;
}

/** Runs a tool: an in-process MCP tool through `mcp_message`, else its scripted result. */
async function runTool(
  engine: Engine,
  call: ScriptedToolCall,
  input: Record<string, unknown>,
  turn: TurnState,
): Promise<ScriptedToolCall["result"]> {
  const block = call.block;
  const changed = input !== block.input && JSON.stringify(input) !== JSON.stringify(block.input);
  const server = mcpServerOf(block.name);
  if (server && sdkMcpServers(engine.initializeRequest).includes(server)) {
    const request = mcpToolCallRequest(engine.ctx, { ...block, input }, {
      jsonRpcId: engine.jsonRpcId++,
    });
    const answer = await engine.control.request(request, { signal: turn.abort.signal });
    const where = `the client's answer to mcp_message tools/call for ${block.name}`;
    const message = answer.mcp_response;
    if (!isObject(message)) {
      throw new TurnFailure(
        `claude-mock: ${where} is malformed: 'response.mcp_response' must be an object`,
      );
    }
    if (isObject(message.error)) {
      const text = `MCP error ${message.error.code ?? ""}: ${
        message.error.message ?? "unknown error"
      }`.trim();
      return { content: text, isError: true, toolUseResult: `Error: ${text}` };
    }
    const result = message.result;
    if (!isObject(result) || !Array.isArray(result.content)) {
      throw new TurnFailure(
        `claude-mock: ${where} is malformed: 'response.mcp_response.result.content' must be an array`,
      );
    }
    if (result.isError === true) {
      const said = (result.content as Array<{ type?: string; text?: string }>)
        .map((b) => (b?.type === "text" ? b.text ?? "" : "")).join("\n");
      // As the real CLI 2.1.328: the tool's own text in the result, "Error: " before it only
      // in tool_use_result.
      return {
        content: `${said}${deferredSchemaHint(engine.initializeRequest, server, block.name)}`,
        isError: true,
        toolUseResult: `Error: ${said}`,
      };
    }
    return mcpToolOutcome(result, { server, tool: block.name, ctx: engine.ctx, env: engine.env });
  }
  if (block.name === STRUCTURED_OUTPUT && engine.jsonSchema !== undefined) {
    return await structuredOutput(engine, input, turn);
  }
  // the task tools run on the session's task list, as the real CLI runs them
  if (TASK_TOOL_NAMES.has(block.name)) return engine.tasks.run(block.name, input);
  // plan mode's tools switch the mode, as the real CLI's
  if (PLAN_MODE_TOOLS.has(block.name)) return await runPlanModeTool(engine, call, turn);
  // a tool a `__mock__` prompt asked for runs live only with the explicit opt-in
  if (engine.runTool && (!turn.byCommand || engine.mockCommands === "live")) {
    const live = await engine.runTool({ name: block.name, input, ctx: engine.ctx });
    if (live) return live;
  }
  if (block.name === "Agent" || block.name === "Task") {
    return await runAgentTool(engine, call, { input, turn, changed });
  }
  // a tool that runs until the app interrupts: its result is the interrupt tail's rejection
  if (call.untilInterrupt) await runUntilInterrupt(engine, turn, call);
  if (call.frames) {
    for (const frame of call.frames(engine.ctx)) {
      if (turn.abort.aborted) throw turn.abort.reason;
      await engine.send({ frame, delay: engine.delayFor(frame, turn) });
    }
  }
  return changed && call.rerun ? call.rerun(input, engine.ctx) : call.result;
}

/**
 * The Agent tool: the subagent of its `subagent_type` runs on its agent's model (its frames
 * written, its tools through this same flow, its calls billed), or, when the session has no
 * agent of that type, the CLI's error.
 */
async function runAgentTool(
  engine: Engine,
  call: ScriptedToolCall,
  options: { input: Record<string, unknown>; turn: TurnState; changed: boolean },
): Promise<ScriptedToolCall["result"]> {
  const { input, turn, changed } = options;
  const type = String(input.subagent_type ?? "general-purpose");
  if (!engine.agents.some((a) => a.name === type)) {
    // as the real CLI 2.1.328 and 2.1.332: no subagent starts
    return unknownAgent(engine, type);
  }
  const model = subagentModel(engine.agents, type, engine.ctx.model);
  const scripted = (call as { [AGENT_RUN]?: AgentRun })[AGENT_RUN];
  if (scripted !== undefined) {
    const def = Object.hasOwn(engine.customAgents, type) ? engine.customAgents[type] : undefined;
    // the subagent's run as its agent's maxTurns cuts it, its tools through this same flow,
    // decided in its agent's permission mode
    const { run, stopped } = limitTurns(scripted, def?.maxTurns);
    const mode = subagentMode(engine.ctx.permissionMode, def?.permissionMode);
    if (def?.background === true || input.run_in_background === true) {
      // launched in the background (2.1.332): the call returns at once; the subagent runs after
      // the turn, then the CLI's notification turn
      const flow = { authorize, execute, postToolHooks };
      return await launchBackground(engine, { run, call, model, mode, flow }, turn);
    }
    const written: Frame[] = [];
    let ran;
    try {
      ran = await runSubagent(engine, run, {
        turn,
        flow: { authorize, execute, postToolHooks },
        model,
        mode,
        sent: written,
      });
    } catch (error) {
      if (turn.stoppedTasks?.includes(run.task)) {
        // interrupted while it ran (2.1.328, 2.1.332): its calls are billed, it is killed by the
        // user, and the outermost Agent call's result is the CLI's rejection
        billSubagent(engine, call, written, { model, report: false, killed: true });
        if (engine.subagentNesting.running.length === 0) {
          turn.rejectedTool = call.block;
          turn.rejectedRunning = true;
        }
      }
      throw error;
    }
    const { sent, missing } = ran;
    billSubagent(engine, call, sent, { model, report: stopped === undefined });
    if ((missing.size > 0 || stopped !== undefined) && !changed) {
      // the tools it could not use are not among those it used; a stopped one has no report
      return {
        ...call.result,
        ...agentResult(engine.ctx, run, {
          missing,
          model,
          ...(stopped !== undefined ? { turnLimit: stopped } : {}),
        }),
      };
    }
  } else if (call.frames) {
    const sent: Frame[] = [];
    for (const frame of call.frames(engine.ctx)) {
      if (turn.abort.aborted) throw turn.abort.reason;
      const out = onModel(frame, model);
      sent.push(out);
      await engine.send({ frame: out, delay: engine.delayFor(out, turn) });
    }
    billSubagent(engine, call, sent, { model });
  }
  const result = changed && call.rerun ? call.rerun(input, engine.ctx) : call.result;
  return withResolvedModel(result, model);
}

/** The Agent tool's result for a `subagent_type` the session has no agent of. */
function unknownAgent(engine: Engine, type: string): ScriptedToolCall["result"] {
  const text = `Agent type '${type}' not found. Available agents: ${
    engine.agents.map((a) => a.name).join(", ")
  }`;
  return {
    content: text,
    isError: true,
    toolUseResult: `Error: ${text}`,
    permissionDecision: "configAllowed",
  };
}

/** The Agent tool's result naming the model its subagent ran on (`resolvedModel`). */
function withResolvedModel(
  result: ScriptedToolCall["result"],
  model: string,
): ScriptedToolCall["result"] {
  const tur = result.toolUseResult;
  if (!isObject(tur) || !("resolvedModel" in tur) || tur.resolvedModel === model) return result;
  return { ...result, toolUseResult: { ...tur, resolvedModel: model } };
}

/**
 * PostToolUse (or PostToolUseFailure) hooks after a tool ran; the result the tool use then
 * has: as the real CLI 2.1.328 to 2.1.332, a PostToolUse hook's `updatedMCPToolOutput`
 * replaces an MCP tool's result as it is (the tool result's content and `tool_use_result`);
 * `updatedToolOutput` changes nothing the client sees (recorded for Bash).
 */
export async function postToolHooks(
  engine: Engine,
  call: ScriptedToolCall,
  ran: { input: Record<string, unknown>; result: ScriptedToolCall["result"]; durationMs: number },
  turn: TurnState,
  options: { agent?: HookAgent } = {},
): Promise<ScriptedToolCall["result"]> {
  const block = call.block;
  const { input, durationMs } = ran;
  let result = ran.result;
  const event = result.isError ? "PostToolUseFailure" : "PostToolUse";
  const server = mcpServerProvenance(engine.initializeRequest, block.name);
  const outputs = await callHooksTogether(engine, hookCallbacks(engine, event, block.name), {
    hook_event_name: event,
    tool_name: block.name,
    tool_input: input,
    // as the real CLI 2.1.332: a failure's input has the tool use's id before the error, and
    // says whether an interrupt ended it
    ...(result.isError
      ? {
        tool_use_id: block.id,
        error: typeof result.content === "string" ? result.content : JSON.stringify(result.content),
        is_interrupt: false,
      }
      : { tool_response: result.toolUseResult ?? result.content, tool_use_id: block.id }),
    duration_ms: durationMs,
    ...mcpServerField(engine, block.name),
  }, { turn, toolUseId: block.id, ...(options.agent ? { agent: options.agent } : {}) });
  for (const output of outputs) {
    keepContext(engine, output);
    const specific = isObject(output.hookSpecificOutput) ? output.hookSpecificOutput : {};
    if (
      event === "PostToolUse" && server !== undefined && "updatedMCPToolOutput" in specific &&
      specific.updatedMCPToolOutput !== undefined
    ) {
      result = replacedOutput(block.id, result, specific.updatedMCPToolOutput);
    }
  }
  return result;
}

/**
 * A tool result whose output a hook replaced, as the real CLI writes it: the value as it is,
 * as the tool result's content and `tool_use_result`. A value that is not a string or blocks
 * (the tool result builder takes no other) is written in place of the block's content.
 */
function replacedOutput(
  toolUseId: string,
  result: ScriptedToolCall["result"],
  replaced: unknown,
): ScriptedToolCall["result"] {
  if (typeof replaced === "string" || Array.isArray(replaced)) {
    return { ...result, content: replaced, toolUseResult: replaced };
  }
  const block = { tool_use_id: toolUseId, type: "tool_result", content: replaced };
  // `extra` of the builder's options: the message keeps its place in the frame
  const withFrame: ScriptedToolCall["result"] & { extra: Record<string, unknown> } = {
    ...result,
    content: "",
    toolUseResult: replaced,
    extra: { message: { role: "user", content: [block] } },
  };
  return withFrame;
}

/** The reason the real CLI gives when it denies a tool use it would have asked about. */
