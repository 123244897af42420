/**
 * The scenario side of the Messages API: decides, for each `/v1/messages` request, which
 * exchange, turn and call it stands at and what answers it (a reply, a scripted failure, or
 * an error in the API's shape naming what the scenario expected). No HTTP here. Internal.
 *
 * @internal
 * @module
 */

import { apiError, type Decision } from "./_decision.ts";
import { quote, type ScriptedAgent, SubagentCalls } from "./_subagent_calls.ts";
import { text } from "../builders/assistant.ts";
import { type BuildContext, createBuildContext, DEFAULT_CWD } from "../builders/build_context.ts";
import type { StopReason } from "../builders/stream_events.ts";
import type { Exchange, Scenario } from "../scenario/scenario.ts";
import { BROKEN_STREAM_REPLY } from "../scenario/named_failures.ts";
import { isToolCall, type MessageStep, type Step, type TurnInfo } from "../scenario/step.ts";
import type { AssistantContentBlock, UserFrame } from "../wire/frame.ts";
import type { JournalPlace } from "./api_journal.ts";
import { type FailureAnswer, failureAnswer, governing } from "./_failure_answers.ts";
import { type LocatedRequest, locateRequest } from "./_locate_request.ts";
import { type Reply, replyFor } from "./_reply_body.ts";
import {
  materialize,
  type PlannedCall,
  type PlannedFailure,
  TurnPlan,
  unservable,
  UnservableStepError,
} from "./_turn_plan.ts";

export type { Decision } from "./_decision.ts";

/** A decision and where the request stood. */
export interface Answered {
  /** The decision. */
  decision: Decision;
  /** What kind of call the request was. */
  kind: "conversation" | "subagent" | "compaction" | "title";
  /** Conversation calls: where in the scenario. */
  place?: JournalPlace;
}

const DEFAULT_SUMMARY = "Summary of the conversation.";
const WARN_REPLY = "Hello! How can I help?";

interface Turn {
  plan?: TurnPlan;
  exchange: number;
  index: number;
  failed?: string;
  attempts: Map<number, number>;
}

/** A decision to reply. */
type ReplyDecision = Extract<Decision, { kind: "reply" }>;

/** One API call of a turn, as planned. */
interface Call {
  located: LocatedRequest;
  plan: TurnPlan;
  exchange: number;
  planned: PlannedCall;
  attempt: number;
}

interface Session {
  invocation: number;
  turns: Map<string, Turn>;
}

/** Decides the answers of one scenario. */
export class ScenarioResponder {
  readonly #scenario: Scenario;
  readonly #ctx: BuildContext;
  readonly #paths: { from: string; to: string };
  readonly #label: string;
  readonly #counts: number[];
  readonly #sessions = new Map<string, Session>();
  readonly #subagentCalls: SubagentCalls;
  readonly #compactions = new Map<string, number>();

  /** A responder for `scenario`; `cwd` is where the CLI runs (the scenario's own cwd is replaced by it). */
  constructor(scenario: Scenario, options: { cwd?: string } = {}) {
    this.#scenario = scenario;
    this.#ctx = createBuildContext({
      seed: scenario.seed ?? 0,
      ...(scenario.model ? { model: scenario.model } : {}),
      cwd: scenario.cwd ?? DEFAULT_CWD,
    });
    this.#paths = { from: options.cwd ? scenario.cwd ?? DEFAULT_CWD : "", to: options.cwd ?? "" };
    this.#subagentCalls = new SubagentCalls(this.#ctx, this.#paths);
    this.#label = scenario.name ? `scenario '${scenario.name}'` : "the scenario";
    this.#counts = scenario.exchanges.map(() => 0);
  }

  /** Answers a `/v1/messages` request body (with the CLI's session id header, if any). */
  async answer(body: unknown, sessionId: string): Promise<Answered> {
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      return {
        kind: "conversation",
        decision: apiError(400, "claude-mock: the request body is not a JSON object"),
      };
    }
    const record = body as Record<string, unknown>;
    const located = locateRequest(record);
    if (!located) {
      return {
        kind: "conversation",
        decision: apiError(
          400,
          `claude-mock: the request carries no user prompt (${
            Array.isArray(record.messages) ? record.messages.length : 0
          } messages), so no exchange of ${this.#label} can answer it`,
        ),
      };
    }
    try {
      if (located.kind === "compaction") return this.#compaction(located);
      if (located.kind === "title") return this.#title(located);
      if (located.kind === "subagent") return this.#subagent(located);
      return await this.#conversation(located, sessionIdOf(record, sessionId));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return {
        kind: located.kind,
        decision: apiError(
          400,
          error instanceof UnservableStepError
            ? `claude-mock: ${message}`
            : `claude-mock: ${
              message.startsWith("Cannot") ? message : `${this.#label} failed: ${message}`
            }`,
        ),
      };
    }
  }

  async #conversation(located: LocatedRequest, sessionId: string): Promise<Answered> {
    const turn = await this.#turnOf(located, sessionId);
    const description = turn.exchange >= 0 ? this.#describe(turn.exchange) : "the unmatched answer";
    const placeOf = (call: number, attempt: number, step?: string): JournalPlace => ({
      exchange: turn.exchange,
      description,
      turn: turn.index,
      call,
      attempt,
      ...(step ? { step } : {}),
    });
    if (!turn.plan) {
      return {
        kind: "conversation",
        place: placeOf(located.replies.length, 0),
        decision: apiError(400, turn.failed ?? "claude-mock: no exchange answers this prompt"),
      };
    }
    const planned = await turn.plan.callFor(located);
    const attempt = turn.attempts.get(planned.call) ?? 0;
    turn.attempts.set(planned.call, attempt + 1);
    const call: Call = { located, plan: turn.plan, exchange: turn.exchange, planned, attempt };
    return {
      kind: "conversation",
      place: placeOf(planned.call, attempt, planned.message ? planned.path : undefined),
      decision: planned.message
        ? this.#replyDecision(call, planned.message)
        : this.#noReplyDecision(call),
    };
  }

  /** The turn a request belongs to, started on its first call. */
  async #turnOf(located: LocatedRequest, sessionId: string): Promise<Turn> {
    const session = this.#session(sessionId);
    const key = `${located.ordinal}\u0000${located.prompt}`;
    let turn = session.turns.get(key);
    if (!turn) {
      turn = await this.#startTurn(located, session);
      session.turns.set(key, turn);
    }
    return turn;
  }

  /** The scripted reply of a call, or what its governing failure makes of it. */
  #replyDecision(call: Call, message: MessageStep): Decision {
    const { located, plan, planned } = call;
    const failure = governing(planned.failures);
    const evaluated = plan.evaluate(message);
    this.#registerSubagents(evaluated.blocks, message, plan);
    const reply = this.#reply(evaluated.blocks, message, located);
    const exchange = call.exchange >= 0 ? this.#scenario.exchanges[call.exchange] : undefined;
    const decision: ReplyDecision = {
      kind: "reply",
      reply,
      stream: located.stream,
      delayMs: planned.delayMs + messageDelay(message),
      timing: exchange?.timing ?? this.#scenario.timing,
    };
    if (!failure) return decision;
    const answer = failureAnswer(failure, {
      stream: located.stream,
      attempt: call.attempt,
      messageId: reply.messageId,
    });
    return failureDecision(failure, { answer, reply: () => decision }) ?? decision;
  }

  /**
   * A call past the turn's last reply: a failure scripted there fails every attempt; else an
   * error naming how many replies the turn's steps give.
   */
  #noReplyDecision(call: Call): Decision {
    const { located, plan, planned } = call;
    const failure = governing(planned.failures);
    if (failure) {
      const answer = failureAnswer(failure, {
        stream: located.stream,
        attempt: call.attempt,
        messageId: this.#ctx.ids.messageId(),
      });
      const decided = failureDecision(failure, {
        answer,
        reply: () => ({
          kind: "reply",
          reply: this.#reply([text(BROKEN_STREAM_REPLY)], undefined, located),
          stream: located.stream,
          delayMs: planned.delayMs,
        }),
      });
      if (decided) return decided;
    }
    return apiError(
      400,
      `claude-mock: ${plan.where} has no reply for API call ${
        planned.call + 1
      } of this turn: its steps give ${planned.call} (prompt ${
        quote(located.prompt)
      }); the CLI asked again after the last reply`,
    );
  }

  #session(id: string): Session {
    let session = this.#sessions.get(id);
    if (!session) {
      session = { invocation: this.#sessions.size + 1, turns: new Map() };
      this.#sessions.set(id, session);
    }
    return session;
  }

  async #startTurn(located: LocatedRequest, session: Session): Promise<Turn> {
    const index = session.turns.size;
    const input: UserFrame = {
      type: "user",
      message: { role: "user", content: located.prompt },
      parent_tool_use_id: null,
      session_id: this.#ctx.sessionId,
    } as UserFrame;
    const info = (match?: RegExpExecArray): TurnInfo => ({
      input,
      text: located.prompt,
      turn: index,
      ctx: this.#ctx,
      ...(match ? { match } : {}),
    });
    const exchanges = this.#scenario.exchanges;
    for (let i = 0; i < exchanges.length; i++) {
      const exchange = exchanges[i];
      if (!this.#open(exchange, i, session)) continue;
      let matched: boolean;
      try {
        matched = exchange.trigger.test(located.prompt, input);
      } catch (error) {
        return {
          exchange: i,
          index,
          attempts: new Map(),
          failed: `claude-mock: the trigger of ${this.#describe(i)} threw while matching ${
            quote(located.prompt)
          }: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
      if (!matched) continue;
      this.#counts[i]++;
      const match = exchange.trigger.exec?.(located.prompt) ?? undefined;
      const where = `${this.#describe(i)} of ${this.#label}`;
      const steps = await materialize(exchange.steps, info(match), where);
      return {
        exchange: i,
        index,
        attempts: new Map(),
        plan: new TurnPlan(steps, where, info(match)),
      };
    }
    return await this.#unmatched(located, session, index, info());
  }

  async #unmatched(
    located: LocatedRequest,
    session: Session,
    index: number,
    info: TurnInfo,
  ): Promise<Turn> {
    const strategy = this.#scenario.unmatched ?? "error";
    const where = `the unmatched answer of ${this.#label}`;
    const planned = (steps: Step[]): Turn => ({
      exchange: -1,
      index,
      attempts: new Map(),
      plan: new TurnPlan(steps, where, info),
    });
    let answer: unknown = strategy;
    if (typeof strategy === "function") answer = await strategy(located.prompt, info);
    if (answer === "warn") return planned([{ kind: "message", parts: [text(WARN_REPLY)] }]);
    if (Array.isArray(answer)) return planned([...answer]);
    if (answer && typeof answer === "object") {
      const reply = (answer as { reply?: unknown }).reply;
      if (typeof reply === "string") return planned([{ kind: "message", parts: [text(reply)] }]);
      if (Symbol.iterator in answer || Symbol.asyncIterator in answer) {
        return planned(await materialize(() => answer as Iterable<Step>, info, where));
      }
    }
    return {
      exchange: -1,
      index,
      attempts: new Map(),
      failed: this.#unmatchedMessage(located, session),
    };
  }

  #unmatchedMessage(located: LocatedRequest, session: Session): string {
    const open = this.#scenario.exchanges
      .map((exchange, i) => ({ exchange, i }))
      .filter(({ exchange, i }) => this.#open(exchange, i, session))
      .map(({ i }) => this.#describe(i));
    const listed = open.slice(0, 10).join(", ") +
      (open.length > 10 ? `, and ${open.length - 10} more` : "");
    return `claude-mock: no exchange of ${this.#label} matches the prompt ${
      quote(located.prompt)
    } (turn ${session.turns.size + 1}); ${
      open.length ? `expected a prompt for ${listed}` : "every exchange is used up"
    }`;
  }

  #open(exchange: Exchange, i: number, session: Session): boolean {
    if (exchange.invocation !== undefined && exchange.invocation !== session.invocation) {
      return false;
    }
    if (exchange.repeat) return true;
    return this.#counts[i] < (exchange.maxMatches ?? 1);
  }

  #describe(i: number): string {
    return `exchange ${i + 1} (${this.#scenario.exchanges[i]?.trigger.description ?? "?"})`;
  }

  #reply(
    blocks: AssistantContentBlock[],
    step: MessageStep | undefined,
    located: LocatedRequest,
    stopReason?: StopReason,
  ): Reply {
    return replyFor(this.#ctx, blocks, {
      ...(step ? { step } : {}),
      model: this.#scenario.model ?? located.model ?? this.#ctx.model,
      paths: this.#paths,
      ...(stopReason ? { stopReason } : {}),
    });
  }

  /** The subagents a reply starts (its Agent tool uses with scripted frames). */
  #registerSubagents(blocks: AssistantContentBlock[], step: MessageStep, plan: TurnPlan): void {
    const { calls } = plan.evaluate(step);
    for (const block of blocks) {
      if (block.type !== "tool_use") continue;
      const scripted = calls.get(block.id);
      if (!scripted || !isToolCall(scripted) || typeof scripted.frames !== "function") continue;
      const prompt = (block.input as { prompt?: unknown }).prompt;
      if (typeof prompt !== "string") continue;
      this.#subagentCalls.register(block, scripted as ScriptedAgent, plan.where);
    }
  }

  #subagent(located: LocatedRequest): Answered {
    return { kind: "subagent", decision: this.#subagentCalls.answer(located) };
  }

  /**
   * The session title call: the scenario does not script it; the answer is the JSON its output
   * format asks for, a title made of the prompt's first words.
   */
  #title(located: LocatedRequest): Answered {
    const words = located.prompt.replace(/\s+/g, " ").trim().split(" ").slice(0, 5).join(" ");
    const title = words === "" ? "New session" : words.replace(/[.!?:;,]+$/, "");
    const reply = replyFor(this.#ctx, [text(JSON.stringify({ title }))], {
      model: located.model ?? this.#ctx.model,
    });
    return {
      kind: "title",
      decision: { kind: "reply", reply, stream: located.stream, delayMs: 0 },
    };
  }

  #compaction(located: LocatedRequest): Answered {
    const options = this.#scenario.compact ?? {};
    const key = located.compactionKey ?? "";
    const n = this.#compactions.get(key) ?? 0;
    this.#compactions.set(key, n + 1);
    const first = options.reply ?? `<summary>\n${options.summary ?? DEFAULT_SUMMARY}\n</summary>`;
    const said = n === 0 ? first : options.retryReply ?? first;
    const reply = replyFor(this.#ctx, [text(said)], {
      model: this.#scenario.model ?? located.model ?? this.#ctx.model,
      paths: this.#paths,
    });
    reply.outputTokens = options.outputTokens ?? Math.max(1, Math.ceil(said.length / 4));
    return {
      kind: "compaction",
      decision: { kind: "reply", reply, stream: located.stream, delayMs: 0 },
    };
  }
}

/**
 * Why a scenario cannot be served, found before any request (its array steps, and the
 * `ifDenied` arrays of its ready-made tool calls); `undefined` when nothing is wrong. Step
 * functions are checked when they run.
 */
export function servableProblem(scenario: Scenario): string | undefined {
  const label = scenario.name ? `scenario '${scenario.name}'` : "the scenario";
  if (scenario.verbatim) {
    return `Cannot serve ${label}: it is verbatim (a tape turned into a scenario replays the CLI's whole output, not the model's side); serve the scenario the tape was recorded from`;
  }
  const check = (steps: readonly Step[], where: string): string | undefined => {
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i];
      const why = unservable(step);
      if (why) return `Cannot serve ${label}: ${where}[${i}] is ${why}`;
      if (step.kind !== "message") continue;
      for (const part of step.parts) {
        if (typeof part !== "function" && isToolCall(part) && Array.isArray(part.ifDenied)) {
          const inner = check(part.ifDenied, `${where}[${i}] ifDenied of ${part.block.name}`);
          if (inner) return inner;
        }
      }
    }
    return undefined;
  };
  for (let i = 0; i < scenario.exchanges.length; i++) {
    const exchange = scenario.exchanges[i];
    if (typeof exchange.steps === "function") continue;
    const problem = check(
      exchange.steps,
      `exchange ${i + 1} (${exchange.trigger.description}) steps`,
    );
    if (problem) return problem;
  }
  if (Array.isArray(scenario.unmatched)) return check(scenario.unmatched, "unmatched");
  return undefined;
}

/**
 * What a failure makes of a call, given its `answer`: an API error, or the reply `reply()`
 * gives broken as scripted; `undefined` when the failure lets the reply through.
 */
function failureDecision(
  failure: PlannedFailure,
  { answer, reply }: { answer: FailureAnswer; reply: () => ReplyDecision },
): Decision | undefined {
  if (answer.kind === "error") {
    return {
      ...apiError(answer.status, answer.message, answer.type),
      failure: failureName(failure),
    };
  }
  if (answer.kind !== "reply") {
    return { ...reply(), failure: { name: failureName(failure), answer } };
  }
  return undefined;
}

function failureName(failure: { kind: string; name?: string; status?: number }): string {
  return failure.kind === "failure" ? String(failure.name) : `apiError ${failure.status}`;
}

function messageDelay(step: MessageStep): number {
  const delay = step.delay;
  if (typeof delay === "number") return delay;
  return delay ? delay.baseMs : 0;
}

/** The session a request belongs to: the CLI's session header, else its metadata's. */
function sessionIdOf(body: Record<string, unknown>, header: string): string {
  if (header) return header;
  const userId = (body.metadata as { user_id?: unknown } | undefined)?.user_id;
  if (typeof userId === "string") {
    try {
      const parsed = JSON.parse(userId) as { session_id?: unknown };
      if (typeof parsed.session_id === "string") return parsed.session_id;
    } catch {
      // not JSON: one session
    }
  }
  return "";
}
