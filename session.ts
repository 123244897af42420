/**
 * The engine, for hosts of their own: a {@linkcode Session} runs a scenario over a duplex of
 * Web Streams (or `write()` / `endInput()` and an `output` callback, as the fake binary's print
 * mode does), {@linkcode MockProcess} gives it the shape of a spawned process, and
 * {@linkcode decidePermission} is how a session decides ask / allow / deny. An app's tests
 * need none of this: `MockTransport` and `mockClaude` in `@x/claude-mock` run sessions for
 * them.
 *
 * @example A session on its own duplex
 * ```ts
 * import { Session } from "@x/claude-mock/session";
 * import { ScenarioBuilder } from "@x/claude-mock";
 *
 * const session = new Session(new ScenarioBuilder().on("hi").respond("Hello!").build());
 * const stdin = session.writable.getWriter();
 * await stdin.write(
 *   '{"type":"user","session_id":"","message":{"role":"user","content":"hi"},"parent_tool_use_id":null}\n',
 * );
 * await stdin.close();
 * const lines = (await new Response(session.readable).text()).trim().split("\n");
 * console.log(JSON.parse(lines.at(-2)!).result); // Hello!
 * console.log((await session.exited).code); // 0
 * ```
 *
 * @module
 */

// the `__mock__` commands, with their machinery loaded at once (the fake binary's bundle loads
// it on the first command prompt): every session this entry point makes answers them
import "./src/mock_commands/_eager.ts";

export { Session, type SessionOptions } from "./src/session/session.ts";
export type { SessionSettings } from "./src/session/session_settings.ts";
export { SessionStore } from "./src/session/session_store.ts";
export type { ModelUsageEntry } from "./src/builders/usage.ts";
export { sessionOf } from "./src/adapters/mock_transport.ts";
export type { MockSession } from "./src/adapters/mock_session.ts";
export {
  AnswerThen,
  type ClientRequest,
  ControlError,
  type ControlHandler,
} from "./src/session/control_channel.ts";
export {
  type ErrorListener,
  type ExitListener,
  MockProcess,
  type ProcessBody,
  type SpawnOptionsLike,
} from "./src/adapters/mock_process.ts";
export type { ClaudeProcess, ClaudeSpawn } from "./src/adapters/claude_spawn.ts";
export {
  decidePermission,
  type PermissionVerdict,
  ruleMatches,
  type RuleSource,
} from "./src/scenario/permission_rules.ts";
export { HOOK_EVENT_NAMES } from "./src/testing/hook_types.ts";

// Types the signatures above show, from the layers they belong to (`deno doc --lint` of this
// entry point on its own wants each of them exported here).
export {
  type InstalledSdkInfo,
  type ResolveCliVersionOptions,
} from "./src/builders/cli_versions.ts";
export { type CliFlags } from "./src/session/cli_args.ts";
export { type ExitStatus, type ToolRunner } from "./src/session/engine.ts";
export {
  type HookCommand,
  type HookCommandResult,
  type HookCommandRunner,
} from "./src/session/command_hooks.ts";
export { type WriteEntry, WriteLog } from "./src/session/write_log.ts";
export { type HookEventName } from "./src/testing/hook_types.ts";
export { type Clock, type WaitOptions } from "./src/timing/clock.ts";
export { type ControlRequestFrame } from "./src/wire/frame.ts";
export { WireError } from "./src/wire/wire_error.ts";
// the types its signatures show, shared with the other entry points
export * from "./src/scenario/scenario_types.ts";
