/**
 * The engine's shared state and its plumbing: stdin to frames, the turn queue, output,
 * and how the process ends. The parts (turns, tool flow, hooks, SDK requests, interrupt
 * tail) work on it; `Session` is its public face.
 *
 * @module
 */

import { type BackgroundTally, backgroundTally } from "./background_tally.ts";
import type { FlagSettingsCheck } from "./flag_settings_check.ts";
import { McpRoster } from "./mcp_roster.ts";
import { modelCatalogOf } from "../builders/model_catalog.ts";
import { TaskList } from "./task_list.ts";
import type { BuildContext } from "../builders/build_context.ts";
import { modelFacts } from "../builders/model_facts.ts";
import type { SystemInitOptions } from "../builders/system.ts";
import type { Scenario } from "../scenario/scenario.ts";
import type { StepSource } from "../scenario/step.ts";
import { AbortLatch } from "../timing/_abort_latch.ts";
import type { Clock } from "../timing/clock.ts";
import type { Delay, TimingProfile } from "../timing/timing_profile.ts";
import type { Frame, UserFrame } from "../wire/frame.ts";
import { type DecodedLine, type LineSink, LineSplitter } from "../wire/line_splitter.ts";
import type { CliFlags } from "./cli_args.ts";
import { ControlChannel } from "./control_channel.ts";
import { CrashWatch } from "./crash_watch.ts";
import { ExchangePicker } from "./exchange_picker.ts";
import { registerEngine } from "./scenario_progress.ts";
import { Outbox, type Outgoing } from "./outbox.ts";
import { sessionEnded, type TurnState } from "./turn_state.ts";
import { UsageLedger } from "./usage_ledger.ts";
import { ContextTally } from "./context_tally.ts";
import type { WriteEntry, WriteLog } from "./write_log.ts";
import { type EngineOptions, engineStart } from "./engine_options.ts";
import { type CustomAgent, customAgents, listedAgents } from "./session_agents.ts";
import type { AgentInfoEntry } from "../builders/agents.ts";
import type { PermissionMode } from "../builders/system.ts";
import type { ToolRunner } from "./session_settings.ts";
import type { CommandHook, HookCommandRunner } from "./command_hooks.ts";
import type { CustomCommand } from "./custom_commands.ts";
import { inputLineFault, STDIN_MAX_LINE_LENGTH } from "./_input_line_fault.ts";

import type { ExitStatus } from "./exit_status.ts";
export type { ExitStatus } from "./exit_status.ts";

/** Frames that answer the client or withdraw a question: never part of a turn's reply. */
const ANSWERS: ReadonlySet<unknown> = new Set(["control_response", "control_cancel_request"]);

export type { EngineOptions } from "./engine_options.ts";
export type { ToolRunner } from "./session_settings.ts";

/**
 * Plans a turn before the scenario's exchanges are tried: steps to answer `turn` with, or
 * `undefined` to let the next planner (and finally the exchange picker) decide. The seam
 * for front ends that answer some user frames themselves (commands sent in user frames).
 */
export type TurnPlanner = (turn: TurnState) => StepSource | undefined;

/** The front ends' planner makers, in the order they were added. */
const frontEnds: Array<(engine: Engine) => TurnPlanner> = [];

/**
 * Gives every engine made from now on the planner `planner` makes for it, after those added
 * before (the same function twice counts once). Front ends above the engine add theirs as they
 * load: the `__mock__` commands (`src/mock_commands/`), which every host of a session loads.
 */
export function addTurnPlanner(planner: (engine: Engine) => TurnPlanner): void {
  if (!frontEnds.includes(planner)) frontEnds.push(planner);
}

/** Runs one turn (set by the session: the turn runner). */
export type TurnHandler = (engine: Engine, input: UserFrame) => Promise<void>;

/** The shared state of one mock process. */
export class Engine {
  /** The scenario. */
  readonly scenario: Scenario;
  /** The flags the client passed. */
  readonly flags: CliFlags;
  /** What the check of `--settings` (or `initialize`'s settings) found (a notice from 2.1.331). */
  settingsCheck: FlagSettingsCheck;
  /** The environment the client spawned the process with. */
  readonly env: Record<string, string | undefined>;
  /** Runs tools for real (the binary's live mode), if set. */
  readonly runTool?: ToolRunner;
  /** Whether a stdio MCP server's command can be started (every one, without it). */
  readonly mcpCommandCheck?: (command: string) => "found" | "missing" | "denied";
  /** The text of the project's `.mcp.json`, if it has one. */
  readonly projectMcpConfig?: string;
  #roster?: { initialize: Record<string, unknown> | undefined; roster: McpRoster };
  /** Runs the settings' command hooks, if the host can and they are on. */
  readonly runHookCommand?: HookCommandRunner;
  /** The settings' command hooks (read as the first turn starts: `commandHooksReady`). */
  readonly commandHooks: CommandHook[] = [];
  /** Whether the settings' command hooks were read. */
  commandHooksRead = false;
  /** The start-up's SessionStart command hooks once started (`null`: none to run). */
  startupHooks?: Promise<void> | null;
  /** Whether the session's instructions (a project `CLAUDE.md`) were loaded (InstructionsLoaded). */
  instructionsLoaded = false;
  /** The custom slash commands (`.claude/commands/`), once read (`customCommandsOf`). */
  customCommandsRead?: CustomCommand[];
  /** The `initialize` answer while the start-up's hooks run: the first turn starts after it. */
  initializeAnswer?: Promise<unknown>;
  /** How `__mock__` prompts are taken: run (`on`), not (`off`), run with live tools (`live`). */
  readonly mockCommands: "on" | "off" | "live";
  /** The session clock. */
  readonly clock: Clock;
  /** When the process started, on the session clock. */
  readonly startedAt: number;
  /** Ids, session id, model, permission mode, cwd, time. */
  readonly ctx: BuildContext;
  /** The session's timing profile. */
  readonly profile: TimingProfile;
  /** The speed factor. */
  readonly speed: number;
  /** stdout. */
  readonly outbox: Outbox;
  /** Control requests both ways. */
  readonly control: ControlChannel;
  /** Usage and cost, as running totals. */
  readonly ledger: UsageLedger = new UsageLedger();
  /** Foreground subagents completed so far, by type (`subagent_stats`). */
  readonly subagents: Record<string, number> = {};
  /** Foreground subagents an interrupt stopped (killed by the user) so far, by type. */
  readonly subagentsKilled: Record<string, number> = {};
  /** Background subagents: those waiting to run, and their counts. */
  readonly background: BackgroundTally = backgroundTally();
  /**
   * The subagents running (their task ids, outermost first), the deepest depth reached, and how
   * many subagents a subagent started.
   */
  readonly subagentNesting: { running: string[]; maxDepth: number; spawnedBySubagents: number } = {
    running: [],
    maxDepth: 0,
    spawnedBySubagents: 0,
  };
  /** The conversation's size in context, block by block. */
  readonly context: ContextTally = new ContextTally();
  /** Keeps the prompts taken and the frames written in the session's transcript, if kept. */
  transcribe?: (frame: Frame, bytes?: Uint8Array) => void;
  /** Which exchange answers a message. */
  readonly picker: ExchangePicker;
  /** Everything the client wrote. */
  readonly writes: WriteLog;
  /** The entries of `writes`, without copying (waits scan them). */
  readonly written: WriteEntry[] = [];
  /** Where the next `waitForWrite` starts looking. */
  waitCursor = 0;
  /** What the client sent in `initialize`. */
  initializeRequest?: Record<string, unknown>;
  /** The mode `EnterPlanMode` left (ExitPlanMode goes back to it). */
  modeBeforePlan?: PermissionMode;

  /**
   * The JSON Schema of the structured output (`--json-schema`, else `initialize`'s
   * `jsonSchema`), if the client asked for one: the session has the StructuredOutput tool.
   */
  get jsonSchema(): unknown {
    return this.flags.jsonSchema ?? this.initializeRequest?.jsonSchema;
  }
  /**
   * The agents the session lists and runs: the built-in ones and the custom ones (`--agents`,
   * `initialize`'s `agents`), worked out again when `initialize` arrives.
   */
  get agents(): readonly AgentInfoEntry[] {
    const initialize = this.initializeRequest;
    if (!this.#agents || this.#agents.initialize !== initialize) {
      const custom = customAgents({
        ...(this.flags.agents !== undefined ? { flag: this.flags.agents } : {}),
        ...(initialize ? { initialize } : {}),
      });
      this.#agents = { initialize, custom, listed: listedAgents(custom) };
    }
    return this.#agents.listed;
  }
  /** The custom agents' definitions by name (`--agents`, `initialize`'s `agents`). */
  get customAgents(): Readonly<Record<string, CustomAgent>> {
    void this.agents;
    return this.#agents!.custom;
  }
  #agents?: {
    initialize: Record<string, unknown> | undefined;
    custom: Record<string, CustomAgent>;
    listed: AgentInfoEntry[];
  };
  /** The session's MCP servers and their states (made again when `initialize` arrives). */
  get mcpRoster(): McpRoster {
    const initialize = this.initializeRequest;
    if (!this.#roster || this.#roster.initialize !== initialize) {
      const roster = new McpRoster(this.flags.mcpConfig, {
        ...(initialize ? { initialize } : {}),
        ...(this.projectMcpConfig !== undefined && !this.flags.strictMcpConfig
          ? { project: this.projectMcpConfig }
          : {}),
        ...(this.mcpCommandCheck ? { commandCheck: this.mcpCommandCheck } : {}),
      });
      this.#roster = { initialize, roster };
    }
    return this.#roster.roster;
  }
  /** Additional context hooks returned, in order. */
  readonly hookContext: string[] = [];
  /** `set_max_thinking_tokens`. */
  maxThinkingTokens: number | null = null;
  /** The thinking display `set_max_thinking_tokens` chose (`undefined`: the default). */
  thinkingDisplay?: string;
  /** The session's tasks (the task tools of older models). */
  readonly tasks: TaskList;
  /** The running turn. */
  turn?: TurnState;
  #turnWaiters: Array<() => void> = [];
  /**
   * Rules the client's permission answers added (`updatedPermissions`), for the rest of the
   * session.
   */
  readonly sessionRules: { allow: string[]; ask: string[]; deny: string[] } = {
    allow: [],
    ask: [],
    deny: [],
  };
  /** Files a Read, Write or Edit of this session went through (an Edit of another differs). */
  readonly filesInContext: Set<string> = new Set();
  /** What the session's tools last showed of each file (`file_contents.ts`). */
  readonly fileContents: Map<string, string> = new Map();
  /** Whether the CLI's note of a model it does not know went to stderr (once a session). */
  unrecognizedModelSaid = false;
  /** Turns started so far. */
  turnCount = 0;
  /** The index of the exchange that answered each turn (-1: none). */
  readonly matched: number[] = [];
  /** Results written so far. */
  resultCount = 0;
  /** Whether the last result was an error (exit 1 when stdin closes). */
  lastResultError = false;
  /** The next JSON-RPC id for MCP calls. */
  jsonRpcId = 2;
  /** Aborted when the process ends. */
  readonly ended: AbortLatch = new AbortLatch();
  /** Resolves when the process has exited. */
  readonly exited: Promise<ExitStatus>;
  /** Runs a turn. */
  runTurn?: TurnHandler;
  /** Runs once before the process exits: stdin closed after the last turn, a signal or an exit. */
  beforeExit?: (engine: Engine) => Promise<void> | undefined;
  /** The prompt id of the last turn (`""` before the first). */
  lastPromptId = "";
  /** What `system/init` is built from, worked out once per `initialize` request. */
  initBase?: {
    initialize: Record<string, unknown> | undefined;
    /** The MCP roster's changes it was built at. */
    mcpChanges?: number;
    options: SystemInitOptions;
    key: string;
    /** The template key for the last model and permission mode (one string, hashed once). */
    line?: { model: string; mode: string; key: string };
  };
  /** The front ends' planners ({@linkcode addTurnPlanner}), asked in order before the picker. */
  readonly planners: TurnPlanner[] = frontEnds.map((planner) => planner(this));
  /** The crash points (the scenario's `crashAfter`, armed `crash` steps), if any. */
  crashes?: CrashWatch;
  /** Warnings given so far (the first 100). */
  readonly warnings: string[] = [];
  #resolveExit!: (status: ExitStatus) => void;
  #exit?: ExitStatus;
  #exiting = false;
  #inputClosed = false;
  #splitter = new LineSplitter(STDIN_MAX_LINE_LENGTH);
  #reading = false;
  #later?: (string | Uint8Array)[];
  #lineSink: LineSink = { enqueue: (line) => this.#onLine(line) };
  #session: unknown;
  #queue: UserFrame[] = [];
  #head = 0;
  #running = false;
  #ready: Promise<void> = Promise.resolve();
  #stderr?: (text: string) => void;
  /** The last model `beforeApiCall` found the CLI knows. */
  #knownModel?: string;

  /** Builds the state; `start` begins reading input. */
  constructor(options: EngineOptions) {
    const { scenario, flags } = options;
    this.scenario = scenario;
    this.flags = flags;
    this.env = options.env;
    this.#stderr = options.stderr;
    this.runTool = options.runTool;
    if (options.mcpCommandCheck) this.mcpCommandCheck = options.mcpCommandCheck;
    if (options.projectMcpConfig !== undefined) this.projectMcpConfig = options.projectMcpConfig;
    if (options.commandHooks !== false && options.runHookCommand) {
      this.runHookCommand = options.runHookCommand;
    }
    this.writes = options.writes;
    const start = engineStart(options);
    this.mockCommands = start.mockCommands;
    this.clock = start.clock;
    this.startedAt = this.clock.now();
    this.profile = start.profile;
    this.speed = start.speed;
    this.ctx = start.ctx;
    this.settingsCheck = start.settingsCheck;
    this.tasks = new TaskList({
      completedTaskUnblocks: this.ctx.cli.facts.completedTaskUnblocks,
    });
    this.exited = new Promise((resolve) => (this.#resolveExit = resolve));
    const jitter = start.jitter;
    this.outbox = new Outbox({
      clock: this.clock,
      profile: this.profile,
      speedFactor: this.speed,
      prng: () => jitter.nextFloat(),
      recordSent: options.recordSent ?? false,
      output: options.output,
      stampTimes: scenario.verbatim !== true,
      ended: this.ended,
      // the reader went away: like a real process, this one dies of SIGPIPE when it writes
      // into the broken pipe (now, if output was waiting; else at its next write)
      onCancel: (pending) => {
        if (pending) void this.shutdown({ code: null, signal: "SIGPIPE" }, false);
      },
    });
    this.picker = new ExchangePicker(scenario, { invocation: options.invocation });
    if (scenario.crashAfter) this.crashes = new CrashWatch(scenario.crashAfter);
    this.control = new ControlChannel({
      ctx: this.ctx,
      send: (item) => this.send(item),
      timeoutMs: start.controlTimeoutMs,
      now: () => this.clock.now(),
      closed: () => this.closed,
    });
  }

  /** Resolves once the running turn has ended (at once when none runs) or the process ended. */
  turnEnded(): Promise<void> {
    if (!this.turn || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.#turnWaiters.push(resolve));
  }

  /** Called by the turn runner as a turn ends: wakes whoever waits for it. */
  endTurn(turn: TurnState): void {
    if (this.turn === turn) this.turn = undefined;
    if (this.#turnWaiters.length === 0) return;
    const waiters = this.#turnWaiters;
    this.#turnWaiters = [];
    for (const wake of waiters) wake();
  }

  /** Whether the process has exited or is exiting. */
  get closed(): boolean {
    return this.#exiting || this.#exit !== undefined;
  }

  /** The exit status, once exited. */
  get exit(): ExitStatus | undefined {
    return this.#exit;
  }

  /** ` 'name'` of the scenario, or "". */
  label(): string {
    return this.scenario.name ? ` '${this.scenario.name}'` : "";
  }

  /** Starts taking input; turns wait for `ready` (the on-connect steps). */
  startInput(session: unknown, ready: Promise<void>): void {
    this.#ready = ready;
    this.#session = session;
    if (typeof session === "object" && session !== null) registerEngine(session, this);
  }

  /**
   * Takes a chunk of stdin: complete lines are logged and dispatched now (no stream in
   * between). A chunk that is neither text nor bytes throws, and ends the input.
   */
  input(chunk: string | Uint8Array): void {
    if (this.#inputClosed) return;
    if (this.#reading) {
      // written from inside the handling of an earlier chunk (a client that answers as it
      // reads our output, synchronously): taken once that chunk is done, in order
      (this.#later ??= []).push(chunk);
      return;
    }
    this.#reading = true;
    try {
      this.#splitter.push(chunk, this.#lineSink);
      while (this.#later && this.#later.length > 0 && !this.#inputClosed) {
        this.#splitter.push(this.#later.shift()!, this.#lineSink);
      }
    } catch (error) {
      this.#later = undefined;
      this.endInput();
      throw error;
    } finally {
      this.#reading = false;
    }
  }

  /** stdin closed: a last line without newline is taken, then the process winds down. */
  endInput(): void {
    if (this.#inputClosed) return;
    if (this.#reading) {
      // closed inside a chunk's handling: after the chunks still to take (jest fakes queueMicrotask)
      void Promise.resolve().then(() => this.endInput());
      return;
    }
    try {
      this.#splitter.end(this.#lineSink);
    } finally {
      this.#inputClosed = true;
      this.control.inputClosed();
      this.#pump();
    }
  }

  #onLine(value: DecodedLine): void {
    if (this.#inputClosed) return;
    const now = this.clock.now();
    if (value.ok) {
      this.written.push(this.writes.add({ raw: value.raw, frame: value.frame }, now));
      this.#dispatch(value.frame, this.#session);
    } else {
      this.written.push(this.writes.add({ raw: value.raw, error: value.error }, now));
      const fault = inputLineFault(value.raw, value.error);
      if (fault) {
        this.stderr(fault);
        void this.shutdown({ code: 1, signal: null }, true);
      }
    }
  }

  /**
   * Writes a frame to stdout (paced, stamped, encoded). Rejects with the session-ended
   * sentinel once the process is ending; a scenario's crash point ends it here.
   */
  send(item: Outgoing): Promise<void> {
    if (this.closed) return Promise.reject(sessionEnded());
    if (this.outbox.broken) {
      return this.shutdown({ code: null, signal: "SIGPIPE" }, false).then(() => {
        throw sessionEnded();
      });
    }
    const turn = this.turn;
    if (
      turn && item.cancel === undefined && !turn.resultSent && !turn.abort.aborted &&
      !ANSWERS.has((item.frame as Frame).type)
    ) {
      // a frame of the running turn: an interrupt drops it while it waits for its delay
      item.cancel = turn.abort;
    }
    const watch = this.crashes;
    const before = watch?.before(item.frame, this.turn);
    if (before !== undefined) return this.crash(before);
    this.context.observe(item.frame);
    const sent = this.outbox.send(item);
    if (this.transcribe && typeof (item.frame as Frame).type === "string") {
      // a frame handed over already encoded (a later system/init) is kept as its line
      this.transcribe(item.frame as Frame, item.bytes);
    }
    const after = watch?.after(item.frame, this.turn, this.outbox.count);
    if (after !== undefined) {
      sent.catch(() => {});
      return this.crash(after);
    }
    return sent;
  }

  /**
   * Crashes now: the process exits with `code`, what was written is delivered; rejects with
   * the session-ended sentinel (what runs unwinds).
   */
  crash(code: number): Promise<never> {
    return this.shutdown({ code, signal: null }, true).then(() => {
      throw sessionEnded();
    });
  }

  /** Writes `text` to the process's stderr (nowhere unless the host gave a sink). */
  stderr(text: string): void {
    this.#stderr?.(text);
  }

  /**
   * Before an API call: a model the CLI does not know gets its note on stderr, once a session
   * (`[claude-code:unrecognized_model]`, as the real CLI 2.1.328 writes it).
   */
  beforeApiCall(): void {
    const model = this.ctx.model;
    if (this.unrecognizedModelSaid || model === this.#knownModel) return;
    if (modelFacts(model, modelCatalogOf(this.ctx.cli)).known) {
      // looked up once per model, not once per API call
      this.#knownModel = model;
      return;
    }
    this.unrecognizedModelSaid = true;
    this.stderr(
      `[claude-code:unrecognized_model] ${
        JSON.stringify({ model: this.ctx.model, query_source: "sdk" })
      }\n`,
    );
  }

  /** A warning (an unmatched prompt under `"warn"`): kept, and written to stderr. */
  warn(message: string): void {
    if (this.warnings.length < 100) this.warnings.push(message);
    console.warn(message);
  }

  /** The delay of `frame` in `turn`: the exchange's profile, plus time to first token. */
  delayFor(frame: { type: string }, turn: TurnState | undefined): number | Delay | undefined {
    const profile = turn?.profile;
    let delay: Delay | undefined = profile ? (profile.byType?.[frame.type] ?? profile) : undefined;
    if (
      turn && !turn.contentStarted && (frame.type === "assistant" || frame.type === "stream_event")
    ) {
      turn.contentStarted = true;
      const base = delay ?? this.profile.byType?.[frame.type] ?? this.profile;
      const first = (profile ?? this.profile).firstFrameMs;
      if (first > 0) delay = { baseMs: base.baseMs + first, jitterMs: base.jitterMs };
    }
    return delay;
  }

  /** Whether assistant messages stream as `stream_event` frames. */
  partial(): boolean {
    return this.scenario.partialMessages ?? this.flags.includePartialMessages;
  }

  /**
   * Ends the process: `flush` delivers what was written (an exit), otherwise pending
   * output is dropped (a signal).
   */
  async shutdown(
    status: ExitStatus,
    flush: boolean,
    options: { endHooks?: boolean } = {},
  ): Promise<void> {
    if (this.closed) return this.exited.then(() => {});
    this.#exiting = true;
    this.turn?.abort.abort(sessionEnded());
    this.control.rejectAll();
    this.#inputClosed = true;
    if (flush) await this.outbox.close();
    else this.outbox.terminate();
    if (options.endHooks) {
      // the session's end hooks run before the process is gone (SIGTERM, an exit after SIGINT)
      const ending = this.beforeExit?.(this);
      if (ending) await ending.catch(() => {});
    }
    this.ended.abort(sessionEnded());
    this.#exit = status;
    this.#resolveExit(status);
    if (this.turn) this.endTurn(this.turn);
  }

  #dispatch(frame: Frame, session: unknown): void {
    switch (frame.type) {
      case "user":
        this.context.prompt((frame as UserFrame).message?.content);
        this.#queue.push(frame as UserFrame);
        this.#pump();
        break;
      case "control_request":
        this.control.onRequest(frame, session);
        break;
      case "control_response":
        this.control.onResponse(frame);
        break;
      default:
        // keep_alive, update_environment_variables, ...: recorded in the write log only.
        break;
    }
  }

  async #pump(): Promise<void> {
    if (this.#running || this.#exit) return;
    this.#running = true;
    try {
      await this.#ready;
      while (this.#head < this.#queue.length && !this.closed) {
        const input = this.#queue[this.#head++];
        if (this.#head === this.#queue.length) {
          this.#queue = [];
          this.#head = 0;
        }
        await this.runTurn!(this, input);
      }
    } finally {
      this.#running = false;
    }
    if (this.#head < this.#queue.length && !this.closed) return void this.#pump();
    if (this.#inputClosed && !this.closed) {
      const ending = this.beforeExit?.(this);
      if (ending) await ending.catch(() => {});
      if (this.closed) return;
      const code = this.scenario.exitCode ?? (this.lastResultError ? 1 : 0);
      await this.shutdown({ code, signal: null }, true);
    }
  }
}
