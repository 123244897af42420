/**
 * The wire: stream-json frames (one JSON object a line, the shapes the Agent SDK reads and
 * writes on the `claude` process's stdio), the streams that decode and encode them, pacing
 * for realistic timing, and the seeded random generator that keeps a session deterministic.
 *
 * @example Decoding stream-json lines into frames
 * ```ts
 * import { NdjsonDecodeStream } from "@x/claude-mock/wire";
 *
 * const chunks = ['{"type":"system","subtype":"init"}\n{"type":"res', 'ult"}\nnot json\n'];
 * const lines = ReadableStream.from(chunks).pipeThrough(new NdjsonDecodeStream());
 * for await (const line of lines) {
 *   console.log(line.ok ? line.frame.type : `line ${line.line}: ${line.error.message}`);
 * } // system, result, then the error for line 3
 * ```
 *
 * @module
 */

export type {
  AssistantFrame,
  AssistantMessageBody,
  ControlRequestFrame,
  ControlResponseBody,
  ControlResponseFrame,
  JsonObject,
  JsonValue,
  MessageUsage,
  RawLine,
  ResultFrame,
  StreamEventFrame,
  SystemFrame,
  ToolResultBlock,
} from "./src/wire/frame.ts";
export { WireError, type WireErrorOptions } from "./src/wire/wire_error.ts";
export {
  type DecodedLine,
  NdjsonDecodeStream,
  type NdjsonDecodeStreamOptions,
  parseFrameLine,
} from "./src/wire/ndjson_decode_stream.ts";
export { encodeFrame, NdjsonEncodeStream } from "./src/wire/ndjson_encode_stream.ts";
export { type PaceOptions, PaceStream } from "./src/timing/pace_stream.ts";
export { timingProfile } from "./src/timing/timing_profile.ts";
export type { Clock, WaitOptions } from "./src/timing/clock.ts";
export {
  Pcg32,
  type Prng,
  randomIntegerBetween,
  type RandomIntegerOptions,
  randomSeeded,
} from "./src/random/pcg32.ts";
// the types its signatures show, shared with the other entry points
export * from "./src/wire/frame_types.ts";
export * from "./src/timing/timing_types.ts";
