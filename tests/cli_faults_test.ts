// The fake binary under faults (issue 21): a crash point writes exactly what it promises,
// signals in print mode keep the record, a reader that goes away ends the run as the real CLI
// does, and the fault knobs refuse values they cannot use. Each runs the binary as a program:
// `cli.ts` and the bundle `dist/bin.js` on Deno, and the bundle on Node.
import assert from "node:assert/strict";
import { fromFileUrl } from "./_paths.ts";

const ROOT = fromFileUrl(new URL("..", import.meta.url));
const BIN = `${ROOT}dist/bin.js`;
const decoder = new TextDecoder();

/** The ways to run the fake binary: argv before its own arguments. */
const ENTRIES: Record<string, string[]> = {
  "cli.ts": [Deno.execPath(), "run", "-A", "--no-config", `${ROOT}cli.ts`],
  "dist/bin.js": [
    Deno.execPath(),
    "run",
    "-A",
    "--no-config",
    "--no-npm",
    "--v8-flags=--no-lazy,--single-threaded,--no-sparkplug",
    BIN,
  ],
  "node dist/bin.js": ["node", BIN],
};

interface Run {
  code: number;
  signal: Deno.Signal | null;
  stdout: string;
  stderr: string;
}

/** A folder with the binary's config and state dirs, removed at the end. */
async function sandbox(): Promise<{ dir: string; env: Record<string, string> } & AsyncDisposable> {
  const dir = await Deno.makeTempDir({ prefix: "claude-mock-faults-" });
  return {
    dir,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: dir,
      CLAUDE_CONFIG_DIR: `${dir}/config`,
      CLAUDE_MOCK_STATE_DIR: `${dir}/state`,
    },
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

/** Runs one entry with `args` (stdin closed); resolves with what it printed and its end. */
async function run(
  entry: string,
  args: string[],
  options: { env: Record<string, string>; cwd: string },
): Promise<Run> {
  const [command, ...prefix] = ENTRIES[entry];
  const out = await new Deno.Command(command, {
    args: [...prefix, ...args],
    env: options.env,
    clearEnv: true,
    cwd: options.cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    signal: out.signal,
    stdout: decoder.decode(out.stdout),
    stderr: decoder.decode(out.stderr),
  };
}

// ---- item 5: CLAUDE_MOCK_CRASH_AFTER ------------------------------------------------------

Deno.test("CLAUDE_MOCK_CRASH_AFTER=n writes exactly n lines, every run, many at once", async () => {
  await using box = await sandbox();
  const scenario = `${box.dir}/long.json`;
  await Deno.writeTextFile(
    scenario,
    JSON.stringify({
      exchanges: [{ on: "go", steps: [{ say: "Hello there, a long answer. ".repeat(30) }] }],
    }),
  );
  const args = [
    "-p",
    "go",
    "--output-format",
    "stream-json",
    "--verbose",
    "--include-partial-messages",
    "--scenario",
    scenario,
  ];
  const runs: Promise<[string, number, Run]>[] = [];
  for (const entry of Object.keys(ENTRIES)) {
    for (let i = 0; i < 12; i++) {
      const n = 2 + (i % 5);
      runs.push(
        run(entry, args, { env: { ...box.env, CLAUDE_MOCK_CRASH_AFTER: String(n) }, cwd: box.dir })
          .then((r) => [entry, n, r]),
      );
    }
  }
  const wrong: string[] = [];
  for (const [entry, n, r] of await Promise.all(runs)) {
    const lines = r.stdout.split("\n").filter((l) => l !== "");
    if (r.code !== 1 || lines.length !== n || !lines.every((l) => JSON.parse(l).type)) {
      wrong.push(`${entry} n=${n}: exit ${r.code}, ${lines.length} lines ${r.stderr}`);
    }
  }
  assert.deepEqual(wrong, []);
});
