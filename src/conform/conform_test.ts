import assert from "node:assert/strict";
import type { TapeEntry } from "../cassette/tape.ts";
import { compareRuns } from "./_compare.ts";
import { Normalizer } from "./_normalize.ts";
import { loadConformCase, loadConformCases, printPlan } from "./conform_case.ts";
import { checkExceptions, explain, glob } from "./conform_exceptions.ts";
import { describeDifference } from "./conform_report.ts";

const frame = (
  dir: "sdk->cli" | "cli->sdk",
  f: { type: string; [k: string]: unknown },
): TapeEntry => ({
  t: 0,
  dir,
  line: 0,
  frame: f,
});

Deno.test("Normalizer replaces ids by their kind, times, durations, paths, the gateway and the socket", () => {
  const n = new Normalizer({
    cwd: ["/tmp/sb/project"],
    config: ["/tmp/sb/config"],
    other: ["/tmp/sb"],
    binary: "/opt/claude",
  });
  const a = n.normalize({
    type: "assistant",
    session_id: "11111111-2222-4333-8444-555555555555",
    uuid: "aaaaaaaa-2222-4333-8444-555555555555",
    timestamp: "2026-11-26T00:56:33.300Z",
    message: {
      id: "msg_01ABCdef1234",
      content: [{
        type: "tool_use",
        id: "toolu_01XYZ12345",
        input: { file_path: "/tmp/sb/project/a.txt" },
      }],
    },
    duration_ms: 1234,
    text: "see 127.0.0.1:40415 and /tmp/sb/config/projects/-tmp-sb-project/x.jsonl",
  });
  assert.deepEqual(a, {
    type: "assistant",
    session_id: "<uuid>",
    uuid: "<uuid>",
    timestamp: "<time>",
    message: {
      id: "<msg>",
      content: [{ type: "tool_use", id: "<toolu>", input: { file_path: "<cwd>/a.txt" } }],
    },
    duration_ms: "<ms>",
    text: "see <gateway> and <config>/projects/<cwd>-slug/x.jsonl",
  });
  assert.deepEqual(
    n.normalize({
      tool_use_id: "toolu_01XYZ12345",
      callback_id: "hook_3",
      end_time: 1795655043751,
    }),
    { tool_use_id: "<toolu>", callback_id: "hook_3", end_time: "<ms>" },
  );
  assert.equal(n.text("socket /tmp/cc-socks-0/4242.sock"), "socket <socket>");
  // wherever the CLI puts it (XDG_RUNTIME_DIR, its temp folder: v3xx_messaging_socket)
  assert.equal(n.text("/tmp/cc-socks/4242.sock"), "<socket>");
  assert.equal(n.text("/run/user/1000/cc-socks/4242.sock"), "<socket>");
  assert.equal(n.text("at /tmp/sandbox-1/tmp/cc-socks/814.sock."), "at <socket>.");
  assert.equal(n.text("gateway (127.0.0.1:9)."), "gateway (<gateway>).");
  assert.equal(
    n.text("first after 32 ms, none in the final 5 ms"),
    "first after <n> ms, none in the final <n> ms",
  );
  // a name under "id" is not an id
  assert.deepEqual(n.normalize({ id: "general-purpose" }), { id: "general-purpose" });
});

Deno.test("compareRuns pairs frames by kind: a frame only one side has shifts nothing after it", () => {
  const init = frame("cli->sdk", { type: "system", subtype: "init", model: "m" });
  const result = (extra: Record<string, unknown>) =>
    frame("cli->sdk", { type: "result", subtype: "success", result: "Hi", ...extra });
  const mock = {
    entries: [init, frame("cli->sdk", { type: "system", subtype: "status" }), result({ a: 1 })],
    exitCode: 0,
    stderr: [],
  };
  const real = { entries: [init, result({ a: 2, b: 3 })], exitCode: 1, stderr: ["warn"] };
  const diffs = compareRuns(mock, real);
  assert.deepEqual(diffs, [
    { type: "extra", kind: "cli->sdk system/status", mockFrame: 2 },
    {
      type: "keys",
      kind: "cli->sdk result/success",
      mockFrame: 3,
      realFrame: 2,
      path: "(frame)",
      mock: [],
      real: ["b"],
    },
    {
      type: "value",
      kind: "cli->sdk result/success",
      mockFrame: 3,
      realFrame: 2,
      path: "a",
      mock: 1,
      real: 2,
    },
    { type: "exit", kind: "exit", mock: 0, real: 1 },
    { type: "stderr", kind: "stderr", mock: "", real: "warn" },
  ]);
  assert.equal(
    describeDifference(diffs[2]),
    "frame 3/2 cli->sdk result/success value a: mock 1, real 2",
  );
  assert.deepEqual(compareRuns(mock, { ...mock }), []);
});

Deno.test("compareRuns compares each direction in order, not how the two interleave (the CLI's idle and the app's next prompt race)", () => {
  const result = frame("cli->sdk", { type: "result", subtype: "success", result: "Hi" });
  const state = (s: string) =>
    frame("cli->sdk", { type: "system", subtype: "session_state_changed", state: s });
  const prompt = frame("sdk->cli", { type: "user", message: { role: "user", content: "next" } });
  const run = (entries: typeof result[]) => ({ entries, exitCode: 0, stderr: [] });
  // conform builtin_simple_conversation: the real CLI wrote idle after the next prompt came in
  const mock = run([result, state("idle"), prompt, state("running")]);
  const real = run([result, prompt, state("idle"), state("running")]);
  assert.deepEqual(compareRuns(mock, real), []);
  // the order within one direction still counts
  const swapped = run([result, prompt, state("running"), state("idle")]);
  const diffs = compareRuns(mock, swapped);
  assert.ok(diffs.length > 0);
  assert.ok(diffs.every((d) => d.kind === "cli->sdk system/session_state_changed"));
});

Deno.test("exceptions are data: named, reasoned, matched by case, mode, kind, type and path globs", () => {
  const exceptions = checkExceptions([{
    name: "socket-path",
    reason: "The CLI's messaging socket is named after its process id.",
    kind: "cli->sdk system/init",
    path: "messaging_socket_path",
  }, {
    name: "interrupt-point",
    reason: "Where an interrupt lands in a stream depends on real time.",
    case: "interrupt*",
    mode: "duplex",
    path: "message.content.*.text",
  }]);
  const context = { case: "interrupt_story", mode: "duplex", sdk: "0.3.328" };
  const d = (kind: string, path: string) => ({
    type: "value" as const,
    kind,
    path,
    mock: 1,
    real: 2,
  });
  assert.equal(
    explain(d("cli->sdk system/init", "messaging_socket_path"), context, exceptions),
    "socket-path",
  );
  assert.equal(
    explain(d("cli->sdk assistant", "message.content.0.text"), context, exceptions),
    "interrupt-point",
  );
  assert.equal(
    explain(
      d("cli->sdk assistant", "message.content.0.text"),
      { ...context, case: "x" },
      exceptions,
    ),
    undefined,
  );
  assert.equal(
    explain(d("cli->sdk assistant", "message.content.0.x.text"), context, exceptions),
    undefined,
  );
  assert.equal(glob("print:*", "print:json"), true);
  assert.equal(glob("a.**", "a.b.c", true), true);
  assert.throws(() => checkExceptions([{ name: "x", reason: "" }]), /needs a reason/);
  assert.throws(
    () => checkExceptions([{ name: "x", reason: "long enough reason", when: 1 }]),
    /unknown field 'when'/,
  );
  assert.throws(
    () =>
      checkExceptions([{ name: "x", reason: "long enough reason" }, {
        name: "x",
        reason: "long enough reason",
      }]),
    /repeats the name 'x'/,
  );
});

Deno.test("loadConformCase reads a case file (inline, builtin or path scenario) and a plain scenario file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/chat.json`,
      JSON.stringify({
        model: "claude-sonnet-5-5",
        permissions: { deny: ["Bash(rm:*)"] },
        exchanges: [
          { on: "hello", steps: [{ say: "Hi." }] },
          { on: { glob: "fix * now" }, steps: [{ say: "Fixed." }] },
          { on: { regex: "^x" }, steps: [{ say: "x" }] },
        ],
      }),
    );
    await Deno.writeTextFile(
      `${dir}/case.json`,
      JSON.stringify({
        scenario: "chat.json",
        prompt: "hello",
        canUseTool: [{ tool: "Bash", behavior: "allow" }],
        options: { maxTurns: 2 },
      }),
    );
    await Deno.writeTextFile(`${dir}/exceptions.json`, "[]");
    await Deno.writeTextFile(`${dir}/known_differences.json`, "[]");
    await Deno.writeTextFile(`${dir}/case.schema.json`, "{}");
    const plain = await loadConformCase(`${dir}/chat.json`);
    assert.deepEqual(plain.prompt, ["hello", "fix x now"]);
    assert.deepEqual(plain.options, {
      model: "claude-sonnet-5-5",
      settings: { permissions: { deny: ["Bash(rm:*)"] } },
    });
    assert.deepEqual(printPlan(plain), undefined, "two prompts: no print mode");
    const c = await loadConformCase(`${dir}/case.json`);
    assert.equal(c.scenarioSource, `${dir}/chat.json`);
    assert.equal(printPlan(c), undefined, "a canUseTool: no print mode");
    const all = await loadConformCases([dir]);
    assert.deepEqual(
      all.map((x) => x.name),
      ["case", "chat"],
      "exceptions.json, known_differences.json and schemas are not cases",
    );
    const builtin = await loadConformCase(
      await write(dir, "b.json", { scenario: "builtin:multi_tool", options: { maxTurns: 3 } }),
    );
    assert.deepEqual(printPlan(builtin), {
      prompt: "hello",
      args: ["--max-turns", "3"],
      formats: ["text", "json", "stream-json"],
    });
    await assert.rejects(
      async () =>
        loadConformCase(
          await write(dir, "bad.json", { scenario: "builtin:multi_tool", prompts: [] }),
        ),
      /'prompts' must be a non-empty array of strings/,
    );
    await assert.rejects(
      async () =>
        loadConformCase(
          await write(dir, "bad2.json", { scenario: "builtin:multi_tool", hook: {} }),
        ),
      /'hook' is not a case field/,
    );
    await assert.rejects(
      () => loadConformCase(`${dir}/none.json`),
      /Cannot load the conformance case/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

async function write(dir: string, name: string, data: unknown): Promise<string> {
  await Deno.writeTextFile(`${dir}/${name}`, JSON.stringify(data));
  return `${dir}/${name}`;
}
