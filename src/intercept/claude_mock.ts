/**
 * `mockClaude(scenario)`: the mock the app's own `query()` talks to, with no change to the
 * app. The SDK module is routed to a wrapper (Node's `--import @x/claude-mock/register`, the
 * vitest or jest setup file, Deno's import map); the wrapper runs the real `query()` with the
 * active mock's process. Mocks are per async context, so concurrent tests keep their own.
 *
 * @module
 */

import type { ClaudeSpawn } from "../adapters/claude_spawn.ts";
import type {
  ClientAnswer,
  ClientHookAnswer,
  ClientMcpAnswer,
  ClientPermissionAnswer,
} from "../adapters/client_answers.ts";
import type { SpawnOptionsLike } from "../adapters/mock_process.ts";
import { MockTransport, type MockTransportOptions, sessionOf } from "../adapters/mock_transport.ts";
import type { Scenario } from "../scenario/scenario.ts";
import type { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import { withOverrides } from "../scenario/with_overrides.ts";
import { AssertionError } from "../session/assertion_error.ts";
import { assertProgressAcross } from "../session/scenario_progress.ts";
import { type WriteEntry, WriteLog } from "../session/write_log.ts";
import { claimRun, SessionStore } from "../session/session_store.ts";
import { getDefaults } from "../timing/defaults.ts";
import { isObject } from "../wire/frame.ts";
import type { Frame } from "../wire/frame.ts";
import {
  type ActiveMock,
  interceptionState,
  mockOfEntry,
  scopeOfEntry,
  type TestScope,
} from "./_interception_state.ts";
import { notInterceptedMessage } from "./_messages.ts";

/**
 * What a mock answers with: a scenario (each `query()` runs a new session of it), or
 * anything with a `spawnClaudeCodeProcess` function as `spawn` (a cassette, a
 * `SnapshotPlayer`, a `MockTransport`) or such a function itself (`recordingSpawn(...)`).
 */
export type ClaudeMockSource =
  | Scenario
  | { readonly spawn: (options: SpawnOptionsLike) => unknown }
  | ((options: SpawnOptionsLike) => unknown);

/** Options for {@linkcode mockClaude}: the sessions' (as `MockTransport` takes), and these. */
export interface MockClaudeOptions extends MockTransportOptions {
  /**
   * Active for the whole process rather than for this async context (a test and what it
   * calls): for a mock set up once, in a `before` hook, for tests that run one at a time.
   * A mock of the context wins over it. Default `false`.
   */
  global?: boolean;
  /**
   * SDK options laid over the app's on every query, e.g. a `stub` replay's callbacks
   * (`sdkOptions: tape.options()`). `spawnClaudeCodeProcess` is always the mock's.
   */
  sdkOptions?: Record<string, unknown>;
}

/**
 * The active mock {@linkcode mockClaude} returns: the recorders and assertions of a
 * `MockTransport`, over every query the code under test ran (one session per `query()`, in
 * the order they started; the n-th is the scenario's invocation n, with the seed moved by
 * n - 1 as the fake binary's runs), `use()` for per-test overrides, and `close()` (or
 * `await using`), which ends what still runs and deactivates the mock.
 */
export interface ClaudeMock extends AsyncDisposable {
  /** The mock's name, for messages: the scenario's, or what the source is. */
  readonly label: string;
  /** The scenario the next query gets (after `use()`); `undefined` for a spawn source. */
  readonly scenario: Scenario | undefined;
  /** Whether it still answers queries (until `close()`). */
  readonly active: boolean;
  /** What the SDK asked to spawn, one entry per query: its arguments, cwd and environment. */
  readonly spawns: readonly SpawnOptionsLike[];
  /** One transport per query of a scenario mock, in order (empty for a spawn source). */
  readonly transports: readonly MockTransport[];
  /** The last query's transport; throws when no query ran yet. */
  readonly last: MockTransport;
  /**
   * The transcripts of the sessions its queries ran (the `sessionStore` option, else one of
   * its own): a query that resumes, continues or forks an earlier one goes on from it, as with
   * the real CLI, and one that resumes a session it does not hold fails as the real CLI fails.
   */
  readonly sessions: SessionStore;
  /**
   * Overrides for the queries that start from now on, as msw's `server.use()`: the
   * overrides' exchanges are tried first (see `withOverrides`). Returns the mock.
   */
  use(overrides: Scenario | ((builder: ScenarioBuilder) => unknown)): ClaudeMock;
  /** Every line the SDK wrote, over all queries. */
  writes(): WriteEntry[];
  /** Every frame the SDK wrote (parsed), over all queries. */
  writtenMessages(): Frame[];
  /** Asserts that the SDK wrote a line containing / matching `pattern` in some query. */
  assertWrote(pattern: string | RegExp): WriteEntry;
  /** Asserts that the SDK wrote a frame satisfying `predicate` in some query. */
  assertWroteJson(predicate: (frame: Frame) => boolean, description?: string): Frame;
  /** The app's `canUseTool` decisions, over all queries. */
  permissionDecisions(): ClientPermissionAnswer[];
  /** The app's hook outputs, over all queries. */
  hookOutputs(): ClientHookAnswer[];
  /** The app's in-process MCP results, over all queries. */
  mcpResults(): ClientMcpAnswer[];
  /** Every answer the app gave to a control request of the mock, over all queries. */
  clientAnswers(): ClientAnswer[];
  /** Asserts that every exchange answered in some query (and that a query ran). */
  assertAllExchangesUsed(): void;
  /** Asserts that each query ran the scenario to its end (and that a query ran). */
  assertScenarioFinished(): void;
  /**
   * Forgets the queries that have ended, as jest's `mockClear()`: they leave `transports`,
   * `spawns`, `writes()`, the answers and the assertions; queries still running stay. The
   * next query counts on as without it (its invocation, seed and ids), and `sessions` keeps
   * the transcripts (`sessions.clear()` forgets them). A mock that lives across a whole test
   * run (a setup file's) keeps a few KiB per query until it is cleared.
   */
  clear(): void;
  /** Writes a frame now, into the last query's session. */
  inject(frame: Frame): void;
  /** Fails the last query's running turn with an error result carrying `message`. */
  injectError(message: string): void;
  /**
   * Deactivates the mock and ends the sessions still running; resolves when they have exited
   * (each query's exit is its transport's `exited`). It resolves with nothing, so it is the
   * cleanup a runner's hook takes as it is: `onTestFinished(() => claude.close())` type checks
   * (vitest's hooks take a function returning `void` or a promise of `void`).
   */
  close(): Promise<void>;
}

/**
 * Activates a mock Claude Code for the code under test: from here on, in this test (this
 * async context) and what it calls, the app's own `query()` from
 * `@anthropic-ai/claude-agent-sdk` runs against `source` instead of the real CLI. The app
 * takes no option: the SDK module is routed to a wrapper by
 * `node --import @x/claude-mock/register`, the `@x/claude-mock/vitest` or `@x/claude-mock/jest`
 * setup file, or Deno's import map (to a module of the tests that exports
 * `wrapClaudeSdk(sdk)`); without one of those it throws at once, naming what to add. Each
 * `query()` is a new session of the scenario.
 *
 * Concurrent tests each see their own mock (an `AsyncLocalStorage`); a second `mockClaude()`
 * in the same test replaces the first (use `claude.use()` to change a mock instead). A query
 * with no active mock (none activated, or closed) throws, or reaches the real CLI, as
 * `configureInterception({ onUnhandledQuery })` says. The queries of one mock share its
 * sessions' transcripts (`claude.sessions`, a {@linkcode SessionStore}): a `resume`, `continue`
 * or `forkSession` goes on from an earlier query as with the real CLI, and a resume of a session
 * no query ran fails as with it. Close each mock (`await using`, or
 * `close()` in the runner's after-test hook): Deno runs a file's tests in one async context, so
 * there a mock left open answers the tests that follow (node:test and jest keep each test's
 * context apart, and the vitest setup file closes what a test left open).
 *
 * @example The app's own query() against a scenario
 * ```ts
 * import * as sdk from "@anthropic-ai/claude-agent-sdk";
 * import { mockClaude, ScenarioBuilder, wrapClaudeSdk } from "@x/claude-mock";
 * // what the app's `import { query } from "@anthropic-ai/claude-agent-sdk"` gets in tests
 * // (Node's --import @x/claude-mock/register, the vitest or jest setup file, Deno's import map)
 * const { query } = wrapClaudeSdk(sdk);
 *
 * // the app: it imports query itself and takes no options
 * async function summarize(file: string): Promise<string | undefined> {
 *   for await (const m of query({ prompt: `Summarize ${file}` })) {
 *     if (m.type === "result" && m.subtype === "success") return m.result;
 *   }
 * }
 *
 * await using claude = mockClaude(
 *   new ScenarioBuilder().on("notes").respond("Two lines.").build(),
 * );
 * console.log(await summarize("notes.txt")); // Two lines.
 * claude.assertWrote(/Summarize notes/);
 * ```
 *
 * @example A named failure for one test
 * ```ts
 * import * as sdk from "@anthropic-ai/claude-agent-sdk";
 * import { mockClaude, ScenarioBuilder, wrapClaudeSdk } from "@x/claude-mock";
 * const { query } = wrapClaudeSdk(sdk); // the app's query(), intercepted
 *
 * const base = new ScenarioBuilder().on("status").repeat().respond("All green.").build();
 * await using claude = mockClaude(base).use((s) => s.on("status").failure("overloaded"));
 * const options = { env: { CLAUDE_CODE_MAX_RETRIES: "0" } };
 * const error = await (async () => {
 *   for await (const _ of query({ prompt: "status?", options }));
 * })().catch((e) => e);
 * console.log(String(error.message).includes("Overloaded")); // true
 * ```
 */
export function mockClaude(source?: ClaudeMockSource, options: MockClaudeOptions = {}): ClaudeMock {
  const state = interceptionState();
  if (state.doors.size === 0) throw new Error(notInterceptedMessage());
  if (!isObject(options)) {
    throw new TypeError(
      `Cannot activate mockClaude(): options must be an object, got ${JSON.stringify(options)}`,
    );
  }
  const entry = state.storage.getStore();
  const mock = new ActiveClaudeMock(source, options, mockOfEntry(entry), scopeOfEntry(entry));
  if (options.global) state.global.push(mock);
  else {
    state.live.add(mock);
    mock.scope?.mocks.add(mock);
    state.storage.enterWith(mock);
  }
  return mock;
}

class ActiveClaudeMock implements ClaudeMock, ActiveMock {
  readonly label: string;
  readonly replaced: ActiveMock | undefined;
  readonly scope: TestScope | undefined;
  readonly sdkOptions: Record<string, unknown>;
  readonly runsRealCli: boolean = false;
  #scenario: Scenario | undefined;
  #spawnSource: ((options: SpawnOptionsLike) => unknown) | undefined;
  #options: MockTransportOptions;
  #global: boolean;
  #active = true;
  #spawns: SpawnOptionsLike[] = [];
  #transports: MockTransport[] = [];
  /** The queries started so far (`clear()` does not set it back). */
  #started = 0;
  /** Each transport's invocation, and the spawn record of its query. */
  #runs = new WeakMap<MockTransport, { invocation: number; spawned: SpawnOptionsLike }>();
  #store: SessionStore;

  constructor(
    source: ClaudeMockSource | undefined,
    options: MockClaudeOptions,
    replaced: ActiveMock | undefined,
    scope: TestScope | undefined,
  ) {
    const { global, sdkOptions, ...transport } = options;
    this.replaced = global ? undefined : replaced;
    this.scope = global ? undefined : scope;
    this.#global = global === true;
    this.#options = transport;
    this.#store = transport.sessionStore ?? new SessionStore();
    if (sdkOptions !== undefined && !isObject(sdkOptions)) {
      throw new TypeError(
        "Cannot activate mockClaude(): sdkOptions must be an object of Agent SDK options",
      );
    }
    this.sdkOptions = { ...sdkOptions };
    const given = source as unknown;
    if (typeof source === "function") {
      this.#spawnSource = source;
      this.label = "spawn function";
    } else if (isObject(given) && typeof given.spawn === "function") {
      const spawn = given.spawn as (options: SpawnOptionsLike) => unknown;
      this.#spawnSource = (o) => spawn(o);
      // a cassette that records (or passes through) runs the CLI the SDK resolves
      this.runsRealCli = given.mode === "record" || given.mode === "passthrough";
      this.label = typeof given.path === "string"
        ? `cassette ${given.path}`
        : `${(given.constructor as { name?: string } | undefined)?.name ?? "spawn source"}`;
    } else if (given === undefined || (isObject(given) && Array.isArray(given.exchanges))) {
      this.#scenario = (source as Scenario | undefined) ?? { exchanges: [] };
      this.label = typeof this.#scenario.name === "string"
        ? `mockClaude '${this.#scenario.name}'`
        : "mockClaude";
    } else {
      throw new TypeError(
        `Cannot activate mockClaude(): the source must be a scenario (ScenarioBuilder's build()), a cassette or player with a spawn function, or a spawn function, got ${
          isObject(source) ? "an object without exchanges or spawn" : typeof source
        }`,
      );
    }
  }

  get active(): boolean {
    return this.#active;
  }

  get scenario(): Scenario | undefined {
    return this.#scenario;
  }

  get spawns(): readonly SpawnOptionsLike[] {
    return [...this.#spawns];
  }

  get transports(): readonly MockTransport[] {
    return [...this.#transports];
  }

  get sessions(): SessionStore {
    return this.#store;
  }

  get last(): MockTransport {
    const last = this.#transports.at(-1);
    if (!last) {
      const since = this.#started > 0 && !this.#spawnSource ? " since clear()" : " yet";
      throw new TypeError(
        `${this.label} has no query${since}: the code under test has not called query()${
          this.#spawnSource ? " (and a spawn source keeps no transports)" : ""
        }`,
      );
    }
    return last;
  }

  spawnFor(options: SpawnOptionsLike): unknown {
    if (!this.#active) {
      throw new Error(`Cannot start a query: ${this.label} was closed`);
    }
    // the args and environment of the query before, when these are the same: most queries of
    // a mock spawn alike, and a long-lived mock keeps one record per query
    const before = this.#spawns.at(-1);
    const args = options.args ?? [];
    const spawned = {
      ...options,
      args: before && sameList(before.args, args) ? before.args : [...args],
      ...(before && options.env && before.env && sameEnv(before.env, options.env)
        ? { env: before.env }
        : {}),
    };
    this.#spawns.push(spawned);
    if (this.#spawnSource) return this.#spawnSource(options);
    const n = ++this.#started;
    const scenario = this.#scenario!;
    const seed = this.#options.seed ?? scenario.seed ?? getDefaults().seed;
    // the run on the store (n with a store of its own): a shared store's runs draw other ids
    const run = claimRun(this.#store);
    const transport = new MockTransport(scenario, {
      ...this.#options,
      sessionStore: this.#store,
      invocation: this.#options.invocation ?? n,
      ...(run > 1 ? { seed: BigInt(seed) + BigInt(run - 1) } : {}),
    });
    this.#transports.push(transport);
    this.#runs.set(transport, { invocation: this.#options.invocation ?? n, spawned });
    // once the query's process has exited, the record keeps the signal's state, not the SDK's
    // signal: its listeners hold on to the whole query
    void transport.exited.then(() => (spawned.signal = settledSignal(spawned.signal)));
    return (transport.spawn as ClaudeSpawn)(options);
  }

  use(overrides: Scenario | ((builder: ScenarioBuilder) => unknown)): ClaudeMock {
    this.#scenario = withOverrides(this.#needScenario("use()"), overrides);
    return this;
  }

  writes(): WriteEntry[] {
    return this.#log().entries();
  }

  writtenMessages(): Frame[] {
    return this.#log().frames();
  }

  assertWrote(pattern: string | RegExp): WriteEntry {
    return this.#log().assertWrote(pattern);
  }

  assertWroteJson(predicate: (frame: Frame) => boolean, description?: string): Frame {
    return this.#log().assertWroteJson(predicate, description);
  }

  permissionDecisions(): ClientPermissionAnswer[] {
    return this.#each("permissionDecisions()", (t) => t.permissionDecisions());
  }

  hookOutputs(): ClientHookAnswer[] {
    return this.#each("hookOutputs()", (t) => t.hookOutputs());
  }

  mcpResults(): ClientMcpAnswer[] {
    return this.#each("mcpResults()", (t) => t.mcpResults());
  }

  clientAnswers(): ClientAnswer[] {
    return this.#each("clientAnswers()", (t) => t.clientAnswers());
  }

  assertAllExchangesUsed(): void {
    this.#progress(false);
  }

  assertScenarioFinished(): void {
    this.#progress(true);
  }

  inject(frame: Frame): void {
    this.last.inject(frame);
  }

  injectError(message: string): void {
    this.last.injectError(message);
  }

  async close(): Promise<void> {
    if (this.#active) {
      this.#active = false;
      interceptionState().live.delete(this);
      this.scope?.mocks.delete(this);
      if (this.#global) {
        const list = interceptionState().global;
        const at = list.indexOf(this);
        if (at >= 0) list.splice(at, 1);
      }
    }
    await Promise.all(this.#transports.map((t) => t.session.closed ? t.exited : t.close()));
  }

  clear(): void {
    this.#transports = this.#transports.filter((t) => !t.session.closed);
    // a spawn source keeps no transports: its records all go
    const running = new Set(this.#transports.map((t) => this.#runs.get(t)!.spawned));
    this.#spawns = this.#spawns.filter((s) => running.has(s));
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #needScenario(what: string): Scenario {
    if (!this.#scenario) {
      throw new TypeError(
        `${this.label} has no ${what}: it replays a spawn source, which keeps its own record (e.g. a cassette's player)`,
      );
    }
    return this.#scenario;
  }

  #each<T>(what: string, read: (transport: MockTransport) => T[]): T[] {
    this.#needScenario(what);
    return this.#transports.flatMap(read);
  }

  #log(): WriteLog {
    this.#needScenario("write log");
    const log = new WriteLog();
    for (const transport of this.#transports) {
      for (const entry of transport.writes()) {
        log.add({
          raw: entry.raw,
          ...(entry.frame ? { frame: entry.frame } : {}),
          ...(entry.error ? { error: entry.error } : {}),
        }, entry.at);
      }
    }
    return log;
  }

  #progress(finished: boolean): void {
    const current = this.#needScenario(
      finished ? "assertScenarioFinished()" : "assertAllExchangesUsed()",
    );
    // queries before a use() ran another scenario: each is checked against its own
    const groups = new Map<Scenario, { session: object; invocation: number }[]>();
    this.#transports.forEach((t) => {
      const runs = groups.get(t.scenario) ?? [];
      runs.push({ session: sessionOf(t), invocation: this.#runs.get(t)!.invocation });
      groups.set(t.scenario, runs);
    });
    if (groups.size <= 1) {
      const [scenario, runs] = [...groups][0] ?? [current, []];
      return assertProgressAcross(runs, scenario, { finished, who: this.label });
    }
    const failures: string[] = [];
    let n = 0;
    for (const [scenario, runs] of groups) {
      n++;
      try {
        assertProgressAcross(runs, scenario, {
          finished,
          who: `${this.label} (scenario ${n} of ${groups.size}, before and after use())`,
        });
      } catch (error) {
        if (!(error instanceof AssertionError)) throw error;
        failures.push(error.message);
      }
    }
    if (failures.length > 0) throw new AssertionError(failures.join("\n"));
  }
}

/** A signal in the state `signal` is in now, holding nothing else. */
function settledSignal(signal: AbortSignal | undefined): AbortSignal {
  if (!signal) return signal as unknown as AbortSignal;
  return signal.aborted ? AbortSignal.abort(signal.reason) : new AbortController().signal;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function sameEnv(
  a: Record<string, string | undefined>,
  b: Record<string, string | undefined>,
): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}
