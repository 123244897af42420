/**
 * The predefined scenario `simple_conversation`: text replies, nothing else.
 *
 * @module
 */

import { any } from "../matcher.ts";
import type { Scenario } from "../scenario.ts";
import { ScenarioBuilder, type ScenarioOptions } from "../scenario_builder.ts";
import { GREETING, GREETING_TOKENS, GREETING_TRIGGER, REPLY } from "./_replies.ts";

/**
 * `simple_conversation`: every prompt gets one text reply, in as many turns as the app
 * sends. A greeting ("hello", "hi", "hey") gets `Hello! How can I help you today?` (the real
 * CLI's answer to "hello", recording `hello`); any other prompt gets
 * `I can help with that.`. `options` override the scenario's own (its `name`).
 *
 * @example Two turns
 * ```ts
 * import { simpleConversation } from "./simple_conversation.ts";
 * const scenario = simpleConversation({ seed: 7 });
 * console.log(scenario.name, scenario.exchanges.length); // simple_conversation 2
 * ```
 */
export function simpleConversation(options: ScenarioOptions = {}): Scenario {
  return new ScenarioBuilder({ name: "simple_conversation", ...options })
    .on(GREETING_TRIGGER).repeat().respond(GREETING, { outputTokens: GREETING_TOKENS })
    .on(any()).repeat().respond(REPLY)
    .build();
}
