// The public surface, pinned: every export of every entry point (`deno doc --json`, so types
// count too), and the same entry points in deno.json and in the npm package's package.json.
// A change here is a change to what users may import: make it on purpose, update the lists.
import assert from "node:assert/strict";
import {
  compiled,
  ENTRIES_WITHOUT_REQUIRE,
  packageJsonFor,
  type RepoConfig,
} from "../scripts/npm_package_json.ts";
import { surfaceClosure } from "../scripts/_surface_closure.ts";

const ROOT = new URL("../", import.meta.url);

/** Every entry point's exports by subpath, sorted (the promise the package keeps). */
const SURFACE_TEXT: Record<string, string> = {
  ".": `
    AnyQueryFunction AskUserQuestionItem AssertionError AssertionErrorOptions
    AssistantContentBlock AsyncHookOutput BUILTIN_SCENARIO_NAMES BuildContext BuiltinScenarioName
    BuiltinScenarioOptions CanUseToolCallback ClaudeMock ClaudeMockSource CliVersion
    CliVersionFacts ClientAnswer ClientHookAnswer ClientMcpAnswer ClientPermissionAnswer
    ClientRequest Clock CompactOptions ContextUsageBaseline CrashPoint Delay Exchange
    ExchangeBuilder ExitStatus FAILURE_NAMES FailureName Frame HookCallbackFunction
    HookCallbackInput HookCommand HookCommandResult HookCommandRunner HookContextEvent
    HookEventName HookInvocation HookMatcherEntry HookOnOptions HookOutput HookOutputResponder
    HookRecorder HookRecorderOptions HookSpecificOutput HooksOption IdGenerator
    InterceptionOptions LoadScenarioOptions MOCK_EXECUTABLE_PATH Matcher MessageOf MessageOptions
    MessagePart MockClaudeOptions MockDefaults MockDuplex MockSdkOptions MockSession MockTransport
    MockTransportOptions ModelRetirement PermissionDecisionName PermissionMode PermissionRecord
    PermissionRecorder PermissionRecorderOptions PermissionResponder PermissionResponderContext
    PermissionResponse PermissionRules PermissionSuggestion QueryFunction QueryHandle QueryMessage
    QueryOptionsOf QueryPrompt QueryResultMessage QueryRun QueryUserMessage RecordedAnswer
    RedactedThinkingBlock RespondOptions ResponseContent ResultOf ResultOptions ResultSubtype
    RunQueryOptions RunningQuery Scenario ScenarioBuilder ScenarioFromJSONOptions ScenarioOptions
    ScriptedToolCall SessionSettings SessionStore SettleWithFakeTimeOptions SkillSpec
    SpawnOptionsLike Step StepSource SteppableFakeTime SyncHookOutput SystemClock TaskOptions
    TerminalReason TextBlock ThinkingBlock Timing TimingProfile TimingProfileName ToolCall
    ToolCallResult ToolPermissionContext ToolPermissionResult ToolResultContent ToolRunner
    ToolUseBlock Trigger TurnInfo UnhandledQuery UnhandledQueryStrategy UnmatchedAnswer
    UnmatchedHandler UnmatchedStrategy UserFrame UserImageBlock UserTextBlock UsesOptions Uuid
    VirtualClock VirtualClockOptions WaitOptions WireError WriteEntry any builtinScenario
    configureInterception contains exact getDefaults glob loadScenario mockClaude predicate regex
    runQuery scenarioFromJSON setDefaults settleWithFakeTime startQuery withOverrides
    wrapClaudeSdk
  `,
  "./builders": `
    AbortedDeltaUsage AbortedStreamEndOptions AccountInfoEntry AgentInfoEntry ApiCallUsage
    ApiErrorAssistantFrame ApiErrorMessageOptions ApiFailureMessageOptions ApiKeySource
    ApiRetryFrame ApiRetryOptions AssistantContentBlock AssistantContentInput AssistantFrame
    AssistantMessageBody AssistantMessageBodyOut AssistantMessageError AssistantMessageFrame
    AssistantMessageOptions AssistantUsage BashToolOptions BuildContext BuildContextOptions
    BuiltContentBlock CLAUDE_CODE_VERSION CLI_VERSION_HISTORY CanUseToolRequest
    CanUseToolRequestOptions CliUserFrame CliVersion CliVersionFacts CliVersionRow
    CliVersionSource Clock CompactBoundaryFrame CompactBoundaryOptions ContentDelta
    ContextUsageBaseline ControlErrorFrame ControlRequestFrame ControlRequestFrameOut
    ControlResponseBody ControlResponseFrame ControlSuccessFrame DEFAULT_CWD DEFAULT_MODEL
    DEFAULT_TEMP_DIR DecisionReasonType EditToolOptions FastModeDisabledReason FastModeState Frame
    GenericToolOptions GlobToolOptions GrepOutputMode GrepToolOptions HookCallbackRequest
    HookCallbackRequestOptions HookEventFields IdGenerator IdGeneratorOptions InitializeResponse
    InitializeResponseOptions InstalledSdkInfo KNOWN_CLI_VERSIONS McpMessageRequest McpServerEntry
    MessageUsage ModelInfoEntry ModelRetirement ModelUsageEntry NEWEST_CLI_VERSION
    NotebookEditMode NotebookEditToolOptions PartialSequenceFrame PatchHunk PermissionDecision
    PermissionDecisionName PermissionDenial PermissionDeniedFrame PermissionMode
    PermissionSuggestion PlainTextBlock PluginEntry Prng ReadToolOptions RedactedThinkingBlock
    ResolveCliVersionOptions ResultErrorFrame ResultErrorSubtype ResultFrame ResultFrameBase
    ResultFrameOptions ResultFrameOut ResultSubtype ResultSuccessFrame ResultTiming ResultUsage
    SessionState SessionStateChangedFrame SessionStatus SlashCommandInfo StartContentBlock
    StartMessage StopReason StreamEvent StreamEventFrame StreamEventFrameOut StreamEventsOptions
    SubagentInfo SubagentStats SyntheticUsage SystemFrame SystemInformationalFrame SystemInitFrame
    SystemInitOptions SystemStatusFrame SystemStatusOptions TaskInfo TaskNotificationFrame
    TaskNotificationOptions TaskProgressFrame TaskProgressOptions TaskStartedFrame TaskStatus
    TaskToolCall TaskToolOptions TaskUpdatedFrame TaskUsage TerminalReason TextBlock ThinkingBlock
    ThinkingDisplay ThinkingTokensFrame ToolCall ToolCallResult ToolResultBlockOut
    ToolResultContent ToolResultMeta ToolResultOptions ToolUseBlock ToolUseInput ToolUseMeta
    UserFrame UserImageBlock UserPromptFrame UserTextBlock UserTextOptions Uuid WaitOptions
    WriteToolOptions abortedStreamEnd apiErrorMessage apiFailureMessage apiRetry assistantMessage
    bashTool canUseToolRequest cliVersionFacts cliVersionOfSdk compactBoundary controlError
    controlRequest controlSuccess createBuildContext editTool genericTool globTool grepTool
    hookCallbackRequest hookInput initializeResponse mcpToolCallRequest modelUsage newTask
    notebookEditTool permissionDenied readTool resolveCliVersion resultFrame resultUsage
    sessionStateChanged streamEvents structuredPatch systemInformational systemInit systemStatus
    taskNotification taskProgress taskStarted taskTool taskUpdated text thinking thinkingTokens
    toolResult toolUse userPrompt userText writeTool
  `,
  "./wire": `
    AssistantContentBlock AssistantFrame AssistantMessageBody Clock ControlRequestFrame
    ControlResponseBody ControlResponseFrame DecodedLine Delay Frame JsonObject JsonValue
    MessageUsage NdjsonDecodeStream NdjsonDecodeStreamOptions NdjsonEncodeStream PaceOptions
    PaceStream Pcg32 Prng RandomIntegerOptions RawLine RedactedThinkingBlock ResultFrame
    StreamEventFrame SystemFrame TextBlock ThinkingBlock Timing TimingProfile TimingProfileName
    ToolResultBlock ToolUseBlock UserFrame Uuid WaitOptions WireError WireErrorOptions encodeFrame
    parseFrameLine randomIntegerBetween randomSeeded timingProfile
  `,
  "./cassette": `
    ApiErrorStepFile AskUserQuestionStepFile AssistantContentBlock BUILTIN_SCENARIO_NAMES
    BashStepFile BuildContext BuiltinScenarioName Cassette CassetteMismatch CassetteMismatchError
    CassetteMode CassetteOptions CassetteTest ClaudeProcess ClaudeSpawn CliVersion CliVersionFacts
    CompactOptions ConnectStepFile ContextUsageBaseline ConvertedScenario CrashPoint CrashStepFile
    Delay DelayFile DelayStepFile DriftCode DriftFinding DriftOptions DrivableQuery EditStepFile
    EmitStepFile ErrorListener Exchange ExchangeFile ExitListener ExitStatus ExitStepFile
    FAILURE_NAMES FailureName FailureStepFile Frame GenericToolStepFile GlobStepFile GrepStepFile
    IdGenerator JournalAnswer JournalEntry JournalKind JournalPlace LintOptions LoadTapeOptions
    Matcher MessageFileOptions MessagePart MessagesApi MessagesApiOptions MockDuplex
    ModelRetirement NotebookEditStepFile ParseTapeOptions PermissionDecisionName PermissionRules
    ProcessExitListener ProcessSpawnOptions QuestionFile RawStepFile ReadStepFile RecordableDuplex
    RecordedAnswer RecordedProcess RecordingApiOptions RecordingSpawnOptions RecordingSpawner
    RedactedThinkingBlock ReplayMode ReplayStubOptions RequestStepFile ResultOptions
    ResultStepFile ResultSubtype SayStepFile Scenario ScenarioFile ScenarioSandbox
    ScenarioSandboxOptions ScriptedToolCall ScrubOptions SkillSpec SnapshotPlayer
    SnapshotPlayerOptions SnapshotRecorder SnapshotRecorderOptions SpawnOptionsLike
    SpawnedProcessLike Step StepFile StepSource StubCanUseTool StubHook StubMcpInstance
    StubMcpTransport TAPE_FORMAT TAPE_VERSION Tape TapeDirection TapeEnding TapeEntry
    TapeEntryInit TapeFrameEntry TapeHeader TapeProblem TapeProblemCode TapeRawEntry
    TapeStderrEntry TapeSummary TapeToScenarioOptions TapeUserMessage TapeWriter TapeWriterOptions
    TaskStepFile TerminalReason TextBlock ThinkingBlock TimelineHtmlOptions Timing TimingProfile
    TimingProfileName TogetherStepFile ToolCall ToolCallResult ToolFileOptions ToolResultContent
    ToolUseBlock ToolUseStepFile TriggerFile TurnInfo TypeChecker TypeDiagnostic UnmatchedAnswer
    UnmatchedHandler UnmatchedStrategy UserFrame UserImageBlock UserTextBlock Uuid WaitForStepFile
    WriteStepFile cassette driftCheck isFrameEntry lintTape loadTape parseTape readTapeEntries
    recordingSpawn scenarioSandbox scrubTape serializeTape tapeToScenario timelineDiffAnchor
    timelineHtml
  `,
  "./cli": `
    AgentSdk AppRequest AssistantContentBlock BeforeRun BuildContext CLAIMED_VERSION CaptureLog
    CapturedInvocation CaseResult CliIO CliUsageError CliVersion CliVersionFacts CompactOptions
    ConformCase ConformException ConformReport ContextUsageBaseline CrashPoint Delay Difference
    DifferenceContext Exchange FAILURE_NAMES FailureName FakeClaude Frame HookAnswer IdGenerator
    InstallFakeClaudeOptions LoadAgentSdkOptions Matcher McpToolData MessagePart ModeResult
    ModelRetirement PermissionAnswer PermissionDecisionName PermissionRules PrintFormat
    RecordedAnswer RedactedThinkingBlock ResultOptions ResultSubtype RunConformanceOptions
    Scenario ScriptedToolCall SkillSpec Step StepSource Tape TapeDirection TapeEnding TapeEntry
    TapeFrameEntry TapeHeader TapeRawEntry TapeStderrEntry TerminalReason TextBlock ThinkingBlock
    Timing TimingProfile TimingProfileName ToolCall ToolCallResult ToolResultContent ToolUseBlock
    TurnInfo UnmatchedAnswer UnmatchedHandler UnmatchedStrategy UserFrame UserImageBlock
    UserTextBlock Uuid conformancePassed installFakeClaude loadAgentSdk loadConformCase
    loadConformCases loadConformExceptions readCapture reportText resolveClaudeBinary runCli
    runConformance
  `,
  "./scenario-file": `
    ApiErrorStepFile AskUserQuestionStepFile AssistantContentBlock BUILTIN_SCENARIO_NAMES
    BashStepFile BuildContext BuiltinScenarioName CliVersion CliVersionFacts CompactOptions
    ConnectStepFile ContextUsageBaseline CrashPoint CrashStepFile Delay DelayFile DelayStepFile
    EditStepFile EmitStepFile Exchange ExchangeFile ExitStepFile FAILURE_NAMES FailureName
    FailureStepFile Frame GenericToolStepFile GlobStepFile GrepStepFile IdGenerator Matcher
    MessageFileOptions MessagePart ModelRetirement NotebookEditStepFile PermissionDecisionName
    PermissionRules QuestionFile RawStepFile ReadStepFile RecordedAnswer RedactedThinkingBlock
    RequestStepFile ResultOptions ResultStepFile ResultSubtype SCENARIO_SCHEMA_URL SayStepFile
    Scenario ScenarioFile ScriptedToolCall SkillSpec Step StepFile StepSource TaskStepFile
    TerminalReason TextBlock ThinkingBlock Timing TimingProfile TimingProfileName TogetherStepFile
    ToolCall ToolCallResult ToolFileOptions ToolResultContent ToolUseBlock ToolUseStepFile
    TriggerFile TurnInfo UnmatchedAnswer UnmatchedHandler UnmatchedStrategy UserFrame
    UserImageBlock UserTextBlock Uuid WaitForStepFile WriteStepFile isFailureName scenarioToJSON
  `,
  "./mock-command": `
    AgentOption ApiErrorStepFile AskUserQuestionItem AskUserQuestionStepFile AssistantContentBlock
    BUILTIN_SCENARIO_NAMES BashStepFile BuildContext BuiltinScenarioName CliVersion
    CliVersionFacts CompactOptions ConnectStepFile ContextUsageBaseline CrashPoint CrashStepFile
    Delay DelayFile DelayStepFile EditStepFile EmitStepFile Exchange ExchangeFile ExitStepFile
    FAILURE_NAMES FailureName FailureStepFile Frame GenericToolStepFile GlobStepFile GrepStepFile
    IdGenerator MOCK_COMMAND_NAMES Matcher MessageFileOptions MessagePart MockCommand
    MockCommandBuilders MockCommandName MockCompactBoundaryOptions MockErrorOptions
    MockPermissionRequestOptions MockResultOptions MockSystemInitOptions MockToolResultOptions
    MockToolUseOptions ModelRetirement NotebookEditStepFile PermissionDecisionName PermissionMode
    PermissionRules PermissionSuggestion QuestionFile RawStepFile ReadStepFile RecordedAnswer
    RedactedThinkingBlock RequestStepFile ResultOptions ResultStepFile ResultSubtype SayStepFile
    Scenario ScenarioFile ScriptedToolCall SkillSpec Step StepFile StepSource TaskStepFile
    TerminalReason TextBlock ThinkingBlock Timing TimingProfile TimingProfileName TogetherStepFile
    ToolCall ToolCallResult ToolFileOptions ToolResultContent ToolUseBlock ToolUseStepFile
    TriggerFile TurnInfo UnmatchedAnswer UnmatchedHandler UnmatchedStrategy UserFrame
    UserImageBlock UserTextBlock Uuid WaitForStepFile WriteStepFile mockCommand
  `,
  "./session": `
    AnswerThen AssistantContentBlock BuildContext ClaudeProcess ClaudeSpawn CliFlags CliVersion
    CliVersionFacts ClientRequest Clock CompactOptions ContextUsageBaseline ControlError
    ControlHandler ControlRequestFrame CrashPoint Delay ErrorListener Exchange ExitListener
    ExitStatus FAILURE_NAMES FailureName Frame HOOK_EVENT_NAMES HookCommand HookCommandResult
    HookCommandRunner HookEventName IdGenerator InstalledSdkInfo Matcher MessagePart MockProcess
    MockSession ModelRetirement ModelUsageEntry PermissionDecisionName PermissionRules
    PermissionVerdict ProcessBody RecordedAnswer RedactedThinkingBlock ResolveCliVersionOptions
    ResultOptions ResultSubtype RuleSource Scenario ScriptedToolCall Session SessionOptions
    SessionSettings SessionStore SkillSpec SpawnOptionsLike Step StepSource TerminalReason
    TextBlock ThinkingBlock Timing TimingProfile TimingProfileName ToolCall ToolCallResult
    ToolResultContent ToolRunner ToolUseBlock TurnInfo UnmatchedAnswer UnmatchedHandler
    UnmatchedStrategy UserFrame UserImageBlock UserTextBlock Uuid WaitOptions WireError WriteEntry
    WriteLog decidePermission ruleMatches sessionOf
  `,
  "./messages-api": `
    AssistantContentBlock BuildContext CliVersion CliVersionFacts CompactOptions
    ContextUsageBaseline CrashPoint DUMMY_API_KEY Delay Exchange FAILURE_NAMES FailureName Frame
    IdGenerator JournalAnswer JournalEntry JournalKind JournalPlace Matcher MessagePart
    MessagesApi MessagesApiOptions ModelRetirement PermissionDecisionName PermissionRules
    RecordedAnswer RedactedThinkingBlock ResultOptions ResultSubtype Scenario ScriptedToolCall
    SkillSpec Step StepSource TerminalReason TextBlock ThinkingBlock Timing TimingProfile
    TimingProfileName ToolCall ToolCallResult ToolResultContent ToolUseBlock TurnInfo
    UnmatchedAnswer UnmatchedHandler UnmatchedStrategy UserFrame UserImageBlock UserTextBlock Uuid
    serveMessagesApi
  `,
  "./register": `
    RegisterOptions register
  `,
  // the runners' setup files: imported for what they do, they export nothing
  "./vitest": "",
  "./jest": "",
};
const SURFACE: Record<string, readonly string[]> = Object.fromEntries(
  Object.entries(SURFACE_TEXT).map((
    [subpath, names],
  ) => [subpath, names.trim().split(/\s+/).filter((n) => n !== "")]),
);

const config: RepoConfig & { publish?: { include?: string[] } } = JSON.parse(
  await Deno.readTextFile(new URL("deno.json", ROOT)),
);
const entries = Object.entries(config.exports as Record<string, string>);

interface DocLocation {
  filename: string;
  line: number;
}

interface DocDeclaration {
  kind: string;
  location: DocLocation;
  /** A re-export of a symbol another documented entry point exports: `{ target }`. */
  def?: { target?: DocLocation };
}

interface DocNode {
  module_doc?: { doc?: string; tags?: { kind: string; doc?: string }[] };
  symbols: { name: string; declarations: DocDeclaration[] }[];
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
  // documented together, a name that several entry points export is declared once and
  // referenced from the others: each reference becomes the declaration it points at
  const key = (l: DocLocation) => `${l.filename}:${l.line}`;
  const declared = new Map<string, DocDeclaration>();
  for (const node of Object.values(nodes)) {
    for (const symbol of node.symbols) {
      for (const d of symbol.declarations) {
        if (d.kind !== "reference") declared.set(key(d.location), d);
      }
    }
  }
  for (const node of Object.values(nodes)) {
    for (const symbol of node.symbols) {
      symbol.declarations = symbol.declarations.map((d) => {
        if (d.kind !== "reference") return d;
        const target = d.def?.target && declared.get(key(d.def.target));
        assert.ok(target, `a re-export of ${symbol.name} points at no declaration`);
        return target;
      });
    }
  }
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

Deno.test("a name in several entry points is one declaration, re-exported", async () => {
  // `deno doc --lint` of an entry point on its own wants every type its signatures show
  // exported there too, so a type may be in several entry points: always the same one
  const nodes = await docs();
  const seen = new Map<string, { subpath: string; at: string }>();
  for (const [subpath, node] of Object.entries(nodes)) {
    for (const symbol of node.symbols) {
      const at = symbol.declarations
        .map((d) => `${d.location.filename}:${d.location.line}`)
        .sort()
        .join(" ");
      const first = seen.get(symbol.name);
      if (first === undefined) seen.set(symbol.name, { subpath, at });
      else {
        assert.equal(
          at,
          first.at,
          `${symbol.name} of "${subpath}" is not the ${symbol.name} of "${first.subpath}"`,
        );
      }
    }
  }
});

Deno.test("the main entry exports no type its values' signatures do not need", async () => {
  // an app test writes the main entry's values; every type beside them is there because a
  // value's signature reaches it and `deno doc --lint mod.ts` on its own wants it exported
  // (`deno run -A scripts/surface_report.ts --reach` shows how many each value reaches)
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", "mod.ts"],
    cwd: ROOT,
    stdout: "piped",
  }).output();
  const nodes: Record<string, DocNode> = JSON.parse(new TextDecoder().decode(out.stdout)).nodes;
  const { values, types, forced } = surfaceClosure(nodes[new URL("mod.ts", ROOT).href].symbols);
  assert.deepEqual(diff(types, forced), { added: [], removed: [] });
  assert.ok(values.includes("mockClaude") && values.includes("runQuery"));
});

Deno.test("each entry point passes deno doc --lint on its own", async () => {
  for (const [subpath, file] of entries) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["doc", "--lint", file],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(
      out.success,
      `deno doc --lint ${file} (entry "${subpath}") failed:\n${
        new TextDecoder().decode(out.stderr).slice(0, 2000)
      }`,
    );
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
  for (
    const name of [
      "isObject",
      "MODEL_PRICES",
      "NAMED_FAILURES",
      "chunkText",
      "toMatcher",
      // the engine and the Messages API have entry points of their own
      "Session",
      "WriteLog",
      "AnswerThen",
      "sessionOf",
      "serveMessagesApi",
    ]
  ) {
    assert.equal(name in main, false, `mod.ts exports the internal ${name}`);
  }
});

Deno.test("every entry point starts with a @module doc that has a titled example", async () => {
  for (const [subpath, node] of Object.entries(await docs())) {
    const tags = node.module_doc?.tags ?? [];
    assert.ok(tags.some((t) => t.kind === "module"), `"${subpath}" has no @module doc`);
    const specifier = `${config.name}${subpath.slice(1)}`;
    const examples = tags.filter((t) => t.kind === "example").map((t) => t.doc ?? "");
    // a setup file's example imports it for what it does: `import "<specifier>"`
    assert.ok(
      examples.some((e) =>
        /^\S[^\n]*\n```ts\n/.test(e) &&
        (e.includes(`from "${specifier}"`) || e.includes(`import "${specifier}"`))
      ),
      `"${subpath}"'s @module doc needs a titled example that imports from "${specifier}"`,
    );
  }
});

Deno.test("deno.json's exports are the npm package's exports, and all are published", () => {
  const pkg = packageJsonFor(config, {
    bin: "dist/node/claude-mock.cjs",
    files: ["dist/node/claude-mock.cjs", "src/scenario/scenario.schema.json"],
  });
  const npmExports = pkg.exports as Record<string, { types: string; default: string }>;
  const npmEntries = Object.keys(npmExports)
    .filter((k) => k !== "./package.json" && k !== "./scenario.schema.json");
  assert.deepEqual(npmEntries, entries.map(([subpath]) => subpath));
  assert.deepEqual(Object.keys(SURFACE), entries.map(([subpath]) => subpath));
  for (const [subpath, file] of entries) {
    assert.deepEqual(npmExports[subpath], {
      types: compiled(file, ".d.ts"),
      ...(ENTRIES_WITHOUT_REQUIRE.includes(subpath) ? {} : { require: compiled(file, ".cjs") }),
      default: compiled(file, ".js"),
    });
    assert.ok(
      config.publish?.include?.includes(file.replace(/^\.\//, "")),
      `deno.json publish.include lacks ${file} (entry "${subpath}")`,
    );
  }
});

Deno.test("the check task doc-lints every entry point, and the test task runs it", () => {
  type Task = string | { command?: string; dependencies?: string[] };
  const tasks = (config as unknown as { tasks: Record<string, Task> }).tasks;
  const files = entries.map(([, file]) => file.replace(/^\.\//, ""));
  const check = tasks.check as string;
  const lint = /deno doc --lint ([^&]+)/.exec(check)?.[1].trim().split(/\s+/) ?? [];
  assert.deepEqual([...lint].sort(), [...files].sort(), 'deno.json task "check"');
  // the check (one core: the type check) runs beside the tests (both cores), then publish
  const test = tasks.test as Exclude<Task, string>;
  assert.deepEqual(test.dependencies, ["check", "test:fast"], 'deno.json task "test"');
  assert.match(tasks["test:fast"] as string, /deno test -A --doc --no-check --parallel /);
  assert.match(test.command ?? "", /^deno publish --dry-run /);
});
