// Integration tests: the real Agent SDK's query() resumes, continues and forks in-process
// sessions, through mockClaude() (each mock's own store) and MockTransport (a shared store),
// as the real CLI does from its config folder (conformance/session_*.json).
import assert from "node:assert/strict";
import * as sdk from "@anthropic-ai/claude-agent-sdk";
import type { SDKMessage, SDKResultMessage } from "@anthropic-ai/claude-agent-sdk";
import { mockClaude, MockTransport, ScenarioBuilder, SessionStore, wrapClaudeSdk } from "../mod.ts";
import { runQuery } from "./_sdk.ts";

const { query } = wrapClaudeSdk(sdk);

const scenario = new ScenarioBuilder({ name: "two-answers" })
  .on("first").repeat().respond("First answer.")
  .on("second").repeat().respond("Second answer.")
  .build();

/** The app's own query() to its end: its messages, and the error it threw if it did. */
async function ask(
  prompt: string,
  options: Record<string, unknown> = {},
): Promise<{ messages: SDKMessage[]; result?: SDKResultMessage; error?: Error }> {
  const messages: SDKMessage[] = [];
  try {
    for await (const m of query({ prompt, options })) messages.push(m);
  } catch (error) {
    return { messages, error: error as Error };
  }
  const result = messages.findLast((m): m is SDKResultMessage => m.type === "result");
  return { messages, ...(result ? { result } : {}) };
}

const cost = (r: SDKResultMessage | undefined) => r?.total_cost_usd ?? NaN;
const outputTokens = (r: SDKResultMessage | undefined) =>
  Object.values(r?.modelUsage ?? {}).reduce((n, u) => n + u.outputTokens, 0);

Deno.test("session store: query, then resume it: the id kept, cost and usage go on", async () => {
  await using claude = mockClaude(scenario);
  const a = await ask("first question");
  assert.equal(a.error, undefined);
  const id = a.result!.session_id;
  const b = await ask("second question", { resume: id });
  assert.equal(b.error, undefined);
  assert.equal(b.result!.subtype, "success");
  assert.equal(b.result!.session_id, id);
  assert.equal(cost(b.result), 2 * cost(a.result));
  assert.equal(outputTokens(b.result), 2 * outputTokens(a.result));
  assert.deepEqual(b.result!.usage, a.result!.usage, "the turn's own usage is its own");
  // the session knows the earlier conversation
  const texts = claude.sessions.transcript(id)!.filter((f) => f.type === "user")
    .map((f) => JSON.stringify((f.message as { content: unknown }).content));
  assert.equal(texts.length, 2);
  assert.match(texts[0], /first question/);
  assert.match(texts[1], /second question/);
});

Deno.test("session store: continue goes on with the latest session; fork gets a new id", async () => {
  await using claude = mockClaude(scenario);
  const fresh = await ask("first question", { continue: true });
  const id = fresh.result!.session_id;
  const continued = await ask("second question", { continue: true });
  assert.equal(continued.result!.session_id, id);
  assert.equal(cost(continued.result), 2 * cost(fresh.result));
  const forked = await ask("second question", { resume: id, forkSession: true });
  assert.notEqual(forked.result!.session_id, id);
  assert.equal(cost(forked.result), 3 * cost(fresh.result));
  assert.equal(claude.sessions.size, 2);
});

Deno.test("session store: a resume of an unknown id throws as with the real CLI", async () => {
  // the SDK reads no stderr of a process it did not spawn itself: the mock's option takes it
  const stderr: string[] = [];
  await using claude = mockClaude(scenario, { stderr: (text) => void stderr.push(text) });
  const unknown = "6f1b7c2e-1111-4222-8333-444455556666";
  const { messages, error } = await ask("first question", { resume: unknown });
  assert.match(
    String(error?.message),
    /No conversation found with session ID: 6f1b7c2e-1111-4222-8333-444455556666/,
  );
  assert.equal(messages.some((m) => m.type === "system"), false, "no init");
  assert.equal(stderr.join(""), `No conversation found with session ID: ${unknown}\n`);
  assert.deepEqual(await claude.last.exited, { code: 1, signal: null });
  assert.equal(claude.sessions.size, 0);
});

Deno.test("session store: a sessionId already used is refused", async () => {
  const stderr: string[] = [];
  await using _claude = mockClaude(scenario, { stderr: (text) => void stderr.push(text) });
  const sessionId = "0a1b2c3d-aaaa-4bbb-8ccc-ddddeeeeffff";
  const a = await ask("first question", { sessionId });
  assert.equal(a.result!.session_id, sessionId);
  const b = await ask("second question", { sessionId });
  assert.match(String(b.error?.message), /exited with code 1/);
  assert.equal(stderr.join(""), `Error: Session ID ${sessionId} is already in use.\n`);
});

Deno.test("session store: persistSession false keeps nothing to resume", async () => {
  await using claude = mockClaude(scenario);
  const a = await ask("first question", { persistSession: false });
  assert.equal(claude.sessions.size, 0);
  const b = await ask("second question", { resume: a.result!.session_id });
  assert.match(String(b.error?.message), /No conversation found/);
});

Deno.test("session store: MockTransports share one only when given it", async () => {
  const sessionStore = new SessionStore();
  const first = await runQuery(new MockTransport(scenario, { sessionStore }), "first question");
  const id = (first.messages.at(-1) as SDKResultMessage).session_id;
  const second = await runQuery(new MockTransport(scenario, { sessionStore }), "second question", {
    resume: id,
  });
  assert.equal(second.error, undefined);
  assert.equal((second.messages.at(-1) as SDKResultMessage).session_id, id);
  // a new session on the same store draws its own id (the store counts its runs)
  const other = await runQuery(new MockTransport(scenario, { sessionStore }), "first question");
  assert.notEqual((other.messages.at(-1) as SDKResultMessage).session_id, id);
  assert.equal(sessionStore.size, 2);
  // without a store, a transport is a process with no transcripts: a resume starts afresh
  const alone = await runQuery(new MockTransport(scenario), "second question", { resume: id });
  assert.equal(alone.error, undefined);
  const result = alone.messages.at(-1) as SDKResultMessage;
  assert.equal(result.total_cost_usd, (first.messages.at(-1) as SDKResultMessage).total_cost_usd);
});

Deno.test("session store: same seed, same ids", async () => {
  const ids = async () => {
    const sessionStore = new SessionStore();
    const out: string[] = [];
    for (const prompt of ["first question", "second question"]) {
      const { messages } = await runQuery(new MockTransport(scenario, { sessionStore }), prompt);
      out.push((messages.at(-1) as SDKResultMessage).session_id);
    }
    return out;
  };
  const [a, b] = [await ids(), await ids()];
  assert.deepEqual(a, b);
  assert.notEqual(a[0], a[1]);
});
