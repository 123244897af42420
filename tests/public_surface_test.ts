// The public surface, pinned: every export of every entry point (`deno doc --json`, so types
// count too), and the same entry points in deno.json and in the npm package's package.json.
// A change here is a change to what users may import: make it on purpose, update the lists.
import assert from "node:assert/strict";
import { compiled, packageJsonFor, type RepoConfig } from "../scripts/npm_package_json.ts";

const ROOT = new URL("../", import.meta.url);

/** Every entry point's exports by subpath, sorted (the promise the package keeps). */
const SURFACE_TEXT: Record<string, string> = {
  ".": `
    AgentOption AnswerThen AnyQueryFunction ApiErrorStep ApiErrorStepFile AskUserQuestionItem
    AskUserQuestionStepFile AssertionError AssertionErrorOptions AsyncHookOutput
    BUILTIN_SCENARIO_NAMES BashStepFile BuiltinScenarioName BuiltinScenarioOptions
    CanUseToolCallback CliFlags ClientAnswer ClientHookAnswer ClientMcpAnswer
    ClientPermissionAnswer ClientRequest Clock CompactOptions ConnectStepFile ControlError
    ControlHandler CrashPoint CrashStep CrashStepFile Delay DelayFile DelayStep DelayStepFile
    EditStepFile EmitStep EmitStepFile ErrorListener Exchange ExchangeBuilder ExchangeFile
    ExitListener ExitStatus ExitStep ExitStepFile FAILURE_NAMES FailureName FailureStep
    FailureStepFile GenericToolStepFile HOOK_EVENT_NAMES HookCallbackFunction HookCallbackInput
    HookContextEvent HookEventName HookInvocation HookMatcherEntry HookOnOptions HookOutput
    HookOutputResponder HookRecorder HookRecorderOptions HookSpecificOutput HooksOption
    MOCK_COMMAND_NAMES MOCK_EXECUTABLE_PATH Matcher MessageFileOptions MessageOf MessageOptions
    MessagePart MessageStep MockCommand MockCommandBuilders MockCommandName
    MockCompactBoundaryOptions MockDefaults MockDuplex MockErrorOptions
    MockPermissionRequestOptions MockProcess MockResultOptions MockSdkOptions
    MockSystemInitOptions MockToolResultOptions MockToolUseOptions MockTransport
    MockTransportOptions PermissionRecord PermissionRecorder PermissionRecorderOptions
    PermissionResponder PermissionResponderContext PermissionResponse PermissionRules
    PermissionVerdict ProcessBody QueryFunction QueryHandle QueryMessage QueryOptionsOf
    QueryPrompt QueryResultMessage QueryRun QueryUserMessage QuestionFile RawStep RawStepFile
    ReadStepFile RecordedAnswer RequestStep RequestStepFile RespondOptions ResponseContent
    ResultOf ResultOptions ResultStep ResultStepFile RuleSource RunQueryOptions RunningQuery
    SCENARIO_SCHEMA_URL SayStepFile Scenario ScenarioBuilder ScenarioFile ScenarioFromJSONOptions
    ScenarioOptions ScriptedToolCall Session SessionOptions SettleWithFakeTimeOptions
    SpawnOptionsLike Step StepFile StepSource SteppableFakeTime SyncHookOutput SystemClock
    TaskStepFile Timing TimingProfile TimingProfileName TogetherStepFile ToolFileOptions
    ToolPermissionContext ToolPermissionResult ToolRunner ToolUseStepFile Trigger TriggerFile
    TurnInfo UnmatchedAnswer UnmatchedHandler UnmatchedStrategy UsesOptions VirtualClock
    VirtualClockOptions WaitForStepFile WaitForWriteStep WaitOptions WriteEntry WriteLog
    WriteStepFile any builtinScenario contains decidePermission exact getDefaults glob
    isFailureName loadScenario mockCommand predicate regex ruleMatches runQuery scenarioFromJSON
    scenarioToJSON setDefaults settleWithFakeTime startQuery timingProfile withOverrides
  `,
  "./builders": `
    AbortedDeltaUsage AbortedStreamEndOptions AccountInfoEntry AgentInfoEntry ApiCallUsage
    ApiErrorAssistantFrame ApiErrorMessageOptions ApiFailureMessageOptions ApiKeySource
    ApiRetryFrame ApiRetryOptions AssistantContentInput AssistantMessageBodyOut
    AssistantMessageError AssistantMessageFrame AssistantMessageOptions AssistantUsage
    BashToolOptions BuildContext BuildContextOptions BuiltContentBlock CLAUDE_CODE_VERSION
    CanUseToolRequest CanUseToolRequestOptions CliUserFrame CompactBoundaryFrame
    CompactBoundaryOptions ContentDelta ControlErrorFrame ControlRequestFrameOut
    ControlSuccessFrame DEFAULT_CWD DEFAULT_MODEL DecisionReasonType EditToolOptions
    FastModeDisabledReason FastModeState GenericToolOptions HookCallbackRequest
    HookCallbackRequestOptions HookEventFields IdGenerator IdGeneratorOptions InitializeResponse
    InitializeResponseOptions McpMessageRequest McpServerEntry ModelInfoEntry ModelUsageEntry
    PartialSequenceFrame PatchHunk PermissionDecision PermissionDecisionName PermissionDenial
    PermissionDeniedFrame PermissionMode PermissionSuggestion PlainTextBlock PluginEntry
    ReadToolOptions ResultErrorFrame ResultErrorSubtype ResultFrameBase ResultFrameOptions
    ResultFrameOut ResultSubtype ResultSuccessFrame ResultTiming ResultUsage SessionState
    SessionStateChangedFrame SessionStatus SlashCommandInfo StartContentBlock StartMessage
    StopReason StreamEvent StreamEventFrameOut StreamEventsOptions SubagentInfo SubagentStats
    SyntheticUsage SystemInitFrame SystemInitOptions SystemStatusFrame SystemStatusOptions
    TaskInfo TaskNotificationFrame TaskNotificationOptions TaskProgressFrame TaskProgressOptions
    TaskStartedFrame TaskStatus TaskToolCall TaskToolOptions TaskUpdatedFrame TaskUsage
    TerminalReason ThinkingDisplay ThinkingTokensFrame ToolCall ToolCallResult ToolResultBlockOut
    ToolResultContent ToolResultMeta ToolResultOptions ToolUseInput ToolUseMeta UserImageBlock
    UserPromptFrame UserTextBlock UserTextOptions WriteToolOptions abortedStreamEnd
    apiErrorMessage apiFailureMessage apiRetry assistantMessage bashTool canUseToolRequest
    compactBoundary controlError controlRequest controlSuccess createBuildContext editOfUnreadFile editTool
    genericTool hookCallbackRequest hookInput initializeResponse mcpToolCallRequest mcpToolUseMeta
    modelUsage newTask permissionDenied readTool resultFrame resultUsage sessionStateChanged
    streamEvents streamEventsIter structuredPatch subagentStats systemInit systemStatus
    taskNotification taskProgress taskStarted taskTool taskUpdated text thinking
    thinkingTokenFrames thinkingTokens toolResult toolUse userPrompt userText writeTool
  `,
  "./wire": `
    AssistantContentBlock AssistantFrame AssistantMessageBody ControlRequestFrame
    ControlResponseBody ControlResponseFrame DecodedLine Frame JsonObject JsonValue MessageUsage
    NdjsonDecodeStream NdjsonDecodeStreamOptions NdjsonEncodeStream PaceOptions PaceStream Pcg32
    Prng RandomIntegerOptions RawLine RedactedThinkingBlock ResultFrame StreamEventFrame
    SystemFrame TextBlock ThinkingBlock ToolResultBlock ToolUseBlock UserFrame Uuid WireError
    WireErrorOptions encodeFrame parseFrameLine randomIntegerBetween randomSeeded
  `,
  "./cassette": `
    Cassette CassetteMismatch CassetteMismatchError CassetteMode CassetteOptions CassetteTest
    ConvertedScenario DriftCode DriftFinding DriftOptions DrivableQuery LintOptions
    LoadTapeOptions ParseTapeOptions ProcessExitListener ProcessSpawnOptions RecordableDuplex
    RecordedProcess RecordingSpawnOptions RecordingSpawner ReplayMode ReplayStubOptions
    ScrubOptions SnapshotPlayer SnapshotPlayerOptions SnapshotRecorder SnapshotRecorderOptions
    SpawnedProcessLike StubCanUseTool StubHook StubMcpInstance StubMcpTransport TAPE_FORMAT
    TAPE_VERSION Tape TapeDirection TapeEnding TapeEntry TapeEntryInit TapeFrameEntry TapeHeader
    TapeProblem TapeProblemCode TapeRawEntry TapeStderrEntry TapeSummary TapeToScenarioOptions
    TapeUserMessage TapeWriter TapeWriterOptions TimelineHtmlOptions TypeChecker TypeDiagnostic
    cassette driftCheck isFrameEntry lintTape loadTape parseTape readTapeEntries recordingSpawn
    scrubTape serializeTape tapeToScenario timelineDiffAnchor timelineHtml
  `,
  "./cli": `
    CLAIMED_VERSION CaptureLog CapturedInvocation CliIO CliUsageError FakeClaude
    InstallFakeClaudeOptions installFakeClaude readCapture runCli
  `,
};
const SURFACE: Record<string, readonly string[]> = Object.fromEntries(
  Object.entries(SURFACE_TEXT).map(([subpath, names]) => [subpath, names.trim().split(/\s+/)]),
);

const config: RepoConfig & { publish?: { include?: string[] } } = JSON.parse(
  await Deno.readTextFile(new URL("deno.json", ROOT)),
);
const entries = Object.entries(config.exports as Record<string, string>);

interface DocNode {
  module_doc?: { doc?: string; tags?: { kind: string; doc?: string }[] };
  symbols: { name: string; declarations: { kind: string }[] }[];
}

/** `deno doc --json` of all entry points at once: the exported names and module docs. */
async function docs(): Promise<Record<string, DocNode>> {
  const files = entries.map(([, file]) => file);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", ...files],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, `deno doc --json failed: ${new TextDecoder().decode(out.stderr)}`);
  const nodes: Record<string, DocNode> = JSON.parse(new TextDecoder().decode(out.stdout)).nodes;
  return Object.fromEntries(
    entries.map(([subpath, file]) => {
      const node = nodes[new URL(file, ROOT).href];
      assert.ok(node, `deno doc --json gave nothing for ${file} (entry "${subpath}")`);
      return [subpath, node];
    }),
  );
}

/** What changed between two sorted name lists. */
function diff(actual: readonly string[], expected: readonly string[]) {
  return {
    added: actual.filter((n) => !expected.includes(n)),
    removed: expected.filter((n) => !actual.includes(n)),
  };
}

Deno.test("every entry point exports exactly the pinned names", async () => {
  const nodes = await docs();
  assert.deepEqual(Object.keys(nodes), Object.keys(SURFACE), "the entry points changed");
  for (const [subpath, node] of Object.entries(nodes)) {
    const actual = [...new Set(node.symbols.map((s) => s.name))].sort();
    const expected = SURFACE[subpath];
    assert.deepEqual(
      diff(actual, expected),
      { added: [], removed: [] },
      `The public surface of "${config.name}${subpath.slice(1)}" changed. If that is on purpose, ` +
        `update SURFACE_TEXT["${subpath}"] in tests/public_surface_test.ts.`,
    );
    assert.deepEqual(actual, expected, `SURFACE["${subpath}"] must be sorted`);
  }
});

Deno.test("the pinned lists are sorted and no name is exported from two entry points", () => {
  const owner = new Map<string, string>();
  for (const [subpath, names] of Object.entries(SURFACE)) {
    assert.deepEqual([...names], [...names].sort(), `SURFACE["${subpath}"] is not sorted`);
    for (const name of names) {
      assert.equal(owner.get(name), undefined, `${name} is exported by "${subpath}" and another`);
      owner.set(name, subpath);
    }
  }
});

Deno.test("what the entry points export at run time is what the list pins", async () => {
  const nodes = await docs();
  for (const [subpath, file] of entries) {
    const runtime = Object.keys(await import(new URL(file, ROOT).href)).sort();
    const values = [
      ...new Set(
        nodes[subpath].symbols
          .filter((s) => s.declarations.some((d) => !["interface", "typeAlias"].includes(d.kind)))
          .map((s) => s.name),
      ),
    ].sort();
    assert.deepEqual(runtime, values, `"${subpath}" exports other values than its docs list`);
    for (const name of runtime) {
      assert.ok(SURFACE[subpath].includes(name), `"${subpath}" exports ${name}, not pinned`);
    }
  }
  // the internal helpers stay internal
  const main = await import(new URL("mod.ts", ROOT).href);
  for (const name of ["isObject", "MODEL_PRICES", "NAMED_FAILURES", "chunkText", "toMatcher"]) {
    assert.equal(name in main, false, `mod.ts exports the internal ${name}`);
  }
});

Deno.test("every entry point starts with a @module doc that has a titled example", async () => {
  for (const [subpath, node] of Object.entries(await docs())) {
    const tags = node.module_doc?.tags ?? [];
    assert.ok(tags.some((t) => t.kind === "module"), `"${subpath}" has no @module doc`);
    const specifier = `${config.name}${subpath.slice(1)}`;
    const examples = tags.filter((t) => t.kind === "example").map((t) => t.doc ?? "");
    assert.ok(
      examples.some((e) => /^\S[^\n]*\n```ts\n/.test(e) && e.includes(`from "${specifier}"`)),
      `"${subpath}"'s @module doc needs a titled example that imports from "${specifier}"`,
    );
  }
});

Deno.test("deno.json's exports are the npm package's exports, and all are published", () => {
  const pkg = packageJsonFor(config, {
    bin: "src/cli/bin.js",
    files: ["src/cli/bin.js", "src/scenario/scenario.schema.json"],
  });
  const npmExports = pkg.exports as Record<string, { types: string; default: string }>;
  const npmEntries = Object.keys(npmExports)
    .filter((k) => k !== "./package.json" && k !== "./scenario.schema.json");
  assert.deepEqual(npmEntries, entries.map(([subpath]) => subpath));
  assert.deepEqual(Object.keys(SURFACE), entries.map(([subpath]) => subpath));
  for (const [subpath, file] of entries) {
    assert.deepEqual(npmExports[subpath], {
      types: compiled(file, ".d.ts"),
      default: compiled(file, ".js"),
    });
    assert.ok(
      config.publish?.include?.includes(file.replace(/^\.\//, "")),
      `deno.json publish.include lacks ${file} (entry "${subpath}")`,
    );
  }
});

Deno.test("the check task doc-lints every entry point, and the test task runs it", () => {
  const tasks = (config as unknown as { tasks: Record<string, string> }).tasks;
  const files = entries.map(([, file]) => file.replace(/^\.\//, ""));
  const lint = /deno doc --lint ([^&]+)/.exec(tasks.check)?.[1].trim().split(/\s+/) ?? [];
  assert.deepEqual([...lint].sort(), [...files].sort(), 'deno.json task "check"');
  assert.match(tasks.test, /^deno task check && /, 'deno.json task "test" runs "check" first');
});
