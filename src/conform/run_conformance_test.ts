// The conformance pipeline without the real binary: the fake `claude` (the mock binary) stands
// in for the real one, so both runs play the same engine; and bad input (a binary that is
// missing, not executable, hangs, or exits without a word) fails clearly and leaves no process.
import assert from "node:assert/strict";
import { installFakeClaude } from "../fake_claude/install_fake_claude.ts";
import { conformCommand } from "../cli/conform_command.ts";
import type { CliIO } from "../cli/cli_io.ts";
import { scenarioFromJSON } from "../scenario/scenario_from_json.ts";
import type { ConformCase } from "./conform_case.ts";
import { loadAgentSdk } from "./load_agent_sdk.ts";
import { runConformance } from "./run_conformance.ts";

const SCENARIO = {
  name: "hi",
  exchanges: [{ on: { any: true }, steps: [{ say: "Hello there." }] }],
};

function conformCase(extra: Partial<ConformCase> = {}): ConformCase {
  return {
    name: "hi",
    scenario: scenarioFromJSON(SCENARIO),
    scenarioSource: { json: SCENARIO },
    prompt: "hello",
    options: {},
    source: "inline",
    ...extra,
  };
}

async function script(dir: string, name: string, body: string, mode = 0o755): Promise<string> {
  const path = `${dir}/${name}`;
  await Deno.writeTextFile(path, `#!/bin/sh\n${body}\n`);
  await Deno.chmod(path, mode);
  return path;
}

function alive(pid: number): boolean {
  try {
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch {
    return false;
  }
}

Deno.test("runConformance: the mock binary standing in for the real CLI compares equal where both run one engine", async () => {
  await using fake = await installFakeClaude();
  const sdk = await loadAgentSdk({ claude: fake.path });
  const scenarioFile = `${fake.dir}/hi.json`;
  await Deno.writeTextFile(scenarioFile, JSON.stringify(SCENARIO));
  const report = await runConformance([
    conformCase({
      env: { CLAUDE_MOCK_SCENARIO: scenarioFile, CLAUDE_MOCK_STATE_DIR: `${fake.dir}/state` },
      print: { formats: ["text", "json"] },
    }),
  ], { sdk, timeoutMs: 60_000 });
  assert.equal(report.sdk, sdk.version);
  const [result] = report.cases;
  assert.deepEqual(result.modes.map((m) => m.mode), ["duplex", "print:text", "print:json"]);
  const byMode = Object.fromEntries(result.modes.map((m) => [m.mode, m]));
  assert.equal(byMode["print:text"].status, "identical");
  assert.equal(byMode["print:json"].status, "identical");
  // the two runs' wires were recorded and compared frame by frame
  const duplex = byMode.duplex;
  assert.ok(duplex.tapes!.mock.entries.length > 5);
  assert.equal(duplex.tapes!.mock.entries.length, duplex.tapes!.real.entries.length);
  for (const d of duplex.differences) {
    assert.ok(d.mockFrame !== undefined && d.realFrame !== undefined, JSON.stringify(d));
  }
});

Deno.test("conform: a binary that is missing or not executable is a clear error, exit 1", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const notExecutable = await script(dir, "claude", "exit 0", 0o644);
    await Deno.writeTextFile(
      `${dir}/case.json`,
      JSON.stringify({ scenario: SCENARIO, prompt: "hi" }),
    );
    for (
      const [claude, message] of [
        [`${dir}/none`, `Cannot run the real claude at ${dir}/none: it does not exist (ENOENT)`],
        [
          notExecutable,
          `Cannot run the real claude at ${notExecutable}: it is not executable (mode 644; chmod +x it)`,
        ],
      ]
    ) {
      const { code, err } = await conform([`${dir}/case.json`, "--claude", claude]);
      assert.equal(code, 1);
      assert.equal(err, `claude-mock conform: ${message}\n`);
    }
    const usage = await conform([]);
    assert.equal(usage.code, 2);
    assert.match(usage.err, /give case files or folders/);
    const noCase = await conform([`${dir}/nothing.json`]);
    assert.equal(noCase.code, 1);
    assert.match(noCase.err, /Cannot load the conformance case .*nothing\.json/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runConformance: a CLI that never connects is bounded: a hang is killed at the timeout, a silent exit reported", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const pidFile = `${dir}/pid`;
    const hang = await script(dir, "hang", `echo $$ > ${pidFile}\nexec sleep 30`);
    const report = await runConformance([conformCase()], {
      sdk: await loadAgentSdk({ claude: hang }),
      modes: ["duplex"],
      timeoutMs: 1500,
    });
    const [mode] = report.cases[0].modes;
    assert.equal(mode.status, "error");
    assert.equal(mode.error, "timed out after 1500 ms");
    assert.equal(
      alive(Number(await Deno.readTextFile(pidFile))),
      false,
      "the hanging CLI was killed",
    );
    const silent = await script(dir, "silent", "exit 3");
    const exited = await runConformance([conformCase()], {
      sdk: await loadAgentSdk({ claude: silent }),
      modes: ["duplex"],
      timeoutMs: 20_000,
    });
    const [m] = exited.cases[0].modes;
    assert.equal(m.status, "different");
    assert.match(m.thrown?.real ?? "", /exited with code 3/);
    assert.deepEqual(m.differences.find((d) => d.type === "exit"), {
      type: "exit",
      kind: "exit",
      mock: 0,
      real: 3,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runConformance: a stop ends a print run too, not at the time limit", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const hang = await script(dir, "hang", "exec sleep 30");
    const stop = new AbortController();
    const report = await runConformance([conformCase({ print: { formats: ["text"] } })], {
      sdk: await loadAgentSdk({ claude: hang }),
      modes: ["print"],
      timeoutMs: 20_000,
      signal: stop.signal,
      // stopped as the print run starts (its format's check has passed)
      log: (line) => line.includes("print") && stop.abort(),
    });
    const [mode] = report.cases[0].modes;
    assert.equal(mode.mode, "print:text");
    assert.equal(mode.status, "error");
    assert.equal(mode.error, "stopped");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("conform --known: a listed difference prints but passes, another fails, a match now is named", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const silent = await script(dir, "claude", "exit 3");
    await Deno.writeTextFile(
      `${dir}/hi.json`,
      JSON.stringify({ scenario: SCENARIO, prompt: "hi" }),
    );
    const known = async (entries: unknown[]) => {
      await Deno.writeTextFile(`${dir}/known.json`, JSON.stringify(entries));
      return await conform([
        `${dir}/hi.json`,
        "--claude",
        silent,
        "--mode",
        "duplex",
        "--known",
        `${dir}/known.json`,
      ]);
    };
    const listed = await known([{ case: "hi", mode: "duplex", reason: "the CLI here exits 3" }]);
    assert.equal(listed.code, 0, listed.out + listed.err);
    assert.match(listed.out, /hi: duplex \d+ difference/, "the difference is still reported");
    assert.match(listed.out, /: 1 mode known to differ, 0 not known\n/);
    const other = await known([{ case: "bye", reason: "another case's difference" }]);
    assert.equal(other.code, 1);
    assert.match(other.out, /: 0 modes known to differ, 1 not known\n {2}not known: hi duplex\n/);
    const bad = await known([{ case: "hi" }]);
    assert.equal(bad.code, 1);
    assert.match(
      bad.err,
      /Cannot load the known differences .*known\.json: entry 0 needs a 'reason'/,
    );
    // the mock binary standing in for the real CLI: the case matches, its entry is named
    await using fake = await installFakeClaude();
    const scenarioFile = `${dir}/scenario.json`;
    await Deno.writeTextFile(scenarioFile, JSON.stringify(SCENARIO));
    await Deno.writeTextFile(
      `${dir}/same.json`,
      JSON.stringify({
        scenario: SCENARIO,
        prompt: "hi",
        print: { formats: ["text", "json"] },
        env: { CLAUDE_MOCK_SCENARIO: scenarioFile, CLAUDE_MOCK_STATE_DIR: `${dir}/state` },
      }),
    );
    await Deno.writeTextFile(
      `${dir}/known.json`,
      JSON.stringify([{ case: "same", mode: "print:*", reason: "print mode differed once" }]),
    );
    const now = await conform([
      `${dir}/same.json`,
      "--claude",
      fake.path,
      "--mode",
      "print",
      "--known",
      `${dir}/known.json`,
    ]);
    assert.equal(now.code, 0, now.out + now.err);
    assert.match(now.out, /\n {2}matches now, remove its entry: same print:\*\n/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

async function conform(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const decoder = new TextDecoder();
  const io: CliIO = {
    argv: [],
    env: {},
    cwd: Deno.cwd(),
    stdin: new Blob([]).stream(),
    stdinIsTerminal: false,
    stdoutIsTerminal: false,
    stdout: new WritableStream({ write: (c) => void (out += decoder.decode(c)) }),
    stderr: new WritableStream({ write: (c) => void (err += decoder.decode(c)) }),
  };
  const code = await conformCommand(argv, io);
  return { code, out, err };
}
