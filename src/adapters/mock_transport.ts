/**
 * `MockTransport`: the object a test holds. It starts one mock `claude` session for a
 * scenario, hands it to the Agent SDK (`spawn`) or to any client (`connect`), and keeps
 * what the client wrote for assertions.
 *
 * @module
 */

import type { Scenario } from "../scenario/scenario.ts";
import type { WriteEntry } from "../session/write_log.ts";
import { type ExitStatus, Session, type SessionOptions } from "../session/session.ts";
import type { Frame } from "../wire/frame.ts";
import { MockProcess, type SpawnOptionsLike } from "./mock_process.ts";

/** Options for {@linkcode MockTransport}: the session's, minus the command line. */
export type MockTransportOptions = Omit<SessionOptions, "args" | "env">;

/** A Web Streams duplex: the process's stdout (`readable`) and stdin (`writable`). */
export interface MockDuplex {
  /** stdout: stream-json lines. */
  readable: ReadableStream<Uint8Array>;
  /** stdin: stream-json lines. */
  writable: WritableStream<Uint8Array | string>;
}

/**
 * One mock Claude Code session for a scenario. Pass `mock.spawn` as the Agent SDK's
 * `spawnClaudeCodeProcess`, or call `mock.connect()` for the raw duplex. A transport
 * runs one process: connect once, make a new transport for the next query.
 *
 * @example With the Agent SDK
 * ```ts ignore
 * import { query } from "@anthropic-ai/claude-agent-sdk";
 * import { MockTransport, ScenarioBuilder } from "@x/claude-mock";
 *
 * const mock = new MockTransport(new ScenarioBuilder().on("hello").respond("Hi!").build());
 * for await (const message of query({ prompt: "hello", options: { spawnClaudeCodeProcess: mock.spawn } })) {
 *   console.log(message.type);
 * }
 * mock.assertWrote(/"hello"/);
 * ```
 *
 * @example With the raw duplex
 * ```ts
 * import { MockTransport, ScenarioBuilder } from "@x/claude-mock";
 * const mock = new MockTransport(new ScenarioBuilder().on("hello").respond("Hi!").build());
 * const { readable, writable } = mock.connect();
 * const writer = writable.getWriter();
 * await writer.write('{"type":"user","session_id":"","message":{"role":"user","content":"hello"},"parent_tool_use_id":null}\n');
 * await writer.close();
 * const lines = (await new Response(readable).text()).trim().split("\n");
 * console.log(JSON.parse(lines.at(-2)!).result); // Hi!
 * mock.assertWroteJson((f) => f.type === "user");
 * ```
 */
export class MockTransport {
  /** The scenario. */
  readonly scenario: Scenario;
  #options: MockTransportOptions;
  #session?: Session;
  #closedEarly = false;
  #connectedBy?: string;
  #exited: Promise<ExitStatus>;
  #resolveExited!: (status: ExitStatus) => void;

  /** Prepares a session for `scenario`; nothing runs until `spawn` or `connect`. */
  constructor(scenario: Scenario, options: MockTransportOptions = {}) {
    this.scenario = scenario;
    this.#options = options;
    this.#exited = new Promise((resolve) => (this.#resolveExited = resolve));
  }

  /**
   * The `spawnClaudeCodeProcess` function for the Agent SDK (bound: pass it as is).
   * The SDK's arguments reach the session (`--include-partial-messages`, `--model`,
   * `--max-turns`, `--permission-mode`, ...).
   */
  readonly spawn = (options: SpawnOptionsLike): MockProcess => {
    const session = this.#start(options.args ?? [], "spawn()", options.env);
    return new MockProcess(session, { signal: options.signal });
  };

  /** Starts the session and returns its stdout and stdin as Web Streams. */
  connect(
    options: { args?: readonly string[]; env?: Record<string, string | undefined> } = {},
  ): MockDuplex {
    const session = this.#start(options.args ?? [], "connect()", options.env);
    return { readable: session.readable, writable: session.writable };
  }

  /** The running session (after `spawn` or `connect`). */
  get session(): Session {
    if (!this.#session) {
      throw new TypeError(
        `MockTransport${this.#label()} has no session yet: call spawn() (pass it to the SDK) or connect() first`,
      );
    }
    return this.#session;
  }

  /** Resolves with the exit status once the process has exited. */
  get exited(): Promise<ExitStatus> {
    return this.#exited;
  }

  /** Writes a frame now. */
  inject(frame: Frame): void {
    this.session.inject(frame);
  }

  /** Fails the running turn with an error result carrying `message`. */
  injectError(message: string): void {
    this.session.injectError(message);
  }

  /** Every line the client wrote, parsed and raw, with session-clock timestamps. */
  writes(): WriteEntry[] {
    return this.#session ? this.#session.writes.entries() : [];
  }

  /** Every frame the client wrote (parsed). */
  writtenMessages(): Frame[] {
    return this.#session ? this.#session.writes.frames() : [];
  }

  /** Asserts that the client wrote a line containing / matching `pattern`. */
  assertWrote(pattern: string | RegExp): WriteEntry {
    return this.session.writes.assertWrote(pattern);
  }

  /** Asserts that the client wrote a frame satisfying `predicate`; returns it. */
  assertWroteJson(predicate: (frame: Frame) => boolean, description?: string): Frame {
    return this.session.writes.assertWroteJson(predicate, description);
  }

  /** Ends the process now (like SIGTERM); resolves with its exit status. */
  close(): Promise<ExitStatus> {
    if (!this.#session) {
      this.#closedEarly = true;
      this.#resolveExited({ code: null, signal: "SIGTERM" });
      return this.#exited;
    }
    this.#session.kill("SIGTERM");
    return this.#exited;
  }

  #start(
    args: readonly string[],
    by: string,
    env: Record<string, string | undefined> | undefined,
  ): Session {
    if (this.#closedEarly) {
      throw new TypeError(
        `MockTransport${this.#label()} was closed before it connected: make a new MockTransport for the next query`,
      );
    }
    if (this.#session) {
      throw new TypeError(
        `MockTransport${this.#label()} is already connected (by ${this.#connectedBy}): one transport runs one process; make a new MockTransport for the next query`,
      );
    }
    this.#connectedBy = by;
    const session = new Session(this.scenario, { ...this.#options, args, env });
    this.#session = session;
    session.exited.then((status) => this.#resolveExited(status));
    return session;
  }

  #label(): string {
    return this.scenario.name ? ` '${this.scenario.name}'` : "";
  }
}
