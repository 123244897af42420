/**
 * The conversation's size in context, counted as the session's frames go out (what the
 * `get_context_usage` answer reports): the user's prompts, the assistant's blocks, and each
 * tool's calls and results, at four characters a token per block, as the real CLI counts.
 * Subagents' frames are theirs, not the session's.
 *
 * @module
 */

import { blockTokens, type ContextTallyInput } from "../builders/context_usage.ts";
import { isObject } from "../wire/frame.ts";

/** Running totals of the conversation's context. */
export class ContextTally implements ContextTallyInput {
  /** Tokens of the user's prompts. */
  userMessageTokens = 0;
  /** Tokens of the assistant's text and thinking blocks. */
  assistantMessageTokens = 0;
  /** Per tool, in order of first use. */
  readonly tools: Array<{ name: string; callTokens: number; resultTokens: number }> = [];
  #toolOf = new Map<string, string>();

  /** A prompt the client sent (a `user` frame's content). */
  prompt(content: unknown): void {
    if (typeof content === "string") this.userMessageTokens += blockTokens(content);
    else if (Array.isArray(content)) {
      for (const block of content) {
        if (isObject(block) && typeof block.text === "string") {
          this.userMessageTokens += blockTokens(block.text);
        }
      }
    }
  }

  /** A frame the session sent: assistant blocks and tool results count. */
  observe(frame: object): void {
    const f = frame as Record<string, unknown>;
    if (f.type !== "assistant" && f.type !== "user") return;
    if (f.parent_tool_use_id != null || f.isReplay === true) return;
    if (f.type === "assistant" && f.is_api_error_message === true) return;
    const message = f.message as { content?: unknown } | undefined;
    const content = message?.content;
    if (!Array.isArray(content)) return;
    for (const block of content) {
      if (!isObject(block)) continue;
      const tokens = blockTokens(JSON.stringify(block));
      if (block.type === "tool_use" && typeof block.name === "string") {
        this.#toolOf.set(String(block.id), block.name);
        this.#entry(block.name).callTokens += tokens;
      } else if (block.type === "tool_result") {
        const name = this.#toolOf.get(String(block.tool_use_id));
        if (name !== undefined) this.#entry(name).resultTokens += tokens;
      } else if (f.type === "assistant") {
        this.assistantMessageTokens += tokens;
      }
    }
  }

  #entry(name: string) {
    let entry = this.tools.find((t) => t.name === name);
    if (!entry) {
      entry = { name, callTokens: 0, resultTokens: 0 };
      this.tools.push(entry);
    }
    return entry;
  }
}
