// The fake binary run as a program under faults: the ways to run it (`cli.ts`, the bundle on
// Deno, the bundle on Node), a sandbox for its config, and the signal tests each way runs
// (`tests/cli_faults_test.ts` runs them for `cli.ts`, `tests/cli_faults_bin_slow_test.ts` for the
// bundle).
import assert from "node:assert/strict";
import { fromFileUrl } from "./_paths.ts";

export const ROOT = fromFileUrl(new URL("..", import.meta.url));
export const BIN = `${ROOT}dist/bin.js`;
export const decoder = new TextDecoder();

/** The ways to run the fake binary: argv before its own arguments. */
export const ENTRIES: Record<string, string[]> = {
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

export interface Run {
  code: number;
  signal: Deno.Signal | null;
  stdout: string;
  stderr: string;
}

/** A folder with the binary's config and state dirs, removed at the end. */
export async function sandbox(): Promise<
  { dir: string; env: Record<string, string> & { CLAUDE_CONFIG_DIR: string } } & AsyncDisposable
> {
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
export async function run(
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

/**
 * Runs each entry `perEntry` times at once with `CLAUDE_MOCK_CRASH_AFTER=n` (n from 2 to 6) on a
 * long streamed answer; returns what went wrong: a run that did not exit 1 with exactly n whole
 * frames on stdout.
 */
export async function crashAfterMisses(perEntry: number): Promise<string[]> {
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
    for (let i = 0; i < perEntry; i++) {
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
  return wrong;
}

/** A long answer, streamed in many paced frames: seconds of real time under `slow` timing. */
export async function longScenario(dir: string): Promise<string> {
  const path = `${dir}/count.json`;
  await Deno.writeTextFile(
    path,
    JSON.stringify({
      exchanges: [{ on: "count", steps: [{ say: "One. Two. Three. Four. Five. ".repeat(40) }] }],
    }),
  );
  return path;
}

export interface Started {
  child: Deno.ChildProcess;
  /** Resolves with stdout so far once it holds `n` lines. */
  lines(n: number): Promise<string>;
  /** Reads the rest of stdout and stderr and waits for the end. */
  finish(): Promise<Run>;
  /** Stops reading stdout (the reader goes away, like `| head -1`). */
  hangUp(): Promise<void>;
  /** Resolves with stderr's first line. */
  stderrLine(): Promise<string>;
}

export function start(
  entry: string,
  args: string[],
  options: { env: Record<string, string>; cwd: string; stdin?: "null" | "piped" },
): Started {
  const [command, ...prefix] = ENTRIES[entry];
  const child = new Deno.Command(command, {
    args: [...prefix, ...args],
    env: options.env,
    clearEnv: true,
    cwd: options.cwd,
    stdin: options.stdin ?? "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.getReader();
  let text = "";
  let ended = false;
  // stderr is read as it comes: its first line says the run has started
  let firstLine!: (line: string) => void;
  const firstLineSeen = new Promise<string>((resolve) => (firstLine = resolve));
  const stderr = (async () => {
    let err = "";
    for await (const chunk of child.stderr) {
      err += decoder.decode(chunk, { stream: true });
      if (err.includes("\n")) firstLine(err.split("\n")[0]);
    }
    firstLine(err);
    return err;
  })();
  return {
    child,
    stderrLine: () => firstLineSeen,
    async lines(n) {
      while (!ended && text.split("\n").length <= n) {
        const { done, value } = await reader.read();
        if (done) ended = true;
        else text += decoder.decode(value, { stream: true });
      }
      return text;
    },
    async finish() {
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        text += decoder.decode(r.value, { stream: true });
      }
      const status = await child.status;
      return { code: status.code, signal: status.signal, stdout: text, stderr: await stderr };
    },
    async hangUp() {
      await reader.cancel();
    },
  };
}

/** The transcript lines of the one session in the sandbox's config dir. */
export async function transcript(configDir: string): Promise<Record<string, unknown>[]> {
  const found: string[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(path);
      else if (e.name.endsWith(".jsonl")) found.push(path);
    }
  };
  await walk(`${configDir}/projects`).catch(() => {});
  assert.equal(found.length, 1, `one transcript (${found.join(", ")})`);
  const text = await Deno.readTextFile(found[0]);
  return text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
}

export async function capture(path: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(path).catch(() => "");
  return text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
}

export const STREAM = ["--output-format", "stream-json", "--verbose", "--include-partial-messages"];

/** Starts `entry` on the long answer in print mode (stream-json), paced by `timing`, captured. */
async function startCount(
  entry: string,
  box: { dir: string; env: Record<string, string> },
  timing: "slow" | "fast",
): Promise<{ env: Record<string, string>; run: Started }> {
  const env = {
    ...box.env,
    CLAUDE_MOCK_TIMING: timing,
    CLAUDE_MOCK_CAPTURE: `${box.dir}/capture.jsonl`,
  };
  const args = ["-p", "count", ...STREAM, "--scenario", await longScenario(box.dir)];
  return { env, run: start(entry, args, { env, cwd: box.dir }) };
}

/** Registers the signal tests of print mode (SIGTERM, SIGINT, a reader that goes away) for `entry`. */
export function signalTests(entry: string): void {
  Deno.test(`${entry}: SIGTERM mid-stream in print mode exits 143 and keeps the capture line and the transcript`, async () => {
    await using box = await sandbox();
    const { env, run } = await startCount(entry, box, "slow");
    await run.lines(3);
    run.child.kill("SIGTERM");
    const r = await run.finish();
    assert.deepEqual([r.code, r.signal], [143, null], r.stderr);
    assert.ok(!r.stdout.includes('"type":"result"'), "no result after the signal");
    const [captured] = await capture(env.CLAUDE_MOCK_CAPTURE);
    assert.equal(captured?.exitCode, 143);
    assert.deepEqual(captured?.prompts, ["count"]);
    const lines = await transcript(env.CLAUDE_CONFIG_DIR);
    assert.equal(lines[0].type, "user");
    assert.match(JSON.stringify(lines[0].message), /"count"/);
  });

  Deno.test(`${entry}: SIGINT mid-stream interrupts the turn as the real CLI does: its tail, its result, exit 0`, async () => {
    await using box = await sandbox();
    const env = { ...box.env, CLAUDE_MOCK_TIMING: "slow" };
    const scenario = await longScenario(box.dir);
    const run = start(entry, ["-p", "count", ...STREAM, "--scenario", scenario], {
      env,
      cwd: box.dir,
    });
    await run.lines(5);
    run.child.kill("SIGINT");
    const r = await run.finish();
    assert.deepEqual([r.code, r.signal], [0, null], r.stderr);
    const frames = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const result = frames.at(-1);
    assert.equal(result.type, "result");
    assert.equal(result.subtype, "error_during_execution");
    assert.equal(result.terminal_reason, "aborted_streaming");
    assert.ok(
      frames.some((f) =>
        f.type === "user" && f.message.content[0]?.text === "[Request interrupted by user]"
      ),
    );
    const lines = await transcript(env.CLAUDE_CONFIG_DIR);
    assert.ok(JSON.stringify(lines).includes("[Request interrupted by user]"));
    // text and json print the interrupted result as the real CLI does, and exit 0
    const late = `${box.dir}/late.json`;
    await Deno.writeTextFile(
      late,
      JSON.stringify({ exchanges: [{ on: "count", steps: [{ say: "Late.", delay: 600_000 }] }] }),
    );
    for (
      const [format, expect] of [["text", /^Execution error$/], ["json", /"aborted_streaming"/]]
    ) {
      const again = start(
        entry,
        ["-p", "count", "--output-format", String(format), "--scenario", late],
        // the stderr line says the turn runs (nothing comes on stdout before the end)
        { env: { ...env, CLAUDE_MOCK_STDERR: "started" }, cwd: box.dir },
      );
      await again.stderrLine();
      again.child.kill("SIGINT");
      const t = await again.finish();
      assert.equal(t.code, 0, `${format}: ${t.stderr}`);
      assert.match(t.stdout, expect as RegExp, format as string);
    }
  });

  Deno.test(`${entry}: a reader that goes away (| head -1) does not end the run: it finishes, exit 0, transcript whole`, async () => {
    await using box = await sandbox();
    const { env, run } = await startCount(entry, box, "fast");
    await run.lines(1);
    await run.hangUp();
    const status = await run.child.status;
    assert.deepEqual([status.code, status.signal], [0, null]);
    const [captured] = await capture(env.CLAUDE_MOCK_CAPTURE);
    assert.equal(captured?.exitCode, 0);
    const lines = await transcript(env.CLAUDE_CONFIG_DIR);
    const said = lines.find((l) => l.type === "assistant") as {
      message: { content: { text: string }[] };
    };
    assert.equal(said?.message.content[0].text, "One. Two. Three. Four. Five. ".repeat(40));
    assert.ok(lines.some((l) => l.type === "result"));
  });
}
