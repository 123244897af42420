// Benchmark (d): how the engine's per-turn cost scales, on the raw duplex of a `Session`
// (no SDK). The client writes one user frame, waits for that turn's `result` frame (stdout
// is read concurrently and split into lines), then writes the next.
//
// (a) Session length: 10,000 turns in ONE session, exchange `.on("ping", { repeat: true })
//     .respond("pong")`, after a 1,000-turn warm-up session. Prints the wall time of each
//     block of 1,000 turns and last block / first block.
//     Goal: ≈ 1.0 (a linear-cost engine; a turn must not cost more as the session grows).
//
// (b) Scenario size: the per-turn cost with a 10-exchange scenario (S10) vs a 10,000-exchange
//     scenario (S10k); exchanges `.on(exact("q" + i)).respond("a" + i)`. Both runs do the
//     same 2,000 turns in one session each: S10's exchanges repeat and the prompts cycle
//     q0..q9; S10k's exchanges answer once and the prompts are q0..q1999, each once (so the
//     turn t of both answers with the t-th matching exchange's text; every result is
//     checked). Session construction is outside this figure. 7 rounds, interleaved
//     S10 S10k / S10k S10; prints the per-turn µs of each (median of rounds) and the median
//     of the paired ratios S10k/S10 (min–max).
//     Goal: S10k/S10 ≤ 1.2.
//
//     Separately, start-up: a new Session for the scenario plus one turn (q0) to its result,
//     then stdin closed and the exit awaited; S10k vs S10 interleaved in blocks of 20 over
//     7 rounds. It shows what validating / indexing the scenario once per session costs
//     (the 10,000-exchange scenario is built once, outside all timings; its build time is
//     printed for reference).
//
//   deno run -A scripts/scaling_bench.ts
import { exact, type Scenario, ScenarioBuilder } from "../mod.ts";
import { Session } from "../session.ts";

const ENCODER = new TextEncoder();

function userFrame(text: string): Uint8Array {
  return ENCODER.encode(
    JSON.stringify({
      type: "user",
      session_id: "",
      message: { role: "user", content: text },
      parent_tool_use_id: null,
    }) + "\n",
  );
}

interface Result {
  is_error?: boolean;
  result?: string;
  subtype?: string;
}

/** A session driven turn by turn: `turn(prompt)` resolves with that turn's result frame. */
class Driver {
  readonly session: Session;
  #writer: WritableStreamDefaultWriter<Uint8Array | string>;
  #results: Result[] = [];
  #waiting?: (result: Result) => void;
  #reading: Promise<void>;

  constructor(scenario: Scenario) {
    this.session = new Session(scenario);
    this.#writer = this.session.writable.getWriter();
    this.#reading = this.#read(this.session.readable);
  }

  async #read(readable: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of readable) {
      buffer += decoder.decode(chunk, { stream: true });
      let i;
      while ((i = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 1);
        if (!line.includes('"result"')) continue;
        const frame = JSON.parse(line);
        if (frame.type !== "result") continue;
        const waiting = this.#waiting;
        this.#waiting = undefined;
        if (waiting) waiting(frame);
        else this.#results.push(frame);
      }
    }
  }

  /** Writes one user frame and resolves with its turn's result frame. */
  async turn(prompt: string): Promise<Result> {
    const result = new Promise<Result>((resolve) => {
      const ready = this.#results.shift();
      if (ready) resolve(ready);
      else this.#waiting = resolve;
    });
    await this.#writer.write(userFrame(prompt));
    return result;
  }

  /** Closes stdin, drains stdout, resolves once the process has exited with code 0. */
  async close(): Promise<void> {
    await this.#writer.close();
    await this.#reading;
    const status = await this.session.exited;
    if (status.code !== 0) throw new Error(`the session exited with ${JSON.stringify(status)}`);
  }
}

function expect(result: Result, text: string): void {
  if (result.is_error || result.result !== text) {
    throw new Error(`expected result ${JSON.stringify(text)}, got ${JSON.stringify(result)}`);
  }
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

const started = performance.now();

// ---- (a) 10,000 turns in one session ---------------------------------------------------

const TURNS = 10_000;
const BLOCK = 1_000;
const ping = new ScenarioBuilder().on("ping", { repeat: true }).respond("pong").build();

async function pingSession(turns: number, onBlock?: (ms: number) => void): Promise<void> {
  const driver = new Driver(ping);
  let blockStart = performance.now();
  for (let n = 0; n < turns; n++) {
    expect(await driver.turn(`ping ${n}`), "pong");
    if ((n + 1) % BLOCK === 0) {
      const now = performance.now();
      onBlock?.(now - blockStart);
      blockStart = now;
    }
  }
  await driver.close();
}

await pingSession(BLOCK); // warm-up
const blocks: number[] = [];
await pingSession(TURNS, (ms) => blocks.push(ms));

console.log(`(a) ${TURNS} turns in one session, ms per block of ${BLOCK} turns:`);
console.log("  " + blocks.map((ms) => ms.toFixed(0)).join("  "));
console.log(
  `  total ${(blocks.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s; ` +
    `last/first block ${(blocks.at(-1)! / blocks[0]).toFixed(2)}   goal ≈ 1.0`,
);

// ---- (b) 10 exchanges vs 10,000 exchanges --------------------------------------------------

const SMALL = 10;
const LARGE = 10_000;
const RUN_TURNS = 2_000;
const ROUNDS = 7;

function exchanges(n: number, repeat: boolean): Scenario {
  const builder = new ScenarioBuilder();
  for (let i = 0; i < n; i++) builder.on(exact("q" + i), { repeat }).respond("a" + i);
  return builder.build();
}

const small = exchanges(SMALL, true);
const buildStart = performance.now();
const large = exchanges(LARGE, false);
const buildMs = performance.now() - buildStart;
const cases = [
  { name: `S10  (${SMALL} exchanges, repeat)`, scenario: small, cycle: SMALL },
  { name: `S10k (${LARGE} exchanges, once)`, scenario: large, cycle: LARGE },
];

/** Per-turn µs of `turns` turns in one session (construction and exit not timed). */
async function perTurn(scenario: Scenario, cycle: number, turns = RUN_TURNS): Promise<number> {
  const driver = new Driver(scenario);
  const start = performance.now();
  for (let t = 0; t < turns; t++) {
    const i = t % cycle;
    expect(await driver.turn("q" + i), "a" + i);
  }
  const us = (performance.now() - start) * 1000 / turns;
  await driver.close();
  return us;
}

/** Mean µs of `n` start-ups: new Session + one turn to its result + exit. */
async function startUp(scenario: Scenario, n: number): Promise<number> {
  const start = performance.now();
  for (let k = 0; k < n; k++) {
    const driver = new Driver(scenario);
    expect(await driver.turn("q0"), "a0");
    await driver.close();
  }
  return (performance.now() - start) * 1000 / n;
}

// warm-up
for (const c of cases) await perTurn(c.scenario, c.cycle, 200);
for (const c of cases) await startUp(c.scenario, 20);

const turnUs: number[][] = [[], []];
const startUs: number[][] = [[], []];
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? [0, 1] : [1, 0];
  for (const i of order) turnUs[i].push(await perTurn(cases[i].scenario, cases[i].cycle));
  for (const i of order) startUs[i].push(await startUp(cases[i].scenario, 20));
}

console.log(
  `(b) ${RUN_TURNS} turns per session, ${ROUNDS} rounds interleaved; per turn (median of rounds):`,
);
cases.forEach((c, i) => console.log(`  ${c.name.padEnd(30)} ${median(turnUs[i]).toFixed(1)} µs`));
console.log(
  `  S10k/S10 per turn  ${spread(turnUs[1].map((x, r) => x / turnUs[0][r]), 2)}   goal ≤ 1.2`,
);
console.log("    start-up: new Session + one turn + exit (median of rounds of 20):");
cases.forEach((c, i) => console.log(`  ${c.name.padEnd(30)} ${median(startUs[i]).toFixed(0)} µs`));
console.log(
  `  S10k/S10 start-up  ${spread(startUs[1].map((x, r) => x / startUs[0][r]), 2)}` +
    `; S10k extra ${spread(startUs[1].map((x, r) => x - startUs[0][r]), 0)} µs` +
    ` (building the S10k scenario: ${buildMs.toFixed(0)} ms, once)`,
);
console.log(`total ${((performance.now() - started) / 1000).toFixed(1)} s`);
