// Interrupts that race hooks and permission answers (issue 21, items 1 and 2). A turn has
// exactly one result whatever arrives when: a hook that answers `continue: false` and an
// interrupt right behind it end the turn once, and no interrupt leaves a rejection that
// nobody handles. The deterministic cases write the racing lines in one chunk; the storm
// drives the real Agent SDK through hundreds of seeded sessions.
import assert from "node:assert/strict";
import { query, type SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";
import { any, MockTransport, ScenarioBuilder } from "../mod.ts";
import { Session } from "../session.ts";
import { Pcg32 } from "../wire.ts";

type Frame = Record<string, unknown> & { type: string };
const line = (frame: unknown) => JSON.stringify(frame) + "\n";
const userLine = (text: string) =>
  line({ type: "user", session_id: "", message: { role: "user", content: text } });
const decoder = new TextDecoder();

/**
 * A session whose client answers every `hook_callback` with `continue: false` and, in the
 * same chunk, sends `interrupt`: the answer and the interrupt arrive together.
 */
async function hookThenInterrupt(event: string, scenario = chat()): Promise<Frame[]> {
  const frames: Frame[] = [];
  let interrupts = 0;
  const session = new Session(scenario, {
    output: (bytes) => {
      const frame = JSON.parse(decoder.decode(bytes)) as Frame;
      frames.push(frame);
      const request = frame.request as { subtype?: string } | undefined;
      if (frame.type === "control_request" && request?.subtype === "hook_callback") {
        queueMicrotask(() =>
          session.write(
            line({
              type: "control_response",
              response: {
                subtype: "success",
                request_id: frame.request_id,
                response: { continue: false, stopReason: "held" },
              },
            }) +
              line({
                type: "control_request",
                request_id: `int${++interrupts}`,
                request: { subtype: "interrupt" },
              }),
          )
        );
      }
      if (frame.type === "system" && frame.state === "idle") {
        queueMicrotask(() => session.endInput());
      }
    },
  });
  session.write(line({
    type: "control_request",
    request_id: "init",
    request: {
      subtype: "initialize",
      hooks: { [event]: [{ matcher: "", hookCallbackIds: ["hook_0"] }] },
    },
  }));
  session.write(userLine("go"));
  await session.exited;
  return frames;
}

const chat = () =>
  new ScenarioBuilder({ seed: 3 }).on(any(), { repeat: true })
    .usesRead("/home/user/project/a.txt", { content: "A" }).respond("Read it.").build();

for (const event of ["UserPromptSubmit", "PreToolUse", "Stop"]) {
  Deno.test(`a ${event} hook's continue:false with an interrupt behind it: one result`, async () => {
    const frames = await hookThenInterrupt(event);
    const results = frames.filter((f) => f.type === "result");
    assert.equal(results.length, 1, JSON.stringify(results.map((r) => r.subtype)));
    // the interrupt is answered, and the turn ends once, idle after its result
    const answers = frames.filter((f) =>
      f.type === "control_response" &&
      (f.response as { request_id?: string }).request_id === "int1"
    );
    assert.equal(answers.length, 1);
    assert.equal(frames.at(-1)?.state, "idle");
    assert.equal(frames.filter((f) => f.state === "idle").length, 1);
  });
}

// ---- the storm ---------------------------------------------------------------------------

/** Deterministic choices for one session. */
class Dice {
  #pcg: Pcg32;
  constructor(seed: bigint) {
    this.#pcg = new Pcg32(seed);
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.#pcg.nextFloat() * n);
  }
  chance(p: number): boolean {
    return this.#pcg.nextFloat() < p;
  }
}

/** Waits `hops` turns: microtasks, and a macrotask for every fourth. */
async function hop(hops: number): Promise<void> {
  for (let i = 0; i < hops; i++) {
    if (i % 4 === 3) await new Promise<void>((resolve) => setTimeout(resolve, 0));
    else await Promise.resolve();
  }
}

const PROMPTS = ["read", "talk", "read again", "talk more"];
const stormScenario = new ScenarioBuilder({ seed: 21 })
  .on("read", { repeat: true }).usesRead("/home/user/project/a.txt", { content: "A\n".repeat(20) })
  .usesBash("ls", { stdout: "a.txt" }).respond("Read and listed.")
  .on(any(), { repeat: true }).respond("A fairly long answer, streamed in pieces. ".repeat(8))
  .build();

interface StormOutcome {
  prompts: number;
  resultsSeen: number;
  resultsSent: number;
  userFrames: number;
  overtaken: boolean;
}

/** One seeded session of the storm. */
async function stormSession(seed: bigint): Promise<StormOutcome> {
  const dice = new Dice(seed);
  const mock = new MockTransport(stormScenario, {
    recordSent: true,
    controlTimeoutMs: 20,
    timing: (["instant", "fast", "realistic"] as const)[dice.int(3)],
  });
  // the hooks and canUseTool run once `q` exists
  const interrupt = () => void q.interrupt().catch(() => {});
  /** A hook: continue or stop, sometimes with an interrupt racing its answer. */
  const hook = async () => {
    const stop = dice.chance(0.5);
    const race = dice.int(4); // 0: none, 1: before answering, 2: right after, 3: a hop after
    const wait = dice.int(6);
    if (race === 1) interrupt();
    await hop(wait);
    if (race === 2) queueMicrotask(interrupt);
    if (race === 3) setTimeout(interrupt, 0);
    return stop ? { continue: false, stopReason: "stopped by the storm" } : { continue: true };
  };
  const events = ["UserPromptSubmit", "PreToolUse", "Stop"].filter(() => dice.chance(0.7));
  const hooks = Object.fromEntries(events.map((e) => [e, [{ hooks: [hook] }]]));
  const interruptAt = new Set(Array.from({ length: 3 }, () => dice.int(30)));
  let prompts = 0;
  let resultsSeen = 0;
  let overtaken = false;
  let release: (() => void) | undefined;
  const prompt = (async function* (): AsyncGenerator<SDKUserMessage> {
    for (const text of PROMPTS) {
      if (prompts > 0) await new Promise<void>((resolve) => (release = resolve));
      prompts++;
      yield { type: "user", message: { role: "user", content: text }, parent_tool_use_id: null };
    }
  })();
  const q = query({
    prompt,
    options: {
      spawnClaudeCodeProcess: mock.spawn,
      includePartialMessages: dice.chance(0.5),
      hooks,
      canUseTool: async (_tool, input, { signal }) => {
        const mode = dice.int(4);
        if (mode === 0) {
          // never answers: the interrupt (or the short control timeout) ends the wait
          if (dice.chance(0.5)) setTimeout(interrupt, 0);
          await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));
          return { behavior: "deny", message: "aborted" };
        }
        await hop(dice.int(6));
        if (mode === 1) queueMicrotask(interrupt);
        return mode === 3
          ? { behavior: "deny", message: "no", interrupt: dice.chance(0.5) }
          : { behavior: "allow", updatedInput: input };
      },
    },
  });
  let seen = 0;
  try {
    for await (const message of q) {
      if (interruptAt.has(++seen)) {
        if (dice.chance(0.5)) interrupt();
        else queueMicrotask(interrupt);
      }
      if (message.type === "result") {
        resultsSeen++;
        if (resultsSeen > prompts) overtaken = true;
        release?.();
      }
    }
  } catch {
    // the SDK throws once the process exits 1 after an error result
  } finally {
    release?.();
  }
  await mock.exited;
  const sent = mock.session.sent();
  return {
    prompts,
    resultsSeen,
    resultsSent: sent.filter((f) => f.type === "result").length,
    userFrames: mock.writtenMessages().filter((f) => f.type === "user").length,
    overtaken,
  };
}

Deno.test("interrupt storm: hooks stop turns, interrupts land anywhere; one result per prompt, nothing unhandled", async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (event: PromiseRejectionEvent) => {
    event.preventDefault();
    unhandled.push(event.reason);
  };
  globalThis.addEventListener("unhandledrejection", onUnhandled);
  try {
    const SESSIONS = 300;
    const BATCH = 50;
    const bad: string[] = [];
    let results = 0;
    for (let start = 0; start < SESSIONS; start += BATCH) {
      const outcomes = await Promise.all(
        Array.from({ length: BATCH }, (_, i) => stormSession(BigInt(2100 + start + i))),
      );
      outcomes.forEach((o, i) => {
        results += o.resultsSent;
        if (o.overtaken || o.resultsSent !== o.userFrames || o.resultsSeen > o.prompts) {
          bad.push(`session seed ${2100 + start + i}: ${JSON.stringify(o)}`);
        }
      });
    }
    // let rejections made in the last sessions' final ticks be reported
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    assert.deepEqual(bad, [], "a prompt got a second result");
    assert.deepEqual(unhandled.map(String), [], "an unhandled rejection escaped");
    assert.ok(results >= SESSIONS, `the storm ran (${results} results)`);
  } finally {
    globalThis.removeEventListener("unhandledrejection", onUnhandled);
  }
});

/**
 * One fuzzed session on the raw duplex: prompts one after another, hook and permission
 * answers after seeded hops (or never), interrupts after random frames or in the same chunk
 * as an answer, a reader that holds lines back, and now and then a kill.
 */
async function fuzzedSession(seed: number): Promise<{ extra: number; frames: number }> {
  const dice = new Dice(BigInt(seed));
  const prompts = ["read", "talk", "read again", "talk more"];
  let sent = 0;
  let results = 0;
  let extra = 0;
  let frames = 0;
  const write = (text: string) => {
    if (!session.closed) session.write(text);
  };
  const interruptLine = () =>
    line({
      type: "control_request",
      request_id: `i${dice.int(1e6)}`,
      request: { subtype: "interrupt" },
    });
  const session: Session = new Session(stormScenario, {
    args: dice.chance(0.5) ? ["--include-partial-messages"] : [],
    controlTimeoutMs: 20,
    timing: (["instant", "fast", "realistic"] as const)[dice.int(3)],
    output: (bytes) => {
      frames++;
      const frame = JSON.parse(decoder.decode(bytes)) as Frame;
      if (dice.int(25) === 0) queueMicrotask(() => write(interruptLine()));
      if (frame.type === "control_request") {
        const request = frame.request as { subtype: string; input?: unknown };
        const answer = request.subtype === "hook_callback"
          ? { continue: dice.chance(0.5) }
          : request.subtype === "can_use_tool"
          ? (dice.chance(0.67)
            ? { behavior: "allow", updatedInput: request.input }
            : { behavior: "deny", message: "no", interrupt: dice.chance(0.5) })
          : {};
        const mode = dice.int(5); // 0: never answers, 4: an interrupt in the same chunk
        if (mode !== 0) {
          hop(dice.int(6)).then(() =>
            write(
              line({
                type: "control_response",
                response: { subtype: "success", request_id: frame.request_id, response: answer },
              }) + (mode === 4 ? interruptLine() : ""),
            )
          );
        }
      }
      if (frame.type === "result") {
        if (++results > sent) extra++;
        if (sent < prompts.length) {
          const text = prompts[sent++];
          queueMicrotask(() => write(userLine(text)));
        } else queueMicrotask(() => session.endInput());
      }
      if (dice.int(60) === 0) hop(dice.int(4)).then(() => session.kill());
      return dice.int(4) === 0 ? hop(dice.int(5)) : undefined;
    },
  });
  session.write(line({
    type: "control_request",
    request_id: "init",
    request: {
      subtype: "initialize",
      hooks: {
        UserPromptSubmit: [{ hookCallbackIds: ["h0"] }],
        PreToolUse: [{ hookCallbackIds: ["h1"] }],
        Stop: [{ hookCallbackIds: ["h2"] }],
      },
    },
  }));
  sent++;
  session.write(userLine(prompts[0]));
  await session.exited;
  return { extra, frames };
}

Deno.test("fuzzed sessions: answers late or never, interrupts and kills anywhere; one result per prompt, nothing unhandled", async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (event: PromiseRejectionEvent) => {
    event.preventDefault();
    unhandled.push(event.reason);
  };
  globalThis.addEventListener("unhandledrejection", onUnhandled);
  try {
    let extra = 0;
    let frames = 0;
    for (let start = 0; start < 1_000; start += 50) {
      const runs = await Promise.all(
        Array.from({ length: 50 }, (_, i) => fuzzedSession(start + i)),
      );
      for (const run of runs) {
        extra += run.extra;
        frames += run.frames;
      }
    }
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    assert.equal(extra, 0, "results beyond the prompts sent");
    assert.deepEqual(unhandled.map(String), [], "an unhandled rejection escaped");
    assert.ok(frames > 10_000, `the fuzz ran (${frames} frames)`);
  } finally {
    globalThis.removeEventListener("unhandledrejection", onUnhandled);
  }
});

Deno.test("an interrupt while a frame waits for its delay ends the wait at once and the turn", async () => {
  // a clock whose time never moves: a paced wait ends only when it is called off
  const stopped = {
    kind: "system" as const,
    now: () => 0,
    sleepUntil: (_: number, options: { signal?: AbortSignal } = {}) =>
      new Promise<void>((_resolve, reject) => {
        options.signal?.addEventListener("abort", () => reject(options.signal!.reason));
      }),
    sleep(ms: number, options?: { signal?: AbortSignal }) {
      return this.sleepUntil(ms, options);
    },
  };
  const session = new Session(
    new ScenarioBuilder().on("essay").respondDelayed(60_000, "A very long essay.").build(),
    { clock: stopped },
  );
  const reading = new Response(session.readable).text();
  session.write(userLine("essay"));
  for (let i = 0; i < 10; i++) await Promise.resolve();
  const interrupted = session.interrupt();
  // nothing but the interrupt can end the wait: ten turns of the event loop are plenty
  let ended = false;
  interrupted.then(() => (ended = true));
  for (let i = 0; i < 10 && !ended; i++) {
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
  }
  assert.equal(ended, true, "the interrupt ended the turn");
  assert.equal(await interrupted, true);
  session.endInput();
  const frames = (await reading).trim().split("\n").map((l) => JSON.parse(l));
  // the waiting message goes out at once, then the interruption's frames
  assert.deepEqual(frames.map((f) => f.type), [
    "system",
    "system",
    "assistant",
    "user",
    "result",
    "system",
  ]);
  assert.equal(frames[4].terminal_reason, "aborted_streaming");
  assert.equal(await session.interrupt(), false, "nothing left to interrupt");
});
