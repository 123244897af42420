/**
 * The frame types every entry point's signatures show: a frame, its content blocks, a uuid.
 * The entry points re-export this file (`export *`), so each documents them on its own.
 *
 * @module
 */

export type {
  AssistantContentBlock,
  Frame,
  RedactedThinkingBlock,
  TextBlock,
  ThinkingBlock,
  ToolUseBlock,
  UserFrame,
  Uuid,
} from "./frame.ts";
