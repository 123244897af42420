// Benchmark: what a long-lived mock keeps. Each sample runs in a process of its own (a fresh
// heap), measures the live heap (after two full GCs) once warmed up and again after the work,
// and prints the difference per unit of work; variants run interleaved (A B A B ...) and the
// medians are printed with the ratio to the floor.
//
// (a) Queries: N one-turn `query()` calls of the real Agent SDK against one process-wide
//     `mockClaude()` (as a vitest or jest setup file keeps it), the mock still held; the
//     floor makes a `MockTransport` per query and keeps nothing. Per query. Then the same mock
//     with `claude.clear()` and `claude.sessions.clear()` after each query (as an `afterEach`
//     would) against the floor.
// (b) Turns: one `Session` of N turns (its stdin and stdout without streams), held open, with
//     a `SessionStore` (the SDK's default: sessions persist) against the floor, the same
//     session with `--no-session-persistence` (the SDK's `persistSession: false`). Per turn.
//
//   deno run -A scripts/mock_memory.ts [queries] [turns] [rounds]
import * as sdk from "@anthropic-ai/claude-agent-sdk";
import { mockClaude, MockTransport, ScenarioBuilder, SessionStore, wrapClaudeSdk } from "../mod.ts";
import { Session } from "../session.ts";

const DECODER = new TextDecoder();
const REPLY = "A reply of a few sentences, as a model gives. ".repeat(6);
const scenario = new ScenarioBuilder().on("hi").repeat().respond(REPLY).build();

type Variant = "queries-mock" | "queries-cleared" | "queries-floor" | "turns-store" | "turns-floor";

if (Deno.args[0] === "--child") {
  const variant = Deno.args[1] as Variant;
  const n = Number(Deno.args[2]);
  console.log(await child(variant, n));
  Deno.exit(0);
}

const queries = Number(Deno.args[0] ?? 2_000);
const turns = Number(Deno.args[1] ?? 20_000);
const rounds = Number(Deno.args[2] ?? 5);

async function sample(variant: Variant, n: number): Promise<number> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--v8-flags=--expose-gc",
      new URL(import.meta.url).pathname,
      "--child",
      variant,
      String(n),
    ],
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`${variant} failed`);
  return Number(new TextDecoder().decode(out.stdout).trim());
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const pairs: [string, Variant, Variant, number, string][] = [
  ["queries", "queries-mock", "queries-floor", queries, "query"],
  ["queries", "queries-cleared", "queries-floor", queries, "query"],
  ["turns", "turns-store", "turns-floor", turns, "turn"],
];
for (const [what, a, b, n, unit] of pairs) {
  const samples: Record<string, number[]> = { [a]: [], [b]: [] };
  for (let r = 0; r < rounds; r++) {
    for (const v of r % 2 === 0 ? [a, b] : [b, a]) samples[v].push(await sample(v, n));
  }
  const [ma, mb] = [median(samples[a]), median(samples[b])];
  const kib = (x: number) => (x / 1024).toFixed(2);
  console.log(
    `${what} (${n}, ${rounds} rounds): ${a} ${kib(ma)} KiB/${unit} (${
      samples[a].map(kib).join(" ")
    }), ${b} ${kib(mb)} KiB/${unit} (${samples[b].map(kib).join(" ")}); ${a} - ${b} = ${
      kib(ma - mb)
    } KiB/${unit}, ${(ma * n / 1024 / 1024).toFixed(1)} MB in all`,
  );
}

/** The live heap a variant keeps per unit of work, in bytes. */
async function child(variant: Variant, n: number): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run with --v8-flags=--expose-gc");
  const heap = () => {
    gc();
    gc();
    return Deno.memoryUsage().heapUsed;
  };
  if (variant.startsWith("queries")) {
    const { query } = wrapClaudeSdk(sdk);
    const claude = variant === "queries-floor" ? undefined : mockClaude(scenario, { global: true });
    const one = async () => {
      if (claude) {
        for await (const _ of query({ prompt: "hi" }));
        if (variant === "queries-cleared") {
          claude.clear();
          claude.sessions.clear();
        }
      } else {
        const mock = new MockTransport(scenario);
        for await (const _ of sdk.query({ prompt: "hi", options: mock.options() }));
      }
    };
    for (let i = 0; i < 20; i++) await one();
    const before = heap();
    for (let i = 0; i < n; i++) await one();
    const kept = (heap() - before) / n;
    await claude?.close();
    return kept;
  }
  // one long session, its stdin written directly and its stdout taken by a function
  const line = new TextEncoder().encode(
    JSON.stringify({
      type: "user",
      session_id: "",
      message: { role: "user", content: "hi" },
      parent_tool_use_id: null,
    }) + "\n",
  );
  let results = 0;
  let wake = () => {};
  const session = new Session(scenario, {
    args: variant === "turns-floor" ? ["--no-session-persistence"] : [],
    sessionStore: new SessionStore(),
    output: (bytes) => {
      // a turn ends with its result line
      if (DECODER.decode(bytes).includes('"type":"result"')) {
        results++;
        wake();
      }
    },
  });
  const turn = async () => {
    const want = results + 1;
    const done = new Promise<void>((resolve) => (wake = resolve));
    session.write(line);
    if (results < want) await done;
  };
  for (let i = 0; i < 200; i++) await turn();
  const before = heap();
  for (let i = 0; i < n; i++) await turn();
  const kept = (heap() - before) / n;
  session.endInput();
  await session.exited;
  return kept;
}
