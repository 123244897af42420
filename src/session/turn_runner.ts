/**
 * The turn runner: one user frame in, one turn out. `running`, the UserPromptSubmit hooks,
 * `system/init`, the matched exchange's steps, the Stop hooks, the result, `idle`. Every
 * way a turn can go wrong still ends it with a result frame (or ends the process).
 *
 * @module
 */

import { flagSettingsWarning } from "./flag_settings_check.ts";
import type { BuildContext } from "../builders/build_context.ts";
import { frameText, type Matcher } from "../scenario/matcher.ts";
import { promptText } from "../scenario/prompt_text.ts";
import type { Step, StepSource, TurnInfo } from "../scenario/step.ts";
import { validateStep } from "../scenario/validate_step.ts";
import { AbortLatch } from "../timing/_abort_latch.ts";
import { timingProfile } from "../timing/timing_profile.ts";
import { realTimeout } from "../timing/real_time.ts";
import type { Delay } from "../timing/timing_profile.ts";
import { type Frame, isObject, type UserFrame } from "../wire/frame.ts";
import { startupHooks } from "./command_hook_run.ts";
import { flushHookNotices } from "./hook_notices.ts";
import { compactCommand, runCompact } from "./compact.ts";
import { localCommandOf, runLocalCommand } from "./local_command.ts";
import { userReplay } from "../builders/_user_replay.ts";
import { runApiError, runFailure } from "./failure_step.ts";
import { StepCursor } from "./step_cursor.ts";
import { unreachable, warnIfUnreachable } from "./unreachable_step.ts";
import { CrashWatch } from "./crash_watch.ts";
import { unmatchedAnswer } from "./unmatched_answer.ts";
import type { Engine } from "./engine.ts";
import { hookCallbacks, instructionsLoadedHooks, stopHooks } from "./hook_runner.ts";
import { commandTags, customCommandsOf, expandCommand } from "./custom_commands.ts";
import { userPromptExpansionStops, userPromptSubmitStops } from "./prompt_hooks.ts";
import { interruptTail } from "./interrupt_tail.ts";
import { headStart, runBackgroundAgents } from "./background_agents.ts";
import { promptTooLong, runPromptTooLong } from "./prompt_too_long.ts";
import { stateChange } from "./line_templates.ts";
import { skillShellHooks } from "./skill_shell.ts";
import { SENT } from "./outbox.ts";
import { initFrame } from "./init_frame.ts";
import { atMaxTurns, overBudget, runMessage, sendMaxBudget, sendMaxTurns } from "./message_step.ts";
import { describeTurn, sendFailure, sendResult } from "./turn_result.ts";
import {
  Interrupted,
  SessionEnded,
  sessionEnded,
  TurnFailure,
  type TurnState,
} from "./turn_state.ts";

/** Runs one turn for `input`. Never throws: a failure ends the turn with an error result. */
export async function runTurn(
  engine: Engine,
  input: UserFrame,
  options: { origin?: Record<string, unknown>; before?: (turn: TurnState) => Promise<void> } = {},
): Promise<void> {
  if (!options.origin) engine.transcribe?.(input);
  const text = promptText(input);
  const turn = newTurn(engine, { index: engine.turnCount++, input, text });
  if (options.origin) turn.origin = options.origin;
  turn.promptId = engine.ctx.ids.uuid();
  engine.lastPromptId = turn.promptId;
  engine.turn = turn;
  let background = false;
  try {
    if (options.before) await options.before(turn);
    await runSteps(engine, turn);
    if (turn.abort.aborted) throw turn.abort.reason;
    if (engine.scenario.verbatim) return;
    // with background subagents to run the session stays running (2.1.332)
    background = engine.background.pending.length > 0;
    if (!background) {
      const idle = engine.send(stateChange(engine.ctx, "idle", engine.outbox.sent !== undefined));
      if (idle !== SENT) await idle;
    }
  } catch (error) {
    await endFailedTurn(engine, turn, error);
  } finally {
    if (turn.restoreModel !== undefined) engine.ctx.model = turn.restoreModel;
    engine.endTurn(turn);
  }
  if (background && !engine.closed) {
    await runBackgroundAgents(engine, (next, how) => runTurn(engine, next, how));
  }
}

async function runSteps(engine: Engine, turn: TurnState): Promise<void> {
  // the session's start-up (its SessionStart command hooks), before the first turn's frames;
  // the settings' command hooks are read by then
  const starting = startupHooks(engine);
  if (starting) {
    await starting;
    // and the `initialize` answer that waited for them goes first (the channel writes it as
    // the answer settles, ahead of this later wait)
    if (engine.initializeAnswer) await engine.initializeAnswer;
    if (turn.abort.aborted) throw turn.abort.reason;
  }
  const instructions = engine.scenario.verbatim || !engine.ledger.conversed
    ? undefined
    : compactCommand(turn.text);
  if (instructions !== undefined) {
    // as the real CLI: a local command, never matched against the exchanges
    return await runCompact(engine, turn, { instructions, init: () => initFrame(engine) });
  }
  const command = engine.scenario.verbatim ? undefined : localCommandOf(turn.text, engine);
  if (command) {
    // as the real CLI: answered locally (/cost, /compact with nothing to compact)
    return await runLocalCommand(engine, turn, { command, init: () => initFrame(engine) });
  }
  // a recording's turn (verbatim) carries its own states, init frame and hook calls; the opening
  // runs here, its awaits the turn's own (an interrupt right after the prompt finds the turn at
  // its first step)
  if (engine.scenario.verbatim !== true) {
    const keep = engine.outbox.sent !== undefined;
    // a turn the CLI starts by itself follows a turn that left the session running
    const running = turn.origin ? SENT : engine.send(stateChange(engine.ctx, "running", keep));
    if (running !== SENT) await running;
    const loaded = instructionsLoadedHooks(engine, turn);
    if (loaded) await loaded;
    const hooked = hookCallbacks(engine, "UserPromptSubmit").length > 0;
    if (hooked && !turn.origin && await userPromptSubmitStops(engine, turn)) return;
    // a custom slash command: its hooks, then its body is the prompt (not in a turn the CLI
    // starts by itself)
    const expansion = !turn.origin && customCommandsOf(engine).length > 0
      ? expandCommand(customCommandsOf(engine), turn.text)
      : undefined;
    if (expansion && await userPromptExpansionStops(engine, turn, expansion)) return;
    const notices = engine.scenario.skills ? await skillShellHooks(engine, turn) : [];
    const init = engine.send(initFrame(engine));
    if (init !== SENT) await init;
    const settingsNotice = settingsNoticeFrame(engine);
    if (settingsNotice) await engine.send({ frame: settingsNotice, delay: 0 });
    if (engine.flags.replayUserMessages) {
      // as the real CLI: the user line echoed after the turn's init (a command's tags)
      const input = expansion
        ? { ...turn.input, message: { role: "user", content: commandTags(expansion) } }
        : turn.input;
      await engine.send({ frame: userReplay(engine.ctx, input), delay: 0 });
    }
    const said = flushHookNotices(engine, turn, ["UserPromptSubmit", "UserPromptExpansion"]);
    if (said) await said;
    for (const frame of notices) await engine.send({ frame, delay: 0 });
    if (promptTooLong(turn.text)) return await runPromptTooLong(engine, turn);
  }
  // no await between the opening and the steps but the unmatched answer's: an interrupt
  // right after the prompt finds the turn at its first step
  const plan = planTurn(engine, turn);
  plan.source ??= await unmatchedAnswer(engine, turn, plan.info);
  if (!plan.source) {
    await sendResult(engine, turn, {
      subtype: "error_during_execution",
      errors: [engine.picker.unmatchedMessage(turn.text, turn.index, turn.input)],
    });
    return;
  }
  await playSteps(engine, turn, plan as TurnPlan);
  if (turn.abort.aborted) throw turn.abort.reason;
  if (!turn.resultSent && engine.scenario.verbatim !== true) await endSteps(engine, turn);
}

/** The steps a turn runs, where they come from, and what they are told of the turn. */
interface TurnPlan {
  /** The steps. */
  source: StepSource;
  /** Where the steps are, for messages (`exchanges[2].steps`). */
  path: string;
  /** What a lazy step source is given. */
  info: TurnInfo;
}

/**
 * Which steps answer the turn: a front end's or the matched exchange's; none (`source`
 * undefined) leaves it to the unmatched answer.
 */
function planTurn(engine: Engine, turn: TurnState): Partial<TurnPlan> & Omit<TurnPlan, "source"> {
  let source: StepSource | undefined;
  for (const plan of engine.planners) {
    source = plan(turn);
    if (source) break;
  }
  const planned = source !== undefined;
  const found = source ? undefined : engine.picker.pick(turn.text, turn.input, turn.index);
  engine.matched.push(found?.index ?? -1);
  const info: TurnInfo = {
    input: turn.input,
    text: turn.text,
    turn: turn.index,
    ctx: engine.ctx,
    match: found?.match,
  };
  if (!source && found) {
    turn.exchange = found.exchange;
    turn.exchangeIndex = found.index;
    if (found.exchange.timing) turn.profile = timingProfile(found.exchange.timing);
    source = found.exchange.steps;
  }
  const path = found ? `exchanges[${found.index}].steps` : planned ? "steps" : "unmatched";
  return { source, path, info };
}

/** Runs the planned steps in order, and a denied tool use's continuation in their place. */
async function playSteps(engine: Engine, turn: TurnState, plan: TurnPlan): Promise<void> {
  let { path } = plan;
  let n = 0;
  let steps: StepSource | undefined = plan.source;
  while (steps) {
    const current = steps;
    const lazy = typeof current === "function";
    steps = undefined;
    let k = 0;
    const cursor = new StepCursor(iterate(current, plan.info));
    turn.nextMessage = () => cursor.nextMessage();
    try {
      for (;;) {
        const pending = cursor.next();
        const next = pending instanceof Promise ? await pending : pending;
        if (next.done) break;
        const step = next.value;
        n++;
        if (turn.abort.aborted) throw turn.abort.reason;
        if (lazy) checkProduced(engine, step, `${path}[${k}]`);
        if (isObject(step) && unreachable(engine, turn, step)) {
          // the model's reply would end the turn here: a Stop hook may keep it going
          const stop = hookCallbacks(engine, "Stop").length > 0
            ? await stopHooks(engine, turn)
            : undefined;
          if (stop === "stopped") break;
          if (stop === "blocked") turn.textOnly = false;
          else warnIfUnreachable(engine, turn, step, `${path}[${k}]`);
        }
        k++;
        await runStep(engine, step, turn, n);
        if (turn.stopped) break;
        if (turn.continuation) {
          // a denied tool use carried its own continuation: it replaces the rest
          steps = turn.continuation;
          turn.continuation = undefined;
          path = `${path}[${k - 1}] ifDenied`;
          break;
        }
      }
    } finally {
      turn.nextMessage = undefined;
      const closing = cursor.close();
      if (closing) await closing;
    }
  }
}

/** The steps ran out without a result: `--max-turns`, the Stop hooks, the budget, the result. */
async function endSteps(engine: Engine, turn: TurnState): Promise<void> {
  // After tool results the CLI would call the API again, which `--max-turns` may forbid.
  if (turn.awaitingReply && atMaxTurns(engine, turn)) return await sendMaxTurns(engine, turn);
  const stop = hookCallbacks(engine, "Stop").length > 0 ? await stopHooks(engine, turn) : undefined;
  if (stop === "blocked") {
    engine.warn(
      `claude-mock: warning: a Stop hook kept ${
        describeTurn(engine, turn)
      } going, but its steps ran out: the real CLI would ask the model again (script the reply after the one the hook blocked)`,
    );
  }
  // the background subagents this turn launched write their first message before its result
  if (engine.background.pending.length > 0) await headStart(engine, turn);
  if (!turn.resultSent && overBudget(engine, turn)) return await sendMaxBudget(engine, turn);
  if (!turn.resultSent) await sendResult(engine, turn, {});
}

/** Ends a turn that threw: the interrupt tail, or an error result naming what failed. */
async function endFailedTurn(engine: Engine, turn: TurnState, error: unknown): Promise<void> {
  if (error instanceof SessionEnded || engine.closed) return;
  const reason = turn.abort.aborted ? turn.abort.reason : error;
  try {
    if (turn.resultSent) {
      // A turn has one result. An interrupt (or a failure) that lands after the turn decided
      // its end (a hook's `continue: false` whose answer arrived first) ends nothing more.
    } else if (reason instanceof Interrupted) {
      try {
        await interruptTail(engine, turn);
      } catch (tailError) {
        if (tailError instanceof SessionEnded || engine.closed) return;
        if (!turn.resultSent) await sendFailure(engine, turn, errorText(tailError));
      }
    } else if (!turn.resultSent) {
      const message = reason instanceof TurnFailure
        ? reason.message
        : `claude-mock: a step of ${describeTurn(engine, turn)} failed: ${errorText(reason)}`;
      await sendFailure(engine, turn, message);
    }
    if (!engine.closed) {
      await engine.send(stateChange(engine.ctx, "idle", engine.outbox.sent !== undefined));
    }
  } catch {
    // the process ended meanwhile
  }
}

async function runStep(engine: Engine, step: Step, turn: TurnState, n: number): Promise<void> {
  if (!isObject(step)) {
    throw new TypeError(`step ${n} must be an object, got ${step === null ? "null" : typeof step}`);
  }
  switch (step.kind) {
    case "emit":
      return runEmit(engine, step.frame, step.delay, turn);
    case "message":
      return runMessage(engine, step, turn);
    case "delay":
      return engine.clock.sleep(step.ms * engine.speed, { signal: turn.abort.signal });
    case "raw":
      return engine.send({ frame: { raw: step.line } });
    case "result":
      // the Stop hooks run before the result, as when the steps run out
      if (!turn.resultSent) {
        await stopHooks(engine, turn);
        if (turn.stopped) return;
      }
      return sendResult(engine, turn, step.options);
    case "waitForWrite":
      return waitForWrite(engine, step.matcher, { timeoutMs: step.timeoutMs, turn, n });
    case "request": {
      const response = await engine.control.request(step.request, {
        timeoutMs: step.timeoutMs,
        signal: turn.abort.signal,
      });
      await step.onResponse?.(response);
      return;
    }
    case "apiError":
      return runApiError(engine, step, turn);
    case "failure":
      return runFailure(engine, step, turn);
    case "exit":
      await engine.shutdown({ code: step.code, signal: null }, true);
      throw sessionEnded();
    case "crash":
      // here, or armed for the message that follows (see CrashWatch)
      if (step.midStream === undefined && step.beforeToolResult !== true) {
        return engine.crash(step.code ?? 1);
      }
      (engine.crashes ??= new CrashWatch()).arm(step, turn);
      return;
    default:
      throw new TypeError(
        `unknown step kind ${JSON.stringify((step as { kind?: unknown }).kind)} (step ${n})`,
      );
  }
}

/** Writes an emit step's frame(s). */
async function runEmit(
  engine: Engine,
  frame: Frame | ((ctx: BuildContext) => Frame | Frame[]),
  delay: number | Delay | undefined,
  turn: TurnState | undefined,
): Promise<void> {
  const built = typeof frame === "function" ? frame(engine.ctx) : frame;
  for (const f of Array.isArray(built) ? built : [built]) {
    if (!isObject(f) || typeof f.type !== "string") {
      throw new TypeError("an emitted frame must be an object with a string 'type'");
    }
    await engine.send({ frame: f, delay: delay ?? engine.delayFor(f, turn) });
  }
}

/**
 * Waits until the client writes a frame `matcher` accepts (frames already written since
 * the last wait count). Real time, bounded like a control answer; a matcher that throws
 * fails the turn naming it, and reading input goes on.
 */
async function waitForWrite(
  engine: Engine,
  matcher: Matcher,
  options: { timeoutMs?: number; turn: TurnState; n: number },
): Promise<void> {
  const { turn, n } = options;
  const ms = options.timeoutMs ?? engine.control.timeoutMs;
  const where = `${describeTurn(engine, turn)} step ${n}`;
  const check = (frame: Frame | undefined, index: number): boolean => {
    if (frame === undefined) return false;
    try {
      return matcher.test(frameText(frame), frame);
    } catch (error) {
      throw new TurnFailure(
        `claude-mock: ${where}: the waitForWrite matcher (${matcher.description}) threw on written line #${index}: ${
          errorText(error)
        }`,
      );
    }
  };
  const written = engine.written;
  for (let i = engine.waitCursor; i < written.length; i++) {
    if (check(written[i].frame, i)) {
      engine.waitCursor = i + 1;
      return;
    }
  }
  engine.waitCursor = written.length;
  let unsubscribe = () => {};
  let cancelTimer = () => {};
  let stopListening = () => {};
  try {
    await new Promise<void>((resolve, reject) => {
      stopListening = turn.abort.onAbort(reject);
      unsubscribe = engine.writes.subscribe((entry) => {
        try {
          if (check(entry.frame, entry.index)) {
            engine.waitCursor = entry.index + 1;
            resolve();
          }
        } catch (error) {
          reject(error);
        }
      });
      cancelTimer = realTimeout(() =>
        reject(
          new TurnFailure(
            `claude-mock: ${where} waited ${ms} ms of real time for the client to write a frame that ${matcher.description}, but it did not. ${
              engine.writes.describe(5)
            }`,
          ),
        ), ms);
    });
  } finally {
    unsubscribe();
    cancelTimer();
    stopListening();
  }
}

/** Runs the scenario's `onConnect` steps; a failing one is reported and ends the process. */
export async function runConnect(engine: Engine): Promise<void> {
  const steps = engine.scenario.onConnect;
  if (!steps || (Array.isArray(steps) && steps.length === 0)) return;
  let n = 0;
  try {
    for await (const step of iterate(steps, undefined)) {
      n++;
      if (engine.closed) return;
      if (step.kind === "emit") await runEmit(engine, step.frame, step.delay, undefined);
      else if (step.kind === "raw") await engine.send({ frame: { raw: step.line } });
      else if (step.kind === "delay") {
        await engine.clock.sleep(step.ms * engine.speed, { signal: engine.ended.signal });
      } else {
        throw new TypeError(`onConnect supports emit, raw and delay steps, got '${step.kind}'`);
      }
    }
  } catch (error) {
    if (error instanceof SessionEnded || engine.closed) return;
    await connectFailed(
      engine,
      `claude-mock: onConnect step ${n} of scenario${engine.label()} failed: ${errorText(error)}`,
    );
  }
}

/** An on-connect failure: an error result saying why, then exit 1 (like a startup error). */
async function connectFailed(engine: Engine, message: string): Promise<void> {
  const turn = newTurn(engine, { index: -1, input: { type: "user" } as UserFrame, text: "" });
  try {
    await sendFailure(engine, turn, message);
  } catch {
    // nothing more can be written
  }
  await engine.shutdown({ code: 1, signal: null }, true);
}

/** A turn that has not done anything yet. */
function newTurn(
  engine: Engine,
  start: { index: number; input: UserFrame; text: string },
): TurnState {
  return {
    ...start,
    startedAt: engine.clock.now(),
    calls: [],
    failedCalls: [],
    userMessages: 1,
    lastText: "",
    denials: [],
    resultSent: false,
    stopped: false,
    contentStarted: false,
    abort: new AbortLatch(),
    promptId: "",
  };
}

function iterate(
  source: StepSource,
  info: TurnInfo | undefined,
): Iterable<Step> | AsyncIterable<Step> {
  if (typeof source === "function") {
    if (!info) throw new TypeError("onConnect steps cannot be a function");
    const produced = source(info);
    if (
      !produced || (typeof (produced as Iterable<Step>)[Symbol.iterator] !== "function" &&
        typeof (produced as AsyncIterable<Step>)[Symbol.asyncIterator] !== "function")
    ) {
      throw new TypeError("a step source function must return an iterable of steps");
    }
    return produced;
  }
  return source;
}

/** Checks a step a step function produced, as a scenario's step arrays are checked ahead. */
function checkProduced(engine: Engine, step: unknown, path: string): void {
  try {
    validateStep(step, path, { name: engine.scenario.name });
  } catch (error) {
    throw new TurnFailure(`claude-mock: ${errorText(error)}`);
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Once, in an SDK session (2.1.331 on): the `system/informational` notice of `--settings` the
 * CLI could not take whole, as print mode's text output says it on stderr.
 */
function settingsNoticeFrame(engine: Engine): Frame | undefined {
  const check = engine.settingsCheck;
  if (check.lines.length === 0 || engine.initializeRequest === undefined) return undefined;
  engine.settingsCheck = { ...check, lines: [] };
  const facts = engine.ctx.cli.facts;
  if (!facts.settingsNotice) return undefined;
  const content = flagSettingsWarning(check, facts)?.trimEnd() ?? "";
  return {
    type: "system",
    subtype: "informational",
    tag: "settings_not_in_effect",
    content,
    level: "warning",
    uuid: engine.ctx.ids.uuid(),
    session_id: engine.ctx.sessionId,
  };
}
