/**
 * How a message step's reply streams: its chunk size and its explicit pieces, as the mock
 * streams it and as the scenario-driven Messages API sends it (one rule for both). Internal.
 *
 * @internal
 * @module
 */

import { chunkText, splitToolInput } from "../builders/stream_chunks.ts";
import type { StreamEventsOptions } from "../builders/stream_events.ts";
import type { AssistantContentBlock } from "../wire/frame.ts";
import type { MessageStep } from "./step.ts";

/**
 * The stream-event options that say how a reply's blocks are cut into deltas.
 *
 * @internal
 */
export type ReplyChunking = Pick<StreamEventsOptions, "chunkSize" | "split" | "splitInput">;

/**
 * The stream-event options of a message step's reply: `chunkSize`, and its `chunks` and
 * `inputChunks` pieces by block (a block without pieces keeps the default split). With
 * `rewrite` (the Messages API replacing the scenario's cwd by the CLI's), each piece is
 * rewritten, and pieces that no longer join into their block's text (a path cut between two of
 * them) give way to the default split.
 *
 * @param step The message step.
 * @param blocks The step's evaluated blocks (rewritten, when `rewrite` is given).
 * @param rewrite Rewrites one piece as the blocks were rewritten.
 * @returns The options for `streamEvents()`.
 *
 * @example Explicit pieces for a text block
 * ```ts
 * import { replyChunking } from "./_reply_chunking.ts";
 * const step = { kind: "message" as const, parts: [], chunks: [["Hel", "lo"]] };
 * const chunking = replyChunking(step, [{ type: "text", text: "Hello" }]);
 * console.log(chunking.split?.("Hello", "text")); // [ "Hel", "lo" ]
 * ```
 *
 * @internal
 */
export function replyChunking(
  step: MessageStep,
  blocks: readonly AssistantContentBlock[],
  rewrite?: (piece: string) => string,
): ReplyChunking {
  const out: ReplyChunking = {};
  if (step.chunkSize !== undefined) out.chunkSize = step.chunkSize;
  const size = step.chunkSize ?? 24;
  const chunks = step.chunks;
  if (chunks) {
    const texts = blocks.flatMap((b) =>
      b.type === "text" ? [b.text] : b.type === "thinking" ? [b.thinking] : []
    );
    out.split = (text) => {
      const given = chunks[texts.indexOf(text)];
      if (!given || given.length === 0) return chunkText(text, size);
      if (!rewrite) return given;
      const pieces = given.map(rewrite);
      return pieces.join("") === text ? pieces : chunkText(text, size);
    };
  }
  const inputChunks = step.inputChunks;
  if (inputChunks) {
    const ids = blocks.flatMap((b) => (b.type === "tool_use" ? [b.id] : []));
    out.splitInput = (input, id) => {
      const given = inputChunks[ids.indexOf(id)];
      if (!given || given.length === 0) return splitToolInput(input);
      if (!rewrite) return given;
      const pieces = given.map(rewrite);
      return pieces.join("") === JSON.stringify(input) ? pieces : splitToolInput(input);
    };
  }
  return out;
}
