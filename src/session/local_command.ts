/**
 * Local slash commands sent as prompts, answered by the CLI itself with no API call: `/cost`
 * (which runs `usage`: the session's cost, durations and tokens) and `/compact` when the
 * session has nothing to compact. The real CLI (2.1.328 to 2.1.332) writes `running`, the
 * turn's `system/init`, a synthetic assistant message with the command's output, and a
 * `local_command` result with no turns (see `compact.ts` for a `/compact` that summarizes).
 *
 * @module
 */

import { localCommandMessage } from "../builders/_local_command_message.ts";
import { contextReport } from "../builders/context_report.ts";
import { blockTokens, SKILL_FRONTMATTER } from "../builders/context_usage.ts";
import type { ModelUsageEntry } from "../builders/usage.ts";
import { sessionStateChanged } from "../builders/system.ts";
import type { Engine } from "./engine.ts";
import type { Outgoing } from "./outbox.ts";
import { sendResult } from "./turn_result.ts";
import type { TurnState } from "./turn_state.ts";

/** A local command the mock answers: its name as the result names it, and its arguments. */
export interface LocalCommand {
  /** `cost`, `context`, or `compact` (with nothing to compact). */
  name: "cost" | "context" | "compact";
  /** What followed the command name. */
  args: string;
}

/**
 * The local command of a prompt the mock answers here, or `undefined`: `/cost` and `/context`
 * always, and
 * `/compact` only while the conversation has no message from the model (otherwise it
 * summarizes).
 */
export function localCommandOf(text: string, engine: Engine): LocalCommand | undefined {
  const match = /^\/(cost|context|compact)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return undefined;
  const name = match[1] as LocalCommand["name"];
  // a resumed session has the earlier run's messages to compact
  if (name === "compact" && engine.ledger.conversed) return undefined;
  return { name, args: (match[2] ?? "").trim() };
}

/** Runs a local command's turn; `init` is the turn's `system/init`. */
export async function runLocalCommand(
  engine: Engine,
  turn: TurnState,
  how: { command: LocalCommand; init: () => Outgoing },
): Promise<void> {
  const { command, init } = how;
  const ctx = engine.ctx;
  await engine.send({ frame: sessionStateChanged(ctx, "running"), delay: 0 });
  await engine.send(init());
  const output = command.name === "cost"
    ? { command: "usage", args: command.args, text: costReport(engine), failed: false }
    : command.name === "context"
    ? contextOutput(engine, turn, command.args)
    : {
      command: "compact",
      args: command.args,
      text: "Error: No messages to compact",
      failed: true,
    };
  await engine.send({ frame: localCommandMessage(ctx, output), delay: 0 });
  await sendResult(engine, turn, { result: output.failed ? "" : output.text, stopReason: null }, {
    numTurns: 0,
    apiCalls: [],
    durationApiMs: 0,
    localCommand: command.name,
  });
  turn.stopped = true;
}

/**
 * `/context`'s output, as the real CLI (2.1.328, 2.1.332) reports a session: its tools as the
 * token counter measured them offline (154 tokens fewer than `get_context_usage` reports, and
 * the deferred ones one more under the SDK), the system prompt only when there is one (not
 * under the SDK's empty one), the built-in skills, and the conversation with the command's own
 * message (21 tokens for `/context`, as recorded).
 */
function contextOutput(
  engine: Engine,
  turn: TurnState,
  args: string,
): {
  command: string;
  args: string;
  text: string;
  failed: boolean;
  contextUsage: Record<string, unknown>;
} {
  const duplex = engine.initializeRequest !== undefined;
  const baseline = engine.flags.permissionPromptTool === "stdio"
    ? engine.ctx.cli.facts.contextUsage.withPermissionPrompts
    : engine.ctx.cli.facts.contextUsage.plain;
  const called = engine.ledger.lastCall !== undefined;
  const tally = engine.context;
  const conversation = tally.userMessageTokens + tally.assistantMessageTokens +
    tally.tools.reduce((sum, t) => sum + t.callTokens + t.resultTokens, 0) -
    blockTokens(turn.text);
  const prompt = engine.initializeRequest?.systemPrompt;
  const emptyPrompt = Array.isArray(prompt) && prompt.every((p) => p === "");
  const report = contextReport({
    model: engine.ctx.model,
    ...(duplex && emptyPrompt ? {} : { systemPrompt: SYSTEM_PROMPT_TOKENS }),
    // before the session's first API call the CLI describes Agent and ListAgents as in a
    // session that cannot SendMessage (fewer tokens) and counts the conversation with the
    // API's token counter; from its first call on, the tools as get_context_usage counts
    // them, and no Messages row (2.1.328 to 2.1.332, slash_context_after_turn)
    systemTools: baseline.systemTools - (called ? 0 : NO_SEND_MESSAGE_TOKENS),
    systemToolsDeferred: baseline.systemToolsDeferred + (duplex ? 1 : 0),
    skills: SKILL_FRONTMATTER,
    ...(called ? {} : { messages: Math.max(0, conversation) + CONTEXT_COMMAND_TOKENS }),
  });
  return {
    command: "context",
    args,
    text: report.text,
    failed: false,
    contextUsage: report.usage,
  };
}

/** The default system prompt's tokens, as `/context` reported it in print mode (2.1.3xx). */
const SYSTEM_PROMPT_TOKENS = 2010;

/**
 * How many tokens fewer Agent's and ListAgents' descriptions count before the session's first
 * API call: their text for a session without SendMessage is 616 characters shorter (the
 * counter's four characters a token), as the real CLI's count_tokens requests show.
 */
const NO_SEND_MESSAGE_TOKENS = 154;

/** The tokens of `/context`'s own message in the conversation, as recorded. */
const CONTEXT_COMMAND_TOKENS = 21;

/** The label column of `/cost`'s report (23 characters, as the real CLI pads it). */
const LABEL = 23;

/** `/cost`'s report: the session's cost, durations, code changes and tokens by model. */
export function costReport(engine: Engine): string {
  const byModel = engine.ledger.modelUsage();
  const line = (label: string, value: string) => `${label.padEnd(LABEL)}${value}`;
  const lines = [
    line("Estimated cost:", dollars(engine.ledger.costUsd)),
    line("Total duration (API):", seconds(engine.ledger.apiMs)),
    line("Total duration (wall):", seconds(engine.clock.now() - engine.startedAt)),
    line("Total code changes:", "0 lines added, 0 lines removed"),
  ];
  const models = Object.entries(byModel);
  if (models.length === 0) {
    lines.push(line("Usage:", "0 input, 0 output, 0 cache read, 0 cache write"));
    return lines.join("\n");
  }
  lines.push("Usage by model:");
  for (const [model, usage] of models) {
    lines.push(`${`${model}:`.padStart(LABEL - 2)}  ${tokens(usage)} (${dollars(usage.costUSD)})`);
  }
  lines.push(line("Prompt cache (main):", promptCache(engine, byModel)));
  return lines.join("\n");
}

function tokens(u: ModelUsageEntry): string {
  return `${u.inputTokens} input, ${u.outputTokens} output, ${u.cacheReadInputTokens} cache read, ${u.cacheCreationInputTokens} cache write`;
}

/** The prompt cache line: the requests made, the share of input read from the cache. */
function promptCache(engine: Engine, byModel: Record<string, ModelUsageEntry>): string {
  const calls = engine.ledger.calls;
  let input = 0, read = 0, written = 0;
  for (const u of Object.values(byModel)) {
    input += u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens;
    read += u.cacheReadInputTokens;
    written += u.cacheCreationInputTokens;
  }
  const share = input === 0 ? 0 : Math.round((read / input) * 100);
  const parts = [
    `${calls} request${calls === 1 ? "" : "s"}`,
    `${share}% of input tokens from cache`,
  ];
  parts.push("no misses");
  if (read === 0 && written === 0) parts.push("no prompt caching reported by the API");
  return parts.join(" · ");
}

/** Dollars with four decimals (`$0.0006`). */
function dollars(usd: number): string {
  return `$${usd.toFixed(4)}`;
}

/**
 * A duration as the report gives it: whole seconds, rounded down (`0s` for 660 ms, as the
 * real CLI 2.1.332 printed), minutes and seconds past a minute.
 */
function seconds(ms: number): string {
  const s = Math.floor(Math.max(0, ms) / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${s % 60}s`;
}
