/**
 * Builder for the `system/thinking_tokens` frame: the CLI's running estimate of the
 * tokens of the current thinking block.
 *
 * @module
 */

import type { SystemFrame, Uuid } from "../wire/frame.ts";
import type { BuildContext } from "./build_context.ts";
import { checkCount } from "./_common.ts";

/** A `system/thinking_tokens` frame. */
export interface ThinkingTokensFrame extends SystemFrame {
  /** Always `thinking_tokens`. */
  subtype: "thinking_tokens";
  /** Running estimate for the current thinking block. */
  estimated_tokens: number;
  /** The increment this frame carries. */
  estimated_tokens_delta: number;
  /** The session id. */
  session_id: string;
  /** The frame's uuid. */
  uuid: Uuid;
}

/**
 * A `system/thinking_tokens` frame: the CLI sends one before each thinking delta (with or
 * without partial messages), with the running estimate for the block (see
 * {@linkcode thinkingTokenFrames} for a whole block).
 *
 * @example A thinking-token estimate
 * ```ts
 * import { createBuildContext, thinkingTokens } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * console.log(thinkingTokens(ctx, { estimatedTokens: 10, estimatedTokensDelta: 5 }).estimated_tokens);
 * ```
 */
export function thinkingTokens(
  ctx: BuildContext,
  options: { estimatedTokens: number; estimatedTokensDelta: number },
): ThinkingTokensFrame {
  checkCount(options?.estimatedTokens, "thinkingTokens()", "options.estimatedTokens");
  checkCount(options.estimatedTokensDelta, "thinkingTokens()", "options.estimatedTokensDelta");
  return {
    type: "system",
    subtype: "thinking_tokens",
    estimated_tokens: options.estimatedTokens,
    estimated_tokens_delta: options.estimatedTokensDelta,
    session_id: ctx.sessionId,
    uuid: ctx.ids.uuid(),
  };
}
