/**
 * Joins the tool uses `usesTogether` collected into one assistant message. Internal.
 *
 * @module
 */

import { text } from "../builders/assistant.ts";
import type { MessagePart, Step } from "./step.ts";

/** The parts and input chunks of one message holding every tool use of `steps`. */
export function togetherMessage(
  steps: readonly Step[],
  say: string | undefined,
  fail: (kind: typeof TypeError | typeof RangeError, problem: string) => never,
): { parts: MessagePart[]; inputChunks?: string[][] } {
  if (steps.length === 0) fail(RangeError, "usesTogether needs at least one tool use");
  const parts: MessagePart[] = say !== undefined ? [text(say)] : [];
  const inputChunks: string[][] = [];
  let chunked = false;
  for (const step of steps) {
    if (step.kind !== "message" || !step.parts.some((p) => typeof p === "function")) {
      fail(TypeError, `usesTogether takes only uses* tool helpers, got a '${step.kind}' step`);
    }
    parts.push(...step.parts);
    inputChunks.push(step.inputChunks?.[0] ?? []);
    chunked ||= step.inputChunks !== undefined;
  }
  return { parts, ...(chunked ? { inputChunks } : {}) };
}
