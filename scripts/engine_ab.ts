// A/B of the engine's CPU per turn between another tree of this repository (A, e.g. the commit
// before a change) and this one (B), paired in one process: both module graphs are loaded side
// by side and their rounds alternate (A B, B A, …), so both see the same load. Each round is
// one engine session of 2,000 turns, each prompt written once the turn before went idle (the
// "engine, interactive" variant of turn_breakdown.ts); the figure is the median of the
// per-round ratios B/A (printed, never asserted). On a loaded machine a change under about 2%
// does not show.
//
//   git archive <rev> | tar -x -C /tmp/engine-a
//   deno run -A scripts/engine_ab.ts /tmp/engine-a [--rounds N]   (default 30)
import process from "node:process";
import { PROMPT, SDK } from "./_sdk_turn.ts";

const base = Deno.args[0];
if (!base || base.startsWith("--")) {
  console.error("usage: deno run -A scripts/engine_ab.ts <tree A> [--rounds N]");
  Deno.exit(2);
}
const ROUNDS = Number(Deno.args[Deno.args.indexOf("--rounds") + 1]) || 30;
const TURNS = 2_000;

type Tree = () => Promise<void>;

/** One interactive session of `TURNS` turns on the engine of the tree at `root`. */
async function tree(root: URL): Promise<Tree> {
  const { ScenarioBuilder } = await import(new URL("mod.ts", root).href);
  const { Session } = await import(new URL("session.ts", root).href);
  const scenario = new ScenarioBuilder().on("hello", { repeat: true })
    .respond("Hello! How can I help you today?").build();
  return async () => {
    let turns = 0;
    const session = new Session(scenario, {
      ...SDK,
      output: (line: Uint8Array) => {
        // the `idle` state line (about 190 bytes, "idle" at byte 60) ends a turn
        if (line.length < 256 && line[60] === 0x69 && line[61] === 0x64) {
          queueMicrotask(() => ++turns < TURNS ? session.write(PROMPT) : session.endInput());
        }
      },
    });
    session.write(PROMPT);
    await session.exited;
  };
}

const cwd = new URL(`file://${Deno.cwd()}/`);
const runs = [
  await tree(new URL(base.endsWith("/") ? base : `${base}/`, cwd)),
  await tree(new URL("../", import.meta.url)),
];
const spent: number[][] = [[], []];
const ratios: number[] = [];
for (let round = -3; round < ROUNDS; round++) {
  // three rounds warm up; the order alternates
  const got = [0, 0];
  for (const i of round % 2 ? [0, 1] : [1, 0]) {
    const before = process.cpuUsage();
    await runs[i]();
    const cpu = process.cpuUsage(before);
    got[i] = (cpu.user + cpu.system) / TURNS;
  }
  if (round < 0) continue;
  spent[0].push(got[0]);
  spent[1].push(got[1]);
  ratios.push(got[1] / got[0]);
}
const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
console.log(
  `engine CPU µs per turn, ${ROUNDS} paired rounds: A ${median(spent[0]).toFixed(2)}, B ${
    median(spent[1]).toFixed(2)
  }; B/A median of the paired ratios ${median(ratios).toFixed(3)}`,
);
