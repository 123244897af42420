/**
 * `SnapshotPlayer`: replays a tape to the real Agent SDK (or any client) in lockstep.
 *
 * @module
 */

import { requireTape } from "./tape.ts";
import { MockProcess, type SpawnOptionsLike } from "../adapters/mock_process.ts";
import type { MockDuplex } from "../adapters/mock_transport.ts";
import type { ExitStatus } from "../session/engine.ts";
import type { CassetteMismatchError } from "./cassette_mismatch_error.ts";
import { Replay, type ReplayMode } from "./_replay.ts";
import { type ReplayStubOptions, replayStubs } from "./_replay_stubs.ts";
import type { Tape } from "./tape.ts";
import type { Frame } from "../wire/frame.ts";

export type { ReplayMode } from "./_replay.ts";
export type {
  ReplayStubOptions,
  StubCanUseTool,
  StubHook,
  StubMcpInstance,
  StubMcpTransport,
} from "./_replay_stubs.ts";

/** Options for {@linkcode SnapshotPlayer}. */
export interface SnapshotPlayerOptions {
  /**
   * How the CLI's requests to the app (permissions, hooks, MCP calls) are replayed:
   * `inert` (default: not sent), `stub` (sent; answered by {@linkcode SnapshotPlayer.options}'s
   * stubs and checked) or `verify` (sent; the app's own callbacks answer, each answer checked
   * against the tape).
   */
  mode?: ReplayMode;
  /**
   * How long (real milliseconds) the player waits for the app at a point where the tape says
   * the app wrote something, before it fails with a mismatch. Default 5000.
   */
  waitMs?: number;
  /** How the process ended, for a tape that does not record it (e.g. from a side file). */
  ending?: { code: number | null; signal: string | null };
  /** Receives what the recorded process wrote to stderr, as it is reached. */
  stderr?: (text: string) => void;
}

/**
 * Replays one tape in lockstep: each frame the tape says the app sent is a sync point,
 * checked against what the app really sends (the prompt, its control requests, its answers),
 * with the SDK's live request ids put in the recorded answers. The CLI's frames come back
 * as recorded, and the process ends as the tape says (its exit code, or a crash). A
 * divergence ends the replay with exit 1 and a {@linkcode CassetteMismatchError}, which
 * {@linkcode SnapshotPlayer.assertFinished} throws, even when the SDK swallowed it.
 *
 * @example Replaying a tape to a raw client
 * ```ts
 * import { parseTape, SnapshotPlayer } from "@x/claude-mock/cassette";
 * const tape = parseTape([
 *   '{"format":"claude-mock-tape","version":1}',
 *   '{"t":0,"dir":"sdk->cli","frame":{"type":"user","message":{"role":"user","content":"hi"},"parent_tool_use_id":null}}',
 *   '{"t":5,"dir":"cli->sdk","frame":{"type":"result","subtype":"success","is_error":false,"result":"Hello"}}',
 *   '{"t":6,"end":{"code":0,"signal":null}}',
 * ].join("\n"));
 * const player = new SnapshotPlayer(tape);
 * const { readable, writable } = player.connect();
 * const writer = writable.getWriter();
 * await writer.write('{"type":"user","message":{"role":"user","content":"hi"},"parent_tool_use_id":null}\n');
 * await writer.close();
 * console.log((await new Response(readable).text()).trim()); // the recorded result line
 * player.assertFinished();
 * ```
 */
export class SnapshotPlayer {
  /** The tape. */
  readonly tape: Tape;
  /** The mode. */
  readonly mode: ReplayMode;
  #options: SnapshotPlayerOptions;
  #replay?: Replay;
  #stderr: string[] = [];
  #started: Promise<Replay>;
  #resolveStarted!: (replay: Replay) => void;

  /** Prepares a replay of `tape`; nothing runs until `spawn` or `connect`. */
  constructor(tape: Tape, options: SnapshotPlayerOptions = {}) {
    requireTape(tape, "Cannot replay: new SnapshotPlayer(tape)");
    if (typeof options !== "object" || options === null) {
      throw new TypeError(`Cannot replay: the options must be an object, got ${options}`);
    }
    this.tape = tape;
    this.mode = options.mode ?? "inert";
    const waitMs = options.waitMs ?? 5000;
    if (!["inert", "stub", "verify"].includes(this.mode)) {
      throw new TypeError(
        `Cannot replay: mode must be "inert", "stub" or "verify", got ${JSON.stringify(this.mode)}`,
      );
    }
    if (!Number.isFinite(waitMs) || waitMs < 0) {
      throw new RangeError(`Cannot replay: waitMs must be a finite number >= 0, got ${waitMs}`);
    }
    this.#options = { ...options, waitMs };
    this.#started = new Promise((resolve) => (this.#resolveStarted = resolve));
  }

  /**
   * The `spawnClaudeCodeProcess` function for the Agent SDK (bound: pass it as is). A
   * player replays once: make a new player for the next query.
   */
  readonly spawn = (options: SpawnOptionsLike): MockProcess<Replay> => {
    return new MockProcess(this.#start("spawn()"), { signal: options.signal });
  };

  /** The raw duplex: write the app's stream-json lines, read the tape's. */
  connect(): MockDuplex {
    const replay = this.#start("connect()");
    return { readable: replay.readable, writable: replay.writable };
  }

  /**
   * SDK options to spread into `query()`'s for a `stub` replay: `canUseTool`, `hooks` and
   * `mcpServers` that answer as the tape did, and the `model`, `permissionMode`, `maxTurns`,
   * `includePartialMessages` and `outputFormat` its CLI arguments show. Only what the tape
   * has is set.
   */
  options(): ReplayStubOptions {
    return replayStubs(this.tape);
  }

  /** Resolves with the replayed process's exit status. */
  get exited(): Promise<ExitStatus> {
    if (!this.#replay) {
      return Promise.reject(new Error("Cannot wait for the replay: it has not started"));
    }
    return this.#replay.exited;
  }

  /** The divergences found (the first one ended the replay). */
  get mismatches(): readonly CassetteMismatchError[] {
    return this.#replay?.mismatches ?? [];
  }

  /** What the recorded process wrote to stderr, as far as the replay reached. */
  get stderr(): string {
    return this.#stderr.join("");
  }

  /**
   * Throws the first {@linkcode CassetteMismatchError}, or an `Error` when the replay did
   * not start, or stopped before the end of the tape (recorded frames never reached).
   */
  assertFinished(): void {
    const replay = this.#replay;
    if (!replay) throw new Error("Cannot check the replay: it never started (spawn or connect)");
    if (replay.mismatches.length > 0) throw replay.mismatches[0];
    const total = this.tape.entries.length;
    if (replay.position < total) {
      const entry = this.tape.entries[replay.position];
      throw new Error(
        `The replay stopped at ${this.tape.source ?? "tape"}:${entry.line}: ` +
          `${total - replay.position} recorded entries were never reached`,
      );
    }
  }

  #start(by: string): Replay {
    if (this.#replay) {
      throw new Error(
        `Cannot ${by}: this player already replayed its tape; make a new player per query`,
      );
    }
    this.#replay = new Replay(this.tape, {
      mode: this.mode,
      waitMs: this.#options.waitMs!,
      ending: this.#options.ending,
      onStderr: (text) => {
        this.#stderr.push(text);
        this.#options.stderr?.(text);
      },
    });
    this.#resolveStarted(this.#replay);
    return this.#replay;
  }

  /**
   * The tape's own prompts as streaming input for `query()`: yields each user message the
   * tape says the app sent, when the replay reaches it, and ends once nothing more is
   * expected from the app, so the SDK closes the CLI's input as the recorded app did. The
   * message type follows the context (`SDKUserMessage` when passed to `query()`).
   */
  async *prompt<M = TapeUserMessage>(): AsyncGenerator<M> {
    const replay = await this.#started;
    let min = 0;
    for (;;) {
      const paused = await replay.pausedAt(min);
      if (paused === null || paused.entry === undefined) return;
      const { pos, entry } = paused;
      min = pos + 1;
      if (!("frame" in entry) || entry.frame.type !== "user") continue;
      const frame = entry.frame as Frame & { message?: unknown; parent_tool_use_id?: unknown };
      const message: TapeUserMessage = {
        type: "user",
        // other formats keep the prompt beside the type (`{type: "user", content}`)
        message: (frame.message ??
          {
            role: "user",
            content: (frame as { content?: unknown }).content ?? "",
          }) as TapeUserMessage[
            "message"
          ],
        parent_tool_use_id: (frame.parent_tool_use_id ?? null) as string | null,
        session_id: typeof frame.session_id === "string" ? frame.session_id : "",
      };
      yield message as M;
    }
  }

  /**
   * Sends the tape's own SDK-initiated requests (interrupt, set_model, set_permission_mode,
   * set_max_thinking_tokens, mcp_status, get_context_usage) through `query`'s methods when the
   * replay reaches them; resolves when the replay ends. For replaying a tape as its own app.
   */
  async drive(query: DrivableQuery): Promise<void> {
    const replay = await this.#started;
    let min = 0;
    for (;;) {
      const paused = await replay.pausedAt(min);
      if (paused === null) return;
      min = paused.pos + 1;
      const entry = paused.entry;
      if (entry === undefined || !("frame" in entry)) continue;
      if (entry.frame.type !== "control_request") continue;
      const request = (entry.frame as { request?: Record<string, unknown> }).request ?? {};
      if (request.subtype === "initialize") continue;
      const call = SDK_CALLS[String(request.subtype)] ??
        ((q: DrivableQuery, r: Record<string, unknown>) => q.request?.(r) ?? Promise.resolve());
      call(query, request).catch(() => {});
    }
  }
}

/** A user message as the SDK's streaming input takes it. */
export interface TapeUserMessage {
  /** `"user"`. */
  type: "user";
  /** The message. */
  message: { role: "user"; content: string | Record<string, unknown>[] };
  /** The tool use it belongs to, or `null`. */
  parent_tool_use_id: string | null;
  /** The session id the app gave. */
  session_id: string;
}

/** The `Query` methods {@linkcode SnapshotPlayer.drive} calls. */
export interface DrivableQuery {
  /** `interrupt` request. */
  interrupt(): Promise<unknown>;
  /** `set_model` request. */
  setModel(model?: string): Promise<unknown>;
  /** `set_permission_mode` request. */
  setPermissionMode(mode: never): Promise<unknown>;
  /** `set_max_thinking_tokens` request. */
  setMaxThinkingTokens?(tokens: number | null): Promise<unknown>;
  /** `mcp_status` request. */
  mcpServerStatus?(): Promise<unknown>;
  /** `get_context_usage` request. */
  getContextUsage?(): Promise<unknown>;
  /** Any other control request (the SDK's untyped `request`), when the query has it. */
  request?(body: Record<string, unknown>): Promise<unknown>;
}

const SDK_CALLS: Record<
  string,
  (q: DrivableQuery, request: Record<string, unknown>) => Promise<unknown>
> = {
  interrupt: (q) => q.interrupt(),
  set_model: (q, r) => q.setModel(r.model as string | undefined),
  set_permission_mode: (q, r) => q.setPermissionMode(r.mode as never),
  set_max_thinking_tokens: (q, r) =>
    q.setMaxThinkingTokens?.(r.max_thinking_tokens as number | null) ?? Promise.resolve(),
  mcp_status: (q) => q.mcpServerStatus?.() ?? Promise.resolve(),
  get_context_usage: (q) => q.getContextUsage?.() ?? Promise.resolve(),
};
