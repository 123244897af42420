import FakeTimers from "@sinonjs/fake-timers";
import assert from "node:assert/strict";
import { NEWEST_CLI_VERSION } from "../builders/cli_versions.ts";
import { text } from "../builders/assistant.ts";
import { MockTransport } from "../adapters/mock_transport.ts";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import type { Step } from "../scenario/step.ts";
import { any } from "../scenario/matcher.ts";
import type { Frame } from "../wire/frame.ts";
import { Session } from "./session.ts";

const prompt = (content: string) =>
  JSON.stringify({
    type: "user",
    session_id: "",
    message: { role: "user", content },
    parent_tool_use_id: null,
  }) + "\n";
const initialize = (id = "init1") =>
  JSON.stringify({ type: "control_request", request_id: id, request: { subtype: "initialize" } }) +
  "\n";

async function readAll(readable: ReadableStream<Uint8Array>): Promise<Frame[]> {
  const body = await new Response(readable).text();
  return body.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
}

function types(frames: Frame[]): string[] {
  return frames.map((f) => (typeof f.subtype === "string" ? `${f.type}/${f.subtype}` : f.type));
}

Deno.test("Session answers initialize, then runs a turn like the real CLI", async () => {
  const session = new Session(new ScenarioBuilder().on("hi").respond("Hello!").build());
  const writer = session.writable.getWriter();
  await writer.write(initialize());
  await writer.write(prompt("hi"));
  await writer.close();
  const frames = await readAll(session.readable);
  assert.deepEqual(types(frames), [
    "control_response",
    "system/session_state_changed",
    "system/init",
    "assistant",
    "result/success",
    "system/session_state_changed",
  ]);
  const response = frames[0].response as {
    subtype: string;
    request_id: string;
    response: Record<string, unknown>;
  };
  assert.equal(response.subtype, "success");
  assert.equal(response.request_id, "init1");
  assert.ok(Array.isArray(response.response.commands));
  assert.deepEqual(await session.exited, { code: 0, signal: null });
});

Deno.test("Session: same seed gives identical frames, another seed other ids", async () => {
  const run = async (seed: number) => {
    const session = new Session(
      new ScenarioBuilder({ seed, timing: "realistic" }).on("hi").respond("Hello!").build(),
    );
    const writer = session.writable.getWriter();
    await writer.write(prompt("hi"));
    await writer.close();
    return await readAll(session.readable);
  };
  const a = await run(1);
  const b = await run(1);
  const c = await run(2);
  assert.deepEqual(a, b);
  assert.notEqual(a[1].session_id, c[1].session_id);
});

Deno.test("Session: 200 concurrent sessions with different seeds each get exactly their own frames", async () => {
  const scenario = (i: number) =>
    new ScenarioBuilder({ seed: i, timing: "fast" }).on(any()).respond(`reply ${i}`).respond(
      `second ${i}`,
    ).build();
  const expected = async (i: number) => {
    const s = new Session(scenario(i));
    const w = s.writable.getWriter();
    await w.write(prompt(`prompt ${i}`));
    await w.close();
    return await readAll(s.readable);
  };
  const sessions = Array.from({ length: 200 }, (_, i) => new Session(scenario(i)));
  const outputs = await Promise.all(sessions.map(async (s, i) => {
    const w = s.writable.getWriter();
    const reading = readAll(s.readable);
    await w.write(prompt(`prompt ${i}`));
    await w.close();
    return await reading;
  }));
  const sessionIds = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const frames = outputs[i];
    const ids = new Set(frames.map((f) => f.session_id));
    assert.equal(ids.size, 1, `session ${i} saw frames of several sessions`);
    sessionIds.add(frames[0].session_id as string);
    const texts = frames.filter((f) => f.type === "assistant").map((f) =>
      (f.message as { content: Array<{ text: string }> }).content[0].text
    );
    assert.deepEqual(texts, [`reply ${i}`, `second ${i}`]);
    assert.equal(sessions[i].writes.size, 1);
  }
  assert.equal(sessionIds.size, 200);
  // Running alone or among 199 others makes no difference to a session's frames.
  for (const i of [0, 57, 199]) assert.deepEqual(outputs[i], await expected(i));
});

Deno.test("Session: stdin closing mid-turn finishes the turn, then exits", async () => {
  const session = new Session(
    new ScenarioBuilder({ timing: "slow" }).on("hi").respond("a").respond("b").respond("c").build(),
  );
  const writer = session.writable.getWriter();
  await writer.write(prompt("hi"));
  await writer.close();
  const frames = await readAll(session.readable);
  assert.equal(frames.filter((f) => f.type === "assistant").length, 3);
  assert.equal(types(frames).at(-2), "result/success");
  assert.equal((await session.exited).code, 0);
});

Deno.test("Session: exit code 1 after an error result, or the scenario's code", async () => {
  const failing = new Session(
    new ScenarioBuilder().on("x").thenResult({
      subtype: "error_during_execution",
      errors: ["boom"],
    }).build(),
  );
  const w = failing.writable.getWriter();
  await w.write(prompt("x"));
  await w.close();
  await readAll(failing.readable);
  assert.equal((await failing.exited).code, 1);

  const coded = new Session(new ScenarioBuilder().on("x").respond("ok").withExitCode(3).build());
  const w2 = coded.writable.getWriter();
  await w2.write(prompt("x"));
  await w2.close();
  await readAll(coded.readable);
  assert.equal((await coded.exited).code, 3);
});

Deno.test("Session: writes after exit fail with a clear error", async () => {
  const session = new Session(new ScenarioBuilder({ name: "done" }).build());
  const writer = session.writable.getWriter();
  await writer.close();
  await readAll(session.readable);
  await session.exited;
  const late = new Session(new ScenarioBuilder({ name: "killed" }).build());
  const lateWriter = late.writable.getWriter();
  late.kill();
  await late.exited;
  await assert.rejects(
    lateWriter.write(prompt("too late")),
    /Cannot write to the claude-mock process 'killed': it has exited \(signal SIGTERM\)/,
  );
  await late.readable.cancel();
});

Deno.test("Session.inject writes a frame mid-session", async () => {
  const session = new Session(
    new ScenarioBuilder().on("hi").respond("one").waitForWrite("go on").respond("two").build(),
  );
  const writer = session.writable.getWriter();
  const reading = readAll(session.readable);
  await writer.write(prompt("hi"));
  await new Promise((r) => setTimeout(r, 0));
  session.inject({ type: "system", subtype: "notification", text: "injected" });
  await writer.write(JSON.stringify({ type: "keep_alive", note: "go on" }) + "\n");
  await writer.close();
  const frames = await reading;
  const k = types(frames);
  assert.ok(k.includes("system/notification"));
  assert.ok(k.indexOf("system/notification") < k.lastIndexOf("assistant"));
  assert.throws(() => session.inject({ type: "late" }), /has exited/);
});

Deno.test("Session.injectError fails the running turn with an error result", async () => {
  const session = new Session(
    new ScenarioBuilder().on("hi").respond("one").waitForWrite("never").respond("two").build(),
  );
  const writer = session.writable.getWriter();
  await writer.write(prompt("hi"));
  const reader = session.readable.pipeThrough(new TextDecoderStream()).getReader();
  let body = "";
  while (!body.includes('"type":"assistant"')) body += (await reader.read()).value;
  session.injectError("upstream exploded");
  await writer.close();
  for (let r = await reader.read(); !r.done; r = await reader.read()) body += r.value;
  const frames: Frame[] = body.trim().split("\n").map((l) => JSON.parse(l));
  const result = frames.find((f) => f.type === "result")!;
  assert.equal(result.subtype, "error_during_execution");
  assert.deepEqual(result.errors, ["upstream exploded"]);
  assert.equal(frames.filter((f) => f.type === "assistant").length, 1);
  assert.equal(types(frames).at(-1), "system/session_state_changed");
  assert.equal((await session.exited).code, 1);
});

Deno.test("Session: waitForWrite gives up after its real-time limit with a clear error", async () => {
  const session = new Session(
    new ScenarioBuilder({ name: "waiter" }).on("hi").waitForWrite(/approve/, { timeoutMs: 30 })
      .respond("never").build(),
  );
  const writer = session.writable.getWriter();
  const reader = session.readable.pipeThrough(new TextDecoderStream()).getReader();
  await writer.write(prompt("hi"));
  let body = "";
  // close stdin only once the result is out, so the wait really times out
  while (!body.includes('"type":"result"')) body += (await reader.read()).value;
  await writer.close();
  for (let r = await reader.read(); !r.done; r = await reader.read()) body += r.value;
  const frames: Frame[] = body.trim().split("\n").map((l) => JSON.parse(l));
  const result = frames.find((f) => f.type === "result")!;
  assert.equal(result.is_error, true);
  assert.match(
    (result.errors as string[])[0],
    /exchange 1 \(contains "hi"\) step 1 waited 30 ms of real time for the client to write a frame that matches \/approve\//,
  );
  assert.equal((await session.exited).code, 1);
});

Deno.test("Session: a step that throws becomes an error result naming the exchange", async () => {
  const session = new Session(
    new ScenarioBuilder().on("hi").emit(
      (() => {
        throw new Error("bad builder");
      }) as unknown as Frame,
    ).build(),
  );
  const writer = session.writable.getWriter();
  await writer.write(prompt("hi"));
  await writer.close();
  const frames = await readAll(session.readable);
  const result = frames.find((f) => f.type === "result")!;
  assert.match(
    (result.errors as string[])[0],
    /a step of exchange 1 \(contains "hi"\) failed: bad builder/,
  );
});

Deno.test("Session: an unknown control request gets an error response, never silence", async () => {
  const session = new Session(new ScenarioBuilder().build());
  const writer = session.writable.getWriter();
  await writer.write(
    JSON.stringify({
      type: "control_request",
      request_id: "r1",
      request: { subtype: "frobnicate" },
    }) + "\n",
  );
  await writer.write(
    JSON.stringify({ type: "control_request", request_id: "r2", request: {} }) + "\n",
  );
  await writer.close();
  const frames = await readAll(session.readable);
  assert.deepEqual(frames.map((f) => f.response), [
    {
      subtype: "error",
      request_id: "r1",
      error: "Unsupported control request subtype: frobnicate",
      error_code: "unsupported_request",
    },
    {
      subtype: "error",
      request_id: "r2",
      error: "Invalid control request: 'request.subtype' must be a string",
    },
  ]);
  assert.deepEqual(session.clientRequests().map((r) => r.subtype), ["frobnicate", ""]);
});

Deno.test("Session: a stdin line that is not JSON ends the process with exit 1, as the real CLI", async () => {
  // the real CLI 2.1.332 on `not json`: "Error parsing streaming input line (type=unknown, 8
  // chars): SyntaxError" on stderr, exit 1; on `null` the same with TypeError
  for (
    const [line, note] of [
      ["{broken", "(type=unknown, 7 chars): SyntaxError"],
      ['{"type":"user","message":', "(type=user, 25 chars): SyntaxError"],
      ["null", "(type=unknown, 4 chars): TypeError"],
    ]
  ) {
    let stderr = "";
    const session = new Session(new ScenarioBuilder().on("hi").respond("ok").build(), {
      stderr: (text) => (stderr += text),
    });
    const writer = session.writable.getWriter();
    await writer.write(`${line}\n`);
    await writer.write(prompt("hi")).catch(() => {});
    await writer.close().catch(() => {});
    const frames = await readAll(session.readable);
    assert.deepEqual(types(frames), []);
    assert.deepEqual(await session.exited, { code: 1, signal: null });
    assert.equal(stderr, `Error parsing streaming input line ${note}\n`);
    const [bad] = session.writes.entries();
    assert.equal(bad.error?.line, 1);
  }
});

Deno.test("Session: JSON that is no frame is logged with its line number, the session goes on", async () => {
  for (const line of ["[1,2]", '{"a":1}', '"text"', "5"]) {
    const session = new Session(new ScenarioBuilder().on("hi").respond("ok").build());
    const writer = session.writable.getWriter();
    await writer.write(`${line}\n`);
    await writer.write(prompt("hi"));
    await writer.close();
    const frames = await readAll(session.readable);
    assert.equal(types(frames).filter((t) => t === "assistant").length, 1);
    const [bad, good] = session.writes.entries();
    assert.equal(bad.error?.line, 1);
    assert.match(bad.error!.message, /line 1: expected a JSON object/);
    assert.equal(good.frame?.type, "user");
    assert.deepEqual(await session.exited, { code: 0, signal: null });
  }
});

Deno.test("Session: closing mid-stream leaves no timers or pending promises behind", async () => {
  const session = new Session(
    new ScenarioBuilder({ timing: "slow" }).on("hi").respond("a").waitForWrite("never").build(),
    { clock: "system" },
  );
  const writer = session.writable.getWriter();
  await writer.write(prompt("hi"));
  const reader = session.readable.getReader();
  await reader.read();
  session.kill();
  assert.deepEqual(await session.exited, { code: null, signal: "SIGTERM" });
  // the remaining output ends (EOF), it does not error
  while (!(await reader.read()).done) { /* drain */ }
  // Deno's sanitizers check that no real timer (slow profile on the system clock) survived.
});

Deno.test("Session: a million-frame scenario streams lazily, with backpressure", async () => {
  const total = 1_000_000;
  let produced = 0;
  let lines = 0;
  // how far the producer ran ahead of what the reader took, checked at each frame it makes
  let lead = 0;
  const session = new Session(
    new ScenarioBuilder().onLazy(any(), function* () {
      for (let i = 0; i < total; i++) {
        produced++;
        lead = Math.max(lead, produced - lines);
        yield { kind: "emit", frame: { type: "stream_event", i } } as Step;
      }
    }).build(),
  );
  const writer = session.writable.getWriter();
  await writer.write(prompt("go"));
  await writer.close();
  const reader = session.readable.getReader();
  const decoder = new TextDecoder();
  const take = async () => {
    const { value, done } = await reader.read();
    if (!done) lines += decoder.decode(value).split("\n").length - 1;
    return done;
  };
  // A slow reader first: one read per turn of the event loop, turns in which the producer
  // runs as much as it may. Without backpressure it would run ahead by thousands of frames
  // (it yields to the event loop only every few milliseconds of work); with it, by the
  // queue's few chunks. The lead is measured at each frame made, not after a sleep.
  for (let i = 0; i < 50; i++) {
    await take();
    await new Promise((r) => setTimeout(r, 0));
  }
  assert.ok(produced > 50 && lead <= 64, `the producer ran ahead by ${lead} frames`);
  // (session_slow_test.ts reads all million to the end)
  session.kill();
  await reader.cancel();
  assert.deepEqual(await session.exited, { code: null, signal: "SIGTERM" });
});

Deno.test("MockTransport rejects a second connect", () => {
  const mock = new MockTransport(new ScenarioBuilder({ name: "once" }).build());
  const { readable } = mock.connect();
  assert.throws(
    () => mock.connect(),
    /MockTransport 'once' is already connected \(by connect\(\)\)/,
  );
  mock.close();
  readable.cancel();
});

Deno.test("ScenarioBuilder rejects bad input with clear errors", () => {
  assert.throws(
    () => new ScenarioBuilder().crashAfter(-1),
    /^RangeError: Cannot build scenario: 'crashAfter\.frames' must be an integer >= 0, got -1$/,
  );
  assert.throws(() => new ScenarioBuilder().withExitCode(300), /from 0 to 255/);
  assert.throws(
    () => new ScenarioBuilder().on("x").delay(-5),
    /'exchanges\[0\]\.steps\[0\]\.ms' must be a finite number >= 0, got -5/,
  );
  assert.throws(
    () => new ScenarioBuilder().on(42 as unknown as string),
    /'exchanges\[0\]\.trigger' must be a string, RegExp, function or Matcher, got a number/,
  );
  assert.throws(() => new Session({ exchanges: "no" } as never), /'exchanges' must be an array/);
  assert.ok(text("x"));
});

Deno.test("Session writes on-connect frames before any input", async () => {
  const session = new Session(
    new ScenarioBuilder().onConnect({ type: "keep_alive" }, {
      type: "system",
      subtype: "notification",
      text: "up",
    })
      .build(),
  );
  const writer = session.writable.getWriter();
  await writer.close();
  assert.deepEqual(types(await readAll(session.readable)), ["keep_alive", "system/notification"]);
});

Deno.test("Session: the initialize answer can be configured by the scenario", async () => {
  const session = new Session(
    new ScenarioBuilder({ initialize: { pid: 4242, extra_field: true } }).build(),
  );
  const writer = session.writable.getWriter();
  await writer.write(initialize());
  await writer.close();
  const [frame] = await readAll(session.readable);
  const body = (frame.response as { response: Record<string, unknown> }).response;
  assert.equal(body.pid, 4242);
  assert.equal(body.extra_field, true);
  // no SDK spawned it and nothing names a version: the newest the recordings cover
  assert.equal(body.claude_code_version, NEWEST_CLI_VERSION);
});

Deno.test("Session: impersonates the CLI of the SDK that spawned it, CLAUDE_MOCK_VERSION first", async () => {
  const versionOf = async (options: ConstructorParameters<typeof Session>[1]) => {
    const session = new Session(new ScenarioBuilder().build(), options);
    const writer = session.writable.getWriter();
    await writer.write(initialize());
    await writer.close();
    const [frame] = await readAll(session.readable);
    return (frame.response as { response: Record<string, unknown> }).response.claude_code_version;
  };
  assert.equal(await versionOf({ env: { CLAUDE_AGENT_SDK_VERSION: "0.3.328" } }), "2.1.328");
  assert.equal(await versionOf({ env: { CLAUDE_AGENT_SDK_VERSION: "0.3.331" } }), "2.1.331");
  assert.equal(
    await versionOf({
      env: { CLAUDE_AGENT_SDK_VERSION: "0.3.331", CLAUDE_MOCK_VERSION: "2.1.400" },
    }),
    "2.1.400",
  );
  assert.equal(
    await versionOf({ cliVersion: "2.1.328", env: { CLAUDE_MOCK_VERSION: "2.1.332" } }),
    "2.1.328",
  );
  // an SDK outside the known pairs: its installed manifest names the CLI, else the pattern
  assert.equal(
    await versionOf({
      env: { CLAUDE_AGENT_SDK_VERSION: "0.3.340" },
      installedSdk: { version: "0.3.340", cliVersion: "2.1.341" },
    }),
    "2.1.341",
  );
  assert.equal(await versionOf({ env: { CLAUDE_AGENT_SDK_VERSION: "0.3.340" } }), "2.1.340");
  assert.throws(
    () => new Session(new ScenarioBuilder().build(), { env: { CLAUDE_MOCK_VERSION: "latest" } }),
    /Cannot start a session: Cannot impersonate CLI version "latest" \(CLAUDE_MOCK_VERSION\): expected a version such as 2\.1\.\d+/,
  );
});

Deno.test("Session: per-exchange timing overrides the session's, on virtual time", async () => {
  const session = new Session(
    new ScenarioBuilder({ timing: "instant" })
      .on("slow").timing({ baseMs: 1000, jitterMs: 0 }).respond("a").respond("b")
      .on("fast").respond("c")
      .build(),
  );
  const writer = session.writable.getWriter();
  await writer.write(prompt("slow"));
  await writer.write(prompt("fast"));
  await writer.close();
  const results = (await readAll(session.readable)).filter((f) => f.type === "result");
  assert.equal(results[0].duration_ms, 2000); // two messages, 1 s each, before the result
  assert.equal(results[1].duration_ms, 0);
});

Deno.test("Session: an hour of scripted delays passes on the virtual clock, waiting for no timer", async () => {
  // with the timers faked and never advanced, a wait on a timer would never end
  const fake = FakeTimers.install({
    now: 0,
    toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"],
  });
  try {
    const session = new Session(
      new ScenarioBuilder().on("go").delay(30 * 60_000).respond("half").respondDelayed(
        30 * 60_000,
        "done",
      ).build(),
    );
    const writer = session.writable.getWriter();
    await writer.write(prompt("go"));
    await writer.close();
    const frames = await readAll(session.readable);
    assert.equal(frames.find((f) => f.type === "result")!.duration_ms, 3_600_000);
    const stamps = frames.filter((f) => f.type === "assistant").map((f) => f.timestamp);
    assert.deepEqual(stamps, ["2026-01-01T00:30:00.000Z", "2026-01-01T01:00:00.000Z"]);
    assert.equal(session.clock.kind, "virtual");
    assert.equal(fake.countTimers(), 0, "no timer is left behind");
  } finally {
    fake.uninstall();
  }
});
