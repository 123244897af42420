/**
 * Parts of the query runner: the loop over the SDK's messages (it never throws: it keeps
 * what the SDK threw), the prompt queue of a streaming query, and how a run ends (the
 * process's exit, bounded).
 *
 * @module
 * @internal
 */

import { type MockTransport, sessionOf } from "../adapters/mock_transport.ts";
import type { ExitStatus, Session } from "../session/session.ts";
import { realTimeout } from "../timing/real_time.ts";
import { show } from "../wire/_show.ts";
import type { QueryHandle, QueryRun, QueryUserMessage, ResultOf } from "./query_types.ts";

/** Real ms the process gets to exit after the SDK's loop ended, then after SIGTERM. */
const EXIT_GRACE_MS = 2_000;

/** Iterates a query to its end, keeping every message and what the SDK threw. */
export class QueryLoop<M> {
  /** Every message so far. */
  readonly messages: M[] = [];
  /** The result messages so far. */
  readonly results: ResultOf<M>[] = [];
  /** What the SDK threw. */
  error: Error | undefined;
  /** Whether the loop has ended. */
  ended = false;
  /** Resolves when the loop has ended. */
  readonly done: Promise<void>;
  #wake: Array<() => void> = [];

  /** Starts iterating `handle`. */
  constructor(handle: QueryHandle<M>) {
    this.done = this.#run(handle);
  }

  /** Resolves at the next message, or when the loop ends. */
  changed(): Promise<void> {
    if (this.ended) return Promise.resolve();
    return new Promise((resolve) => this.#wake.push(resolve));
  }

  async #run(handle: QueryHandle<M>): Promise<void> {
    try {
      for await (const message of handle) {
        this.messages.push(message);
        if ((message as { type?: unknown })?.type === "result") {
          this.results.push(message as ResultOf<M>);
        }
        this.#notify();
      }
    } catch (error) {
      this.error = error instanceof Error
        ? error
        : new Error(`The SDK threw a non-Error: ${show(error)}`, { cause: error });
    } finally {
      this.ended = true;
      this.#notify();
    }
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = [];
    for (const resolve of wake) resolve();
  }
}

/**
 * The run of a query whose loop has ended: the messages, the error, and the process's
 * exit. A process still running after the loop (the SDK gave up on it) is closed through
 * the SDK's `close()`, then, past a grace period, ended like SIGTERM; one that still has
 * not exited after a second grace period (its output stuck with nobody reading it) is
 * left, with `exit: undefined`.
 */
export async function finishRun<M>(
  mock: MockTransport,
  handle: QueryHandle<M> | undefined,
  loop: QueryLoop<M>,
): Promise<QueryRun<M>> {
  await loop.done;
  const session = runningSession(mock);
  let exit: ExitStatus | undefined;
  if (session) {
    if (!session.closed) {
      try {
        handle?.close?.();
      } catch {
        // the SDK's close failed: the grace period below still ends the process
      }
    }
    exit = await within(mock.exited, EXIT_GRACE_MS);
    if (exit === undefined) {
      void mock.close();
      exit = await within(mock.exited, EXIT_GRACE_MS);
    }
  }
  return {
    messages: [...loop.messages],
    results: [...loop.results],
    result: loop.results.at(-1),
    error: loop.error,
    exit,
    writes: mock.writes(),
  };
}

/** What `promise` resolves with, or `undefined` after `ms` of real time. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let cancel = () => {};
  const late = new Promise<undefined>((resolve) => {
    cancel = realTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    cancel();
  }
}

/** The mock's session, or `undefined` when nothing started it. */
function runningSession(mock: MockTransport): Session | undefined {
  try {
    return sessionOf(mock);
  } catch {
    return undefined;
  }
}

/** A streaming prompt: `push` messages, `end` it; the SDK iterates it. */
export class PromptQueue implements AsyncIterable<QueryUserMessage> {
  #items: QueryUserMessage[] = [];
  #ended = false;
  #wake?: () => void;

  /** Queues a message for the SDK. */
  push(message: QueryUserMessage): void {
    this.#items.push(message);
    this.#wake?.();
  }

  /** Ends the prompt once the queued messages are taken (the SDK then closes stdin). */
  end(): void {
    this.#ended = true;
    this.#wake?.();
  }

  /** Whether `end` was called. */
  get ended(): boolean {
    return this.#ended;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<QueryUserMessage> {
    for (;;) {
      const next = this.#items.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.#ended) return;
      await new Promise<void>((resolve) => (this.#wake = resolve));
      this.#wake = undefined;
    }
  }
}

/** A user message for `text`, or `message` checked; `where` names the caller. */
export function userMessage(message: unknown, where: string): QueryUserMessage {
  if (typeof message === "string") {
    return {
      type: "user",
      message: { role: "user", content: message },
      parent_tool_use_id: null,
    };
  }
  if (
    typeof message === "object" && message !== null &&
    (message as { type?: unknown }).type === "user" && "message" in message
  ) {
    return { parent_tool_use_id: null, ...message } as QueryUserMessage;
  }
  throw new TypeError(
    `${where} must be a text or an SDK user message ({ type: "user", message: { role: "user", content } }), got ${
      show(message)
    }`,
  );
}

/** Checks the mock and the options; returns the SDK options with the mock's spawn. */
export function sdkOptions(
  mock: unknown,
  options: unknown,
  where: string,
): Record<string, unknown> {
  if (typeof (mock as MockTransport | null)?.spawn !== "function") {
    throw new TypeError(`${where}: the first argument must be a MockTransport, got ${show(mock)}`);
  }
  // the mock's own SDK options (`mock.options()`: its spawn, and a placeholder executable
  // path that keeps the SDK from looking for its optional native binary), when it has them
  const own = (mock as { options?: () => Record<string, unknown> }).options;
  const base = typeof own === "function" ? own.call(mock) : {};
  const spawn = { spawnClaudeCodeProcess: (mock as MockTransport).spawn };
  if (options === undefined) return { ...base, ...spawn };
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new TypeError(`${where}: options must be an object, got ${show(options)}`);
  }
  const { query: _query, ...rest } = options as Record<string, unknown>;
  if (rest.spawnClaudeCodeProcess !== undefined) {
    throw new TypeError(
      `${where}: options.spawnClaudeCodeProcess is the mock's own (mock.spawn); remove it`,
    );
  }
  return { ...base, ...rest, ...spawn };
}
