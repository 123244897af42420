/**
 * What the interception keeps for the whole process: the mocks active per async context
 * (an `AsyncLocalStorage`), the process-wide ones, which doors route the SDK module to the
 * wrapper, and what a query with no mock does. Kept on `globalThis` under a registered
 * symbol, so every copy of this module (a runner's module registry, an ES and a CommonJS
 * load of the package) shares one state. Internal.
 *
 * @module
 */

import { AsyncLocalStorage } from "node:async_hooks";
import type { SpawnOptionsLike } from "../adapters/mock_process.ts";

/** What the SDK wrapper needs of an active mock. */
export interface ActiveMock {
  /** Its name, for messages. */
  readonly label: string;
  /** Whether it still answers (false once closed). */
  readonly active: boolean;
  /** The mock this context had when it was activated (it replaced that one; for messages). */
  readonly replaced?: ActiveMock;
  /** The `spawnClaudeCodeProcess` of the mock. */
  spawnFor(options: SpawnOptionsLike): unknown;
  /** SDK options laid over the app's for every query (may be empty). */
  readonly sdkOptions: Record<string, unknown>;
  /**
   * Whether its processes run the real CLI (a cassette that records or passes through): the
   * SDK then finds the executable as it would without a mock.
   */
  readonly runsRealCli?: boolean;
  /** The test it was activated in, under a runner's setup file (see {@linkcode eachTest}). */
  readonly scope?: TestScope;
  /** Deactivates it and ends its sessions. */
  close?(): Promise<unknown>;
}

/**
 * One test of a runner whose setup file brackets each test ({@linkcode eachTest}): the mocks
 * activated in it, closed when it ends. It is what the test's async context holds until the
 * test activates a mock.
 */
export interface TestScope {
  /** Marks a scope apart from a mock. */
  readonly testScope: true;
  /** The mocks the test activated, not closed yet. */
  readonly mocks: Set<ActiveMock>;
}

/** What an async context holds: its mock, or the test it runs in before it has one. */
export type ContextEntry = ActiveMock | TestScope;

/** The mock of a context's entry (none for a test scope). */
export function mockOfEntry(entry: ContextEntry | undefined): ActiveMock | undefined {
  return entry === undefined || "testScope" in entry ? undefined : entry;
}

/** The test scope of a context's entry: the scope itself, or the one its mock was made in. */
export function scopeOfEntry(entry: ContextEntry | undefined): TestScope | undefined {
  return entry === undefined || "testScope" in entry ? entry : entry.scope;
}

/** A door through which the app's `import` of the SDK reaches the wrapper. */
export type InterceptionDoor = "node-hooks" | "vitest" | "jest" | "sdk-module" | "custom";

/** What a query does when no mock is active (see `configureInterception`). */
export type UnhandledQueryStrategy =
  | "error"
  | "warn"
  | "bypass"
  | ((query: UnhandledQuery) => void);

/** A query that found no active mock, as `onUnhandledQuery` gets it. */
export interface UnhandledQuery {
  /** The SDK function called: `query`, `startup` or `prewarm`. */
  readonly call: string;
  /** The prompt, when it is a text (else `undefined`). */
  readonly prompt: string | undefined;
  /** The SDK options the app passed. */
  readonly options: Readonly<Record<string, unknown>> | undefined;
}

/** The process-wide state. */
export interface InterceptionState {
  /** The mock of each async context (or the test it runs in, before it activates one). */
  readonly storage: AsyncLocalStorage<ContextEntry>;
  /** Mocks activated for the whole process (`global: true`), newest last. */
  readonly global: ActiveMock[];
  /** Mocks activated for an async context and not closed yet (for messages). */
  readonly live: Set<ActiveMock>;
  /** The doors installed. */
  readonly doors: Set<InterceptionDoor>;
  /** What an unhandled query does. */
  onUnhandledQuery: UnhandledQueryStrategy;
}

/** The specifiers routed to the wrapper: the SDK and its `core` entry (both export `query`). */
export const ROUTED_SPECIFIERS: readonly string[] = Object.freeze([
  "@anthropic-ai/claude-agent-sdk",
  "@anthropic-ai/claude-agent-sdk/core",
]);

const KEY = Symbol.for("@x/claude-mock/interception");

/** The state, made on first use. */
export function interceptionState(): InterceptionState {
  const holder = globalThis as { [KEY]?: InterceptionState };
  return holder[KEY] ??= {
    storage: new AsyncLocalStorage<ContextEntry>(),
    global: [],
    live: new Set(),
    doors: new Set(),
    onUnhandledQuery: "error",
  };
}

/**
 * The mock that answers a query started here: this context's, else the newest process-wide
 * one. A context whose mock was closed has none (an earlier mock of the context does not
 * come back: a context can carry the mock of a test started beside it in the same tick).
 */
export function activeMock(): ActiveMock | undefined {
  const state = interceptionState();
  const mock = mockOfEntry(state.storage.getStore());
  if (mock?.active) return mock;
  for (let i = state.global.length - 1; i >= 0; i--) {
    if (state.global[i].active) return state.global[i];
  }
  return undefined;
}

/** The closed mock of this context, if its mock was closed (for messages). */
export function closedMock(): ActiveMock | undefined {
  const mock = mockOfEntry(interceptionState().storage.getStore());
  return mock && !mock.active ? mock : undefined;
}

/** A mock active in another async context (a hook's, another test's), if any (for messages). */
export function mockElsewhere(): ActiveMock | undefined {
  const state = interceptionState();
  const here = new Set<ActiveMock>();
  for (let m = mockOfEntry(state.storage.getStore()); m && !here.has(m); m = m.replaced) {
    here.add(m);
  }
  for (const mock of state.live) if (mock.active && !here.has(mock)) return mock;
  return undefined;
}

/** Records that `door` routes the app's SDK imports to the wrapper. */
export function markDoor(door: InterceptionDoor): void {
  interceptionState().doors.add(door);
}

/**
 * Around each test of a runner that runs a file's tests in one async context (vitest; Deno
 * too, where nothing can hook in): `start` leaves a test with no mock of an earlier one and
 * opens its scope, `end` closes every mock the test activated and left active, also one
 * activated after an `await` of the test (its context is a continuation the runner's hook
 * never sees; the mock joined the scope). A runner's setup file installs them.
 */
export const eachTest: {
  start(): void;
  end(): Promise<void>;
} = {
  start(): void {
    const scope: TestScope = { testScope: true, mocks: new Set() };
    interceptionState().storage.enterWith(scope);
  },
  async end(): Promise<void> {
    const entry = interceptionState().storage.getStore();
    const open = new Set(scopeOfEntry(entry)?.mocks);
    const mock = mockOfEntry(entry);
    if (mock) open.add(mock);
    await Promise.all(
      [...open].map((m) => m.active && typeof m.close === "function" ? m.close() : undefined),
    );
  },
};
