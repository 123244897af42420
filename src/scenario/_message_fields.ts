/**
 * Internal: how `ExchangeBuilder` turns its message options and `respond` content into the
 * fields and parts of a message step. Not part of the public API.
 *
 * @module
 */

import { text } from "../builders/assistant.ts";
import type { AssistantContentBlock } from "../wire/frame.ts";
import type { MessageOptions, ResponseContent } from "./exchange_options.ts";
import type { MessagePart, ScriptedToolCall, Step } from "./step.ts";

/** The message step fields of {@linkcode MessageOptions}. */
export function messageFields(options: MessageOptions): Partial<Step & { kind: "message" }> {
  return {
    ...(options.delay !== undefined ? { delay: options.delay } : {}),
    ...(options.outputTokens !== undefined ? { outputTokens: options.outputTokens } : {}),
    ...(options.chunkSize !== undefined ? { chunkSize: options.chunkSize } : {}),
  };
}

/** The parts of a message `respond` was given: texts become text blocks. */
export function toParts(content: ResponseContent): MessagePart[] {
  if (typeof content === "string") return [text(content)];
  if (Array.isArray(content)) return content.map((c) => typeof c === "string" ? text(c) : c);
  return [content as AssistantContentBlock | ScriptedToolCall];
}
