/**
 * {@linkcode runQuery}: the app's `for await (query(...))` loop in one call, with what
 * the app saw and what the mock process did.
 *
 * @module
 */

import type { MockTransport } from "../adapters/mock_transport.ts";
import { queryFunction } from "./_load_query.ts";
import { finishRun, QueryLoop, sdkOptions, userMessage } from "./_query_loop.ts";
import { show } from "../wire/_show.ts";
import { startQuery } from "./start_query.ts";
import type {
  AnyQueryFunction,
  MessageOf,
  QueryFunction,
  QueryHandle,
  QueryPrompt,
  QueryRun,
  QueryUserMessage,
  RunQueryOptions,
} from "./query_types.ts";

/**
 * Runs the Agent SDK's `query()` through `mock` (`spawnClaudeCodeProcess: mock.spawn`)
 * to its end, as an app does, and resolves with a {@linkcode QueryRun}: every `messages`,
 * the `results` and the last `result`, the `error` the SDK threw (the run never throws
 * it), the process's `exit` and the `writes` the SDK made.
 *
 * `prompt` is a text (the SDK's single-message mode), an array (streaming input: each
 * text or user message is sent after the previous turn's result, and the prompt ends
 * after the last one's), or the app's own stream of user messages. `options` are the
 * SDK's `query()` options, plus `query`: the SDK's `query` function, by default imported
 * from `@anthropic-ai/claude-agent-sdk` (the app's own dependency; pass it to get the
 * SDK's message types). Bad arguments reject with a TypeError or RangeError, and so does
 * a missing SDK (with how to install it).
 *
 * @example One turn
 * ```ts
 * import { MockTransport, runQuery, ScenarioBuilder } from "@x/claude-mock";
 *
 * const mock = new MockTransport(new ScenarioBuilder().on("hello").respond("Hi!").build());
 * const { messages, result, error, exit } = await runQuery(mock, "hello");
 * console.log(messages.map((m) => m.type)); // [ "system", "assistant", "result" ]
 * console.log(result?.result, error, exit); // Hi! undefined { code: 0, signal: null }
 * ```
 *
 * @example Several turns, and a failure
 * ```ts
 * import { MockTransport, runQuery, ScenarioBuilder } from "@x/claude-mock";
 *
 * const mock = new MockTransport(
 *   new ScenarioBuilder().on("plan").respond("Step 1, step 2.").on("go").failure("overloaded").build(),
 * );
 * const run = await runQuery(mock, ["plan", "go"], { env: { CLAUDE_CODE_MAX_RETRIES: "0" } });
 * console.log(run.results.map((r) => r.is_error)); // [ false, true ]
 * console.log(run.exit?.code); // 1
 * ```
 */
export async function runQuery<Q extends AnyQueryFunction = QueryFunction>(
  mock: MockTransport,
  prompt: QueryPrompt,
  options?: RunQueryOptions<Q>,
): Promise<QueryRun<MessageOf<Q>>> {
  const where = "runQuery(mock, prompt, options)";
  const sdk = sdkOptions(mock, options, where);
  if (Array.isArray(prompt)) {
    if (prompt.length === 0) {
      throw new RangeError(`${where}: prompt is an empty array; give at least one message`);
    }
    const messages = prompt.map((item, i) => userMessage(item, `${where}: prompt[${i}]`));
    const chat = await startQuery<Q>(mock, options);
    for (const message of messages) {
      chat.send(message);
      try {
        await chat.nextResult();
      } catch {
        break; // the query ended: the run says why
      }
    }
    return await chat.close();
  }
  if (
    typeof prompt !== "string" &&
    typeof (prompt as AsyncIterable<unknown> | null)?.[Symbol.asyncIterator] !== "function"
  ) {
    throw new TypeError(
      `${where}: prompt must be a text, an array of texts or user messages, or an async iterable of user messages, got ${
        show(prompt)
      }`,
    );
  }
  const query = await queryFunction((options as { query?: unknown } | undefined)?.query, where);
  // the SDK reports a prompt stream that throws as an abort ("aborted by user"): kept to say so
  const watched = typeof prompt === "string"
    ? undefined
    : watchedStream(prompt as AsyncIterable<QueryUserMessage>);
  let handle: QueryHandle<MessageOf<Q>> | undefined;
  let loop: QueryLoop<MessageOf<Q>>;
  try {
    handle = (query as unknown as (params: unknown) => QueryHandle<MessageOf<Q>>)({
      prompt: watched?.stream ?? prompt,
      options: sdk,
    });
    loop = new QueryLoop(handle);
  } catch (error) {
    loop = new QueryLoop<MessageOf<Q>>({
      [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }),
      interrupt: () => Promise.resolve(),
    });
  }
  const run = await finishRun(mock, handle, loop);
  if (watched?.failed) {
    const why = watched.error instanceof Error ? watched.error.message : String(watched.error);
    run.error = new Error(
      `${where}: the prompt stream threw: ${why}${
        run.error ? `; the SDK then ended the query: ${run.error.message}` : ""
      }`,
      { cause: watched.error },
    );
  }
  return run;
}

/** `prompt` passed through as it is, with what it threw, if it threw. */
function watchedStream<T>(
  prompt: AsyncIterable<T>,
): { stream: AsyncIterable<T>; failed: boolean; error: unknown } {
  const watched = { stream: prompt, failed: false, error: undefined as unknown };
  watched.stream = (async function* () {
    try {
      yield* prompt;
    } catch (error) {
      watched.failed = true;
      watched.error = error;
      throw error;
    }
  })();
  return watched;
}
