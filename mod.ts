/**
 * `@x/claude-mock`: a test double for the Claude Code CLI. Apps built on the Claude Agent
 * SDK run against it offline, deterministically and in milliseconds.
 *
 * A mock session is a duplex of Web Streams carrying stream-json lines. Scenarios (built
 * with {@linkcode ScenarioBuilder}) say what the session answers; {@linkcode MockTransport}
 * runs one session and hands it to the Agent SDK (`spawnClaudeCodeProcess: mock.spawn`)
 * or to any client (`mock.connect()`); frame builders make frames in the real CLI's shapes.
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

// wire
export * from "./src/wire/frame.ts";
export * from "./src/wire/wire_error.ts";
export {
  type DecodedLine,
  NdjsonDecodeStream,
  type NdjsonDecodeStreamOptions,
  parseFrameLine,
} from "./src/wire/ndjson_decode_stream.ts";
export * from "./src/wire/ndjson_encode_stream.ts";
// random, timing
export * from "./src/random/pcg32.ts";
export * from "./src/timing/clock.ts";
export * from "./src/timing/virtual_clock.ts";
export * from "./src/timing/system_clock.ts";
export * from "./src/timing/timing_profile.ts";
export * from "./src/timing/pace_stream.ts";
export * from "./src/timing/defaults.ts";
export * from "./src/timing/settle_with_fake_time.ts";
// builders
export * from "./src/builders/build_context.ts";
export * from "./src/builders/ids.ts";
export * from "./src/builders/assistant.ts";
export * from "./src/builders/api_error_message.ts";
export * from "./src/builders/permission_denied.ts";
export * from "./src/builders/user.ts";
export * from "./src/builders/system.ts";
export * from "./src/builders/fast_mode.ts";
export * from "./src/builders/compact_boundary.ts";
export * from "./src/builders/thinking_tokens.ts";
export * from "./src/builders/task_frames.ts";
export * from "./src/builders/stream_events.ts";
export * from "./src/builders/result.ts";
export * from "./src/builders/control.ts";
export * from "./src/builders/tools.ts";
export * from "./src/builders/usage.ts";
export * from "./src/builders/subagent.ts";
export * from "./src/builders/inventory.ts";
export * from "./src/builders/slash_commands.ts";
export * from "./src/builders/skills.ts";
export * from "./src/builders/agents.ts";
export * from "./src/builders/plugins.ts";
export * from "./src/builders/models.ts";
export * from "./src/builders/capabilities.ts";
export * from "./src/builders/output_styles.ts";
export * from "./src/builders/project_paths.ts";
export * from "./src/builders/structured_patch.ts";
// scenario
export * from "./src/scenario/matcher.ts";
export * from "./src/scenario/permission_rules.ts";
export * from "./src/scenario/step.ts";
export * from "./src/scenario/scenario.ts";
export * from "./src/scenario/scenario_builder.ts";
export * from "./src/scenario/exchange_builder.ts";
export * from "./src/scenario/exchange_options.ts";
export * from "./src/scenario/scenario_file.ts";
export * from "./src/scenario/scenario_from_json.ts";
export * from "./src/scenario/load_scenario.ts";
export * from "./src/scenario/scenario_to_json.ts";
// session
export * from "./src/session/assertion_error.ts";
export * from "./src/session/write_log.ts";
export * from "./src/session/cli_args.ts";
export * from "./src/session/session.ts";
// adapters
export * from "./src/adapters/mock_process.ts";
export * from "./src/adapters/mock_transport.ts";
// testing
export * from "./src/testing/permission_types.ts";
export * from "./src/testing/permission_recorder.ts";
export * from "./src/testing/hook_types.ts";
export * from "./src/testing/hook_recorder.ts";
export * from "./src/scenario/named_failures.ts";
export * from "./src/scenario/builtin_scenarios.ts";
export * from "./src/scenario/crash_point.ts";
export * from "./src/scenario/unmatched_strategy.ts";
export * from "./src/scenario/with_overrides.ts";
export type {
  ClientAnswer,
  ClientHookAnswer,
  ClientMcpAnswer,
  ClientPermissionAnswer,
} from "./src/adapters/client_answers.ts";
export * from "./src/testing/query_types.ts";
export * from "./src/testing/run_query.ts";
export * from "./src/testing/start_query.ts";
export * from "./src/scenario/mock_command.ts";
export * from "./src/adapters/mock_sdk_options.ts";
