// SnapshotPlayer's modes and failure paths with the real Agent SDK: verify checks the app's own
// answers, lockstep checks its requests, a divergence fails closed, a cut tape never hangs.
import assert from "node:assert/strict";
import { calcServer } from "./_sdk.ts";
import { query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { CassetteMismatchError, SnapshotPlayer } from "../cassette.ts";
import { parseTape, type Tape } from "../cassette.ts";
import { fromFileUrl } from "./_paths.ts";

const REAL = fromFileUrl(new URL("./fixtures/real/", import.meta.url));

function readTapeFile(name: string): Tape {
  return parseTape(Deno.readTextFileSync(`${REAL}${name}.jsonl`), { source: `${name}.jsonl` });
}

function messagesOf(name: string): unknown[] {
  return Deno.readTextFileSync(`${REAL}${name}.messages.jsonl`).split("\n")
    .filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
}

async function run(
  player: SnapshotPlayer,
  prompt: Parameters<typeof query>[0]["prompt"],
  options: Record<string, unknown> = {},
): Promise<{ messages: SDKMessage[]; error?: Error }> {
  const messages: SDKMessage[] = [];
  try {
    for await (
      const m of query({ prompt, options: { ...options, spawnClaudeCodeProcess: player.spawn } })
    ) messages.push(m);
    return { messages };
  } catch (error) {
    return { messages, error: error as Error };
  }
}

const json = (value: unknown) => JSON.parse(JSON.stringify(value));

Deno.test("verify: the app's own canUseTool answers as recorded and the replay passes", async () => {
  const player = new SnapshotPlayer(readTapeFile("cp_allow_updated_input"), { mode: "verify" });
  const { messages } = await run(player, player.prompt(), {
    canUseTool: (_name: string, input: Record<string, unknown>) =>
      Promise.resolve({
        behavior: "allow",
        updatedInput: { ...input, file_path: "/home/user/project/b.txt" },
      }),
  });
  player.assertFinished();
  assert.deepEqual(json(messages), messagesOf("cp_allow_updated_input"));
});

Deno.test("verify: an app that answers differently fails with the diff of the answers", async () => {
  const player = new SnapshotPlayer(readTapeFile("cp_allow_updated_input"), { mode: "verify" });
  const { error } = await run(player, player.prompt(), {
    canUseTool: () => Promise.resolve({ behavior: "deny", message: "no" }),
  });
  assert.ok(error, "the SDK saw the replay fail");
  const mismatch = player.mismatches[0];
  assert.ok(mismatch instanceof CassetteMismatchError);
  assert.match(mismatch.message, /cp_allow_updated_input\.jsonl:\d+: the app answered differently/);
  assert.match(mismatch.message, /- response\.response\.behavior: "allow"/);
  assert.match(mismatch.message, /\+ response\.response\.behavior: "deny"/);
  assert.doesNotMatch(mismatch.message, /request_id/);
  assert.throws(() => player.assertFinished(), CassetteMismatchError);
});

Deno.test("verify: the app's own in-process MCP server answers the recorded call", async () => {
  const calc = calcServer();
  const player = new SnapshotPlayer(readTapeFile("mcp_sdk_tool"), { mode: "verify" });
  const { messages } = await run(player, player.prompt(), {
    mcpServers: { calc },
    canUseTool: (_n: string, input: Record<string, unknown>) =>
      Promise.resolve({ behavior: "allow", updatedInput: input }),
  });
  player.assertFinished();
  assert.deepEqual(json(messages), messagesOf("mcp_sdk_tool"));
});

Deno.test("verify: an MCP tool that returns another result is a mismatch", async () => {
  const calc = calcServer({ answer: "6" });
  const player = new SnapshotPlayer(readTapeFile("mcp_sdk_tool"), { mode: "verify" });
  await run(player, player.prompt(), {
    mcpServers: { calc },
    canUseTool: (_n: string, input: Record<string, unknown>) =>
      Promise.resolve({ behavior: "allow", updatedInput: input }),
  });
  assert.match(player.mismatches[0]?.message ?? "", /"5"/);
  assert.match(player.mismatches[0]?.message ?? "", /"6"/);
});

Deno.test("stub: the player's options give the recorded hooks, permissions and arguments", async () => {
  const player = new SnapshotPlayer(readTapeFile("cp_hooks_all"), { mode: "stub" });
  const options = player.options();
  assert.ok(options.canUseTool, "a permission stub");
  const init = player.tape.entries.find((e) =>
    "frame" in e && e.frame.type === "control_request" &&
    (e.frame.request as { subtype?: string }).subtype === "initialize"
  );
  const recorded = (init as unknown as { frame: { request: { hooks: object } } }).frame.request
    .hooks;
  assert.deepEqual(Object.keys(options.hooks ?? {}), Object.keys(recorded));
  assert.ok(Object.keys(recorded).length >= 3);
  const { messages } = await run(player, player.prompt(), options as Record<string, unknown>);
  player.assertFinished();
  assert.deepEqual(json(messages), messagesOf("cp_hooks_all"));
});

Deno.test("stub: hooks the app registers differently make the initialize request differ", async () => {
  const player = new SnapshotPlayer(readTapeFile("cp_hooks_all"), { mode: "stub" });
  const { canUseTool } = player.options();
  await run(player, player.prompt(), { canUseTool });
  assert.match(player.mismatches[0]?.message ?? "", /the app sent another initialize request/);
});

Deno.test("lockstep: an app that does not interrupt where the tape did fails in time", async () => {
  const tape = readTapeFile("cp_interrupt_plain");
  const player = new SnapshotPlayer(tape, { waitMs: 30 });
  const { readable, writable } = player.connect();
  // The app's lines before the interrupt (initialize, the prompt), as recorded, are written at
  // once: on promise reactions, before any timer can fire, so however slow the machine, the
  // only wait that runs out is the one for the interrupt that nobody sends.
  const writer = writable.getWriter();
  const before = tape.entries.slice(
    0,
    tape.entries.findIndex((e) =>
      "frame" in e && (e.frame.request as { subtype?: string } | undefined)?.subtype === "interrupt"
    ),
  );
  const writing = Promise.all(
    before.flatMap((e) => e.dir === "sdk->cli" && "frame" in e ? [e.frame] : [])
      .map((frame) => writer.write(`${JSON.stringify(frame)}\n`)),
  );
  const output = await new Response(readable).text();
  await writing;
  assert.deepEqual(await player.exited, { code: 1, signal: null });
  assert.match(output, /"type":"assistant"/, "the tape played up to the interrupt");
  assert.match(
    player.mismatches[0]?.message ?? "",
    /the app did not send an interrupt request within 30 ms/,
  );
  await writer.close().catch(() => {});
});

Deno.test("lockstep: a set_model with another model is a mismatch", async () => {
  const player = new SnapshotPlayer(readTapeFile("cp_set_model"));
  const q = query({ prompt: player.prompt(), options: { spawnClaudeCodeProcess: player.spawn } });
  const driving = player.drive({
    interrupt: () => q.interrupt(),
    setModel: () => q.setModel("claude-some-other-model"),
    setPermissionMode: (mode) => q.setPermissionMode(mode),
  });
  try {
    for await (const _ of q) { /* drain */ }
  } catch { /* the SDK sees exit 1 */ }
  await driving;
  assert.match(player.mismatches[0]?.message ?? "", /the app sent another set_model request/);
  assert.match(player.mismatches[0]?.message ?? "", /\+ request\.model: "claude-some-other-model"/);
  assert.doesNotMatch(player.mismatches[0]?.message ?? "", /request_id/);
});

Deno.test("a cut tape fails at the cut, at once, and keeps what it had", async () => {
  const full = readTapeFile("hello");
  const cut: Tape = { ...full, entries: full.entries.slice(0, 5), complete: false };
  const player = new SnapshotPlayer(cut, { waitMs: 10_000 });
  const { messages, error } = await run(player, "hello", { maxTurns: 1 });
  assert.ok(error, "the SDK saw the process fail");
  assert.ok(messages.length >= 1, "the frames before the cut reached the app");
  assert.match(player.mismatches[0]?.message ?? "", /the tape was cut short here/);
});

Deno.test("failure path: a tape that ends in a crash replays the crash", async () => {
  const full = readTapeFile("hello");
  const upToInit = full.entries.findIndex((e) => "frame" in e && e.frame.subtype === "init") + 1;
  const crashed: Tape = {
    ...full,
    entries: [
      ...full.entries.slice(0, upToInit),
      { t: 400, dir: "stderr", text: "FATAL: out of memory\n", line: 0 },
    ],
    ending: { t: 401, code: null, signal: "SIGKILL" },
    complete: true,
  };
  const stderr: string[] = [];
  const player = new SnapshotPlayer(crashed, { stderr: (text) => stderr.push(text) });
  const { messages, error } = await run(player, "hello");
  assert.ok(error, "the SDK throws on a killed process");
  assert.equal(messages.at(-1)?.type, "system");
  assert.deepEqual(stderr, ["FATAL: out of memory\n"]);
  assert.deepEqual(await player.exited, { code: null, signal: "SIGKILL" });
  player.assertFinished();
});

Deno.test("failure path: without a recorded ending, an error result exits 1 as the CLI does", async () => {
  const player = new SnapshotPlayer(readTapeFile("api_error"));
  const { error } = await run(player, player.prompt());
  assert.ok(error, "the SDK throws on exit 1");
  assert.equal((await player.exited).code, 1);
});

Deno.test("the app sending more than the tape has is a mismatch", async () => {
  const player = new SnapshotPlayer(readTapeFile("hello"));
  async function* twoPrompts() {
    for (const text of ["hello", "and more"]) {
      yield {
        type: "user" as const,
        session_id: "",
        parent_tool_use_id: null,
        message: { role: "user" as const, content: [{ type: "text" as const, text }] },
      };
    }
  }
  await run(player, twoPrompts());
  assert.match(player.mismatches[0]?.message ?? "", /the app sent/);
});

Deno.test("assertFinished fails when recorded frames were never reached", async () => {
  const player = new SnapshotPlayer(readTapeFile("hello"));
  const child = player.spawn({
    command: "claude",
    args: [],
    env: {},
    signal: new AbortController().signal,
  });
  child.stdout.resume();
  child.kill("SIGTERM");
  assert.deepEqual(await player.exited, { code: null, signal: "SIGTERM" });
  assert.throws(
    () => player.assertFinished(),
    /hello\.jsonl:2: \d+ recorded entries were never reached/,
  );
});

Deno.test("a read-only request out of place is answered from the tape with the live id", async () => {
  const player = new SnapshotPlayer(readTapeFile("cp_control_misc"));
  const { readable, writable } = player.connect();
  const writer = writable.getWriter();
  const send = (frame: unknown) => writer.write(`${JSON.stringify(frame)}\n`);
  const sdkFrames = player.tape.entries.flatMap((e) =>
    e.dir === "sdk->cli" && "frame" in e ? [e.frame] : []
  );
  await send(sdkFrames[0]); // initialize
  await send(sdkFrames[1]); // the prompt
  // get_context_usage before the mcp_status the tape has first: answered out of place
  await send({
    type: "control_request",
    request_id: "live-1",
    request: { subtype: "get_context_usage" },
  });
  for (const frame of sdkFrames.slice(2)) await send(frame);
  await writer.close();
  const out = (await new Response(readable).text()).trim().split("\n").map((l) => JSON.parse(l));
  const answers = out.filter((f) => f.type === "control_response").map((f) =>
    f.response.request_id
  );
  assert.ok(answers.includes("live-1"), "the out-of-place request got its answer with its own id");
  const early = out.find((f) => f.response?.request_id === "live-1");
  const recorded = player.tape.entries.find((e) =>
    "frame" in e && e.dir === "cli->sdk" &&
    (e.frame.response as { request_id?: string })?.request_id === "s4oxu88j21j"
  );
  assert.deepEqual(
    early.response.response,
    (recorded as unknown as { frame: { response: { response: unknown } } }).frame.response.response,
  );
  player.assertFinished();
});

Deno.test("a player replays once, and checks its options", () => {
  const tape = readTapeFile("hello");
  assert.throws(() => new SnapshotPlayer(tape, { mode: "live" as never }), TypeError);
  assert.throws(() => new SnapshotPlayer(tape, { waitMs: -1 }), RangeError);
  const player = new SnapshotPlayer(tape);
  const { readable, writable } = player.connect();
  assert.throws(() => player.connect(), /already replayed/);
  readable.cancel();
  writable.abort();
});
