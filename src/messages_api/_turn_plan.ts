/**
 * One turn of a scenario as the Messages API serves it: the exchange's steps, read as the
 * model's side only (each `message` step is one API reply; `failure` and `apiError` steps
 * make the next call fail), walked against what the CLI sends back (a tool use whose result
 * is an error the scenario did not script takes the exchange's `ifDenied` branch, as the
 * mock does when a tool use is denied). Internal.
 *
 * @internal
 * @module
 */

import type { BuildContext } from "../builders/build_context.ts";
import type { AssistantContentBlock, Frame } from "../wire/frame.ts";
import {
  type ApiErrorStep,
  type FailureStep,
  isToolCall,
  type MessageStep,
  type ScriptedToolCall,
  type Step,
  type StepSource,
  type TurnInfo,
} from "../scenario/step.ts";
import type { LocatedRequest } from "./_locate_request.ts";

/** A failure that governs a call: a named failure or an `apiError` step. */
export type PlannedFailure = FailureStep | ApiErrorStep;

/** A message step's content, evaluated once. */
export interface EvaluatedMessage {
  /** The content blocks, in order. */
  blocks: AssistantContentBlock[];
  /** The scripted tool calls by tool use id. */
  calls: Map<string, ScriptedToolCall>;
}

/** What answers the call at one position of a turn. */
export interface PlannedCall {
  /** The call's position in the turn (0 for the turn's first API call). */
  call: number;
  /** Where the answering step is, for messages (`steps[2]`, `steps[1] ifDenied[0]`). */
  path: string;
  /** The reply, or `undefined` when the turn has no more message steps. */
  message?: MessageStep;
  /** The failures scripted before the reply (the first that is not `max_budget` governs). */
  failures: PlannedFailure[];
  /** Real milliseconds of `delay` steps before the reply. */
  delayMs: number;
}

/** A step the Messages API cannot serve: the CLI's own side that only the mock can script. */
export class UnservableStepError extends Error {
  override name = "UnservableStepError";
}

/** The most steps a lazy step source may produce (a generator that never ends is a bug). */
const MAX_STEPS = 100_000;

/**
 * Why a step cannot be served, or `undefined` when it can: the process crashing or exiting
 * is the CLI's side, and an `emit` of an assistant frame is model output the API cannot
 * see (a `message` step says the same and can be served).
 */
export function unservable(step: Step): string | undefined {
  switch (step.kind) {
    case "crash":
      return "a crash step (the process dying is the CLI's side: only the mock can script it)";
    case "exit":
      return "an exit step (the process exiting is the CLI's side: only the mock can script it)";
    case "emit":
      return typeof step.frame !== "function" && (step.frame as Frame).type === "assistant"
        ? "an emit step of an assistant frame (model output must be a message step to be served)"
        : undefined;
    default:
      return undefined;
  }
}

/** Collects a step source's steps (a function's, lazily produced, are drained here). */
export async function materialize(
  source: StepSource,
  info: TurnInfo,
  where: string,
): Promise<Step[]> {
  if (typeof source !== "function") return [...source];
  const produced = source(info);
  const steps: Step[] = [];
  const add = (step: Step) => {
    if (steps.length >= MAX_STEPS) {
      throw new RangeError(
        `Cannot serve ${where}: its step function produced more than ${MAX_STEPS} steps`,
      );
    }
    steps.push(step);
  };
  if (produced && typeof (produced as AsyncIterable<Step>)[Symbol.asyncIterator] === "function") {
    for await (const step of produced as AsyncIterable<Step>) add(step);
  } else if (produced && typeof (produced as Iterable<Step>)[Symbol.iterator] === "function") {
    for (const step of produced as Iterable<Step>) add(step);
  } else {
    throw new TypeError(`Cannot serve ${where}: its step function must return steps (an iterable)`);
  }
  return steps;
}

/** One turn's steps and the branches its denials took. */
export class TurnPlan {
  readonly #steps: Step[];
  readonly #where: string;
  readonly #info: TurnInfo;
  readonly #ctx: BuildContext;
  readonly #evaluated = new WeakMap<MessageStep, EvaluatedMessage>();
  readonly #branches = new Map<string, Step[]>();

  /** A plan over `steps`; `where` names the exchange in messages. */
  constructor(steps: Step[], where: string, info: TurnInfo) {
    this.#steps = steps;
    this.#where = where;
    this.#info = info;
    this.#ctx = info.ctx;
  }

  /** The exchange, as messages name it. */
  get where(): string {
    return this.#where;
  }

  /** A message step's blocks and tool calls, evaluated once (its ids are drawn then). */
  evaluate(step: MessageStep): EvaluatedMessage {
    let evaluated = this.#evaluated.get(step);
    if (evaluated) return evaluated;
    const blocks: AssistantContentBlock[] = [];
    const calls = new Map<string, ScriptedToolCall>();
    for (const part of step.parts) {
      const value = typeof part === "function" ? part(this.#ctx) : part;
      if (isToolCall(value)) {
        calls.set(value.block.id, value);
        blocks.push(value.block);
      } else blocks.push(value);
    }
    evaluated = { blocks, calls };
    this.#evaluated.set(step, evaluated);
    return evaluated;
  }

  /**
   * What answers the call the request stands at: walks the steps, taking the `ifDenied`
   * branch of a tool use the CLI sent back an unscripted error for.
   */
  async callFor(request: LocatedRequest): Promise<PlannedCall> {
    const target = request.replies.length;
    let steps = this.#steps;
    let path = "steps";
    let call = 0;
    let failures: PlannedFailure[] = [];
    let delayMs = 0;
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i];
      const why = unservable(step);
      if (why) {
        throw new UnservableStepError(
          `Cannot serve ${this.#where}: ${path}[${i}] is ${why}`,
        );
      }
      if (step.kind === "failure" || step.kind === "apiError") failures.push(step);
      else if (step.kind === "delay") delayMs += step.ms;
      if (step.kind !== "message") continue;
      if (call === target) {
        return { call, path: `${path}[${i}]`, message: step, failures, delayMs };
      }
      const branch = await this.#deniedBranch(step, request);
      call++;
      failures = [];
      delayMs = 0;
      if (branch) {
        steps = branch.steps;
        path = `${path}[${i}] ifDenied of ${branch.tool}`;
        i = -1;
      }
    }
    return { call, path: `${path}[${steps.length}]`, failures, delayMs };
  }

  /** The `ifDenied` steps of the first tool use of `step` the CLI refused, if any. */
  async #deniedBranch(
    step: MessageStep,
    request: LocatedRequest,
  ): Promise<{ steps: Step[]; tool: string } | undefined> {
    const { calls } = this.evaluate(step);
    for (const [id, scripted] of calls) {
      if (!scripted.ifDenied) continue;
      const sent = request.toolResults.get(id);
      if (!sent || !sent.isError || scripted.result.isError) continue;
      let steps = this.#branches.get(id);
      if (!steps) {
        steps = await materialize(
          scripted.ifDenied,
          this.#info,
          `${this.#where} (the ifDenied steps of ${scripted.block.name} ${id})`,
        );
        this.#branches.set(id, steps);
      }
      return { steps, tool: `${scripted.block.name} ${id}` };
    }
    return undefined;
  }
}
