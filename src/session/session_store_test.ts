import assert from "node:assert/strict";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import type { Frame } from "../wire/frame.ts";
import { Session } from "./session.ts";
import { claimRun, lastModelUsage, SessionStore } from "./session_store.ts";
import { promptFrames } from "./_prompt_frames.ts";

const scenario = new ScenarioBuilder().on("first").repeat().respond("One.")
  .on("second").repeat().respond("Two.").build();

/** One prompt through a session on `store` with `args`; its frames, stderr and exit code. */
async function run(
  store: SessionStore,
  prompt: string,
  { args = [], seed }: { args?: string[]; seed?: number } = {},
): Promise<{ frames: Frame[]; stderr: string; code: number | null }> {
  let stderr = "";
  const session = new Session(scenario, {
    args,
    sessionStore: store,
    stderr: (text) => (stderr += text),
    ...(seed !== undefined ? { seed } : {}),
  });
  if (session.closed) {
    // refused at start: it wrote its reason and exited before reading anything
    const text = await new Response(session.readable).text();
    const frames = text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
    return { frames, stderr, code: (await session.exited).code };
  }
  const frames = await promptFrames(session, prompt);
  return { frames, stderr, code: (await session.exited).code };
}

const resultOf = (frames: Frame[]) => frames.find((f) => f.type === "result")!;

Deno.test("SessionStore: a session keeps its prompts, messages, init and result", async () => {
  const store = new SessionStore();
  const { frames } = await run(store, "first");
  const id = resultOf(frames).session_id as string;
  assert.deepEqual(store.sessionIds(), [id]);
  const kept = store.transcript(id)!;
  assert.deepEqual(
    kept.map((f) => f.subtype ? `${f.type}/${f.subtype}` : f.type),
    ["user", "system/init", "assistant", "result/success"],
  );
  assert.equal((kept[0].message as { content: string }).content, "first");
  // copies: changing one changes nothing kept
  kept[0].type = "changed";
  assert.equal(store.transcript(id)![0].type, "user");
  assert.equal(store.latest("/home/user/project"), id);
  assert.equal(store.latest("/elsewhere"), undefined);
});

Deno.test("SessionStore: a resumed session keeps its id and goes on from the earlier cost", async () => {
  const store = new SessionStore();
  const first = resultOf((await run(store, "first")).frames);
  const id = first.session_id as string;
  const second = resultOf((await run(store, "second", { args: ["--resume", id], seed: 9 })).frames);
  assert.equal(second.session_id, id);
  assert.equal(second.total_cost_usd, 2 * (first.total_cost_usd as number));
  const [model] = Object.keys(first.modelUsage as object);
  const tokens = (r: Frame) =>
    (r.modelUsage as Record<string, { outputTokens: number }>)[model].outputTokens;
  assert.equal(tokens(second), 2 * tokens(first));
  // the turn's own usage is its own
  assert.deepEqual(second.usage, first.usage);
  assert.equal(store.transcript(id)!.filter((f) => f.type === "result").length, 2);
});

Deno.test("SessionStore: without a store a resume starts from nothing (as before)", async () => {
  const session = new Session(scenario, { args: ["--resume", crypto.randomUUID()] });
  const frames = await promptFrames(session, "first");
  assert.equal(resultOf(frames).subtype, "success");
});

Deno.test("SessionStore: a resume of an unknown id fails as the real CLI does", async () => {
  const store = new SessionStore();
  const id = "6f1b7c2e-1111-4222-8333-444455556666";
  const { frames, stderr, code } = await run(store, "first", { args: ["--resume", id] });
  assert.equal(stderr, `No conversation found with session ID: ${id}\n`);
  assert.equal(code, 1);
  assert.deepEqual(frames.map((f) => f.type), ["result"]);
  const [result] = frames;
  assert.deepEqual(Object.keys(result).slice(0, 3), ["type", "subtype", "duration_ms"]);
  assert.equal(result.subtype, "error_during_execution");
  assert.equal(result.session_id, id);
  assert.deepEqual(result.errors, [`No conversation found with session ID: ${id}`]);
  assert.equal(store.size, 0, "a refused session keeps no transcript");
});

Deno.test("SessionStore: a resume or a session id that is no UUID is refused as the real CLI refuses it", async () => {
  const store = new SessionStore();
  await run(store, "first");
  for (const bad of ["not-a-uuid", " 6f1b7c2e-1111-4222-8333-444455556666", "ñ😀", "../x"]) {
    // as 2.1.328 and 2.1.332 in stream-json: the message on stderr and in an error result
    const message = `Error: --resume requires a valid session ID or session title when used ` +
      `with --print. Usage: claude -p --resume <session-id|title>. Provided value "${bad}" is ` +
      `not a UUID and does not match any session title.`;
    const resumed = await run(store, "first", { args: ["--resume", bad] });
    assert.equal(resumed.code, 1);
    assert.equal(resumed.stderr, `${message}\n`);
    assert.deepEqual(resumed.frames.map((f) => f.type), ["result"]);
    assert.deepEqual(resumed.frames[0].errors, [message]);
    assert.notEqual(resumed.frames[0].session_id, bad, "a fresh id, as the real CLI's");
    const named = await run(store, "first", { args: ["--session-id", bad] });
    assert.deepEqual(named, {
      frames: [],
      stderr: "Error: Invalid session ID. Must be a valid UUID.\n",
      code: 1,
    });
  }
  assert.equal(store.size, 1, "nothing kept of a refused session");
});

Deno.test("SessionStore: a fork of an unknown id fails with a fresh id", async () => {
  const store = new SessionStore();
  const id = "6f1b7c2e-1111-4222-8333-444455556666";
  const { frames, code } = await run(store, "first", { args: ["--resume", id, "--fork-session"] });
  assert.equal(code, 1);
  assert.notEqual(frames[0].session_id, id);
});

Deno.test("SessionStore: a session id in use is refused; a new one is taken", async () => {
  const store = new SessionStore();
  const id = "0a1b2c3d-aaaa-4bbb-8ccc-ddddeeeeffff";
  const first = await run(store, "first", { args: ["--session-id", id] });
  assert.equal(resultOf(first.frames).session_id, id);
  const again = await run(store, "second", { args: ["--session-id", id] });
  assert.equal(again.stderr, `Error: Session ID ${id} is already in use.\n`);
  assert.equal(again.code, 1);
  assert.deepEqual(again.frames, []);
});

Deno.test("SessionStore: continue takes the most recent session; fork copies it under a new id", async () => {
  const store = new SessionStore();
  const fresh = await run(store, "first", { args: ["--continue"] });
  const a = resultOf(fresh.frames).session_id as string;
  const b = resultOf((await run(store, "first", { seed: 2 })).frames).session_id as string;
  assert.notEqual(a, b);
  const continued = resultOf(
    (await run(store, "second", { args: ["--continue"], seed: 3 })).frames,
  );
  assert.equal(continued.session_id, b, "the latest");
  const forked = resultOf(
    (await run(store, "second", { args: ["--resume", a, "--fork-session"], seed: 4 })).frames,
  );
  const f = forked.session_id as string;
  assert.ok(f !== a && f !== b);
  assert.equal(store.transcript(a)!.length, 4, "the forked session is unchanged");
  assert.deepEqual(
    store.transcript(f)!.map((x) => x.type),
    ["user", "system", "assistant", "result", "user", "system", "assistant", "result"],
  );
  assert.equal(forked.total_cost_usd, 2 * (resultOf(fresh.frames).total_cost_usd as number));
  assert.equal(store.latest("/home/user/project"), f);
});

Deno.test("SessionStore: resume at a message it has, and at one it lacks", async () => {
  const store = new SessionStore();
  const { frames } = await run(store, "first");
  const id = resultOf(frames).session_id as string;
  const at = frames.find((f) => f.type === "assistant")!.uuid as string;
  const ok = await run(store, "second", { args: ["--resume", id, "--resume-session-at", at] });
  assert.equal(ok.code, 0);
  const missing = "11111111-2222-4333-8444-555555555555";
  const bad = await run(store, "second", {
    args: ["--resume", id, "--resume-session-at", missing],
  });
  assert.equal(bad.code, 1);
  assert.equal(bad.stderr, `No message found with message.uuid of: ${missing}\n`);
  assert.deepEqual(bad.frames[0].errors, [`No message found with message.uuid of: ${missing}`]);
});

Deno.test("SessionStore: --no-session-persistence keeps no transcript", async () => {
  const store = new SessionStore();
  await run(store, "first", { args: ["--no-session-persistence"] });
  assert.equal(store.size, 0);
});

Deno.test("SessionStore: delete, clear, and the run counter", async () => {
  const store = new SessionStore();
  const id = resultOf((await run(store, "first")).frames).session_id as string;
  assert.equal(store.has(id), true);
  assert.equal(store.delete(id), true);
  assert.equal(store.delete(id), false);
  assert.equal(store.transcript(id), undefined);
  assert.equal(lastModelUsage(store, id), undefined);
  await run(store, "first");
  store.clear();
  assert.equal(store.size, 0);
  assert.deepEqual([claimRun(store), claimRun(store), claimRun(new SessionStore())], [1, 2, 1]);
});

Deno.test("SessionStore: /compact after resume compacts the earlier run's conversation", async () => {
  const store = new SessionStore();
  const first = resultOf((await run(store, "first")).frames);
  const id = first.session_id as string;
  const { frames } = await run(store, "/compact", { args: ["--resume", id] });
  const boundary = frames.find((f) => f.subtype === "compact_boundary");
  assert.ok(boundary, "a compaction, not 'No messages to compact'");
  const usage = first.usage as { input_tokens: number; output_tokens: number };
  assert.equal(
    (boundary.compact_metadata as { pre_tokens: number }).pre_tokens,
    usage.input_tokens + usage.output_tokens,
    "from the context the earlier run's last call ended with",
  );
  // a fresh session has nothing to compact
  const fresh = await run(new SessionStore(), "/compact");
  assert.equal(fresh.frames.some((f) => f.subtype === "compact_boundary"), false);
});

Deno.test("SessionStore: a frame is kept as the JSON it is written as (an injected one with a function too)", async () => {
  const store = new SessionStore();
  const session = new Session(scenario, { sessionStore: store });
  const reading = new Response(session.readable).text();
  // JSON leaves the function out, as on the wire; a structured clone of the frame threw here
  session.inject({ type: "user", message: { role: "user", content: "note" }, hint: () => 1 });
  session.inject({ type: "assistant", big: 1n }); // not written (no JSON): not kept either
  session.endInput();
  const written = (await reading).split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
  assert.deepEqual(written.map((f) => f.type), ["user"]);
  const [id] = store.sessionIds();
  assert.deepEqual(store.transcript(id), written);
});

Deno.test("SessionStore: every system/init is kept as written (a later turn's too)", async () => {
  const store = new SessionStore();
  const session = new Session(scenario, { sessionStore: store });
  const reading = new Response(session.readable).text();
  for (const text of ["first", "second"]) {
    session.write(
      JSON.stringify({ type: "user", message: { role: "user", content: text } }) + "\n",
    );
  }
  session.endInput();
  const written = (await reading).split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
  const inits = written.filter((f) => f.subtype === "init");
  assert.equal(inits.length, 2);
  const kept = store.transcript(store.sessionIds()[0])!;
  assert.deepEqual(kept.filter((f) => f.subtype === "init"), inits);
});
