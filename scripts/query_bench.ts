// Benchmark (a): one-turn `query()` of the real Agent SDK, prompt "hello", to its result
// message, through three `spawnClaudeCodeProcess` spawners, timed interleaved in one run:
//
//   A  = MockTransport (`new MockTransport(scenario).spawn`, a new transport per query);
//   B1 = a minimal hand-written fake process: answers `initialize` and the user message
//        with a few fixed short lines (no scenario, no pacing, no validation);
//   B2 = the same-bytes floor: a fake process on plain Node streams that writes exactly
//        the bytes the mock writes for this query (captured once at start-up through a
//        MockTransport; the initialize answer carries the live request id), in the same
//        order and at the same protocol moments: the initialize answer when the
//        initialize request arrives, the turn's lines when the user frame arrives, then
//        end of stdout and exit 0 when stdin ends.
//
// Each round times M queries with A, M with B1 and M with B2, in the order A B1 B2 on even
// rounds and B2 B1 A on odd rounds (cancels drift), after a warm-up. Printed: the per-query
// time of each (median over rounds, µs), the median of the per-round paired ratios A/B1 and
// A/B2 (min–max), and the mock's own overhead A − B2 per query. Ratios against a floor
// measured in the same run are the project's speed figures (Deno.bench means swing too much).
//
// Goal: A/B2 ≤ 1.2 (printed, never asserted).
//
//   deno run -A scripts/query_bench.ts [--rounds N] [--queries M]   (defaults: 15, 200)
import { query, type SpawnedProcess, type SpawnOptions } from "@anthropic-ai/claude-agent-sdk";
import { Buffer } from "node:buffer";
import { MockTransport, ScenarioBuilder } from "../mod.ts";
import { fakeProcess, type Json } from "./_fake_process.ts";

type Spawn = (options: SpawnOptions) => SpawnedProcess;

function intArg(name: string, fallback: number): number {
  const i = Deno.args.indexOf(name);
  const value = i >= 0 ? Number(Deno.args[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new TypeError(`${name} needs a positive integer`);
  }
  return value;
}
const ROUNDS = intArg("--rounds", 15);
const QUERIES = intArg("--queries", 200);
const TEXT = "Hello! How can I help you today?";

const scenario = new ScenarioBuilder().on("hello").respond(TEXT).build();

// ---- B1: the hand-written fake process -------------------------------------------------

const SID = "00000000-0000-4000-8000-000000000000";
const HAND_WRITTEN_LINES = [
  {
    type: "system",
    subtype: "init",
    cwd: "/",
    session_id: SID,
    tools: [],
    mcp_servers: [],
    model: "m",
    permissionMode: "default",
    slash_commands: [],
    apiKeySource: "none",
    claude_code_version: "2.1.328",
    output_style: "default",
    agents: [],
    skills: [],
    plugins: [],
    uuid: SID,
  },
  {
    type: "assistant",
    message: {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "m",
      content: [{ type: "text", text: TEXT }],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    },
    parent_tool_use_id: null,
    session_id: SID,
    uuid: SID,
  },
  {
    type: "result",
    subtype: "success",
    is_error: false,
    duration_ms: 1,
    duration_api_ms: 1,
    num_turns: 1,
    result: TEXT,
    session_id: SID,
    total_cost_usd: 0,
    usage: {},
    modelUsage: {},
    permission_denials: [],
    uuid: SID,
  },
  {
    type: "system",
    subtype: "session_state_changed",
    state: "idle",
    sdk_host_only: true,
    uuid: SID,
    session_id: SID,
  },
].map((f) => JSON.stringify(f) + "\n");

const handWrittenSpawn: Spawn = () =>
  fakeProcess((frame, stdout) => {
    if (frame.type === "control_request") {
      stdout.push(
        JSON.stringify({
          type: "control_response",
          response: { subtype: "success", request_id: frame.request_id, response: {} },
        }) + "\n",
      );
    } else if (frame.type === "user") { for (const line of HAND_WRITTEN_LINES) stdout.push(line); }
  });

// ---- B2: the same-bytes floor ------------------------------------------------------------

/** A control answer with its request id cut out: `before + JSON(id) + after`. */
interface AnswerTemplate {
  before: string;
  after: string;
}

interface Capture {
  /** Answers to the SDK's control requests, by request subtype. */
  answers: Map<string, AnswerTemplate>;
  /** The lines the mock wrote for the turn (everything but control answers), in order. */
  turn: string[];
  /** All of stdout, with the request ids replaced by a placeholder (for the self-check). */
  normalized: string;
}

/** Runs `query()` with `spawn`, teeing stdin and stdout. */
async function tee(spawn: Spawn): Promise<{ written: string; read: string; result: unknown }> {
  let written = "", read = "";
  const decoder = new TextDecoder();
  const teeing: Spawn = (options) => {
    const child = spawn(options);
    child.stdout.on("data", (chunk: Uint8Array | string) => {
      read += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    });
    const write = child.stdin.write.bind(child.stdin) as (...a: unknown[]) => boolean;
    child.stdin.write = ((chunk: unknown, ...rest: unknown[]) => {
      written += String(chunk);
      return write(chunk, ...rest);
    }) as typeof child.stdin.write;
    return child;
  };
  const result = await drain(teeing);
  return { written, read, result };
}

function lines(text: string): string[] {
  return text.split("\n").filter((l) => l !== "");
}

/** Replaces each request id the SDK sent by a placeholder, so two runs compare equal. */
function normalize(read: string, written: string): string {
  for (const line of lines(written)) {
    const frame = JSON.parse(line);
    if (frame.type === "control_request") read = read.replaceAll(frame.request_id, "<request_id>");
  }
  return read;
}

async function captureMockBytes(): Promise<Capture> {
  const mock = new MockTransport(scenario);
  const { written, read } = await tee(mock.spawn);
  await mock.exited;
  const requests = new Map<string, string>(); // request id -> subtype
  for (const line of lines(written)) {
    const frame = JSON.parse(line);
    if (frame.type === "control_request") requests.set(frame.request_id, frame.request.subtype);
  }
  const answers = new Map<string, AnswerTemplate>();
  const turn: string[] = [];
  for (const line of lines(read)) {
    const frame = JSON.parse(line);
    const id = frame.type === "control_response" ? frame.response?.request_id : undefined;
    const subtype = id === undefined ? undefined : requests.get(id);
    if (subtype === undefined) {
      turn.push(line + "\n");
      continue;
    }
    const needle = `"request_id":${JSON.stringify(id)}`;
    const at = line.indexOf(needle);
    if (at < 0 || line.indexOf(needle, at + 1) >= 0) {
      throw new Error(`cannot template the answer to '${subtype}': request id not found once`);
    }
    answers.set(subtype, {
      before: line.slice(0, at) + `"request_id":`,
      after: line.slice(at + needle.length) + "\n",
    });
  }
  if (!answers.has("initialize")) throw new Error("the mock did not answer initialize");
  return { answers, turn, normalized: normalize(read, written) };
}

function sameBytesSpawner(capture: Capture): Spawn {
  const turn = capture.turn.map((line) => Buffer.from(line));
  const answers = capture.answers;
  return () =>
    fakeProcess((frame, stdout) => {
      if (frame.type === "control_request") {
        const template = answers.get((frame.request as Json)?.subtype as string);
        if (!template) throw new Error(`unexpected control request ${JSON.stringify(frame)}`);
        stdout.push(template.before + JSON.stringify(frame.request_id) + template.after);
      } else if (frame.type === "user") { for (const line of turn) stdout.push(line); }
    });
}

// ---- the measurement ---------------------------------------------------------------------

async function drain(spawn: Spawn): Promise<unknown> {
  let last: { type: string; result?: unknown } | undefined;
  for await (const m of query({ prompt: "hello", options: { spawnClaudeCodeProcess: spawn } })) {
    last = m as typeof last;
  }
  if (last?.type !== "result") throw new Error(`no result message (last: ${last?.type})`);
  return last.result;
}

const mockSpawn: Spawn = (options) => new MockTransport(scenario).spawn(options) as SpawnedProcess;

const capture = await captureMockBytes();
const sameBytesSpawn = sameBytesSpawner(capture);

// Self-check: the floor writes the mock's bytes (request ids aside), and all three answer.
{
  const floor = await tee(sameBytesSpawn);
  if (normalize(floor.read, floor.written) !== capture.normalized) {
    throw new Error("the same-bytes floor does not write the mock's bytes");
  }
  for (const spawn of [mockSpawn, handWrittenSpawn, sameBytesSpawn]) {
    const result = await drain(spawn);
    if (result !== TEXT) throw new Error(`unexpected result ${JSON.stringify(result)}`);
  }
}

const contenders = [
  { name: "A  MockTransport", spawn: mockSpawn },
  { name: "B1 hand-written fake", spawn: handWrittenSpawn },
  { name: "B2 same-bytes floor", spawn: sameBytesSpawn },
];

/** Mean wall time per query of `n` queries, in µs. */
async function timeQueries(spawn: Spawn, n: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < n; i++) await drain(spawn);
  return (performance.now() - start) * 1000 / n;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const spread = (v: number[], digits: number) =>
  `${median(v).toFixed(digits)} (min ${Math.min(...v).toFixed(digits)} – max ${
    Math.max(...v).toFixed(digits)
  })`;

// warm-up: JIT, the SDK's module state, the allocator
for (let i = 0; i < 2; i++) {
  for (const c of contenders) await timeQueries(c.spawn, Math.max(20, QUERIES >> 1));
}

const perQuery: number[][] = contenders.map(() => []);
const totalStart = performance.now();
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? [0, 1, 2] : [2, 1, 0];
  for (const i of order) perQuery[i].push(await timeQueries(contenders[i].spawn, QUERIES));
}
const seconds = (performance.now() - totalStart) / 1000;

const [a, b1, b2] = perQuery;
const ratioB1 = a.map((x, r) => x / b1[r]);
const ratioB2 = a.map((x, r) => x / b2[r]);
const overhead = a.map((x, r) => x - b2[r]);
const bytes = capture.turn.reduce((n, l) => n + Buffer.byteLength(l), 0) +
  [...capture.answers.values()].reduce((n, t) => n + Buffer.byteLength(t.before + t.after), 0);

console.log(
  `query() "hello" → result, one turn: ${ROUNDS} rounds × ${QUERIES} queries per spawner, ` +
    `interleaved (${seconds.toFixed(1)} s)`,
);
console.log(
  `  B2 replays ${capture.turn.length + capture.answers.size} lines, ${bytes} bytes per query`,
);
console.log("per query (median of rounds, µs):");
contenders.forEach((c, i) => {
  console.log(`  ${c.name.padEnd(22)} ${median(perQuery[i]).toFixed(0).padStart(7)} µs`);
});
console.log("paired ratios (median of rounds):");
console.log(`  A/B1  ${spread(ratioB1, 2)}`);
console.log(`  A/B2  ${spread(ratioB2, 2)}   goal ≤ 1.20`);
console.log(`mock overhead A − B2: ${spread(overhead, 0)} µs per query`);
