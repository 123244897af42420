/**
 * {@linkcode startQuery}: an interactive query through a mock, for multi-turn tests that
 * react to what they see (send, wait for a result, interrupt, close).
 *
 * @module
 */

import type { MockTransport } from "../adapters/mock_transport.ts";
import { AssertionError } from "../session/assertion_error.ts";
import { queryFunction } from "./_load_query.ts";
import { finishRun, PromptQueue, QueryLoop, sdkOptions, userMessage } from "./_query_loop.ts";
import { plural } from "./_shared.ts";
import type {
  AnyQueryFunction,
  MessageOf,
  QueryFunction,
  QueryRun,
  QueryUserMessage,
  ResultOf,
  RunQueryOptions,
} from "./query_types.ts";

/**
 * A query running through a mock with a streaming prompt that stays open: `send` user
 * messages, await `nextResult()` (or `nextMessage`), `interrupt()`, then `close()` for
 * the {@linkcode QueryRun}. Made by {@linkcode startQuery}.
 *
 * @example Waiting for a message, then for the result
 * ```ts
 * import { MockTransport, ScenarioBuilder, startQuery } from "@x/claude-mock";
 *
 * const mock = new MockTransport(
 *   new ScenarioBuilder()
 *     .on("notes")
 *     .usesRead("/home/user/project/notes.txt", { content: "a" })
 *     .respond("One line.")
 *     .build(),
 * );
 * const chat = await startQuery(mock);
 * chat.send("read my notes");
 * const use = await chat.nextMessage((m) => m.type === "assistant");
 * console.log(JSON.stringify(use.message).includes("tool_use")); // true
 * console.log((await chat.nextResult()).result); // One line.
 * const run = await chat.close();
 * console.log(run.messages.map((m) => m.type)); // system, assistant, user, assistant, result
 * ```
 */
export class RunningQuery<Q extends AnyQueryFunction = QueryFunction> {
  /** The SDK's query object (for `setModel`, `setPermissionMode`, ...). */
  readonly query: ReturnType<Q>;
  #mock: MockTransport;
  #loop: QueryLoop<MessageOf<Q>>;
  #prompt: PromptQueue;
  #sent = 0;
  #cursor = 0;
  #closing?: Promise<QueryRun<MessageOf<Q>>>;

  /** Use {@linkcode startQuery}. */
  constructor(mock: MockTransport, query: ReturnType<Q>, prompt: PromptQueue) {
    this.#mock = mock;
    this.query = query;
    this.#prompt = prompt;
    this.#loop = new QueryLoop(query as AsyncIterable<MessageOf<Q>> & ReturnType<Q>);
  }

  /** Every message so far. */
  get messages(): MessageOf<Q>[] {
    return [...this.#loop.messages];
  }

  /** The result messages so far. */
  get results(): ResultOf<MessageOf<Q>>[] {
    return [...this.#loop.results];
  }

  /** How many user messages were sent. */
  get sent(): number {
    return this.#sent;
  }

  /** Sends a user message (a text, or an SDK user message) now. */
  send(message: string | QueryUserMessage): void {
    const user = userMessage(message, "RunningQuery.send(message): message");
    if (this.#prompt.ended) {
      throw new TypeError("Cannot send: the query is closing (close() was called)");
    }
    if (this.#loop.ended) {
      throw new TypeError(
        `Cannot send: the query has ended${
          this.#loop.error ? ` (the SDK threw: ${this.#loop.error.message})` : ""
        }`,
      );
    }
    this.#sent++;
    this.#prompt.push(user);
  }

  /**
   * The next message after those already taken (by `nextMessage` or `nextResult`) that
   * satisfies `predicate` (any, by default); messages before it are passed over. Throws
   * an `AssertionError` when the query ends without one, and a TypeError at once when
   * nothing is on its way (every message sent has its result).
   */
  async nextMessage(
    predicate: (message: MessageOf<Q>) => boolean = () => true,
  ): Promise<MessageOf<Q>> {
    if (typeof predicate !== "function") {
      throw new TypeError("RunningQuery.nextMessage(predicate): predicate must be a function");
    }
    const loop = this.#loop;
    for (;;) {
      while (this.#cursor < loop.messages.length) {
        const message = loop.messages[this.#cursor++];
        if (predicate(message)) return message;
      }
      if (loop.ended) {
        throw new AssertionError(
          `Expected another message, but the query ended after ${
            plural(loop.messages.length, "message")
          }${loop.error ? `: the SDK threw ${loop.error.message}` : ""}`,
          { cause: loop.error },
        );
      }
      if (loop.results.length >= this.#sent) {
        throw new TypeError(
          `Nothing is on its way: every message sent has its result (${
            plural(this.#sent, "message")
          } sent, ${plural(loop.results.length, "result")}); send() first`,
        );
      }
      await loop.changed();
    }
  }

  /** The next result message (see {@linkcode RunningQuery.nextMessage}). */
  async nextResult(): Promise<ResultOf<MessageOf<Q>>> {
    return await this.nextMessage((message) =>
      (message as { type?: unknown }).type === "result"
    ) as ResultOf<MessageOf<Q>>;
  }

  /** Interrupts the running turn (the SDK's `interrupt()`); resolves with its answer. */
  interrupt(): Promise<unknown> {
    return this.query.interrupt();
  }

  /**
   * Ends the prompt once every sent message has its result (so the app can still answer
   * the mock's requests), waits for the SDK and the process to end, and resolves with
   * the run. Calling it again gives the same run.
   */
  close(): Promise<QueryRun<MessageOf<Q>>> {
    this.#closing ??= (async () => {
      const loop = this.#loop;
      while (!loop.ended && loop.results.length < this.#sent) await loop.changed();
      this.#prompt.end();
      return await finishRun(this.#mock, this.query, loop);
    })();
    return this.#closing;
  }

  /** `close()`, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

/**
 * Starts an interactive query through `mock`: the SDK's `query()` with a streaming
 * prompt that stays open until `close()`, and `spawnClaudeCodeProcess: mock.spawn`.
 * `options` are the SDK's options, plus `query` (the SDK's `query`; by default imported
 * from `@anthropic-ai/claude-agent-sdk`, the app's own dependency).
 *
 * @example Two turns, one after the other
 * ```ts
 * import { MockTransport, ScenarioBuilder, startQuery } from "@x/claude-mock";
 *
 * const mock = new MockTransport(
 *   new ScenarioBuilder().on("hello").respond("Hi!").on("bye").respond("Bye!").build(),
 * );
 * await using chat = await startQuery(mock);
 * chat.send("hello");
 * console.log((await chat.nextResult()).result); // Hi!
 * chat.send("bye");
 * console.log((await chat.nextResult()).result); // Bye!
 * const run = await chat.close();
 * console.log(run.results.length, run.exit); // 2 { code: 0, signal: null }
 * ```
 */
export async function startQuery<Q extends AnyQueryFunction = QueryFunction>(
  mock: MockTransport,
  options?: RunQueryOptions<Q>,
): Promise<RunningQuery<Q>> {
  const where = "startQuery(mock, options)";
  const sdk = sdkOptions(mock, options, where);
  const query = await queryFunction((options as { query?: unknown } | undefined)?.query, where);
  const prompt = new PromptQueue();
  const handle = (query as unknown as (params: unknown) => ReturnType<Q>)({
    prompt,
    options: sdk,
  });
  return new RunningQuery<Q>(mock, handle, prompt);
}
