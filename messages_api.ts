/**
 * The same scenario for the real `claude` binary: {@linkcode serveMessagesApi} is a local
 * Anthropic Messages API that answers the real CLI's model calls from a scenario, and its
 * journal says what each call got. Point the CLI at it with `api.env()` (`ANTHROPIC_BASE_URL`
 * and {@linkcode DUMMY_API_KEY}). An app's tests need none of this: `MockTransport` and
 * `mockClaude` in `@x/claude-mock` play scenarios without the real binary.
 *
 * @example A reply, as the real CLI would get it
 * ```ts
 * import { ScenarioBuilder } from "@x/claude-mock";
 * import { serveMessagesApi } from "@x/claude-mock/messages-api";
 *
 * await using api = await serveMessagesApi(
 *   new ScenarioBuilder().on("hello").respond("Hello! How can I help?").build(),
 * );
 * const response = await fetch(`${api.url}/v1/messages`, {
 *   method: "POST",
 *   headers: { "content-type": "application/json", "x-api-key": api.env().ANTHROPIC_API_KEY },
 *   body: JSON.stringify({
 *     model: "claude-opus-5-5",
 *     max_tokens: 1024,
 *     messages: [{ role: "user", content: "hello" }],
 *   }),
 * });
 * const message = await response.json();
 * console.log(message.content[0].text); // Hello! How can I help?
 * console.log(api.journal[0].place?.description); // exchange 1 (contains "hello")
 * ```
 *
 * @module
 */

export {
  DUMMY_API_KEY,
  type MessagesApi,
  type MessagesApiOptions,
  serveMessagesApi,
} from "./src/messages_api/serve_messages_api.ts";
export type {
  JournalAnswer,
  JournalEntry,
  JournalKind,
  JournalPlace,
} from "./src/messages_api/api_journal.ts";
// the types its signatures show, shared with the other entry points
export * from "./src/scenario/scenario_types.ts";
