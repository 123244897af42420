/**
 * Fidelity: our builders against real recordings of the Claude Code CLI 2.1.328 driven by
 * the real SDK (tests/fixtures/real/*.jsonl, plus the extra recordings in
 * src/builders/testdata/x_*.jsonl made with the same recorder for Write, Edit, Bash,
 * api_retry, max turns, set_permission_mode and /compact).
 *
 * For every builder, the frames it makes must have the real frames' key sets, recursively,
 * in the real key order (`assertShape`, which also compares value kinds: string, number,
 * boolean, null, object, array). Where values are reproducible, frames must be equal once
 * ids, uuids and timestamps are masked (`assertSameValues`). Deliberate differences are
 * listed where they occur.
 */

import assert from "node:assert/strict";
import { createBuildContext } from "./build_context.ts";
import type { BuildContext } from "./build_context.ts";
import { apiErrorMessage } from "./api_error_message.ts";
import { assistantMessage, text, thinking, toolUse } from "./assistant.ts";
import type { AssistantContentInput } from "./assistant.ts";
import { abortedStreamEnd, streamEvents, thinkingTokenFrames } from "./stream_events.ts";
import { apiRetry, sessionStateChanged, systemInit, systemStatus } from "./system.ts";
import { compactBoundary } from "./compact_boundary.ts";
import {
  newTask,
  taskNotification,
  taskProgress,
  taskStarted,
  taskUpdated,
} from "./task_frames.ts";
import { toolResult, userPrompt, userText } from "./user.ts";
import { resultFrame, subagentStats } from "./result.ts";
import {
  canUseToolRequest,
  controlSuccess,
  hookCallbackRequest,
  hookInput,
  initializeResponse,
  mcpToolCallRequest,
} from "./control.ts";
import { bashTool, editTool, genericTool, readTool, taskTool, writeTool } from "./tools.ts";
import { defaultTools } from "./inventory.ts";
import { modelUsage, resultUsage } from "./usage.ts";
import type { Frame, ToolUseBlock } from "../wire/frame.ts";
import { mask } from "../../tests/_mask.ts";

// ---- loading tapes ---------------------------------------------------------------------

interface TapeLine {
  t: number;
  dir: "sdk->cli" | "cli->sdk";
  frame: Frame;
}

const REAL_DIR = new URL("../../tests/fixtures/real/", import.meta.url);
const EXTRA_DIR = new URL("./testdata/", import.meta.url);

function loadTape(name: string): TapeLine[] {
  const url = new URL(`${name}.jsonl`, name.startsWith("x_") ? EXTRA_DIR : REAL_DIR);
  const lines = Deno.readTextFileSync(url).split("\n").filter((l) => l.trim() !== "");
  return lines.slice(1).map((line, i) => {
    try {
      return JSON.parse(line) as TapeLine;
    } catch (error) {
      throw new SyntaxError(`${url.pathname}:${i + 2}: not JSON (${error})`);
    }
  });
}

/** The CLI->SDK frames of a tape. */
function out(name: string): Frame[] {
  return loadTape(name).filter((l) => l.dir === "cli->sdk").map((l) => l.frame);
}

/** The SDK->CLI frames of a tape. */
function into(name: string): Frame[] {
  return loadTape(name).filter((l) => l.dir === "sdk->cli").map((l) => l.frame);
}

function pick(frames: Frame[], predicate: (f: Frame) => boolean, nth = 0, label = "frame"): Frame {
  const found = frames.filter(predicate);
  if (found.length <= nth) throw new Error(`recording has no ${label} #${nth}`);
  return found[nth];
}

const isType = (type: string, subtype?: string) => (f: Frame) =>
  f.type === type && (subtype === undefined || f.subtype === subtype);

// ---- comparing ----------------------------------------------------------------------------

/** The ordered key structure of a value with the kinds of its leaves; arrays by their first element. */
function shape(value: unknown): unknown {
  if (value === null) return "null";
  if (Array.isArray(value)) return value.length === 0 ? [] : [shape(value[0])];
  if (typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]));
  }
  return typeof value;
}

/** Same keys, recursively, in the same order, with the same value kinds. */
function assertShape(ours: unknown, real: unknown, label: string): void {
  assert.equal(
    JSON.stringify(shape(ours), null, 1),
    JSON.stringify(shape(real), null, 1),
    `${label}: key set/order differs from the recording`,
  );
}

/** Builders take measured values from the recording: they must come out as recorded. */
const MEASURED = { measured: false };

/** Equal values once ids are masked (and therefore the same shape). */
function assertSameValues(ours: unknown, real: unknown, label: string): void {
  assertShape(ours, real, label);
  assert.deepStrictEqual(
    mask(ours, MEASURED),
    mask(real, MEASURED),
    `${label}: values differ from the recording`,
  );
}

/** The content blocks of consecutive assistant frames of one message, as builder input. */
function blocksOf(frames: Frame[]): AssistantContentInput[] {
  return frames.map((f) =>
    (f as unknown as { message: { content: AssistantContentInput[] } }).message.content[0]
  );
}

function assistantFramesOf(frames: Frame[], messageIndex: number): Frame[] {
  const ids = [
    ...new Set(frames.filter(isType("assistant")).map((f) => (f.message as { id: string }).id)),
  ];
  return frames.filter((f) =>
    f.type === "assistant" && (f.message as { id: string }).id === ids[messageIndex]
  );
}

/** The fake Messages API's splitter: `n` pieces of about equal word counts. */
function fakeApiSplit(n: number): (s: string) => string[] {
  return (s) => {
    const words = s.split(/(?<=\s)/);
    const per = Math.max(1, Math.ceil(words.length / n));
    const out: string[] = [];
    for (let i = 0; i < words.length; i += per) out.push(words.slice(i, i + per).join(""));
    return out;
  };
}

function ctxFor(real: Frame[], seed = 1): BuildContext {
  const init = real.find(isType("system", "init"));
  return createBuildContext({
    seed,
    sessionId: init?.session_id as string | undefined,
    // the version the recording's CLI reported: the frames follow its facts
    cliVersion: (init?.claude_code_version as string | undefined) ?? "2.1.328",
  });
}

// ---- hello ---------------------------------------------------------------------------------

Deno.test("systemInit has the real system/init key set and order", () => {
  for (
    const name of [
      "hello",
      "mcp_sdk_tool",
      "subagent_task",
      "x_set_mode",
      "v331_hello",
      "v332_hello",
    ]
  ) {
    const real = out(name);
    const ctx = ctxFor(real);
    const realInit = pick(real, isType("system", "init"));
    const mcp = realInit.mcp_servers as Array<{ name: string; status: string; source: string }>;
    const ours = systemInit(ctx, { mcpServers: mcp, tools: realInit.tools as string[] });
    assertShape(ours, realInit, `${name} system/init`);
    // Deliberate: inventory lists are our defaults (same names as the recording).
    assert.deepEqual(ours.slash_commands, realInit.slash_commands);
    assert.deepEqual(ours.skills, realInit.skills);
    assert.deepEqual(ours.agents, realInit.agents);
    assert.deepEqual(ours.plugins, realInit.plugins);
    assert.deepEqual(ours.capabilities, realInit.capabilities);
    assert.equal(ours.memory_paths.auto, (realInit.memory_paths as { auto: string }).auto);
  }
});

Deno.test("defaultTools lists the tools of the recordings", () => {
  assert.deepEqual(defaultTools(), pick(out("hello"), isType("system", "init")).tools);
  assert.deepEqual(
    defaultTools({ canUseTool: true }),
    pick(out("subagent_task"), isType("system", "init")).tools,
  );
  assert.deepEqual(
    defaultTools({ canUseTool: true, mcpTools: ["mcp__calc__add"] }),
    pick(out("mcp_sdk_tool"), isType("system", "init")).tools,
  );
});

Deno.test("initializeResponse and controlSuccess match the real initialize answer", () => {
  for (
    const [name, options] of [
      ["hello", {}],
      ["hooks_pretooluse", { hooksApplied: true }],
      ["mcp_sdk_tool", { sdkMcpServers: ["calc"] }],
      ["v331_hello", {}],
      ["v332_hello", {}],
    ] as const
  ) {
    const real = out(name);
    const answer = pick(real, isType("control_response"));
    const requestId = (answer.response as { request_id: string }).request_id;
    const ctx = ctxFor(real);
    const ours = controlSuccess(requestId, initializeResponse(ctx, options), { pending: true });
    assertShape(ours, answer, `${name} initialize answer`);
    const realBody = (answer.response as { response: Record<string, unknown> }).response;
    const body = ours.response.response as Record<string, unknown>;
    // the full descriptions, as the CLI reports them (conformance found them shortened)
    assert.deepEqual(body.commands, realBody.commands);
    assert.deepEqual(body.agents, realBody.agents);
    assert.deepEqual(body.models, realBody.models);
    const { commands: _c, agents: _a, pid: _p, ...rest } = body;
    const { commands: _rc, agents: _ra, pid: _rp, ...realRest } = realBody;
    assert.deepEqual(rest, realRest);
  }
});

Deno.test("sessionStateChanged matches running, requires_action and idle frames", () => {
  const real = out("tool_read_allowed");
  const ctx = ctxFor(real);
  for (const state of ["running", "requires_action", "idle"] as const) {
    const realFrame = pick(real, (f) => f.subtype === "session_state_changed" && f.state === state);
    assertSameValues(sessionStateChanged(ctx, state), realFrame, `session_state_changed ${state}`);
  }
});

Deno.test("assistantMessage matches the hello text frame", () => {
  const real = out("hello");
  const ctx = ctxFor(real);
  const realFrames = assistantFramesOf(real, 0);
  const ours = assistantMessage(ctx, "Hello! How can I help you today?");
  assert.equal(ours.length, 1);
  assertSameValues(ours[0], realFrames[0], "hello assistant");
});

Deno.test("resultFrame matches success results (hello, tool_read_allowed, multi_turn)", () => {
  const hello = pick(out("hello"), isType("result"));
  const ctx = ctxFor(out("hello"));
  const ours = resultFrame(ctx, {
    result: "Hello! How can I help you today?",
    durationMs: 118,
    durationApiMs: 31,
    timing: { ttftMs: 108, ttftStreamMs: 107, timeToRequestMs: 87, firstContentFrameMs: 107 },
  });
  assertSameValues(ours, hello, "hello result");

  const read = pick(out("tool_read_allowed"), isType("result"));
  const two = resultFrame(ctx, { result: read.result as string, numTurns: 2 });
  assertShape(two, read, "tool_read_allowed result");
  assert.deepEqual(two.usage, read.usage);
  assert.deepEqual(two.modelUsage, read.modelUsage);
  assert.equal(two.total_cost_usd, read.total_cost_usd);

  // Second turn of a streaming-input session: per-turn usage, cumulative modelUsage and cost.
  const second = pick(out("multi_turn"), isType("result"), 1);
  const ours2 = resultFrame(ctx, {
    result: second.result as string,
    apiCalls: [{}],
    modelUsage: modelUsage([{}, {}], { model: ctx.model }),
    modelUsageSinceLastResult: modelUsage([{}], { model: ctx.model }),
    resultIndex: 1,
  });
  assertShape(ours2, second, "multi_turn second result");
  for (
    const key of [
      "usage",
      "modelUsage",
      "model_usage_since_last_result",
      "total_cost_usd",
      "result_index",
    ]
  ) {
    assert.deepEqual(ours2[key], second[key], `multi_turn second result ${key}`);
  }
});

// ---- tools ---------------------------------------------------------------------------------

Deno.test("readTool, toolResult and canUseToolRequest match tool_read_allowed", () => {
  const real = out("tool_read_allowed");
  const ctx = ctxFor(real);
  const realAssistant = assistantFramesOf(real, 0);
  const notes =
    "Project notes\n=============\n1. The build uses make.\n2. Tests live in tests/.\n3. Release on Fridays.\n";
  const call = readTool(ctx, "/home/user/project/notes.txt", {
    content: notes,
    id: "toolu_01ReadNotes000000001",
  });
  const ours = assistantMessage(ctx, [text("I'll read the file."), call.block]);
  assert.equal(ours.length, 2);
  ours.forEach((frame, i) => assertSameValues(frame, realAssistant[i], `assistant frame ${i}`));

  const realAsk = pick(real, isType("control_request"));
  const ask = canUseToolRequest(ctx, call.block, {
    decisionReasonType: "rule",
    decisionReasonRuleSource: "flagSettings",
    serverPolicyAskOnly: false,
    permissionSuggestions: null,
  });
  assertSameValues(ask, realAsk, "can_use_tool Read");

  const realResult = pick(real, isType("user"));
  assertSameValues(toolResult(ctx, call.block.id, call.result), realResult, "Read tool result");
});

Deno.test("bashTool denial and toolResult match tool_bash_denied", () => {
  const real = out("tool_bash_denied");
  const ctx = ctxFor(real);
  const call = bashTool(ctx, "rm -rf build", {
    description: "Delete the build directory",
    id: "toolu_01BashRm00000000000001",
  });
  const [frame] = assistantMessage(ctx, call.block);
  assertSameValues(frame, assistantFramesOf(real, 0)[0], "Bash tool use");

  const realAsk = pick(real, isType("control_request"));
  const ask = canUseToolRequest(ctx, call.block, { blockedPath: "/home/user/project/build" });
  // Deliberate: our default suggestions are only the allow rule; the CLI also offered
  // addDirectories and setMode here (arrays compare by their first element).
  assertShape(ask, realAsk, "can_use_tool Bash");

  const message = "The user does not allow deleting files in this test.";
  const denied = toolResult(ctx, call.block.id, {
    content: message,
    isError: true,
    permissionDecision: "userDenied",
  });
  assertSameValues(denied, pick(real, isType("user")), "denied tool result");

  const realResult = pick(real, isType("result"));
  const result = resultFrame(ctx, {
    result: realResult.result as string,
    numTurns: 2,
    permissionDenials: [{
      tool_name: "Bash",
      tool_use_id: call.block.id,
      tool_input: call.block.input,
    }],
  });
  assertShape(result, realResult, "result with a denial");
  assert.deepEqual(result.permission_denials, realResult.permission_denials);
});

Deno.test("hookCallbackRequest, hookInput and a hook-allowed toolResult match hooks_pretooluse", () => {
  const real = out("hooks_pretooluse");
  const ctx = ctxFor(real);
  const call = readTool(ctx, "/home/user/project/notes.txt", {
    content:
      "Project notes\n=============\n1. The build uses make.\n2. Tests live in tests/.\n3. Release on Fridays.\n",
    id: "toolu_01ReadHook000000000001",
  });
  const realHook = pick(real, isType("control_request"));
  const input = hookInput(ctx, {
    hook_event_name: "PreToolUse",
    tool_name: "Read",
    tool_input: call.block.input,
    tool_use_id: call.block.id,
  });
  const ours = hookCallbackRequest(ctx, "hook_0", { input, toolUseId: call.block.id });
  assertSameValues(ours, realHook, "hook_callback PreToolUse");
  const realResult = pick(real, isType("user"));
  assertSameValues(
    toolResult(ctx, call.block.id, { ...call.result, permissionDecision: "hookAllowed" }),
    realResult,
    "hook-allowed tool result",
  );
});

Deno.test("genericTool, MCP tool_use_meta, can_use_tool and mcp_message match mcp_sdk_tool", () => {
  const real = out("mcp_sdk_tool");
  const ctx = ctxFor(real);
  const call = genericTool(ctx, "mcp__calc__add", {
    input: { a: 2, b: 3 },
    result: [{ type: "text", text: "5" }],
    id: "toolu_01McpAdd00000000000001",
  });
  const [frame] = assistantMessage(ctx, call.block);
  assertSameValues(frame, assistantFramesOf(real, 0)[0], "MCP tool use with tool_use_meta");
  const asks = real.filter(isType("control_request"));
  assertSameValues(canUseToolRequest(ctx, call.block), asks[0], "can_use_tool MCP");
  assertSameValues(
    mcpToolCallRequest(ctx, call.block, { jsonRpcId: 2 }),
    asks[1],
    "mcp_message tools/call",
  );
  assertSameValues(
    toolResult(ctx, call.block.id, call.result),
    pick(real, isType("user")),
    "MCP tool result",
  );
});

Deno.test("writeTool, editTool and bashTool match the real Write/Edit/Bash results (x_tools)", () => {
  const real = out("x_tools");
  const ctx = ctxFor(real);
  const results = real.filter(isType("user"));
  const byId = (id: string) =>
    results.find((f) =>
      (f.message as { content: Array<{ tool_use_id: string }> }).content[0].tool_use_id === id
    )!;
  const notes =
    "Project notes\n=============\n1. The build uses make.\n2. Tests live in tests/.\n3. Release on Fridays.\n";
  const afterNinja = notes.replace("make", "ninja");
  const cases: Array<
    [string, ReturnType<typeof readTool>, Partial<Parameters<typeof toolResult>[2]>?]
  > = [
    [
      "Write create",
      writeTool(ctx, "/home/user/project/new.txt", {
        content: "hello\nworld\n",
        id: "toolu_01Write00000000000001",
      }),
      { permissionDecision: "modeAllowed" },
    ],
    [
      "Read",
      readTool(ctx, "/home/user/project/notes.txt", {
        content: notes,
        id: "toolu_01Read000000000000001",
      }),
      { permissionDecision: "modeAllowed" },
    ],
    [
      "Edit",
      editTool(ctx, "/home/user/project/notes.txt", {
        oldString: "make",
        newString: "ninja",
        originalFile: notes,
        id: "toolu_01Edit000000000000001",
      }),
      { permissionDecision: "modeAllowed" },
    ],
    [
      "Edit replace_all",
      editTool(ctx, "/home/user/project/notes.txt", {
        oldString: "e",
        newString: "E",
        replaceAll: true,
        originalFile: afterNinja,
        id: "toolu_01Edit000000000000002",
      }),
      { permissionDecision: "modeAllowed" },
    ],
    [
      "Bash",
      bashTool(ctx, "echo hi; echo oops 1>&2", {
        stdout: "hi\n",
        stderr: "oops\n",
        description: "Say hi",
        id: "toolu_01Bash000000000000001",
      }),
      { permissionDecision: "readOnlyAllowed" },
    ],
    [
      "Bash failing",
      bashTool(ctx, "ls /nonexistent_dir_xyz", {
        stderr: "ls: cannot access '/nonexistent_dir_xyz': No such file or directory\n",
        exitCode: 2,
        description: "List missing",
        id: "toolu_01Bash000000000000002",
      }),
    ],
    [
      "Edit not found",
      editTool(ctx, "/home/user/project/notes.txt", {
        oldString: "not-there",
        newString: "x",
        originalFile: notes,
        id: "toolu_01Edit000000000000003",
      }),
    ],
    [
      "Read missing",
      readTool(ctx, "/home/user/project/missing.txt", {
        content: null,
        id: "toolu_01Read000000000000002",
      }),
      { permissionDecision: "modeAllowed" },
    ],
    [
      "Write update",
      writeTool(ctx, "/home/user/project/new.txt", {
        content: "replaced\n",
        originalFile: "hello\nworld\n",
        id: "toolu_01Write00000000000002",
      }),
      { permissionDecision: "modeAllowed" },
    ],
  ];
  for (const [label, call, extra] of cases) {
    const realTool = real.find((f) =>
      f.type === "assistant" &&
      (f.message as { content: ToolUseBlock[] }).content[0].id === call.block.id
    )!;
    assertSameValues(assistantMessage(ctx, call.block)[0], realTool, `${label} tool use`);
    assertSameValues(
      toolResult(ctx, call.block.id, { ...call.result, ...extra }),
      byId(call.block.id),
      `${label} result`,
    );
  }
});

// ---- partial messages --------------------------------------------------------------------

/** The frames of a partial-message run that our streamEvents builds (no engine frames). */
function streamed(frames: Frame[]): Frame[] {
  return frames.filter((f) =>
    f.type === "stream_event" || f.type === "assistant" ||
    (f.type === "system" && f.subtype === "thinking_tokens")
  );
}

Deno.test("streamEvents reproduces partial_messages", () => {
  const real = out("partial_messages");
  const ctx = ctxFor(real);
  const message = assistantMessage(
    ctx,
    "One, two, three, four, five. That is counting to five in words, one piece at a time.",
  );
  const ours = streamEvents(ctx, message, { ttftMs: 13 });
  const realStream = streamed(real);
  // Deliberate: our text chunks differ from the fake API's; compare the events around them.
  const kinds = (fs: Frame[]) =>
    fs.map((f) => (f.type === "stream_event" ? (f.event as { type: string }).type : f.type));
  const squash = (ks: string[]) =>
    ks.filter((k, i) => k !== "content_block_delta" || ks[i - 1] !== "content_block_delta");
  assert.deepEqual(squash(kinds(ours)), squash(kinds(realStream)));
  const byKind = (fs: Frame[], kind: string) => fs.find((f) => kinds([f])[0] === kind)!;
  for (
    const kind of [
      "message_start",
      "content_block_start",
      "content_block_delta",
      "assistant",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]
  ) {
    assertShape(byKind(ours, kind), byKind(realStream, kind), `partial_messages ${kind}`);
  }
  assertSameValues(
    byKind(ours, "message_start"),
    byKind(realStream, "message_start"),
    "message_start",
  );
  assertSameValues(
    byKind(ours, "message_delta"),
    byKind(realStream, "message_delta"),
    "message_delta",
  );
  const status = pick(real, isType("system", "status"));
  assertSameValues(systemStatus(ctx, "requesting"), status, "status requesting");
});

Deno.test("streamEvents reproduces extra_partial_thinking_tool frame by frame", () => {
  const real = out("extra_partial_thinking_tool");
  const ctx = ctxFor(real);
  const realStream = streamed(real);
  const first = assistantFramesOf(real, 0);
  const signature =
    (first[0].message as { content: Array<{ signature: string }> }).content[0].signature;
  const message1 = assistantMessage(ctx, [
    thinking("I should read the notes file first.", { signature }),
    text("Reading the file now."),
    toolUse("Read", { file_path: "/home/user/project/notes.txt" }, {
      id: "toolu_01ReadPartial0000000001",
    }),
  ], { thinkingDurationMs: 13 });
  const message2 = assistantMessage(ctx, "The notes cover build, tests and release day.");
  const ours = [
    ...streamEvents(ctx, message1, {
      split: (s, kind) => fakeApiSplit(kind === "thinking" ? 2 : 1)(s),
      ttftMs: 24,
    }),
    ...streamEvents(ctx, message2, { split: fakeApiSplit(3), ttftMs: 7 }),
  ];
  assert.equal(ours.length, realStream.length, "frame count");
  ours.forEach((frame, i) => assertSameValues(frame, realStream[i], `frame ${i} (${frame.type})`));
});

Deno.test("thinkingTokenFrames and thinking assistant frames match the thinking recording", () => {
  const real = out("thinking");
  const ctx = ctxFor(real);
  const realTokens = real.filter(isType("system", "thinking_tokens"));
  const thought = "The user wants 17 * 23. 17 * 20 = 340, 17 * 3 = 51, total 391.";
  const tokens = thinkingTokenFrames(ctx, thought, { split: fakeApiSplit(3) });
  assert.equal(tokens.length, realTokens.length);
  tokens.forEach((f, i) => assertSameValues(f, realTokens[i], `thinking_tokens ${i}`));
  const realFrames = assistantFramesOf(real, 0);
  const ours = assistantMessage(ctx, blocksOf(realFrames), { thinkingDurationMs: 1 });
  ours.forEach((f, i) => assertSameValues(f, realFrames[i], `thinking message frame ${i}`));
});

// ---- endings -----------------------------------------------------------------------------

Deno.test("interrupt frames match: aborted assistant, user notice, stream tail, result", () => {
  const real = out("interrupt");
  const ctx = ctxFor(real);
  const realAssistant = assistantFramesOf(real, 0)[0];
  const partial = (realAssistant.message as { content: Array<{ text: string }> }).content[0].text;
  const [aborted] = assistantMessage(ctx, partial, { aborted: true });
  assertSameValues(aborted, realAssistant, "aborted assistant");
  assertSameValues(
    userText(ctx, "[Request interrupted by user]"),
    pick(real, isType("user")),
    "interrupt notice",
  );
  const realTail = real.filter(isType("stream_event")).slice(-3);
  assertSameValues(abortedStreamEnd(ctx, aborted), realTail, "stream tail");
  const realResult = pick(real, isType("result"));
  const result = resultFrame(ctx, {
    subtype: "error_during_execution",
    numTurns: 2,
    durationMs: 188,
    modelUsage: modelUsage([{ outputTokens: 34 }], { model: ctx.model }),
  });
  assertSameValues(result, realResult, "interrupt result");
  const stillQueued = pick(
    real,
    (f) =>
      f.type === "control_response" &&
      (f.response as { response?: object }).response !== undefined &&
      "still_queued" in (f.response as { response: object }).response,
  );
  assertSameValues(
    controlSuccess((stillQueued.response as { request_id: string }).request_id, {
      still_queued: [],
    }),
    stillQueued,
    "interrupt answer",
  );
});

Deno.test("apiErrorMessage and an API error resultFrame match api_error", () => {
  const real = out("api_error");
  const ctx = ctxFor(real);
  const message = "messages: the fake API rejects this request (scripted 400)";
  assertSameValues(
    apiErrorMessage(ctx, 400, { message }),
    pick(real, isType("assistant")),
    "synthetic assistant",
  );
  const result = resultFrame(ctx, {
    apiErrorStatus: 400,
    result: `API Error: 400 ${message}`,
    durationMs: 152,
  });
  assertSameValues(result, pick(real, isType("result")), "api error result");
});

Deno.test("apiRetry matches x_api_retry", () => {
  const real = out("x_api_retry");
  const ctx = ctxFor(real);
  assertSameValues(
    apiRetry(ctx, { attempt: 1, errorStatus: 529, retryDelayMs: 507 }),
    pick(real, isType("system", "api_retry")),
    "api_retry",
  );
});

Deno.test("resultFrame error_max_turns matches x_max_turns", () => {
  const real = out("x_max_turns");
  const ctx = ctxFor(real);
  const result = resultFrame(ctx, {
    subtype: "error_max_turns",
    numTurns: 2,
    maxTurns: 1,
    durationMs: 554,
    durationApiMs: 58,
    apiCalls: [{}],
  });
  assertSameValues(result, pick(real, isType("result")), "max turns result");
  const call = bashTool(ctx, "echo hi", {
    stdout: "hi\n",
    description: "Echo",
    id: "toolu_01BashMax0000000000001",
  });
  assertSameValues(
    toolResult(ctx, call.block.id, { ...call.result, permissionDecision: "readOnlyAllowed" }),
    pick(real, isType("user")),
    "bash result",
  );
});

Deno.test("status, replay, compact boundary and local command result match x_set_mode", () => {
  const real = out("x_set_mode");
  const ctx = ctxFor(real);
  const statuses = real.filter(isType("system", "status"));
  assertSameValues(
    systemStatus(ctx, null, { permissionMode: "acceptEdits" }),
    statuses.find((s) => "permissionMode" in s),
    "status permissionMode",
  );
  assertSameValues(
    systemStatus(ctx, "compacting"),
    statuses.find((s) => s.status === "compacting"),
    "status compacting",
  );
  assertSameValues(
    systemStatus(ctx, null, { compactResult: "success" }),
    statuses.find((s) => "compact_result" in s),
    "status compact_result",
  );
  const users = real.filter(isType("user"));
  assertSameValues(
    userText(
      ctx,
      "<local-command-stdout>Set model to `sonnet (claude-sonnet-5-5)`</local-command-stdout>",
      { isReplay: true },
    ),
    users[0],
    "set_model replay",
  );
  assertSameValues(
    userText(ctx, (users[1].message as { content: string }).content, {
      isReplay: false,
      isSynthetic: true,
    }),
    users[1],
    "compaction summary",
  );
  const boundary = pick(real, isType("system", "compact_boundary"));
  assertSameValues(
    compactBoundary(ctx, {
      logicalParentUuid: boundary
        .logical_parent_uuid as `${string}-${string}-${string}-${string}-${string}`,
    }),
    boundary,
    "compact_boundary",
  );
  const realCompact = pick(real, isType("result"), 1);
  const opus = modelUsage([{}], { model: "claude-opus-5-5" });
  const sonnet = modelUsage([{}], { model: "claude-sonnet-5-5" });
  const compact = resultFrame(ctx, {
    localCommand: "compact",
    durationMs: 64,
    modelUsage: { ...opus, ...sonnet },
    modelUsageSinceLastResult: sonnet,
    resultIndex: 1,
  });
  assertSameValues(compact, realCompact, "compact result");
  const setModeAnswer = pick(
    real,
    (f) => f.type === "control_response" && JSON.stringify(f).includes('"mode"'),
  );
  assertSameValues(
    controlSuccess("ioh5vnm6p4", { mode: "acceptEdits" }),
    setModeAnswer,
    "set_permission_mode answer",
  );
});

Deno.test("userPrompt matches the prompt frames the SDK writes", () => {
  assertSameValues(userPrompt("hello"), pick(into("hello"), isType("user")), "string prompt");
  assertSameValues(
    userPrompt("My favourite colour is teal. Remember it.", { streaming: true }),
    pick(into("multi_turn"), isType("user")),
    "streaming-input prompt",
  );
});

// ---- subagents ---------------------------------------------------------------------------

Deno.test("taskTool frames and result match subagent_task", () => {
  const real = out("subagent_task");
  const ctx = ctxFor(real);
  const notes =
    "Project notes\n=============\n1. The build uses make.\n2. Tests live in tests/.\n3. Release on Fridays.\n";
  const started = pick(real, isType("system", "task_started"));
  const call = taskTool(ctx, "Summarize notes file", {
    prompt: "Read notes.txt in the current directory and summarize it in one sentence.",
    result: "The notes say the build uses make, tests are in tests/, and releases are on Fridays.",
    tools: [
      readTool(ctx, "/home/user/project/notes.txt", {
        content: notes,
        id: "toolu_01SubRead0000000000001",
      }),
    ],
    id: "toolu_01AgentTask00000000001",
    // the recorder's API reported 25 output tokens for every call (the report's count is 21)
    totalTokens: 145,
    // The recording's task ids, so texts that embed them compare equal.
    taskId: started.task_id as string,
    runId: started.run_id as string,
  });

  const realMain = assistantFramesOf(real, 0);
  const ours = assistantMessage(ctx, [text("I'll delegate this to a subagent."), call.block]);
  ours.forEach((f, i) => assertSameValues(f, realMain[i], `main assistant frame ${i}`));

  const start = real.indexOf(realMain[1]) + 1;
  const agentResult = real.findIndex((f) =>
    f.type === "user" && f.parent_tool_use_id === null &&
    (f.message as { content: Array<{ tool_use_id?: string }> }).content[0].tool_use_id ===
      call.block.id
  );
  const realRun = real.slice(start, agentResult);
  const run = call.frames(ctx);
  assert.deepEqual(
    run.map((f) => `${f.type}/${f.subtype ?? ""}`),
    realRun.map((f) => `${f.type}/${f.subtype ?? ""}`),
  );
  run.forEach((frame, i) => {
    // the recording scrubbed the task's output file to /tmp/x
    if (frame.subtype === "task_notification") frame.output_file = "/tmp/x";
    if (frame.subtype === "task_updated") {
      assertShape(frame, realRun[i], "task_updated"); // end_time is a wall-clock instant
    } else if (frame.type === "system") {
      assertSameValues(frame, realRun[i], `${frame.subtype}`);
    } else {
      assertSameValues(frame, realRun[i], `subagent ${frame.type} frame ${i}`);
    }
  });

  const realAgentResult = real[agentResult];
  const ourResult = toolResult(ctx, call.block.id, call.result);
  assertShape(ourResult, realAgentResult, "Agent tool result");
  const realText =
    (realAgentResult.message as { content: Array<{ content: Array<{ text: string }> }> }).content[0]
      .content[0].text;
  const ourText =
    (ourResult.message.content[0] as { content: Array<{ text: string }> }).content[0].text;
  // Deliberate: the recording's usage footer says duration_ms 186, as our default.
  assert.equal(ourText, realText);
  const { harnessSectionHash: _h, ...ourUse } = ourResult.tool_use_result as Record<
    string,
    unknown
  >;
  const { harnessSectionHash: _rh, ...realUse } = realAgentResult.tool_use_result as Record<
    string,
    unknown
  >;
  assert.deepEqual(ourUse, realUse); // the CLI's section hash is not reproducible

  const realResult = pick(real, isType("result"));
  const result = resultFrame(ctx, {
    result: realResult.result as string,
    numTurns: 2,
    apiCalls: [{}, {}],
    modelUsage: modelUsage([{}, {}, {}, {}], { model: ctx.model }),
    subagentStats: subagentStats({ "general-purpose": 1 }),
  });
  assertShape(result, realResult, "subagent result");
  for (const key of ["usage", "modelUsage", "total_cost_usd", "subagent_stats"]) {
    assert.deepEqual(result[key], realResult[key], `subagent result ${key}`);
  }
});

Deno.test("task frames built one by one match subagent_task", () => {
  const real = out("subagent_task");
  const ctx = ctxFor(real);
  const started = pick(real, isType("system", "task_started"));
  const task = newTask(ctx, {
    toolUseId: "toolu_01AgentTask00000000001",
    description: "Summarize notes file",
    prompt: "Read notes.txt in the current directory and summarize it in one sentence.",
    taskId: started.task_id as string,
    runId: started.run_id as string,
  });
  assertSameValues(taskStarted(ctx, task), started, "task_started");
  assertSameValues(
    taskProgress(ctx, task, { description: "Reading notes.txt", lastToolName: "Read" }),
    pick(real, isType("system", "task_progress")),
    "task_progress",
  );
  const updated = pick(real, isType("system", "task_updated"));
  assertSameValues(
    taskUpdated(ctx, task, {
      patch: { status: "completed", end_time: (updated.patch as { end_time: number }).end_time },
    }),
    updated,
    "task_updated",
  );
  assertSameValues(
    taskNotification(ctx, task, {
      summary:
        "The notes say the build uses make, tests are in tests/, and releases are on Fridays.",
      outputFile: "/tmp/x", // as the recording scrubbed it
    }),
    pick(real, isType("system", "task_notification")),
    "task_notification",
  );
});

Deno.test("resultUsage has the zeroed shape of error results", () => {
  assertSameValues(resultUsage([]), pick(out("interrupt"), isType("result")).usage, "zero usage");
});
