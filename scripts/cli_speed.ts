// The fake binary's start-up cost: `-p hello --output-format json` run as `installFakeClaude()`
// runs it (`dist/bin.js`, the bundle, with its shebang's V8 flags) and from the sources
// (`cli.ts`), against two floors:
// `deno run` of an empty script and of a script that only imports mod.ts. Interleaved
// (A B C D A B C D ...), medians of time to the first stdout byte and of wall time, as ratios
// of the medians and as the median of each round's own ratio (paired).
// Run: deno run -A scripts/cli_speed.ts [rounds=15]
const rounds = Number(Deno.args[0] ?? 15);
const dir = await Deno.makeTempDir();
const root = new URL("..", import.meta.url).pathname;
await Deno.writeTextFile(`${dir}/empty.ts`, "console.log('{}');\n");
await Deno.writeTextFile(
  `${dir}/import_mod.ts`,
  `import * as m from "${root}mod.ts";\nconsole.log(Object.keys(m).length > 0 ? "{}" : "");\n`,
);
const deno = Deno.execPath();
// the binary's runtime flags as its shebang (and installFakeClaude) gives them: the options
// after `deno run -A` (--no-config, --no-npm, --v8-flags=…)
import { interleaved, median } from "./_interleaved.ts";
const shebang = (await Deno.readTextFile(`${root}dist/bin.js`)).split("\n", 1)[0];
const binFlags = shebang.split(" ").slice(shebang.split(" ").indexOf("-A") + 1);
const hello = ["-p", "hello", "--output-format", "json"];
const variants: Record<string, string[]> = {
  empty: ["run", "-A", "--no-config", `${dir}/empty.ts`],
  importMod: ["run", "-A", "--no-config", `${dir}/import_mod.ts`],
  bin: ["run", "-A", ...binFlags, `${root}dist/bin.js`, ...hello],
  cli: ["run", "-A", "--no-config", `${root}cli.ts`, ...hello],
};
const env = {
  CLAUDE_CONFIG_DIR: `${dir}/config`,
  CLAUDE_MOCK_STATE_DIR: `${dir}/state`,
};

async function once(args: string[]): Promise<{ first: number; wall: number }> {
  const start = performance.now();
  const child = new Deno.Command(deno, {
    args,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  })
    .spawn();
  let first = NaN;
  for await (const _ of child.stdout) {
    if (Number.isNaN(first)) first = performance.now() - start;
  }
  const status = await child.status;
  if (!status.success) throw new Error(`${args.join(" ")} exited ${status.code}`);
  return { first, wall: performance.now() - start };
}

const samples = await interleaved(variants, { rounds, once });
await Deno.remove(dir, { recursive: true });
const m = (name: string, key: "first" | "wall") => median(samples[name][key]);
console.log(`rounds: ${rounds} (interleaved), medians in ms`);
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
for (const key of ["first", "wall"] as const) {
  for (const name of ["bin", "cli"]) {
    console.log(
      `${key.padEnd(5)} ${name}/empty ${(m(name, key) / m("empty", key)).toFixed(2)}x (paired ${
        paired(name, "empty", key).toFixed(2)
      }x), ${name}/importMod ${(m(name, key) / m("importMod", key)).toFixed(2)}x`,
    );
  }
}
