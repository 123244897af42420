// The npm package's `claude-mock` bin under Node: `-p hello --output-format json` run as npm
// runs the bin (`node dist/node/claude-mock.cjs`: the CommonJS bundle with its V8 code cache,
// scripts/node_bin.ts) against the floors `node -e ''` (wall) and `node -e "console.log('{}')"`
// (first stdout byte), and for comparison the ES module bundle Deno runs (`dist/bin.js`) and the
// unbundled program (the compiled sources). Interleaved (A B C D ...), medians of the time to the
// first stdout byte and of wall time, as ratios of the medians and as the median of each round's
// own ratio (paired). The warm-up round makes the bin's code cache (in a temporary HOME).
// Run: deno run -A scripts/node_cli_speed.ts [rounds=21] [--node <path>] [--package <dir>]
import { buildNpm } from "./build_npm.ts";
import { interleaved, median } from "./_interleaved.ts";

function flag(name: string): string | undefined {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : undefined;
}

const rounds = Number(Deno.args.find((a) => /^\d+$/.test(a)) ?? 21);
const node = flag("--node") ?? "node";
const given = flag("--package");
const dir = await Deno.makeTempDir({ prefix: "claude-mock-node-speed-" });
const pkg = given ?? (await buildNpm({ out: `${dir}/package` })).dir;
await Deno.writeTextFile(
  `${dir}/unbundled.mjs`,
  `import { pathToFileURL } from "node:url";\nconst { runMain } = await import(pathToFileURL(${
    JSON.stringify(`${pkg}/src/cli/_main.js`)
  }).href);\nawait runMain();\n`,
);
const hello = ["-p", "hello", "--output-format", "json"];
const variants: Record<string, string[]> = {
  empty: ["-e", ""],
  print: ["-e", "console.log('{}')"],
  bin: [`${pkg}/dist/node/claude-mock.cjs`, ...hello],
  esm: [`${pkg}/dist/bin.js`, ...hello],
  unbundled: [`${dir}/unbundled.mjs`, ...hello],
};
const env = {
  PATH: Deno.env.get("PATH") ?? "",
  HOME: dir,
  CLAUDE_CONFIG_DIR: `${dir}/config`,
  CLAUDE_MOCK_STATE_DIR: `${dir}/state`,
};

async function once(args: string[]): Promise<{ first: number; wall: number }> {
  const start = performance.now();
  const child = new Deno.Command(node, {
    args,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  let first = NaN;
  for await (const _ of child.stdout) {
    if (Number.isNaN(first)) first = performance.now() - start;
  }
  const status = await child.status;
  if (!status.success) throw new Error(`${node} ${args.join(" ")} exited ${status.code}`);
  const wall = performance.now() - start;
  return { first: Number.isNaN(first) ? wall : first, wall };
}

const samples = await interleaved(variants, { rounds, once });
const version = new TextDecoder().decode(
  (await new Deno.Command(node, { args: ["--version"], stdout: "piped" }).output()).stdout,
).trim();
await Deno.remove(dir, { recursive: true });
const m = (name: string, key: "first" | "wall") => median(samples[name][key]);
console.log(`node ${version}, rounds: ${rounds} (interleaved), medians in ms`);
for (const name of Object.keys(variants)) {
  console.log(
    `${name.padEnd(10)} first stdout ${m(name, "first").toFixed(1).padStart(7)}  wall ${
      m(name, "wall").toFixed(1).padStart(7)
    }`,
  );
}
// each round's own ratio, then their median: robust to the machine's speed drifting
const paired = (name: string, floor: string, key: "first" | "wall") =>
  median(samples[name][key].map((v, i) => v / samples[floor][key][i]));
for (const name of ["bin", "esm", "unbundled"]) {
  for (const [key, floors] of [["first", ["empty", "print"]], ["wall", ["empty"]]] as const) {
    console.log(
      `${key.padEnd(5)} ${name}: ${
        floors.map((floor) =>
          `/${floor} ${(m(name, key) / m(floor, key)).toFixed(2)}x (paired ${
            paired(name, floor, key).toFixed(2)
          }x)`
        ).join(", ")
      }`,
    );
  }
}
