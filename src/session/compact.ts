/**
 * `/compact`: the real CLI answers it locally, with no assistant message. It says it is
 * compacting, makes the summarization call (twice when the reply has no `<summary>` tags),
 * then writes a fresh `system/init`, the `compact_boundary`, the summary as a synthetic user
 * message, the replayed command output and a `local_command` result (as the real CLI 2.1.328
 * does).
 *
 * @module
 */

import { compactBoundary } from "../builders/compact_boundary.ts";
import { localCommandMessage } from "../builders/_local_command_message.ts";
import { newTask } from "../builders/task_frames.ts";
import { DEFAULT_HOME, projectSlug } from "../builders/project_paths.ts";
import { sessionStateChanged, systemStatus } from "../builders/system.ts";
import { type ApiCallUsage, DEFAULT_INPUT_TOKENS } from "../builders/usage.ts";
import { userText } from "../builders/user.ts";
import type { Engine } from "./engine.ts";
import { callHook, callHooksTogether, hookCallbacks, subagentStopHooks } from "./hook_runner.ts";
import type { Outgoing } from "./outbox.ts";
import { sendResult } from "./turn_result.ts";
import type { TurnState } from "./turn_state.ts";

/** `/compact`, optionally followed by instructions for the summary. */
const COMPACT_COMMAND = /^\/compact(?:\s+([\s\S]*))?$/;

/** The instructions of a `/compact` prompt (`""` for none), or `undefined` for another prompt. */
export function compactCommand(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith("/compact")) return undefined;
  const match = COMPACT_COMMAND.exec(trimmed);
  return match ? (match[1] ?? "").trim() : undefined;
}

const DEFAULT_SUMMARY = "Summary of the conversation.";

// post_tokens = this + the summary message's characters / 4 (the real CLI 2.1.328's figures)
const POST_TOKENS_BASE = 2341;

/**
 * Runs a `/compact` turn with `instructions` (from the prompt); `init` is the turn's
 * `system/init`, written after the compaction. PreCompact and PostCompact hooks the SDK
 * registered are called around the summarization, and between them SubagentStop (the
 * summarizer) and SessionStart (source `compact`); the command's output lists the PreCompact
 * and PostCompact callbacks (as the real CLI 2.1.328 does).
 */
export async function runCompact(
  engine: Engine,
  turn: TurnState,
  how: { instructions: string; init: () => Outgoing },
): Promise<void> {
  const { instructions, init } = how;
  const ctx = engine.ctx;
  const options = engine.scenario.compact ?? {};
  const preTokens = options.preTokens ?? engine.ledger.lastContext;
  await engine.send({ frame: sessionStateChanged(ctx, "running"), delay: 0 });
  await engine.send({ frame: systemStatus(ctx, "compacting"), delay: 0 });
  // the hooks the command's output lists ("PreCompact [callback] completed successfully")
  const ran: string[] = [];
  const before = await compactHooks(engine, turn, {
    hook_event_name: "PreCompact",
    trigger: "manual",
    custom_instructions: instructions === "" ? null : instructions,
  });
  if (before.blocks.length > 0) {
    return await compactBlocked(engine, turn, {
      text: `Compaction blocked by PreCompact hook: ${before.blocks.join("\n")}`,
      args: instructions,
      init,
    });
  }
  ran.push(...before.lines);
  const replies = summarize(engine, turn);
  const tagged = replies.map(summaryOf).find((s) => s !== undefined);
  // as the real CLI: the tagged summary gets "Summary:\n"; with none, the first reply as it is
  const summary = tagged !== undefined ? `Summary:\n${tagged}` : replies[0].trim();
  const content = summaryMessage(engine, summary);
  await afterSummary(engine, turn, replies.at(-1)!);
  ran.push(
    ...(await compactHooks(engine, turn, {
      hook_event_name: "PostCompact",
      trigger: "manual",
      // the summarizer's reply as it came, tags and all (as the real CLI 2.1.328 gives it)
      compact_summary: replies.at(-1)!,
    })).lines,
  );
  // 19 ms with one summarization call, 29 with two (as the real CLI 2.1.328 takes)
  const durationMs = options.durationMs ?? 9 + 10 * replies.length;
  await engine.send({
    frame: systemStatus(ctx, null, { compactResult: "success" }),
    delay: durationMs * engine.speed,
  });
  await engine.send(init());
  await engine.send({
    frame: compactBoundary(ctx, {
      preTokens,
      postTokens: options.postTokens ?? POST_TOKENS_BASE + Math.ceil(content.length / 4),
      durationMs,
    }),
    delay: 0,
  });
  await sendCompacted(engine, turn, { content, ran });
}

/**
 * Runs the hooks of one compaction event together (as the real CLI 2.1.328 to 2.1.332: two
 * hooks of a second each take one second); the lines the command's output lists for them, in
 * the hooks' order (`PreCompact [callback] completed successfully`; a command hook by its
 * command, with its reason or else its stdout: `PreCompact [echo hi] completed successfully:
 * hi`; one that exited with another code than 0: `PostCompact [<command>] failed: <stderr>`),
 * and the PreCompact hooks that block the compaction (`decision: "block"`, a command hook's
 * exit 2), as the real CLI 2.1.332 names them: `[<command>]: <reason or stderr>`, a
 * callback's `[callback]` with its `systemMessage` (its reason is not shown). Their
 * `continue: false` stops nothing.
 */
async function compactHooks(
  engine: Engine,
  turn: TurnState,
  input: { hook_event_name: "PreCompact" | "PostCompact"; [key: string]: unknown },
): Promise<{ lines: string[]; blocks: string[] }> {
  const event = input.hook_event_name;
  const handles = hookCallbacks(engine, event);
  const outputs = await Promise.all(
    handles.map((handle) => callHook(engine, handle, input, { turn })),
  );
  const blocks: string[] = [];
  const lines = handles.map((handle, i) => {
    const output = outputs[i];
    const name = typeof handle === "string" ? "callback" : handle.command;
    if (event === "PreCompact" && output.decision === "block") {
      const said = typeof handle === "string" ? output.systemMessage : output.reason;
      blocks.push(`[${name}]${typeof said === "string" && said !== "" ? `: ${said}` : ""}`);
    }
    if (typeof output.hookFailedText === "string") {
      return `${event} [${name}] failed: ${output.hookFailedText}`;
    }
    const text = typeof handle === "string"
      ? undefined
      : typeof output.reason === "string"
      ? output.reason
      : output.hookOutputText;
    return `${event} [${name}] completed successfully${
      typeof text === "string" && text !== "" ? `: ${text}` : ""
    }`;
  });
  return { lines, blocks };
}

/**
 * `/compact` that a PreCompact hook blocked, as the real CLI 2.1.332 ends it: no summary, the
 * compaction's status `failed` with the reason (`skipped: <text>`), `system/init`, the text as
 * the command's failed output, and a `local_command` result that repeats it.
 */
async function compactBlocked(
  engine: Engine,
  turn: TurnState,
  how: { text: string; args: string; init: () => Outgoing },
): Promise<void> {
  const ctx = engine.ctx;
  await engine.send({
    frame: systemStatus(ctx, null, {
      compactResult: "failed",
      compactError: `skipped: ${how.text}`,
    }),
    delay: 0,
  });
  await engine.send(how.init());
  await engine.send({
    frame: localCommandMessage(ctx, {
      command: "compact",
      args: how.args,
      text: how.text,
      failed: true,
    }),
    delay: 0,
  });
  await sendResult(engine, turn, { result: how.text, stopReason: null }, {
    numTurns: 0,
    apiCalls: [],
    durationApiMs: 0,
    localCommand: "compact",
  });
  turn.stopped = true;
}

/** The summarizer's replies (a second when the first has no `<summary>` tags), their calls booked. */
function summarize(engine: Engine, turn: TurnState): string[] {
  const ctx = engine.ctx;
  const options = engine.scenario.compact ?? {};
  const first = options.reply ?? `<summary>\n${options.summary ?? DEFAULT_SUMMARY}\n</summary>`;
  const replies = [first];
  // a reply without <summary> tags makes the CLI ask once more
  if (summaryOf(first) === undefined) replies.push(options.retryReply ?? first);
  for (const reply of replies) {
    const call: ApiCallUsage = {
      model: ctx.model,
      inputTokens: DEFAULT_INPUT_TOKENS,
      outputTokens: options.outputTokens ?? Math.max(1, Math.ceil(reply.length / 4)),
    };
    engine.ledger.add(call, ctx.model);
    turn.calls.push(call);
  }
  return replies;
}

/** The summary as a synthetic user message, the command's replayed output, its result. */
async function sendCompacted(
  engine: Engine,
  turn: TurnState,
  compacted: { content: string; ran: string[] },
): Promise<void> {
  const ctx = engine.ctx;
  await engine.send({
    frame: userText(ctx, compacted.content, { isReplay: false, isSynthetic: true }),
    delay: 0,
  });
  await engine.send({
    frame: userText(
      ctx,
      `<local-command-stdout>Compacted ${compacted.ran.join("\n")}</local-command-stdout>`,
      { isReplay: true },
    ),
    delay: 0,
  });
  await sendResult(engine, turn, { result: "", stopReason: null }, {
    numTurns: 0,
    apiCalls: [],
    durationApiMs: 0,
    localCommand: "compact",
  });
  turn.stopped = true;
}

/**
 * What the real CLI's hooks see once the summary is made (2.1.328): the
 * summarizer ends as a subagent of no type (SubagentStop, its last message the summary reply),
 * then the session starts again from the summary (SessionStart, source `compact`).
 */
async function afterSummary(
  engine: Engine,
  turn: TurnState,
  reply: string,
): Promise<void> {
  const ctx = engine.ctx;
  if (hookCallbacks(engine, "SubagentStop").length > 0) {
    const agent = {
      id: newTask(ctx, { toolUseId: "compact", description: "compact" }).taskId,
      type: "",
    };
    await subagentStopHooks(engine, turn, { agent, lastMessage: reply });
  }
  // together, as the real CLI 2.1.332 writes both `hook_callback` requests at once
  await callHooksTogether(engine, hookCallbacks(engine, "SessionStart", "compact"), {
    hook_event_name: "SessionStart",
    source: "compact",
    model: ctx.model,
  }, { turn });
}

/** The body of a reply's `<summary>` block, trimmed; `undefined` when it has none. */
function summaryOf(reply: string): string | undefined {
  const match = /<summary>([\s\S]*?)<\/summary>/.exec(reply);
  return match ? match[1].trim() : undefined;
}

function summaryMessage(engine: Engine, summary: string): string {
  const ctx = engine.ctx;
  const transcript = `${DEFAULT_HOME}/.claude/projects/${
    projectSlug(ctx.cwd)
  }/${ctx.sessionId}.jsonl`;
  return "This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n" +
    "<system-reminder>\n<tools-used-before-summary></tools-used-before-summary>\n</system-reminder>\n" +
    `${summary}\n\n` +
    `If you need specific details from before compaction (like exact code snippets, error messages, or content you generated), read the full transcript at: ${transcript}\n` +
    "Continue the conversation from where it left off without asking " +
    "the user any further questions. Resume directly — do not acknowledge " +
    "the summary, do not recap what was happening, do not preface " +
    'with "I\'ll continue" or similar. Pick up the last task as if ' +
    "the break never happened.";
}
