/**
 * Type-level test: the recorders' structural callback types must fit the real
 * `@anthropic-ai/claude-agent-sdk` types both ways (the newest SDK the recordings cover,
 * `sdk-latest`; the pinned one lists a prefix of its hook events), so `deno check` fails
 * when the SDK's shapes move away from ours. The runtime halves check the event list and that the
 * values built here are what the SDK expects.
 */

import {
  type CanUseTool,
  HOOK_EVENTS,
  type HookCallback,
  type HookCallbackMatcher,
  type HookEvent,
  type HookInput,
  type HookJSONOutput,
  type Options,
  type PermissionResult,
  type PermissionUpdate,
  type SyncHookJSONOutput,
} from "sdk-latest";
import {
  HOOK_EVENTS as PINNED_HOOK_EVENTS,
  type HookCallback as PinnedHookCallback,
  type HookJSONOutput as PinnedHookJSONOutput,
  type Options as PinnedOptions,
  type SyncHookJSONOutput as PinnedSyncHookJSONOutput,
} from "@anthropic-ai/claude-agent-sdk";
import assert from "node:assert/strict";
import { PermissionRecorder, type PermissionResponder } from "./permission_recorder.ts";
import type {
  CanUseToolCallback,
  ToolPermissionContext,
  ToolPermissionResult,
} from "./permission_types.ts";
import { HookRecorder } from "./hook_recorder.ts";
import {
  HOOK_EVENT_NAMES,
  type HookCallbackFunction,
  type HookCallbackInput,
  type HookEventName,
  type HookMatcherEntry,
  type HookOutput,
  type HooksOption,
  type HookSpecificOutput,
  type SyncHookOutput,
} from "./hook_types.ts";
import type { PermissionSuggestion } from "../builders/control.ts";

/** `true` only when A and B are mutually assignable. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

// Exact mirrors: a drift either way fails the check. The events are the newest SDK's; a hook's
// answer is what the pinned (oldest) SDK takes, so that a recorder's hooks fit both SDKs (the
// newest only adds PreSkillShellCommand's hookSpecificOutput).
const _events: Same<HookEventName, HookEvent> = true;
const _results: Same<ToolPermissionResult, PermissionResult> = true;
const _outputs: Same<HookOutput, PinnedHookJSONOutput> = true;
const _sync: Same<SyncHookOutput, PinnedSyncHookJSONOutput> = true;
const _specific: Same<
  HookSpecificOutput,
  NonNullable<PinnedSyncHookJSONOutput["hookSpecificOutput"]>
> = true;
const _newer: HookJSONOutput = null as unknown as HookOutput;
const _newerSync: SyncHookJSONOutput = null as unknown as SyncHookOutput;
const _suggestions: Same<PermissionSuggestion, PermissionUpdate> = true;
const _pinnedCallback: PinnedHookCallback = null as unknown as HookCallbackFunction;
const _pinnedHooks: NonNullable<PinnedOptions["hooks"]> = null as unknown as HooksOption;

// Callbacks and inputs: ours accept whatever the SDK passes.
const _canUseTool: CanUseTool = null as unknown as CanUseToolCallback;
const _hookCallback: HookCallback = null as unknown as HookCallbackFunction;
const _matcher: HookCallbackMatcher = null as unknown as HookMatcherEntry;
const _hooksOption: NonNullable<Options["hooks"]> = null as unknown as HooksOption;
const _input: HookCallbackInput = null as unknown as HookInput;
const _context: ToolPermissionContext = null as unknown as Parameters<CanUseTool>[2];

const signal = new AbortController().signal;

Deno.test("PermissionRecorder.canUseTool fits the SDK's Options and PermissionResult", async () => {
  const rec = new PermissionRecorder().respond(
    "Bash",
    ((input, context): PermissionResult => ({
      behavior: "allow",
      updatedInput: input,
      updatedPermissions: context.suggestions,
    })) satisfies PermissionResponder,
  );
  const hooks = new HookRecorder().on("PreToolUse", { matcher: "Bash" });
  const o: Options = { canUseTool: rec.canUseTool, hooks: hooks.hooks };
  const suggestions: PermissionUpdate[] = [
    { type: "setMode", mode: "acceptEdits", destination: "session" },
  ];
  const sdkOptions: Parameters<CanUseTool>[2] = {
    signal,
    toolUseID: "toolu_1",
    requestId: "r1",
    suggestions,
  };
  const r: PermissionResult | null = await o.canUseTool!("Bash", { command: "ls" }, sdkOptions);
  assert.deepEqual(r, {
    behavior: "allow",
    updatedInput: { command: "ls" },
    updatedPermissions: suggestions,
    toolUseID: "toolu_1",
  });
  const denied: PermissionResult = await PermissionRecorder.denyAll("no").canUseTool(
    "Write",
    {},
    sdkOptions,
  );
  assert.equal(denied.behavior, "deny");
});

Deno.test("HookRecorder.hooks fits the SDK's Options and HookJSONOutput", async () => {
  const hooks = new HookRecorder()
    .on("PreToolUse", { matcher: "Bash", output: HookRecorder.deny("no shell") })
    .on("UserPromptSubmit", {
      output: (input: HookCallbackInput): PinnedHookJSONOutput =>
        HookRecorder.addContext("UserPromptSubmit", `prompt: ${input.prompt}`),
    });
  const o: Options = { hooks: hooks.hooks };
  const input: HookInput = {
    hook_event_name: "PreToolUse",
    session_id: "s",
    transcript_path: "/t",
    cwd: "/c",
    tool_name: "Bash",
    tool_input: { command: "ls" },
    tool_use_id: "toolu_1",
  };
  const output: HookJSONOutput = await o.hooks!.PreToolUse![0].hooks[0](input, "toolu_1", {
    signal,
  });
  assert.deepEqual(output, HookRecorder.deny("no shell"));
  const outputs: HookJSONOutput[] = [
    HookRecorder.deny("x"),
    HookRecorder.allow(),
    HookRecorder.stop("x"),
    HookRecorder.addContext("PostToolUse", "x"),
  ];
  assert.equal(outputs.length, 4);
  hooks.assertToolUsed("Bash");
});

Deno.test("HOOK_EVENT_NAMES equals the newest SDK's HOOK_EVENTS; the pinned SDK's are a prefix", () => {
  assert.deepEqual([...HOOK_EVENT_NAMES], [...HOOK_EVENTS]);
  assert.deepEqual([...PINNED_HOOK_EVENTS], HOOK_EVENT_NAMES.slice(0, PINNED_HOOK_EVENTS.length));
});

Deno.test("PermissionRecorder.spy and HookRecorder.spy take the SDK's own callback types", async () => {
  const app: CanUseTool = (_tool, input) =>
    Promise.resolve({ behavior: "allow", updatedInput: input });
  const hook: HookCallback = () => Promise.resolve({ continue: true });
  const appHooks: NonNullable<Options["hooks"]> = {
    PreToolUse: [{ matcher: "Bash", hooks: [hook] }],
  };
  const o: Options = {
    canUseTool: PermissionRecorder.spy(app).canUseTool,
    hooks: HookRecorder.spy(appHooks).hooks,
  };
  const r = await o.canUseTool!("Bash", { command: "ls" }, {
    signal,
    toolUseID: "t1",
    requestId: "r",
  });
  assert.deepEqual(r, { behavior: "allow", updatedInput: { command: "ls" } });
  assert.equal(o.hooks!.PreToolUse![0].matcher, "Bash");
});
