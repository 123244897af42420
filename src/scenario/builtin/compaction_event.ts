/**
 * The predefined scenario `compaction_event`: `/compact` and its boundary.
 *
 * @module
 */

import { any } from "../matcher.ts";
import type { Scenario } from "../scenario.ts";
import { ScenarioBuilder, type ScenarioOptions } from "../scenario_builder.ts";
import { GREETING, GREETING_TOKENS, GREETING_TRIGGER, REPLY } from "./_replies.ts";

/**
 * `compaction_event`: `/compact` (with or without instructions) compacts the conversation
 * as the real CLI does locally: `status: compacting`, the
 * summarization call, a fresh `system/init`, the `compact_boundary` (`trigger: "manual"`,
 * `pre_tokens` from the last call's context), the summary as a synthetic user message
 * (`Summary:\nSummary of the conversation.`), the replayed command output and a `success`
 * result with `local_command: "compact"` and no text. Other prompts are answered as in
 * `simple_conversation` (a greeting gets `Hello! How can I help you today?`, anything
 * else `I can help with that.`), so a test sends "hello", then "/compact". `options`
 * override the scenario's own (`compact` too: another summary, token counts).
 *
 * @example The summarization it does
 * ```ts
 * import { compactionEvent } from "./compaction_event.ts";
 * console.log(compactionEvent().compact); // { summary: "Summary of the conversation.", outputTokens: 25 }
 * ```
 */
export function compactionEvent(options: ScenarioOptions = {}): Scenario {
  return new ScenarioBuilder({
    name: "compaction_event",
    compact: { summary: "Summary of the conversation.", outputTokens: 25 },
    ...options,
  })
    .on(GREETING_TRIGGER).repeat().respond(GREETING, { outputTokens: GREETING_TOKENS })
    .on(any()).repeat().respond(REPLY)
    .build();
}
