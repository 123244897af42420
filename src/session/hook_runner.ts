/**
 * Hooks: which of the client's registered hook callbacks an event reaches (matchers as
 * the real CLI reads them), and the `hook_callback` round trip.
 *
 * @module
 */

import { hookCallbackRequest, hookInput } from "../builders/control.ts";
import { userText } from "../builders/user.ts";
import { systemInformational } from "../builders/system.ts";
import { DEFAULT_HOME, projectSlug } from "../builders/project_paths.ts";
import { type AssistantContentBlock, isObject } from "../wire/frame.ts";
import { type CommandHook, matcherCovers } from "./command_hooks.ts";
import { runCommandHook } from "./command_hook_run.ts";
import { hookNotice } from "./hook_notices.ts";
import { ClientAnswerError } from "./control_channel.ts";
import type { Engine } from "./engine.ts";
import { sendResult } from "./turn_result.ts";
import { StreamClosed, type TurnState } from "./turn_state.ts";
import { AbortLatch } from "../timing/_abort_latch.ts";

/**
 * One hook an event reaches: the id of a callback the client registered in `initialize`, or a
 * command hook of the settings (run by the session's `HookCommandRunner`).
 */
export type HookHandle = string | CommandHook;

/**
 * The hooks registered for `event` whose matcher covers `tool`: the client's callbacks (their
 * ids), then the settings' command hooks when the session runs them, as the real CLI runs both.
 */
export function hookCallbacks(engine: Engine, event: string, tool?: string): HookHandle[] {
  const found: HookHandle[] = [];
  // the settings' command hooks first: the real CLI (2.1.332) starts them (their
  // `hook_started` frames) before it writes the callbacks' `hook_callback` requests
  if (engine.runHookCommand) {
    for (const hook of engine.commandHooks) {
      if (hook.event === event && matcherCovers(hook.matcher, tool)) found.push(hook);
    }
  }
  const hooks = engine.initializeRequest?.hooks;
  const matchers = isObject(hooks) ? hooks[event] : undefined;
  if (Array.isArray(matchers)) {
    for (const m of matchers) {
      if (!isObject(m) || !Array.isArray(m.hookCallbackIds)) continue;
      if (!matcherCovers(m.matcher, tool)) continue;
      for (const id of m.hookCallbackIds) if (typeof id === "string") found.push(id);
    }
  }
  return found;
}

/**
 * Runs the hooks of one event together, as the real CLI (2.1.328 to 2.1.332) runs every hook
 * that matches (command hooks and callbacks alike): all start at once, each with the same
 * input; resolves with their outputs in the order they finished, the order the CLI reads them
 * in (`additionalContext`, decisions).
 */
export async function callHooksTogether(
  engine: Engine,
  handles: readonly HookHandle[],
  event: { hook_event_name: string; [key: string]: unknown },
  options: { turn: TurnState; toolUseId?: string; agent?: HookAgent },
): Promise<Record<string, unknown>[]> {
  if (handles.length === 0) return [];
  if (handles.length === 1) return [await callHook(engine, handles[0], event, options)];
  const finished: Record<string, unknown>[] = [];
  await Promise.all(handles.map(async (handle) => {
    finished.push(await callHook(engine, handle, event, options));
  }));
  return finished;
}

/**
 * Runs the hooks of one event together and takes the first answer that decides, as the real
 * CLI (2.1.328 to 2.1.332) takes a PermissionRequest hook's decision: every hook starts at
 * once; the first output `decide` maps to a value settles it at once, and the hooks still
 * running are abandoned (a command hook is killed and writes no `hook_response`, a callback's
 * late answer is ignored). `undefined` when every hook ended without a decision.
 */
export function firstHookDecision<T>(
  engine: Engine,
  handles: readonly HookHandle[],
  event: { hook_event_name: string; [key: string]: unknown },
  options: {
    turn: TurnState;
    toolUseId?: string;
    agent?: HookAgent;
    decide: (output: Record<string, unknown>) => T | undefined;
  },
): Promise<T | undefined> {
  if (handles.length === 0) return Promise.resolve(undefined);
  const { decide, ...call } = options;
  const { turn } = call;
  // the hooks' own latch: aborted when the turn is, or once one hook decided
  const abort = new AbortLatch();
  const unlink = turn.abort.onAbort((reason) => abort.abort(reason));
  if (turn.abort.aborted) abort.abort(turn.abort.reason);
  return new Promise<T | undefined>((resolve, reject) => {
    let left = handles.length;
    let settled = false;
    const settle = (how: () => void) => {
      if (settled) return;
      settled = true;
      unlink();
      how();
    };
    for (const handle of handles) {
      callHook(engine, handle, event, { ...call, abort }).then((output) => {
        left--;
        const decided = settled ? undefined : decide(output);
        if (decided !== undefined) {
          settle(() => resolve(decided));
          abort.abort(new DOMException("Another hook decided", "AbortError"));
        } else if (left === 0) settle(() => resolve(undefined));
      }, (error) => {
        left--;
        // a hook abandoned because another decided is no failure
        settle(() => reject(error));
      });
    }
  });
}

/**
 * Hook events whose input carries neither the permission mode nor the effort level (the real
 * CLI 2.1.328's compaction, subagent and tool hooks).
 */
const PLAIN_EVENTS: ReadonlySet<string> = new Set([
  "InstructionsLoaded",
  "PreCompact",
  "PostCompact",
  "SessionStart",
  "MessageDisplay",
  "SubagentStart",
]);

/** The subagent a hook is about (its tools' hooks, SubagentStart, SubagentStop). */
export interface HookAgent {
  /** The agent id (the task id). */
  id: string;
  /** The subagent type (`""` for the summarizer of `/compact`). */
  type: string;
}

/**
 * Asks the client to run one hook callback; resolves with its output. The input has the
 * fields every hook gets in the real CLI's order: `session_id`, `transcript_path`, `cwd`,
 * `prompt_id`, then (but for the events that carry neither, and StopFailure) `permission_mode`, a subagent's
 * `agent_id` and `agent_type`, `effort` (not for UserPromptSubmit and UserPromptExpansion), then
 * the event's own.
 */
export async function callHook(
  engine: Engine,
  callbackId: HookHandle,
  event: { hook_event_name: string; [key: string]: unknown },
  options: { turn: TurnState; toolUseId?: string; agent?: HookAgent; abort?: AbortLatch },
): Promise<Record<string, unknown>> {
  const built = hookInput(engine.ctx, event, {
    promptId: options.turn.promptId,
    ...(engine.flags.effort !== undefined ? { effort: engine.flags.effort } : {}),
  });
  const { permission_mode, effort, ...rest } = built;
  const { session_id, transcript_path, cwd, prompt_id, ...own } = rest;
  const name = event.hook_event_name;
  const plain = PLAIN_EVENTS.has(name);
  const input: Record<string, unknown> = {
    session_id,
    transcript_path,
    cwd,
    ...(name === "InstructionsLoaded" ? {} : { prompt_id }),
    ...(plain || name === "StopFailure" ? {} : { permission_mode }),
    ...(options.agent ? { agent_id: options.agent.id, agent_type: options.agent.type } : {}),
    ...(plain || name === "UserPromptSubmit" || name === "UserPromptExpansion" ? {} : { effort }),
    ...own,
  };
  let output: Record<string, unknown>;
  try {
    output = typeof callbackId !== "string"
      ? await runCommandHook(engine, callbackId, input, options)
      : await callbackHook(engine, callbackId, input, options);
    // abandoned (another hook of the event decided): its answer is not read
    if (options.abort?.aborted) throw options.abort.reason;
  } catch (error) {
    // a callback that threw (the SDK answers with an error) or returned no object: as the real
    // CLI (2.1.328), the hook is passed over, as if it had returned nothing
    if (error instanceof ClientAnswerError && typeof callbackId === "string") {
      await callbackFailed(engine, { event: name, callbackId, error });
      return {};
    }
    // stdin closed, so the app cannot answer: as the real CLI (2.1.328 to 2.1.332), a
    // PreToolUse hook's tool use is cancelled (the caller's to do), any other hook passed over
    if (!(error instanceof StreamClosed) || name === "PreToolUse") throw error;
    return {};
  }
  const noticed = hookNotice(engine, options.turn, {
    event: name,
    ...(typeof event.tool_name === "string" ? { tool: event.tool_name } : {}),
    ...(options.toolUseId !== undefined ? { toolUseId: options.toolUseId } : {}),
  }, output);
  if (noticed) await noticed;
  return output;
}

/**
 * What the real CLI (2.1.328) shows of a hook callback the SDK answered with an error (it threw)
 * or with no object: a line on stderr, and a warning (`system/informational`, tag
 * `hook_callback_failed`) before the event goes on as if the hook had returned nothing.
 */
async function callbackFailed(
  engine: Engine,
  { event, callbackId, error }: { event: string; callbackId: string; error: Error },
): Promise<void> {
  engine.stderr(`Error in hook callback ${callbackId}: ${error.message}\n`);
  const notice = systemInformational(
    engine.ctx,
    `${event}: Hook callback ${callbackId} failed: the SDK host replied with an error or an ` +
      "invalid answer. Its answer was treated as empty.",
    { level: "warning", tag: "hook_callback_failed" },
  );
  await engine.send({ frame: notice, delay: 0 });
}

/** The `hook_callback` round trip of one of the client's hook callbacks. */
function callbackHook(
  engine: Engine,
  callbackId: string,
  input: Record<string, unknown>,
  options: { turn: TurnState; toolUseId?: string; abort?: AbortLatch },
): Promise<Record<string, unknown>> {
  const request = hookCallbackRequest(engine.ctx, callbackId, {
    input,
    // hooks that are not about a tool carry a fresh uuid there, as the real CLI's do
    toolUseId: options.toolUseId ?? engine.ctx.ids.uuid(),
  });
  // the request's own promise, not another layer: a callback's answer arrives in as many
  // steps as before command hooks existed (interrupt races count them)
  return engine.control.request(request, { signal: (options.abort ?? options.turn.abort).signal });
}

/**
 * The MessageDisplay hooks for a text the main agent shows, run together and awaited before
 * its assistant frame (after its stream events with partial messages), as the real CLI 2.1.328
 * calls them (with and without partial messages): the whole text as one final `delta`, `index`
 * the text's place among the message's texts, a `message_id` of its own.
 */
export async function messageDisplayHooks(
  engine: Engine,
  turn: TurnState,
  shown: { text: string; index: number },
): Promise<void> {
  const callbacks = hookCallbacks(engine, "MessageDisplay");
  if (callbacks.length === 0) return;
  const ids = engine.ctx.ids;
  turn.displayTurnId ??= ids.uuid();
  const messageId = ids.uuid();
  // together, as the real CLI 2.1.332 runs them (hooks_command_message_display_together)
  await callHooksTogether(engine, callbacks, {
    hook_event_name: "MessageDisplay",
    turn_id: turn.displayTurnId,
    message_id: messageId,
    index: shown.index,
    final: true,
    delta: shown.text,
  }, { turn });
}

/**
 * The PostToolBatch hooks once a message's tools all ran, before the next API call, as the real
 * CLI 2.1.328 calls them: each tool use of the message with its result's
 * content, the request's `tool_use_id` a `hook-<uuid>`. `additionalContext` is kept.
 */
export async function postToolBatchHooks(
  engine: Engine,
  turn: TurnState,
  blocks: readonly AssistantContentBlock[],
  results: ReadonlyMap<string, unknown>,
  options: { agent?: HookAgent } = {},
): Promise<void> {
  const callbacks = hookCallbacks(engine, "PostToolBatch");
  if (callbacks.length === 0) return;
  const toolCalls = blocks.flatMap((block) =>
    block.type === "tool_use"
      ? [{
        tool_name: block.name,
        tool_input: block.input,
        tool_use_id: block.id,
        ...(results.has(block.id) ? { tool_response: results.get(block.id) } : {}),
      }]
      : []
  );
  const toolUseId = `hook-${engine.ctx.ids.uuid()}`;
  const outputs = await callHooksTogether(engine, callbacks, {
    hook_event_name: "PostToolBatch",
    tool_calls: toolCalls,
  }, { turn, toolUseId, ...(options.agent ? { agent: options.agent } : {}) });
  for (const output of outputs) keepContext(engine, output);
}

/**
 * The SubagentStart hooks as a subagent begins (right after its `task_started`), as the real
 * CLI calls them: the agent's id and type, no permission mode, no effort. Matchers match the
 * agent's type (an agent of no type: every matcher).
 */
export async function subagentStartHooks(
  engine: Engine,
  turn: TurnState,
  agent: HookAgent,
): Promise<void> {
  const handles = hookCallbacks(engine, "SubagentStart", agent.type || undefined);
  const event = { hook_event_name: "SubagentStart" };
  for (const output of await callHooksTogether(engine, handles, event, { turn, agent })) {
    keepContext(engine, output);
  }
}

/**
 * The SubagentStop hooks once a subagent gave its last message, as the real CLI calls them:
 * the agent's own transcript path, its last message, no background tasks. Matchers match the
 * agent's type (an agent of no type, as `/compact`'s summarizer: every matcher).
 */
export async function subagentStopHooks(
  engine: Engine,
  turn: TurnState,
  stop: { agent: HookAgent; lastMessage: string },
): Promise<void> {
  const { agent } = stop;
  const ctx = engine.ctx;
  await callHooksTogether(engine, hookCallbacks(engine, "SubagentStop", agent.type || undefined), {
    hook_event_name: "SubagentStop",
    stop_hook_active: false,
    agent_transcript_path: `${DEFAULT_HOME}/.claude/projects/${
      projectSlug(ctx.cwd)
    }/${ctx.sessionId}/subagents/agent-${agent.id}.jsonl`,
    last_assistant_message: stop.lastMessage,
    background_tasks: [],
    session_crons: [],
  }, { turn, agent });
}

/**
 * The StopFailure hooks where an API error ends the turn (in the Stop hooks' place: those are
 * not called), after the error's assistant message and before the result, as the real CLI
 * 2.1.332 calls them: the error's category (the message's `error`: `unknown` for a 400) and
 * the error's text as the last assistant message; no permission mode.
 */
export async function stopFailureHooks(
  engine: Engine,
  turn: TurnState,
  failure: { error: string; lastMessage: string },
): Promise<void> {
  await callHooksTogether(engine, hookCallbacks(engine, "StopFailure", failure.error), {
    hook_event_name: "StopFailure",
    error: failure.error,
    last_assistant_message: failure.lastMessage,
  }, { turn });
}

/**
 * The InstructionsLoaded hooks, once per session at its first prompt (before UserPromptSubmit),
 * when the project folder has a `CLAUDE.md`, as the real CLI 2.1.328 to 2.1.332 calls them: its
 * absolute path, `memory_type: "Project"`, `load_reason: "session_start"`; no prompt id,
 * permission mode or effort. Matchers match the load reason. The project folder is read through
 * the session's hook runner (a session without one knows no project files: no call).
 * `undefined` (nothing to await) when there is nothing to call.
 */
export function instructionsLoadedHooks(
  engine: Engine,
  turn: TurnState,
): Promise<void> | undefined {
  if (engine.instructionsLoaded) return undefined;
  engine.instructionsLoaded = true;
  const handles = hookCallbacks(engine, "InstructionsLoaded", "session_start");
  if (handles.length === 0) return undefined;
  let found: string | undefined;
  try {
    found = engine.runHookCommand?.readText?.("CLAUDE.md");
  } catch {
    found = undefined;
  }
  if (found === undefined) return undefined;
  return callHooksTogether(engine, handles, {
    hook_event_name: "InstructionsLoaded",
    file_path: `${engine.ctx.cwd.replace(/\/$/, "")}/CLAUDE.md`,
    memory_type: "Project",
    load_reason: "session_start",
  }, { turn }).then(() => {});
}

/** Keeps a hook's `additionalContext`. */
export function keepContext(engine: Engine, output: Record<string, unknown>): void {
  const specific = isObject(output.hookSpecificOutput) ? output.hookSpecificOutput : {};
  if (typeof specific.additionalContext === "string") {
    engine.hookContext.push(specific.additionalContext);
  }
}

/**
 * The Stop hooks where the model's reply would end the turn. One that says `continue: false`
 * ends the turn (`"stopped"`); one that blocks (`decision: "block"`, a command hook's exit 2)
 * keeps it going as the real CLI 2.1.332 does: its reason reaches the model in a synthetic
 * user frame (`Stop hook feedback:\n<reason>`), a `stop-hook-error` notification follows, and
 * the next Stop hooks are told `stop_hook_active: true` (`"blocked"`).
 */
export async function stopHooks(
  engine: Engine,
  turn: TurnState,
): Promise<"stopped" | "blocked" | undefined> {
  const blocks: string[] = [];
  const outputs = await callHooksTogether(engine, hookCallbacks(engine, "Stop"), {
    hook_event_name: "Stop",
    stop_hook_active: turn.stopHookActive === true,
    last_assistant_message: turn.lastText,
    background_tasks: [],
    session_crons: [],
  }, { turn });
  for (const output of outputs) {
    if (output.continue === false) {
      await stopByHook(engine, turn, String(output.stopReason ?? ""));
      return "stopped";
    }
    if (output.decision === "block") blocks.push(String(output.reason ?? ""));
  }
  if (blocks.length === 0) return undefined;
  turn.stopHookActive = true;
  turn.userMessages++; // the feedback, as the real CLI counts it in `num_turns`
  const ctx = engine.ctx;
  const feedback = {
    ...userText(ctx, `Stop hook feedback:\n${blocks.join("\n")}`),
    isSynthetic: true,
  };
  await engine.send({ frame: feedback, delay: 0 });
  await engine.send({
    frame: {
      type: "system",
      subtype: "notification",
      key: "stop-hook-error",
      text: ctx.cli.facts.stopHookNotice,
      priority: "immediate",
      session_id: ctx.sessionId,
      uuid: ctx.ids.uuid(),
    },
    delay: 0,
  });
  return "blocked";
}

/** Ends the turn because a hook said so (`terminal_reason: "hook_stopped"`). */
export async function stopByHook(engine: Engine, turn: TurnState, reason: string): Promise<void> {
  turn.stopped = true;
  await sendResult(engine, turn, {
    subtype: "success",
    result: reason,
    terminalReason: "hook_stopped",
    stopReason: null,
  });
}
