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

// the `__mock__` machinery, loaded with the library so command prompts are planned at once
// (the fake binary's bundle loads it on the first one: src/session/_mock_plan.ts)
import "./src/session/_mock_plan.ts";

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
  type ProcessExitListener,
  type ProcessSpawnOptions,
  type RecordedProcess,
  type RecordingApiOptions,
  recordingSpawn,
  type RecordingSpawner,
  type RecordingSpawnOptions,
  type SpawnedProcessLike,
} from "./src/cassette/recording_spawn.ts";
export { type ScrubOptions, scrubTape } from "./src/cassette/scrub_tape.ts";
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
