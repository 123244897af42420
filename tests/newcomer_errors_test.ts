// What a newcomer and a hostile caller meet: wrong argument types to the public constructors,
// the command a missing cassette names, a recording whose CLI never started, and the fake
// binary's state and capture files in places it cannot write. Each error says what, why, where.
import assert from "node:assert/strict";
import { loadScenario, MockTransport, ScenarioBuilder } from "../mod.ts";
import {
  cassette,
  lintTape,
  loadTape,
  parseTape,
  scrubTape,
  SnapshotPlayer,
  type Tape,
  tapeToScenario,
} from "../cassette.ts";
import { runFake } from "./_fake_cli.ts";
import { nextInvocation } from "../src/cli/cli_state.ts";
import { Session } from "../session.ts";
import { installFakeClaude, readCapture } from "../cli.ts";

/** Runs the fake binary in process with `env` (and piped `stdin`, if given). */
const fake = (argv: string[], env: Record<string, string>, cwd: string, stdin?: string) =>
  runFake(argv, cwd, { env, stdin });

Deno.test("new SnapshotPlayer(tape): a value that is no tape is refused at once, naming what it needs", () => {
  for (const bad of [null, undefined, 5, {}, { entries: [] }, { header: {}, entries: "x" }]) {
    assert.throws(
      () => new SnapshotPlayer(bad as unknown as Tape),
      (e: unknown) =>
        e instanceof TypeError &&
        /^Cannot replay: new SnapshotPlayer\(tape\): expected a tape \(what loadTape or parseTape gives\), got /
          .test(e.message),
    );
  }
  const tape: Tape = { header: { format: "claude-mock-tape", version: 1 }, entries: [] };
  assert.throws(
    () => new SnapshotPlayer(tape, 5 as never),
    /Cannot replay: the options must be an object, got 5/,
  );
});

Deno.test("new MockTransport(): a scenario or options of the wrong type is refused at once", () => {
  const scenario = new ScenarioBuilder().on("hi").respond("ok").build();
  assert.throws(
    () => new MockTransport(null as never),
    /Cannot create a MockTransport: the scenario must be an object .* got null/,
  );
  assert.throws(
    () => new MockTransport("x" as never),
    /Cannot create a MockTransport: the scenario must be an object .* got string/,
  );
  assert.throws(
    () => new MockTransport(scenario, 5 as never),
    /Cannot create a MockTransport: the options must be an object, got number/,
  );
  assert.throws(
    () => new MockTransport(scenario, null as never),
    /Cannot create a MockTransport: the options must be an object, got null/,
  );
  // no scenario at all is an empty one, as documented
  assert.deepEqual(new MockTransport().scenario, { exchanges: [] });
});

Deno.test("cassette in record mode: a CLI that cannot start fails close(), naming it, and keeps the old tape", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/hello.jsonl`;
    await Deno.writeTextFile(path, "the tape recorded before\n");
    const tape = await cassette({ origin: `file://${dir}/x_test.ts` }, "hello", {
      mode: "record",
      dir,
      env: {},
      warn: () => {},
    });
    const child = tape.spawn({
      command: `${dir}/no-such-claude`,
      args: ["--output-format", "stream-json"],
      env: {},
      signal: new AbortController().signal,
    });
    const failed = new Promise((resolve) => child.on("error", resolve));
    await failed;
    await assert.rejects(
      tape.close(),
      (e: unknown) =>
        e instanceof Error &&
        e.message.startsWith(
          `Cannot record cassette 'hello': the CLI "${dir}/no-such-claude" did not run (`,
        ) && e.message.includes("ENOENT") && e.message.includes(`${path} is left as it was`),
    );
    assert.equal(await Deno.readTextFile(path), "the tape recorded before\n");
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["hello.jsonl"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the fake binary: a capture file it cannot write is named, with why; so is a state folder", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/afile`, "");
    const config = { CLAUDE_CONFIG_DIR: `${dir}/config` };
    // a CLAUDE_MOCK_STATE_DIR that cannot be written stops the run, naming the variable
    // (tests/hostile4_state_dir_test.ts; it counted every run as the first, unsaid)
    const state = await fake(["-p", "hello"], {
      ...config,
      CLAUDE_MOCK_STATE_DIR: `${dir}/afile/state`,
    }, dir);
    assert.deepEqual([state.code, state.stdout], [1, ""]);
    assert.match(state.stderr, /^claude-mock: CLAUDE_MOCK_STATE_DIR must be a folder path/);
    // the counter's own error says where and why
    await assert.rejects(
      nextInvocation(`${dir}/afile/state`),
      new RegExp(
        `^Error: Cannot count this run in the state folder ${dir}/afile/state \\(CLAUDE_MOCK_STATE_DIR names another\\): `,
      ),
    );
    const capture = await fake(["-p", "hello"], {
      ...config,
      CLAUDE_MOCK_STATE_DIR: `${dir}/state`,
      CLAUDE_MOCK_CAPTURE: `${dir}/afile/capture.jsonl`,
    }, dir);
    assert.equal(capture.stdout, "Hello! How can I help?\n");
    assert.equal(capture.code, 1);
    assert.match(
      capture.stderr,
      new RegExp(
        `^claude-mock: Cannot write the capture file ${dir}/afile/capture.jsonl \\(--capture or CLAUDE_MOCK_CAPTURE\\): `,
      ),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the fake binary: a stdin line that is not JSON ends it with exit 1 and the real CLI's note", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const env = { CLAUDE_CONFIG_DIR: `${dir}/config`, CLAUDE_MOCK_STATE_DIR: `${dir}/state` };
    const flags = ["--output-format", "stream-json", "--verbose", "--input-format", "stream-json"];
    const run = await fake(flags, env, dir, "not json\n");
    assert.deepEqual(run, {
      code: 1,
      stdout: "",
      stderr: "Error parsing streaming input line (type=unknown, 8 chars): SyntaxError\n",
    });
    // JSON that is no frame is passed over, as the real CLI does
    const hello = JSON.stringify({ type: "user", message: { role: "user", content: "hello" } });
    const passed = await fake(flags, env, dir, `[1,2]\n${hello}\n`);
    assert.equal(passed.code, 0);
    assert.match(passed.stdout, /"result":"Hello! How can I help\?"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadTape and loadScenario: a value that is no path is named as such", async () => {
  for (const bad of [5, null, undefined]) {
    await assert.rejects(
      loadTape(bad as never),
      new RegExp(
        `^TypeError: Cannot load tape: expected a file path or URL, got ${
          bad === null ? "null" : typeof bad
        }$`,
      ),
    );
  }
  await assert.rejects(loadTape(""), /^TypeError: Cannot load tape: the path is empty$/);
  await assert.rejects(loadScenario(""), /^TypeError: Cannot load scenario: the path is empty$/);
});

Deno.test("scrubTape, lintTape, tapeToScenario, parseTape: a value that is no tape is named", () => {
  const calls: [string, (t: unknown) => unknown][] = [
    ["Cannot scrub tape", (t) => scrubTape(t as Tape)],
    ["Cannot lint tape", (t) => lintTape(t as Tape)],
    ["Cannot convert tape to a scenario", (t) => tapeToScenario(t as Tape)],
  ];
  for (const [what, call] of calls) {
    for (
      const [bad, got] of [
        [null, "got null"],
        [5, "got number"],
        [{}, "got an object without a header object"],
        [{ header: {} }, "got an object without an entries array"],
      ] as const
    ) {
      assert.throws(
        () => call(bad),
        (e: unknown) =>
          e instanceof TypeError &&
          e.message ===
            `${what}: expected a tape (what loadTape or parseTape gives), ${got}`,
      );
    }
  }
  assert.throws(
    () => parseTape(5 as never),
    /^TypeError: Cannot load tape: parseTape needs the tape's text, got number$/,
  );
});

Deno.test("installFakeClaude and readCapture: options or a path of the wrong type are named", async () => {
  await assert.rejects(
    installFakeClaude(5 as never),
    /^TypeError: Cannot install the fake claude: the options must be an object, got number$/,
  );
  await assert.rejects(
    installFakeClaude({ env: { CLAUDE_MOCK_SEED: 5 as never } }),
    /^TypeError: Cannot install the fake claude: options\.env\.CLAUDE_MOCK_SEED must be a string, got number$/,
  );
  await assert.rejects(
    readCapture(5 as never),
    /^TypeError: Cannot read the capture: expected the capture file's path, got number$/,
  );
});

Deno.test("new Session(scenario, options): options that are no object are named", () => {
  const scenario = new ScenarioBuilder().on("hi").respond("ok").build();
  assert.throws(
    () => new Session(scenario, 5 as never),
    /^TypeError: Cannot start a session: the options must be an object, got number$/,
  );
});

Deno.test("the fake binary: an empty --capture, --scenario or --failure is refused, not passed over", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const env = { CLAUDE_CONFIG_DIR: `${dir}/config`, CLAUDE_MOCK_STATE_DIR: `${dir}/state` };
    for (const option of ["--capture", "--scenario", "--failure", "--mock-commands"]) {
      for (const argv of [[`${option}=`, "-p", "hi"], [option, "", "-p", "hi"]]) {
        assert.deepEqual(await fake(argv, env, dir), {
          code: 1,
          stdout: "",
          stderr: `error: option '${option} <value>' argument is empty\n`,
        });
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

for (const event of ["PreToolUse", "UserPromptSubmit", "PostToolUse", "Stop"]) {
  Deno.test(`stdin closed before a ${event} hook callback: none is asked and the turn goes on, as the real CLI`, async () => {
    // recorded (FINDINGS_gaps.md, CLI 2.1.328 and 2.1.332): a PreToolUse hook's tool use is
    // cancelled, any other hook passed over
    const session = new Session(
      new ScenarioBuilder().on("go").usesBash("touch out.txt").respond("Done.").build(),
      { controlTimeoutMs: 600_000, args: ["--allowedTools", "Bash"] },
    );
    const writer = session.writable.getWriter();
    const reading = new Response(session.readable).text();
    const lines = [
      {
        type: "control_request",
        request_id: "i1",
        request: { subtype: "initialize", hooks: { [event]: [{ hookCallbackIds: ["hook_0"] }] } },
      },
      { type: "user", message: { role: "user", content: "go" }, parent_tool_use_id: null },
    ];
    await writer.write(lines.map((l) => JSON.stringify(l) + "\n").join(""));
    await writer.close();
    const frames = (await reading).trim().split("\n").map((l) => JSON.parse(l));
    // UserPromptSubmit's request is written as the turn starts, before the mock reads the end
    // of stdin (it then fails as a pending one does); the others' come later: none is written
    const asked = frames.filter((f) => f.type === "control_request").length;
    assert.equal(asked, event === "UserPromptSubmit" ? 1 : 0, "hook_callback requests");
    const result = frames.findLast((f) => f.type === "result");
    assert.deepEqual([result.subtype, result.is_error, result.result], ["success", false, "Done."]);
    const toolResult = frames.find((f) => f.type === "user").message.content[0];
    if (event === "PreToolUse") {
      assert.equal(
        toolResult.content,
        "The user doesn't want to take this action right now. STOP what you are doing and wait for the user to tell you how to proceed.",
      );
      assert.equal(toolResult.is_error, true);
    } else assert.equal(toolResult.is_error, false);
    assert.deepEqual(result.permission_denials, []);
  });
}
