/**
 * The types of the scenario file format (what `loadScenario` reads and `scenarioToJSON`
 * writes), for the entry points that show them (`export *`), so each documents them on its own.
 *
 * @module
 */

export type {
  ApiErrorStepFile,
  AskUserQuestionStepFile,
  BashStepFile,
  ConnectStepFile,
  CrashStepFile,
  DelayFile,
  DelayStepFile,
  EditStepFile,
  EmitStepFile,
  ExchangeFile,
  ExitStepFile,
  FailureStepFile,
  GenericToolStepFile,
  GlobStepFile,
  GrepStepFile,
  MessageFileOptions,
  NotebookEditStepFile,
  QuestionFile,
  RawStepFile,
  ReadStepFile,
  RequestStepFile,
  ResultStepFile,
  SayStepFile,
  ScenarioFile,
  StepFile,
  TaskStepFile,
  TogetherStepFile,
  ToolFileOptions,
  ToolUseStepFile,
  TriggerFile,
  WaitForStepFile,
  WriteStepFile,
} from "./scenario_file.ts";
