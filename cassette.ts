/**
 * Cassettes: record real `claude` sessions as tapes, replay them through the real Agent SDK,
 * and keep them honest (scrub, lint, drift) and readable (a timeline view).
 *
 * @example Loading a tape
 * ```ts
 * import { parseTape } from "@x/claude-mock/cassette";
 * const tape = parseTape('{"version":1}\n{"t":0,"dir":"cli->sdk","frame":{"type":"result"}}\n');
 * console.log(tape.entries.length); // 1
 * ```
 *
 * @module
 */

export {
  isFrameEntry,
  type Tape,
  TAPE_FORMAT,
  TAPE_VERSION,
  type TapeDirection,
  type TapeEnding,
  type TapeEntry,
  type TapeFrameEntry,
  type TapeHeader,
  type TapeRawEntry,
  type TapeStderrEntry,
} from "./src/cassette/tape.ts";
export {
  type CassetteMismatch,
  CassetteMismatchError,
} from "./src/cassette/cassette_mismatch_error.ts";
export {
  type DrivableQuery,
  type ReplayMode,
  type ReplayStubOptions,
  SnapshotPlayer,
  type SnapshotPlayerOptions,
  type StubCanUseTool,
  type StubHook,
  type StubMcpInstance,
  type StubMcpTransport,
  type TapeUserMessage,
} from "./src/cassette/snapshot_player.ts";
