// Where a turn of a long query() session goes (speed goal b of issue 21): CPU µs per turn of a
// 1,000-turn session with a streaming prompt, each prompt sent when the last result came, for
// variants timed interleaved (medians over rounds; printed, never asserted):
//   floor     a fake process on plain Node streams writing the mock's bytes (captured once)
//   adapter   MockTransport's Node-stream adapter (directStdio, MockProcess) around a body that
//             writes the same captured bytes: what the adapter costs over the floor
//   mock      MockTransport and the engine
// then the engine alone, without the SDK: 1,000 turns written at once (bulk), and each prompt
// written once the turn before went idle (interactive).
//
//   deno run -A scripts/turn_breakdown.ts [--rounds N]   (default 9)
import process from "node:process";
import { Readable } from "node:stream";
import { MockTransport, ScenarioBuilder } from "../mod.ts";
import { Session } from "../session.ts";
import { directStdio, MockProcess } from "../src/adapters/mock_process.ts";
import type { Json } from "./_fake_process.ts";
import { type Capture, capture, floorSpawn, longSession, type Spawn } from "./_same_bytes.ts";
import { PROMPT, SDK } from "./_sdk_turn.ts";

const ROUNDS = Number(Deno.args[Deno.args.indexOf("--rounds") + 1]) || 9;
const TURNS = 1_000;
const scenario = new ScenarioBuilder().on("hello", { repeat: true })
  .respond("Hello! How can I help you today?").build();
const encoder = new TextEncoder();

const mockSpawn: Spawn = (o) => new MockTransport(scenario).spawn(o) as never;

/** The mock's Node-stream adapter around a body that writes `c`'s bytes. */
function adapterSpawn(c: Capture): Spawn {
  return () => {
    const direct = directStdio();
    let exit!: (status: { code: number; signal: null }) => void;
    const exited = new Promise<{ code: number; signal: null }>((r) => (exit = r));
    const turn = c.turn.map((b) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
    const decoder = new TextDecoder();
    let buffer = "";
    const body = {
      closed: false,
      exited,
      kill() {},
      write(chunk: Uint8Array | string) {
        buffer += typeof chunk === "string" ? chunk : decoder.decode(chunk);
        for (let at = buffer.indexOf("\n"); at >= 0; at = buffer.indexOf("\n")) {
          const line = buffer.slice(0, at);
          buffer = buffer.slice(at + 1);
          if (line.trim() === "") continue;
          const frame = JSON.parse(line) as Json;
          if (frame.type === "control_request") {
            const [before, after] = c.answers.get((frame.request as Json).subtype as string)!;
            direct.output(encoder.encode(before + JSON.stringify(frame.request_id) + after));
          } else if (frame.type === "user") { for (const l of turn) direct.output(l); }
        }
      },
      endInput() {
        body.closed = true;
        exit({ code: 0, signal: null });
      },
    };
    return new MockProcess(body as never, {
      stderr: new Readable({ read() {} }),
      stdio: direct.attach(body as never),
    }) as never;
  };
}

async function engineBulk(): Promise<void> {
  const session = new Session(scenario, { ...SDK, output: () => {} });
  for (let i = 0; i < TURNS; i++) session.write(PROMPT);
  session.endInput();
  await session.exited;
}

async function engineInteractive(): Promise<void> {
  let turns = 0;
  const session: Session = new Session(scenario, {
    ...SDK,
    output: (line) => {
      // the `idle` state line (about 190 bytes, "idle" at byte 60) ends a turn
      if (line.length < 256 && line[60] === 0x69 && line[61] === 0x64) {
        queueMicrotask(() => ++turns < TURNS ? session.write(PROMPT) : session.endInput());
      }
    },
  });
  session.write(PROMPT);
  await session.exited;
}

/** CPU µs per turn of `work`. */
async function cpu(work: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const spent = process.cpuUsage(before);
  return (spent.user + spent.system) / TURNS;
}

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const captured = await capture(scenario);
const variants: Array<[string, () => Promise<void>]> = [
  ["floor", () => longSession(floorSpawn(captured), TURNS)],
  ["adapter", () => longSession(adapterSpawn(captured), TURNS)],
  ["mock", () => longSession(mockSpawn, TURNS)],
  ["engine, bulk", engineBulk],
  ["engine, interactive", engineInteractive],
];
const times = new Map<string, number[]>(variants.map(([name]) => [name, []]));
for (let round = -1; round < ROUNDS; round++) {
  // round -1 warms up; odd rounds run the variants in reverse order
  for (const [name, work] of round % 2 ? [...variants].reverse() : variants) {
    const t = await cpu(work);
    if (round >= 0) times.get(name)!.push(t);
  }
}
const at = (name: string) => median(times.get(name)!);
console.log(`CPU µs per turn of a ${TURNS}-turn session, medians of ${ROUNDS} interleaved rounds`);
for (const [name] of variants) console.log(`  ${name.padEnd(20)} ${at(name).toFixed(1)}`);
console.log(
  `  mock / floor ${(at("mock") / at("floor")).toFixed(2)}; over the floor: the adapter ${
    (at("adapter") - at("floor")).toFixed(1)
  }, the engine in the session ${(at("mock") - at("adapter")).toFixed(1)} (alone: ${
    at("engine, interactive").toFixed(1)
  })`,
);
