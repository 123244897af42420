/**
 * `@x/claude-mock`: a test double for the Claude Code CLI. Apps built on the Claude Agent
 * SDK run against it offline, deterministically and in milliseconds.
 *
 * A mock session is a duplex of Web Streams carrying stream-json lines. Scenarios (built
 * with {@linkcode ScenarioBuilder}) say what the session answers; {@linkcode MockTransport}
 * runs one session and hands it to the Agent SDK (`spawnClaudeCodeProcess: mock.spawn`)
 * or to any client (`mock.connect()`); {@linkcode runQuery} and {@linkcode startQuery} run
 * the app's query against it, {@linkcode PermissionRecorder} and {@linkcode HookRecorder}
 * stand in for its callbacks.
 *
 * This is what a test of an app writes, with the types its signatures show. The other entry
 * points: `@x/claude-mock/builders` (frames in the real CLI's shapes), `@x/claude-mock/wire`
 * (frame types, NDJSON streams, pacing, seeded random), `@x/claude-mock/cassette` (record,
 * replay and check tapes of real sessions), `@x/claude-mock/cli` (the fake `claude` binary),
 * `@x/claude-mock/scenario-file` (the scenario file format's types, `scenarioToJSON`),
 * `@x/claude-mock/mock-command` (`__mock__` command prompts), `@x/claude-mock/session`
 * (the engine for hosts of their own, `sessionOf(mock)`) and `@x/claude-mock/messages-api`
 * (the same scenario for the real binary: a scenario-driven Messages API).
 *
 * @example A scripted session on the raw duplex
 * ```ts
 * import { MockTransport, ScenarioBuilder } from "@x/claude-mock";
 *
 * const mock = new MockTransport(
 *   new ScenarioBuilder().on("hello").respond("Hello! How can I help you today?").build(),
 * );
 * const { readable, writable } = mock.connect();
 * const stdin = writable.getWriter();
 * await stdin.write(
 *   '{"type":"user","session_id":"","message":{"role":"user","content":"hello"},"parent_tool_use_id":null}\n',
 * );
 * await stdin.close();
 * for (const line of (await new Response(readable).text()).trim().split("\n")) {
 *   console.log(JSON.parse(line).type); // system, system, assistant, result, system
 * }
 * console.log((await mock.exited).code); // 0
 * ```
 *
 * @module
 */

// What a test of an app writes: the mock (in process, or the app's own query() intercepted),
// scenarios, the runner, the recorders, assertions, named failures, scenario files and time;
// then the types their signatures show. The other doors have entry points of their own:
// `./builders` (frames), `./wire` (the wire format, its streams, pacing, seeded random),
// `./cassette` (tapes), `./cli` (the fake binary), `./scenario-file` (the file format as
// TypeScript types, `scenarioToJSON`), `./mock-command` (`__mock__` command prompts),
// `./session` (the engine for hosts of their own, the process, the permission rules) and
// `./messages-api` (a scenario-driven Messages API for the real binary).

// the `__mock__` commands, with their machinery loaded at once (the fake binary's bundle loads
// it on the first command prompt): every session this entry point makes answers them
import "./src/mock_commands/_eager.ts";

// the mock, in process
export {
  MOCK_EXECUTABLE_PATH,
  type MockDuplex,
  type MockSdkOptions,
  MockTransport,
  type MockTransportOptions,
} from "./src/adapters/mock_transport.ts";
export type { SessionSettings } from "./src/session/session_settings.ts";
export { SessionStore } from "./src/session/session_store.ts";
export type { SpawnOptionsLike } from "./src/adapters/mock_process.ts";
export type {
  ClientAnswer,
  ClientHookAnswer,
  ClientMcpAnswer,
  ClientPermissionAnswer,
} from "./src/adapters/client_answers.ts";
// interception: the app's own query() against the active mock
export {
  type ClaudeMock,
  type ClaudeMockSource,
  mockClaude,
  type MockClaudeOptions,
} from "./src/intercept/claude_mock.ts";
export {
  configureInterception,
  type InterceptionOptions,
  type UnhandledQuery,
  type UnhandledQueryStrategy,
} from "./src/intercept/configure_interception.ts";
export { wrapClaudeSdk } from "./src/intercept/wrap_claude_sdk.ts";
// scenarios
export { ScenarioBuilder, type ScenarioOptions } from "./src/scenario/scenario_builder.ts";
export { ExchangeBuilder } from "./src/scenario/exchange_builder.ts";
export type {
  AskUserQuestionItem,
  MessageOptions,
  RespondOptions,
  ResponseContent,
  TaskOptions,
  UsesOptions,
} from "./src/scenario/exchange_options.ts";
export {
  any,
  contains,
  exact,
  glob,
  predicate,
  regex,
  type Trigger,
} from "./src/scenario/matcher.ts";
export { withOverrides } from "./src/scenario/with_overrides.ts";
export {
  BUILTIN_SCENARIO_NAMES,
  builtinScenario,
  type BuiltinScenarioName,
  type BuiltinScenarioOptions,
} from "./src/scenario/builtin_scenarios.ts";
// named failures
// scenario files
export {
  scenarioFromJSON,
  type ScenarioFromJSONOptions,
} from "./src/scenario/scenario_from_json.ts";
export { loadScenario, type LoadScenarioOptions } from "./src/scenario/load_scenario.ts";
// the app's side: queries, permissions, hooks
export type {
  AnyQueryFunction,
  MessageOf,
  QueryFunction,
  QueryHandle,
  QueryMessage,
  QueryOptionsOf,
  QueryPrompt,
  QueryResultMessage,
  QueryRun,
  QueryUserMessage,
  ResultOf,
  RunQueryOptions,
} from "./src/testing/query_types.ts";
export { runQuery } from "./src/testing/run_query.ts";
export { RunningQuery, startQuery } from "./src/testing/start_query.ts";
export type {
  CanUseToolCallback,
  ToolPermissionContext,
  ToolPermissionResult,
} from "./src/testing/permission_types.ts";
export {
  type PermissionRecord,
  PermissionRecorder,
  type PermissionRecorderOptions,
  type PermissionResponder,
  type PermissionResponderContext,
  type PermissionResponse,
} from "./src/testing/permission_recorder.ts";
export type {
  AsyncHookOutput,
  HookCallbackFunction,
  HookCallbackInput,
  HookContextEvent,
  HookEventName,
  HookInvocation,
  HookMatcherEntry,
  HookOutput,
  HooksOption,
  HookSpecificOutput,
  SyncHookOutput,
} from "./src/testing/hook_types.ts";
export {
  type HookOnOptions,
  type HookOutputResponder,
  HookRecorder,
  type HookRecorderOptions,
} from "./src/testing/hook_recorder.ts";
// assertions
export { AssertionError, type AssertionErrorOptions } from "./src/session/assertion_error.ts";
// time
export type { Clock, WaitOptions } from "./src/timing/clock.ts";
export { VirtualClock, type VirtualClockOptions } from "./src/timing/virtual_clock.ts";
export { SystemClock } from "./src/timing/system_clock.ts";
export { getDefaults, type MockDefaults, setDefaults } from "./src/timing/defaults.ts";
export {
  settleWithFakeTime,
  type SettleWithFakeTimeOptions,
  type SteppableFakeTime,
} from "./src/timing/settle_with_fake_time.ts";

// What the signatures above show, from the layers below (each also exported by the entry point
// of its layer: `./session`, `./builders`, `./wire`).
export type { MockSession } from "./src/adapters/mock_session.ts";
export type { ExitStatus, ToolRunner } from "./src/session/engine.ts";
export type {
  HookCommand,
  HookCommandResult,
  HookCommandRunner,
} from "./src/session/command_hooks.ts";
export type { ClientRequest } from "./src/session/control_channel.ts";
export type { WriteEntry } from "./src/session/write_log.ts";
export { WireError } from "./src/wire/wire_error.ts";
export type { PermissionSuggestion } from "./src/builders/control.ts";
export type { PermissionMode } from "./src/builders/system.ts";
// the types its signatures show, shared with the other entry points
export * from "./src/scenario/scenario_types.ts";
