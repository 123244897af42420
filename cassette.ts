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

// the `__mock__` commands, with their machinery loaded at once (the fake binary's bundle loads
// it on the first command prompt): every session this entry point makes answers them
import "./src/mock_commands/_eager.ts";

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
export {
  timelineDiffAnchor,
  timelineHtml,
  type TimelineHtmlOptions,
} from "./src/cassette/timeline_html.ts";
export {
  type ConvertedScenario,
  tapeToScenario,
  type TapeToScenarioOptions,
} from "./src/cassette/tape_to_scenario.ts";
export { parseTape, type ParseTapeOptions, serializeTape } from "./src/cassette/parse_tape.ts";
export {
  loadTape,
  type LoadTapeOptions,
  readTapeEntries,
  type TapeSummary,
} from "./src/cassette/load_tape.ts";
export {
  type TapeEntryInit,
  TapeWriter,
  type TapeWriterOptions,
} from "./src/cassette/tape_writer.ts";
export {
  type RecordableDuplex,
  SnapshotRecorder,
  type SnapshotRecorderOptions,
} from "./src/cassette/snapshot_recorder.ts";
export {
  type RecordedProcess,
  type RecordingApiOptions,
  recordingSpawn,
  type RecordingSpawner,
  type RecordingSpawnOptions,
} from "./src/cassette/recording_spawn.ts";
export type {
  ProcessExitListener,
  ProcessSpawnOptions,
  SpawnedProcessLike,
} from "./src/cassette/spawned_process.ts";
export type { ScrubOptions } from "./src/cassette/scrub_options.ts";
export { scrubTape } from "./src/cassette/scrub_tape.ts";
export {
  type ScenarioSandbox,
  scenarioSandbox,
  type ScenarioSandboxOptions,
} from "./src/cassette/scenario_sandbox.ts";
export {
  type LintOptions,
  lintTape,
  type TapeProblem,
  type TapeProblemCode,
} from "./src/cassette/lint_tape.ts";
export {
  driftCheck,
  type DriftCode,
  type DriftFinding,
  type DriftOptions,
  type TypeChecker,
  type TypeDiagnostic,
} from "./src/cassette/drift.ts";
export {
  type Cassette,
  cassette,
  type CassetteMode,
  type CassetteOptions,
  type CassetteTest,
} from "./src/cassette/use_cassette.ts";

// Types the signatures above show, from the layers they belong to (`deno doc --lint` of this
// entry point on its own wants each of them exported here).
export { type ClaudeProcess, type ClaudeSpawn } from "./src/adapters/claude_spawn.ts";
export {
  type ErrorListener,
  type ExitListener,
  type SpawnOptionsLike,
} from "./src/adapters/mock_process.ts";
export { type MockDuplex } from "./src/adapters/mock_transport.ts";
export {
  BUILTIN_SCENARIO_NAMES,
  type BuiltinScenarioName,
} from "./src/scenario/builtin_scenarios.ts";
// the scenario file format
export * from "./src/scenario/scenario_file_types.ts";
export { type ExitStatus } from "./src/session/engine.ts";
export { type JournalEntry } from "./src/messages_api/api_journal.ts";
export { type MessagesApi } from "./src/messages_api/serve_messages_api.ts";
export { type MessagesApiOptions } from "./src/messages_api/serve_messages_api.ts";
export { type JournalAnswer } from "./src/messages_api/api_journal.ts";
export { type JournalKind } from "./src/messages_api/api_journal.ts";
export { type JournalPlace } from "./src/messages_api/api_journal.ts";
// the types its signatures show, shared with the other entry points
export * from "./src/scenario/scenario_types.ts";
