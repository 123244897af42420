// The fake claude binary under Node with no Deno anywhere on PATH: the package's bin
// (node_modules/.bin/claude-mock), installFakeClaude's `claude` on PATH, the SDK through
// pathToClaudeCodeExecutable, live tools, SIGTERM, a temporary HOME (the real ~/.claude is left
// alone) and drift with the project's TypeScript.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { MockTransport, ScenarioBuilder } from "@x/claude-mock";
import { installFakeClaude } from "@x/claude-mock/cli";
import { collect, kinds, pathWithoutDeno, projectDir } from "./_helpers.mjs";

const bin = join(projectDir, "node_modules", ".bin", "claude-mock");
const noDeno = pathWithoutDeno();
let cwd;
before(async () => (cwd = await mkdtemp(join(tmpdir(), "claude-mock-bin-"))));
after(() => rm(cwd, { recursive: true }));

/** Runs a command to its end: stdin is /dev/null unless `input` is given. */
function exec(cmd, args, { env = {}, input, dir = cwd } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: dir,
      env: { ...process.env, PATH: noDeno, ...env },
      stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    if (input !== undefined) child.stdin.end(input);
  });
}

test("no deno on the PATH the binary runs with", async () => {
  const found = await exec("sh", ["-c", "command -v deno || echo none"]);
  assert.equal(found.stdout.trim(), "none");
});

test("the bin: print mode, --version, a refused flag", async () => {
  const hello = await exec(bin, ["-p", "hello"]);
  assert.deepEqual(hello, {
    code: 0,
    signal: null,
    stdout: "Hello! How can I help?\n",
    stderr: "",
  });
  // the CLI of the SDK installed beside the bin, though the run's folder has none
  const manifest = join(projectDir, "node_modules/@anthropic-ai/claude-agent-sdk/manifest.json");
  const { version } = JSON.parse(await readFile(manifest, "utf8"));
  assert.equal((await exec(bin, ["--version"])).stdout, `${version} (Claude Code)\n`);
  const bad = await exec(bin, ["--verbos"]);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /error: unknown option '--verbos'/);
  const piped = await exec(bin, ["-p", "--output-format", "json"], { input: "hello from stdin" });
  assert.equal(JSON.parse(piped.stdout).result, "Hello! How can I help?");
});

test("on PATH: a shell finds claude-mock in node_modules/.bin", async () => {
  const out = await exec("sh", ["-c", "claude-mock -p hi --output-format stream-json --verbose"], {
    env: { PATH: `${join(projectDir, "node_modules", ".bin")}:${noDeno}` },
  });
  assert.equal(out.code, 0, out.stderr);
  const frames = out.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(frames.map((f) => f.type), ["system", "assistant", "result"]);
});

test("installFakeClaude: `claude` on PATH runs the scenario; the capture sees the flags", async (t) => {
  const claude = await installFakeClaude({
    scenario: new ScenarioBuilder().on("release notes").respond("v1.2: two fixes.").build(),
  });
  t.after(() => claude.dispose());
  const out = await exec("sh", ["-c", 'claude -p "write the release notes" --output-format json'], {
    env: { ...claude.env, PATH: `${claude.dir}:${noDeno}` },
  });
  assert.equal(out.code, 0, out.stderr);
  assert.equal(JSON.parse(out.stdout).result, "v1.2: two fixes.");
  const capture = await claude.capture();
  capture.assertFlags("--output-format", { value: "json" });
  capture.assertInvoked(1);
});

test("the SDK through pathToClaudeCodeExecutable: the same messages as in-process", async (t) => {
  const scenario = () =>
    new ScenarioBuilder({ seed: 5 }).on("notes").usesRead("/p/notes.txt", { content: "a" })
      .respond("One line.").build();
  const inProcess = await collect("notes?", new MockTransport(scenario()).options());
  const claude = await installFakeClaude({ scenario: scenario() });
  t.after(() => claude.dispose());
  for (const path of [claude.path, bin]) {
    const out = await collect("notes?", {
      pathToClaudeCodeExecutable: path,
      env: { ...process.env, ...claude.env, PATH: `${claude.dir}:${noDeno}` },
    });
    assert.equal(out.error, undefined, `${path}: ${out.error?.message}`);
    assert.deepEqual(kinds(out.messages), kinds(inProcess.messages));
    assert.equal(out.messages.at(-1).result, "One line.");
  }
});

test("live mode under Node: allowed Bash and Write really run in the cwd", async (t) => {
  const claude = await installFakeClaude({
    scenario: new ScenarioBuilder().on("make")
      .usesBash("echo made > made.txt")
      .usesWrite(join(cwd, "notes.txt"), { content: "written\n" })
      .usesTool("Glob", { pattern: "*.txt" }, { result: "scripted" }) // live: the real listing
      .usesRead(join(cwd, "made.txt"), { content: "scripted" }) // live: the real file
      .respond("Made.").build(),
    env: { CLAUDE_MOCK_LIVE: "1" },
  });
  t.after(() => claude.dispose());
  const out = await exec("claude", [
    "-p",
    "make it",
    "--allowedTools",
    "Bash,Write",
    // Glob is the session's only when named (as in the real CLI; Bash's find does its work)
    "--tools",
    "Bash,Write,Glob,Read",
    "--output-format",
    "stream-json",
    "--verbose",
  ], {
    env: { ...claude.env, PATH: `${claude.dir}:${noDeno}` },
  });
  assert.equal(out.code, 0, out.stderr);
  assert.equal(await readFile(join(cwd, "made.txt"), "utf8"), "made\n");
  assert.equal(await readFile(join(cwd, "notes.txt"), "utf8"), "written\n");
  const results = out.stdout.trim().split("\n").map((l) => JSON.parse(l))
    .filter((f) => f.type === "user").map((f) => JSON.stringify(f.message.content));
  assert.equal(results.length, 4); // Bash, Write, Glob, Read
  assert.match(results[2], /"content":"made\.txt\\nnotes\.txt"/); // relative, oldest first
  assert.match(results[3], /made/);
  assert.doesNotMatch(results.join(""), /scripted/);
});

test("SIGTERM ends a session that stays alive after its result with exit 143", async () => {
  const child = spawn(bin, [
    "--input-format",
    "stream-json",
    "--output-format",
    "stream-json",
    "--verbose",
  ], {
    cwd,
    env: { ...process.env, PATH: noDeno, CLAUDE_MOCK_HANG: "1" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const exited = new Promise((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal }))
  );
  let stdout = "";
  const sawResult = new Promise((resolve) =>
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      if (stdout.includes('"type":"result"')) resolve();
    })
  );
  child.stdin.write(
    '{"type":"user","session_id":"","message":{"role":"user","content":"hello"},"parent_tool_use_id":null}\n',
  );
  await sawResult; // stdin stays open and CLAUDE_MOCK_HANG keeps it running
  child.kill("SIGTERM");
  assert.deepEqual(await exited, { code: 143, signal: null });
  child.stdin.destroy();
});

test("runs that overlap each get an invocation number of their own (Node's counter)", async () => {
  const state = await mkdtemp(join(tmpdir(), "claude-mock-state-"));
  try {
    const capture = join(state, "capture.jsonl");
    const env = { CLAUDE_MOCK_STATE_DIR: state, CLAUDE_MOCK_CAPTURE: capture };
    const runs = await Promise.all(
      Array.from({ length: 6 }, () => exec(bin, ["-p", "hi"], { env })),
    );
    assert.deepEqual(runs.map((r) => r.code), [0, 0, 0, 0, 0, 0]);
    const seqs = (await readFile(capture, "utf8")).trim().split("\n").map((l) => JSON.parse(l).seq);
    assert.deepEqual(seqs.toSorted((a, b) => a - b), [1, 2, 3, 4, 5, 6]);
  } finally {
    await rm(state, { recursive: true });
  }
});

test("the bin with a temporary HOME: ~/.claude untouched, its state folder resumes the session", async () => {
  const home = await mkdtemp(join(tmpdir(), "claude-mock-home-"));
  try {
    const env = {
      HOME: home,
      XDG_STATE_HOME: "",
      CLAUDE_CONFIG_DIR: "",
      CLAUDE_MOCK_STATE_DIR: "",
    };
    const first = await exec(bin, ["-p", "hello", "--output-format", "json"], { env });
    assert.equal(first.code, 0, first.stderr);
    const id = JSON.parse(first.stdout).session_id;
    const again = await exec(bin, ["-p", "again", "--resume", id, "--output-format", "json"], {
      env,
    });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(JSON.parse(again.stdout).session_id, id);
    assert.equal(existsSync(join(home, ".claude")), false, "~/.claude was created");
    const projects = join(home, ".local", "state", "claude-mock", "projects");
    const [slug] = await readdir(projects);
    assert.deepEqual(await readdir(join(projects, slug)), [`${id}.jsonl`]);
  } finally {
    await rm(home, { recursive: true });
  }
});

test("drift under Node: the project's TypeScript checks a tape; with no checker, it says what it needs", async () => {
  const tape = join(projectDir, "test", "__cassettes__", "hello.jsonl");
  // in the project: its typescript and SDK (the real CLI's tape has fields the SDK's types lack)
  const checked = await exec(bin, ["drift", tape], { dir: projectDir });
  assert.equal(checked.code, 1, checked.stderr);
  assert.match(checked.stdout, /hello\.jsonl:\d+ {2}system\/init {2}unmodeled-field at /);
  assert.match(checked.stdout, /^drift: \d+ findings in 1 of 1 tape$/m);
  // outside any project and with no deno on PATH: no checker
  const none = await exec(bin, ["drift", tape], { dir: cwd });
  assert.equal(none.code, 2);
  assert.match(
    none.stderr,
    /^claude-mock drift: no type checker: .*install TypeScript in the project \(npm install --save-dev typescript\) or put deno on PATH/,
  );
});
