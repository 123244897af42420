// Profiles the mock's hot paths in process (node:inspector's Profiler), or times them (--time:
// wall and CPU µs per unit, medians of 7 rounds). What runs, N units of it:
//   one      one-turn query() calls of the real SDK through MockTransport (default N 2,000)
//   long     one query() of N turns, each prompt sent when the last result came (20,000)
//   direct   one-turn sessions through MockTransport.spawn's Node streams, no SDK (20,000)
//   session  one-turn sessions on the engine alone, lines to a no-op output (20,000)
//   turns    one engine session of N turns written at once: the engine's cost per turn (20,000)
// Prints the time by side (the innermost frame of the mock's source or of the SDK), the mock's
// functions inclusive (up to the SDK frame that called in), self time by file and by function;
// --out writes the raw .cpuprofile (for a flame chart in Chrome's DevTools).
//
//   deno run -A scripts/profile_query.ts [one|long|direct|session|turns] [--n N] [--time]
//     [--out file.cpuprofile]
import { query } from "@anthropic-ai/claude-agent-sdk";
import { Session as InspectorSession } from "node:inspector";
import process from "node:process";
import { MockTransport, ScenarioBuilder } from "../mod.ts";
import { Session } from "../session.ts";
import { longSession as sameBytesLongSession } from "./_same_bytes.ts";

const mode = (["long", "direct", "session", "turns"] as const).find((m) => m === Deno.args[0]) ??
  "one";
const nAt = Deno.args.indexOf("--n");
const N = nAt >= 0
  ? Number(Deno.args[nAt + 1])
  : mode === "long"
  ? 20_000
  : mode === "one"
  ? 2000
  : 20_000;
const outAt = Deno.args.indexOf("--out");
const scenario = new ScenarioBuilder().on("hello", { repeat: true }).respond(
  "Hello! How can I help you today?",
).build();
const spawn = (o: Parameters<MockTransport["spawn"]>[0]) => new MockTransport(scenario).spawn(o);

async function oneTurn(): Promise<void> {
  for await (
    const _ of query({ prompt: "hello", options: { spawnClaudeCodeProcess: spawn as never } })
  ) {
    // drain
  }
}

function longSession(turns: number): Promise<void> {
  return sameBytesLongSession(spawn as never, turns);
}

const SPAWN_ARGS = ["--output-format", "stream-json", "--verbose", "--input-format", "stream-json"];
const INIT =
  '{"request_id":"r1","type":"control_request","request":{"subtype":"initialize","systemPrompt":[""]}}\n';
const USER =
  '{"type":"user","session_id":"","message":{"role":"user","content":[{"type":"text","text":"hello"}]},"parent_tool_use_id":null}\n';
const ENV = {
  ...Deno.env.toObject(),
  CLAUDE_AGENT_SDK_VERSION: "0.3.328",
  CLAUDE_CODE_ENTRYPOINT: "sdk-ts",
};
/** One one-turn session driven as the SDK drives it, without the SDK: the mock's own cost. */
async function direct(): Promise<void> {
  const child = new MockTransport(scenario).spawn({
    command: "claude",
    args: SPAWN_ARGS,
    env: ENV,
    signal: new AbortController().signal,
  });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  let lines = 0;
  child.stdout.on("data", (c: Uint8Array) => {
    for (let i = c.indexOf(10); i >= 0; i = c.indexOf(10, i + 1)) {
      if (++lines === 6) child.stdin.end();
    }
  });
  child.stdin.write(INIT);
  child.stdin.write(USER);
  await exited;
}
/** One one-turn session on the engine alone (no Node streams): the engine's own cost. */
async function engineOnly(): Promise<void> {
  const session = new Session(scenario, { args: SPAWN_ARGS, env: ENV, output: () => {} });
  session.write(INIT);
  session.write(USER);
  session.endInput();
  await session.exited;
}
/** `n` turns of one session on the engine alone, written at once: the engine's cost per turn. */
async function engineTurns(n: number): Promise<void> {
  const session = new Session(scenario, { args: SPAWN_ARGS, env: ENV, output: () => {} });
  session.write(INIT);
  for (let i = 0; i < n; i++) session.write(USER);
  session.endInput();
  await session.exited;
}
const work = mode === "turns" ? () => engineTurns(N) : mode === "session"
  ? async () => {
    for (let i = 0; i < N; i++) await engineOnly();
  }
  : mode === "direct"
  ? async () => {
    for (let i = 0; i < N; i++) await direct();
  }
  : mode === "one"
  ? async () => {
    for (let i = 0; i < N; i++) await oneTurn();
  }
  : () => longSession(N);
if (mode === "turns") await engineTurns(2000);
else if (mode === "session") { for (let i = 0; i < 500; i++) await engineOnly(); }
else if (mode === "direct") { for (let i = 0; i < 500; i++) await direct(); }
else {await (mode === "one"
    ? (async () => {
      for (let i = 0; i < 200; i++) await oneTurn();
    })()
    : longSession(1000));}

if (Deno.args.includes("--time")) {
  // no profiler: the median of 7 timed rounds of N/7 units
  const rounds: number[] = [];
  const cpu: number[] = [];
  const n = Math.max(1, Math.floor(N / 7));
  const one = mode === "turns"
    ? () => engineTurns(n)
    : mode === "session"
    ? engineOnly
    : mode === "direct"
    ? direct
    : mode === "one"
    ? oneTurn
    : () => longSession(n);
  for (let r = 0; r < 7; r++) {
    const t = performance.now();
    const c = process.cpuUsage();
    if (mode === "long" || mode === "turns") await one();
    else for (let i = 0; i < n; i++) await one();
    rounds.push(((performance.now() - t) * 1000) / n);
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / n);
  }
  rounds.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  console.log(
    `${mode}: wall median ${rounds[3].toFixed(1)} µs/unit (min ${rounds[0].toFixed(1)}, max ${
      rounds[6].toFixed(1)
    }); ` +
      `cpu median ${cpu[3].toFixed(1)} (min ${cpu[0].toFixed(1)})`,
  );
  Deno.exit(0);
}
/** The repository's folder and its sources, as the profile's frames name them. */
const ROOT = new URL("../", import.meta.url).href;
const SRC = new URL("../src/", import.meta.url).href;
/** What Profiler.stop returns. */
interface CpuProfile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}
const inspector = new InspectorSession();
inspector.connect();
const post = (method: string, params?: object) =>
  new Promise<{ profile: CpuProfile }>((resolve, reject) =>
    inspector.post(
      method,
      params ?? {},
      (err: unknown, res: unknown) => (err ? reject(err) : resolve(res as { profile: CpuProfile })),
    )
  );
await post("Profiler.enable");
await post("Profiler.setSamplingInterval", { interval: 100 });
await post("Profiler.start");
const t0 = performance.now();
await work();
const ms = performance.now() - t0;
const { profile } = await post("Profiler.stop");
console.log(`${mode}: ${N} units in ${ms.toFixed(0)} ms = ${(ms * 1000 / N).toFixed(1)} µs/unit`);
if (outAt >= 0) Deno.writeTextFileSync(Deno.args[outAt + 1], JSON.stringify(profile));

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
const byId = new Map<number, Node>();
const parent = new Map<number, number>();
for (const n of profile.nodes as Node[]) {
  byId.set(n.id, n);
  for (const c of n.children ?? []) parent.set(c, n.id);
}
/** The innermost frame of the mock's source or of the SDK above a node: who caused its time. */
const ownerOf = (id: number): string => {
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const f = byId.get(at)!.callFrame;
    if (f.url.startsWith(SRC)) {
      return `mock ${f.functionName || "(anon)"} ${f.url.replace(/^.*\/src\//, "")}:${
        f.lineNumber + 1
      }`;
    }
    if (f.url.includes("claude-agent-sdk")) return "sdk";
    if (f.url.includes("/scripts/")) return "script";
  }
  return "other";
};
const dt = new Map<number, number>();
const samples: number[] = profile.samples;
const deltas: number[] = profile.timeDeltas;
for (let i = 0; i < samples.length; i++) {
  dt.set(samples[i], (dt.get(samples[i]) ?? 0) + (deltas[i] ?? 0));
}
let total = 0;
const fn = new Map<string, number>();
const owner = new Map<string, number>();
const side = new Map<string, number>();
const inclusive = new Map<string, number>();
const file = new Map<string, number>();
for (const [id, t] of dt) {
  const n = byId.get(id)!;
  total += t;
  const url = n.callFrame.url.startsWith(ROOT)
    ? n.callFrame.url.slice(ROOT.length)
    : n.callFrame.url.replace(/^.*\/node_modules\//, "node_modules/");
  const short = url.replace(/^.*\//, "");
  const key = `${n.callFrame.functionName || "(anon)"} ${short}:${n.callFrame.lineNumber + 1}`;
  fn.set(key, (fn.get(key) ?? 0) + t);
  const o = ownerOf(id);
  owner.set(o, (owner.get(o) ?? 0) + t);
  const sd = o.split(" ")[0];
  if (sd === "mock") {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = byId.get(at)!.callFrame;
      if (f.url.includes("claude-agent-sdk")) break;
      if (!f.url.startsWith(SRC)) continue;
      const k = `${f.functionName || "(anon)"} ${f.url.replace(/^.*\/src\//, "")}:${
        f.lineNumber + 1
      }`;
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + t);
    }
  }
  side.set(sd, (side.get(sd) ?? 0) + t);
  const f = url || n.callFrame.functionName;
  file.set(f, (file.get(f) ?? 0) + t);
}
const show = (m: Map<string, number>, k: number) =>
  [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([name, t]) =>
    `${(100 * t / total).toFixed(1).padStart(5)}%  ${
      (t / N).toFixed(2).padStart(7)
    } µs/unit  ${name}`
  ).join("\n");
console.log("--- time by side (innermost mock or SDK frame) ---\n" + show(side, 10));
console.log(
  "--- mock functions, inclusive (up to the SDK frame that called in) ---\n" + show(inclusive, 60),
);
console.log(
  "--- time by innermost mock function (with the built-ins it calls) ---\n" + show(owner, 50),
);
console.log("--- self time by file ---\n" + show(file, 30));
console.log("--- self time by function ---\n" + show(fn, 60));
