// The fidelity harness: the real SDK drives the mock through the same conversation as a
// recording of the real CLI 2.1.328 (tests/fixtures/real/), and both directions must carry
// the same frames in the same order, with the same keys, and the values an app asserts on.
import assert from "node:assert/strict";
import {
  type CanUseTool,
  type Options,
  type Query,
  query,
  type SDKMessage,
} from "@anthropic-ai/claude-agent-sdk";
import { type Clock, MockTransport, type Scenario } from "../mod.ts";
import type { Frame } from "../wire.ts";
import { mask } from "./_mask.ts";

/** One line of a tape. */
export interface TapeLine {
  t: number;
  dir: "sdk->cli" | "cli->sdk";
  frame: Frame;
}

/** A recording: its header's args and its lines. */
export interface Tape {
  args: string[];
  /** The SDK that recorded it (`sdk_version` of the header). */
  sdkVersion?: string;
  /** The CLI that was recorded (`cli_version` of the header). */
  cliVersion?: string;
  lines: TapeLine[];
  /** What the SDK consumer received (`<name>.messages.jsonl`). */
  messages: Frame[];
}

/** Reads `tests/fixtures/real/<name>.jsonl` and its `.messages.jsonl`. */
export async function readTape(name: string): Promise<Tape> {
  const read = (file: string) =>
    Deno.readTextFile(new URL(`./fixtures/real/${file}`, import.meta.url)).then((raw) =>
      raw.trim().split("\n").filter((l) => l).map((l) => JSON.parse(l))
    );
  const [header, ...lines] = await read(`${name}.jsonl`);
  const messages = await read(`${name}.messages.jsonl`).catch(() => []);
  return {
    args: header.args,
    sdkVersion: header.sdk_version,
    cliVersion: header.cli_version,
    lines,
    messages,
  };
}

/** The text results the tape's tools gave (the real commands' output), by tool use id, in order. */
export async function recordedToolResults(name: string): Promise<Map<string, string>> {
  const results = new Map<string, string>();
  for (const { dir, frame } of (await readTape(name)).lines) {
    const content = (frame.message as { content?: unknown } | undefined)?.content;
    const block = Array.isArray(content) ? content[0] : undefined;
    if (dir === "cli->sdk" && frame.type === "user" && block?.type === "tool_result") {
      results.set(block.tool_use_id, String(block.content));
    }
  }
  return results;
}

/** A frame's kind: type, then subtype / state / control subtype. */
export function kind(frame: Frame): string {
  const request = frame.request as { subtype?: string } | undefined;
  const detail = frame.type === "control_request"
    ? request?.subtype
    : frame.type === "stream_event"
    ? (frame.event as { type: string }).type
    : frame.subtype === "session_state_changed"
    ? `session_state_changed:${frame.state}`
    : frame.subtype === "status"
    ? `status:${frame.status}`
    : frame.subtype;
  return detail ? `${frame.type}/${detail}` : frame.type;
}

/** The kinds of `count` frames from the first of kind `first` (deltas left out). */
export function kindsFrom(frames: Frame[], first: string, count: number): string[] {
  const kinds = frames.map(kind).filter((k) => k !== "stream_event/content_block_delta");
  const i = kinds.indexOf(first);
  if (i < 0) throw new Error(`no ${first} frame in ${kinds.join(", ")}`);
  return kinds.slice(i, i + count);
}

/** The recordings' `canUseTool`: allows as asked, and logs what the app was handed. */
export function recAllow(): { canUseTool: CanUseTool; calls: Array<Record<string, unknown>> } {
  const calls: Array<Record<string, unknown>> = [];
  const canUseTool: CanUseTool = (toolName, input, options) => {
    const { signal: _signal, ...rest } = options;
    calls.push({ toolName, ...rest });
    return Promise.resolve({ behavior: "allow", updatedInput: input });
  };
  return { canUseTool, calls };
}

/** A turn of the conversation: a prompt, or something the app does between results. */
export type TurnStep = string | ((q: Query) => Promise<unknown>);

/** What a run through the mock produced. */
export interface MockRun {
  out: Frame[];
  written: Frame[];
  args: string[];
  messages: SDKMessage[];
  error?: Error;
  exitCode: number | null;
}

/**
 * Runs `scenario` under the SDK: a single prompt, or (several steps) a streaming input that
 * sends each prompt after the previous result and runs each function between results.
 */
export async function runMock(
  scenario: Scenario,
  steps: TurnStep[],
  runOptions: Options & {
    env?: Record<string, string | undefined>;
    /** Sees each message and the query (an app that reacts: interrupts, asks). */
    onMessage?: (m: SDKMessage, q: Query) => Promise<void>;
    /** The session clock (default the virtual one). */
    clock?: Clock;
    /** The SDK's `query` (default: the pinned SDK's). */
    sdkQuery?: typeof query;
  },
): Promise<MockRun> {
  const { onMessage, clock, sdkQuery = query, env, ...options } = runOptions;
  // The SDK's query() sets process.env.CLAUDE_AGENT_SDK_VERSION to its own version and copies
  // process.env into the child's environment unless that variable is already there. Tests of
  // the pinned and of the latest SDK run concurrently in this process, so the inherited value
  // may be the other SDK's: it is left out, and each SDK names itself.
  const { CLAUDE_AGENT_SDK_VERSION: _other, ...childEnv } = env ?? Deno.env.toObject();
  const mock = new MockTransport(scenario, { recordSent: true, ...(clock ? { clock } : {}) });
  let args: string[] = [];
  const spawn: typeof mock.spawn = (o) => {
    args = o.args;
    return mock.spawn(o);
  };
  const messages: SDKMessage[] = [];
  let results = 0;
  const waiters: Array<() => void> = [];
  const resultCount = (n: number) =>
    new Promise<void>((resolve) => {
      if (results >= n) resolve();
      else waiters.push(() => results >= n && resolve());
    });
  let q: Query | undefined;
  const prompt = steps.length === 1 && typeof steps[0] === "string"
    ? steps[0]
    : (async function* () {
      let sent = 0;
      for (const step of steps) {
        if (typeof step === "string") {
          await resultCount(sent);
          sent++;
          yield {
            type: "user" as const,
            message: { role: "user" as const, content: step },
            parent_tool_use_id: null,
          };
        } else {
          await resultCount(sent);
          await step(q!);
        }
      }
      await resultCount(sent);
    })();
  let error: Error | undefined;
  try {
    q = sdkQuery({
      prompt,
      options: { ...options, env: childEnv, spawnClaudeCodeProcess: spawn },
    });
    for await (const message of q) {
      messages.push(message);
      await onMessage?.(message, q);
      if (message.type === "result") {
        results++;
        for (const w of [...waiters]) w();
      }
    }
  } catch (e) {
    error = e as Error;
  }
  const exit = await mock.exited;
  return {
    out: mock.session.sent(),
    written: mock.writtenMessages(),
    args,
    messages,
    error,
    exitCode: exit.code,
  };
}

// Frames whose place depends on the real process's timing, not on the protocol.
const TIMING_ONLY = new Set(["system/session_state_changed:idle"]);

/** The values an app asserts on, per frame kind (key order kept, ids masked). */
export function appValues(frame: Frame): unknown {
  const pick = (keys: string[]) =>
    Object.fromEntries(keys.filter((k) => k in frame).map((k) => [k, frame[k]]));
  switch (frame.type) {
    case "result":
      return mask(pick([
        "subtype",
        "is_error",
        "num_turns",
        "result",
        "errors",
        "stop_reason",
        "terminal_reason",
        "api_error_status",
        "api_error_type",
        "api_error",
        "permission_denials",
        "local_command",
      ]));
    case "user":
      return mask(pick([
        "message",
        "tool_use_result",
        "tool_result_meta",
        "isReplay",
        "isSynthetic",
        "parent_tool_use_id",
      ]));
    case "assistant": {
      const message = frame.message as { content: unknown[]; model: string };
      return mask({
        content: message.content,
        ...pick(["tool_use_meta", "error", "is_api_error_message", "api_error_status"]),
      });
    }
    case "control_request": {
      const request = { ...(frame.request as Record<string, unknown>) };
      // the SDK names its MCP JSON-RPC ids and progress tokens by its own counter
      return mask(request.subtype === "mcp_message" ? { subtype: request.subtype } : request);
    }
    case "control_response": {
      const response = frame.response as { subtype: string; response?: Record<string, unknown> };
      const body = response.response ?? {};
      // the initialize answer: the key order; other answers: the value
      return mask("commands" in body ? Object.keys(body) : { ...response, request_id: "ID" });
    }
    case "system": {
      if (frame.subtype === "init") {
        return mask(pick(["model", "permissionMode", "mcp_servers", "cwd"]));
      }
      if (frame.subtype === "compact_boundary") {
        const meta = frame.compact_metadata as Record<string, unknown>;
        return {
          trigger: meta.trigger,
          keys: Object.keys(meta),
          logical: "logical_parent_uuid" in frame,
        };
      }
      const rest = { ...frame };
      delete rest.uuid;
      delete rest.session_id;
      for (const k of ["retry_delay_ms"]) delete rest[k];
      return mask(rest);
    }
    default:
      return null;
  }
}

/**
 * Read-only tools of one message run concurrently in the real CLI, so their results arrive
 * in completion order (r2_two_tools_max_turns_3 has them reversed): a run of tool-result
 * frames is compared in a canonical order.
 */
function concurrentInOrder(frames: Frame[]): Frame[] {
  const out: Frame[] = [];
  const isResult = (f: Frame) =>
    f.type === "user" && Array.isArray((f.message as { content: unknown }).content) &&
    ((f.message as { content: Array<{ type: string }> }).content[0]?.type === "tool_result");
  for (let i = 0; i < frames.length;) {
    let j = i;
    while (j < frames.length && isResult(frames[j])) j++;
    if (j > i + 1) {
      const run = frames.slice(i, j);
      run.sort((a, b) => JSON.stringify(appValues(a)) < JSON.stringify(appValues(b)) ? -1 : 1);
      out.push(...run);
      i = j;
    } else {
      out.push(frames[i]);
      i++;
    }
  }
  return out;
}

/** How closely to compare. */
export interface CompareOptions {
  /** Compare `appValues` of every frame (default true). */
  values?: boolean;
  /** Frame kinds to leave out of the value comparison. */
  skipValues?: string[];
  /** The SDK option `env`. */
  env?: Record<string, string | undefined>;
  /**
   * Control requests the comparison leaves out (the test does not send them): the client's
   * requests of these subtypes and the answers to them are dropped from the recording.
   */
  omitRequests?: string[];
  /**
   * Rewrites the recording (its lines and messages, as JSON text) where its API did what the
   * real API does not (the replacement says what the real API would have made the CLI write).
   */
  rewriteRecording?: (json: string) => string;
}

/** The SDK a tape was recorded with: the pinned one, or the latest for a 0.3.332 tape. */
export async function sdkQueryFor(tape: Tape): Promise<typeof query> {
  if (tape.sdkVersion === "0.3.332") return (await import("sdk-latest")).query as typeof query;
  return query;
}

/** `tape` without the client's requests of `subtypes` and the answers to them. */
function omitting(tape: Tape, subtypes: readonly string[]): Tape {
  if (subtypes.length === 0) return tape;
  const ids = new Set<string>();
  for (const { frame } of tape.lines) {
    const request = frame.request as { subtype?: string } | undefined;
    if (frame.type === "control_request" && subtypes.includes(String(request?.subtype))) {
      ids.add(String(frame.request_id));
    }
  }
  const answered = (frame: Frame) =>
    frame.type === "control_response" &&
    ids.has(String((frame.response as { request_id?: string }).request_id));
  return {
    ...tape,
    lines: tape.lines.filter(({ frame }) =>
      !(frame.type === "control_request" && ids.has(String(frame.request_id))) && !answered(frame)
    ),
  };
}

/**
 * Replays tape `name` through the SDK and the mock running `scenario`; asserts frame kinds in
 * both directions, top-level keys frame by frame, and the values an app asserts on. Returns
 * both runs for further checks.
 */
export async function compareTape(
  name: string,
  scenario: Scenario,
  options: Options & { turns?: TurnStep[] },
  how: CompareOptions = {},
): Promise<{ tape: Tape; ours: MockRun; real: Frame[]; mine: Frame[] }> {
  let tape = omitting(await readTape(name), how.omitRequests ?? []);
  if (how.rewriteRecording) tape = JSON.parse(how.rewriteRecording(JSON.stringify(tape)));
  const realOut = tape.lines.filter((l) => l.dir === "cli->sdk").map((l) => l.frame);
  const realIn = tape.lines.filter((l) => l.dir === "sdk->cli").map((l) => l.frame);
  const { turns, ...sdkOptions } = options;
  let steps = turns;
  if (!steps) {
    const first = realIn.find((f) => f.type === "user")!;
    const content = (first.message as { content: string | Array<{ text: string }> }).content;
    steps = [typeof content === "string" ? content : content[0].text];
  }
  // a tape of a CLI no pinned SDK bundles (2.1.331): the mock impersonates it all the same
  const bundled = tape.sdkVersion === "0.3.332" ? "2.1.332" : "2.1.328";
  const env = tape.cliVersion && tape.cliVersion !== bundled
    ? { ...Deno.env.toObject(), ...how.env, CLAUDE_MOCK_VERSION: tape.cliVersion }
    : how.env;
  const ours = await runMock(scenario, steps, {
    ...sdkOptions,
    env,
    sdkQuery: await sdkQueryFor(tape),
  });
  assert.deepEqual(
    ours.args.slice(0, tape.args.length).sort(),
    [...tape.args].sort(),
    `${name}: CLI args`,
  );
  // Chunk boundaries of streamed deltas are the API's choice: a run of deltas counts once.
  const strip = (frames: Frame[]) =>
    frames.map(kind).filter((k, i, all) =>
      !TIMING_ONLY.has(k) && !(k === "stream_event/content_block_delta" && all[i - 1] === k)
    );
  assert.deepEqual(strip(ours.out), strip(realOut), `${name}: cli->sdk frame kinds`);
  assert.deepEqual(ours.written.map(kind), realIn.map(kind), `${name}: sdk->cli frame kinds`);
  const keep = (f: Frame) =>
    !TIMING_ONLY.has(kind(f)) && kind(f) !== "stream_event/content_block_delta";
  const real = concurrentInOrder(realOut.filter(keep));
  const mine = concurrentInOrder(ours.out.filter(keep));
  const skip = new Set(how.skipValues ?? []);
  for (let i = 0; i < real.length; i++) {
    const where = `${name}: frame ${i} (${kind(real[i])})`;
    assert.deepEqual(Object.keys(mine[i]).sort(), Object.keys(real[i]).sort(), `${where}: keys`);
    if (real[i].type === "control_request") {
      assert.deepEqual(
        Object.keys(mine[i].request as object),
        Object.keys(real[i].request as object),
        `${where}: request keys in order`,
      );
    }
    if (how.values !== false && !skip.has(kind(real[i]))) {
      assert.deepEqual(appValues(mine[i]), appValues(real[i]), `${where}: values`);
    }
  }
  // what the app received: the same kinds in the same order
  const appKinds = (frames: Array<Frame | SDKMessage>) =>
    frames.map((m) => kind(m as Frame)).filter((k) => !(k === "stream_event/content_block_delta"));
  assert.deepEqual(
    appKinds(ours.messages).filter((k, i, all) => k !== all[i - 1] || !k.startsWith("stream")),
    appKinds(tape.messages).filter((k, i, all) => k !== all[i - 1] || !k.startsWith("stream")),
    `${name}: what the app received`,
  );
  return { tape, ours, real, mine };
}

/**
 * The kinds of what the app received in recording `name` (`<name>.messages.jsonl`), as
 * `kinds()` of tests/_sdk.ts names them; with `collapseDeltas`, a run of stream events of
 * one type counts once (chunk boundaries are the API's choice).
 */
export async function recordedMessageKinds(
  name: string,
  options: { collapseDeltas?: boolean } = {},
): Promise<string[]> {
  const { messages } = await readTape(name);
  const out = messages.map((m) =>
    typeof m.subtype === "string" ? `${m.type}/${m.subtype}` : m.type
  );
  return options.collapseDeltas ? collapseRuns(messages, out) : out;
}

/** `kinds` with each run of `stream_event` content_block_delta frames counted once. */
export function collapseRuns(messages: ReadonlyArray<{ type: string }>, kinds: string[]): string[] {
  const isDelta = (m: { type: string }) =>
    m.type === "stream_event" &&
    (m as { event?: { type?: string } }).event?.type === "content_block_delta";
  return kinds.filter((_, i) => !(isDelta(messages[i]) && i > 0 && isDelta(messages[i - 1])));
}

/** The session states (`session_state_changed`) the CLI wrote in recording `name`. */
export async function recordedStates(name: string): Promise<string[]> {
  const { lines } = await readTape(name);
  return lines.filter((l) => l.dir === "cli->sdk" && l.frame.subtype === "session_state_changed")
    .map((l) => String(l.frame.state));
}
