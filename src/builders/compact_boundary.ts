/**
 * Builder for the `system/compact_boundary` frame the CLI writes after `/compact`, in the
 * real CLI's key order.
 *
 * @module
 */

import type { SystemFrame, Uuid } from "../wire/frame.ts";
import type { BuildContext } from "./build_context.ts";
import { checkCount, describe } from "./_common.ts";

/** A `system/compact_boundary` frame. */
export interface CompactBoundaryFrame extends SystemFrame {
  /** Always `compact_boundary`. */
  subtype: "compact_boundary";
  /** The session id. */
  session_id: string;
  /** The frame's uuid. */
  uuid: Uuid;
  /** What was compacted. */
  compact_metadata: {
    trigger: "manual" | "auto";
    pre_tokens: number;
    post_tokens: number;
    cumulative_dropped_tokens: number;
    duration_ms: number;
  };
  /** The uuid of the last message before the boundary. */
  logical_parent_uuid: Uuid;
}

/** Options for {@linkcode compactBoundary}. */
export interface CompactBoundaryOptions {
  /** What started the compaction (default `manual`). */
  trigger?: "manual" | "auto";
  /** Tokens before (default 255, as recorded). */
  preTokens?: number;
  /** Tokens after (default 2547, as recorded). */
  postTokens?: number;
  /** Tokens dropped so far (default 0). */
  cumulativeDroppedTokens?: number;
  /** How long it took (default 27 ms). */
  durationMs?: number;
  /** The uuid of the last message before the boundary (default: a fresh uuid). */
  logicalParentUuid?: Uuid;
}

/**
 * A `system/compact_boundary` frame, as the CLI writes it after `/compact` (after the
 * `status` with `compact_result` and a fresh `system/init`).
 *
 * @example A manual compaction boundary
 * ```ts
 * import { compactBoundary, createBuildContext } from "@x/claude-mock/builders";
 * const ctx = createBuildContext({ seed: 1 });
 * console.log(compactBoundary(ctx).compact_metadata.trigger); // manual
 * ```
 */
export function compactBoundary(
  ctx: BuildContext,
  options: CompactBoundaryOptions = {},
): CompactBoundaryFrame {
  const metadata = {
    trigger: options.trigger ?? "manual",
    pre_tokens: options.preTokens ?? 255,
    post_tokens: options.postTokens ?? 2547,
    cumulative_dropped_tokens: options.cumulativeDroppedTokens ?? 0,
    duration_ms: options.durationMs ?? 27,
  } as const;
  for (const [key, value] of Object.entries(metadata)) {
    if (key !== "trigger") checkCount(value, "compactBoundary()", key);
  }
  if (metadata.trigger !== "manual" && metadata.trigger !== "auto") {
    throw new RangeError(
      `compactBoundary(): trigger must be manual or auto, got ${describe(metadata.trigger)}`,
    );
  }
  return {
    type: "system",
    subtype: "compact_boundary",
    session_id: ctx.sessionId,
    uuid: ctx.ids.uuid(),
    compact_metadata: metadata,
    logical_parent_uuid: options.logicalParentUuid ?? ctx.ids.uuid(),
  };
}
