// Regression tests for the engine's time model, failure paths and input handling: each
// failed before the engine was rebuilt in parts. The real SDK drives the mock where the
// SDK is involved.
import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import {
  any,
  contains,
  glob,
  MockTransport,
  predicate,
  type Scenario,
  ScenarioBuilder,
} from "../mod.ts";
import { Session } from "../session.ts";
import { text } from "../builders.ts";
import { FakeTime } from "./vendor/std/testing/time.ts";
import { runQuery } from "./_sdk.ts";

type Frame = Record<string, unknown>;

const user = (content: unknown) =>
  JSON.stringify({
    type: "user",
    session_id: "",
    message: { role: "user", content },
    parent_tool_use_id: null,
  }) + "\n";

async function readFrames(readable: ReadableStream<Uint8Array>): Promise<Frame[]> {
  const body = await new Response(readable).text();
  return body.trim().split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
}

/** Real asynchronous work of tens of milliseconds: a child process, not a timer. */
async function realWork(): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "await Deno.readTextFile(Deno.execPath() === '' ? '' : '/etc/hostname')"],
    stdout: "null",
    stderr: "null",
  }).output();
  assert.equal(out.code, 0);
}

// ---- 1. time --------------------------------------------------------------------------

Deno.test("a canUseTool doing real async work wins on the virtual clock (no idle-turn timeout)", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder().on("build").usesBash("make").respond("Built.").build(),
  );
  const { messages, error } = await runQuery(mock, "build", {
    canUseTool: async (_tool, input) => {
      await realWork();
      await realWork();
      return { behavior: "allow", updatedInput: input };
    },
  });
  assert.equal(error, undefined);
  const result = messages.at(-1) as { subtype: string; result: string };
  assert.equal(result.subtype, "success");
  assert.equal(result.result, "Built.");
});

Deno.test("a PreToolUse hook doing real async work wins on the virtual clock", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder().on("read").usesRead("/home/user/project/a.txt", { content: "a" })
      .respond("Done.").build(),
  );
  let ran = 0;
  const { messages, error } = await runQuery(mock, "read", {
    hooks: {
      PreToolUse: [{
        hooks: [async () => {
          await realWork();
          ran++;
          return { continue: true };
        }],
      }],
    },
  });
  assert.equal(error, undefined);
  assert.equal(ran, 1);
  assert.equal((messages.at(-1) as { subtype: string }).subtype, "success");
});

Deno.test("fake timers installed (every timer sinon fakes) leave the virtual clock working", async () => {
  const fake = FakeTimers.install({
    now: 0,
    toFake: [
      "setTimeout",
      "clearTimeout",
      "setImmediate",
      "clearImmediate",
      "setInterval",
      "clearInterval",
      "Date",
      "queueMicrotask",
    ],
  });
  try {
    const session = new Session(
      new ScenarioBuilder().on("hi").respondDelayed(5_000, "Hello!").delay(60_000)
        .respond("Still here.").build(),
      { timing: "realistic" },
    );
    const writer = session.writable.getWriter();
    await writer.write(user("hi"));
    await writer.close();
    const frames = await readFrames(session.readable);
    assert.equal(frames.filter((f) => f.type === "assistant").length, 2);
    assert.equal(
      (frames.find((f) => f.type === "result") as { is_error: boolean }).is_error,
      false,
    );
    assert.ok(session.clock.now() - Date.UTC(2026, 0, 1) >= 65_000);
    assert.equal((await session.exited).code, 0);
  } finally {
    fake.uninstall();
  }
});

Deno.test("an endless lazy exchange does not starve the app's timers, and can be killed", async () => {
  const session = new Session(
    new ScenarioBuilder().onLazy(any(), function* () {
      for (let i = 0;; i++) yield { kind: "emit" as const, frame: { type: "keep_alive", n: i } };
    }).build(),
  );
  const writer = session.writable.getWriter();
  await writer.write(user("go"));
  let frames = 0;
  let firedAt = -1;
  const timer = setTimeout(() => (firedAt = frames), 0);
  const reader = session.readable.getReader();
  try {
    while (firedAt < 0 && frames < 2_000_000) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const byte of value) if (byte === 10) frames++;
    }
  } finally {
    clearTimeout(timer);
  }
  assert.ok(firedAt >= 0, `the app's 0 ms timer never fired in ${frames} frames`);
  session.kill();
  await reader.cancel();
  assert.deepEqual(await session.exited, { code: null, signal: "SIGTERM" });
});

Deno.test("realistic timing on SystemClock converges under std FakeTime, which floors delays", async () => {
  using time = new FakeTime(Date.UTC(2026, 0, 1));
  // count FakeTime's setTimeout calls; driven with next() (nextAsync() would install FakeTime's
  // functions again, taking the count off)
  const fakeSetTimeout = globalThis.setTimeout;
  let armed = 0;
  globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
    armed++;
    return fakeSetTimeout(...args);
  }) as typeof setTimeout;
  const session = new Session(
    new ScenarioBuilder().on("hi").respond("Hello there, a few words.").respond("More.")
      .build(),
    { clock: "system", timing: "realistic", args: ["--include-partial-messages"] },
  );
  const writer = session.writable.getWriter();
  await writer.write(user("hi"));
  await writer.close();
  const reading = readFrames(session.readable);
  let settled = false;
  reading.then(() => (settled = true), () => (settled = true));
  for (let i = 0; i < 10_000 && !settled; i++) {
    for (let j = 0; j < 5; j++) await Promise.resolve();
    if (!time.next()) await new Promise<void>((r) => queueMicrotask(r));
  }
  assert.ok(settled, "the session did not finish under FakeTime");
  assert.ok(armed < 500, `armed ${armed} timers for a two-message turn`);
  const frames = await reading;
  assert.equal(frames.filter((f) => f.type === "assistant").length, 2);
});

// ---- 2. a turn always ends --------------------------------------------------------------

Deno.test("a result that cannot be built still ends the turn with an error result and exit 1", async () => {
  const extra = {};
  Object.defineProperty(extra, "boom", {
    enumerable: true,
    get() {
      throw new Error("the result's extra field exploded");
    },
  });
  const mock = new MockTransport(
    new ScenarioBuilder({ name: "bad-result" }).on("hi").respond("Hi.").thenResult({ extra })
      .build(),
  );
  const { messages, error } = await runQuery(mock, "hi");
  const result = messages.at(-1) as { type: string; subtype: string; errors: string[] };
  assert.equal(result.type, "result");
  assert.equal(result.subtype, "error_during_execution");
  assert.match(result.errors[0], /cannot build the result of exchange 1 \(contains "hi"\)/);
  assert.match(result.errors[0], /the result's extra field exploded/);
  assert.ok(error, "the SDK reports the non-zero exit");
  assert.equal((await mock.exited).code, 1);
});

Deno.test("a bad step produced lazily (negative output tokens) ends the turn naming its path", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder().onLazy("hi", function* () {
      yield { kind: "message" as const, parts: [text("x")], outputTokens: -5 };
    }).build(),
  );
  const { messages, error } = await runQuery(mock, "hi");
  const result = messages.at(-1) as { subtype: string; errors: string[] };
  assert.equal(result.subtype, "error_during_execution");
  assert.match(
    result.errors[0],
    /^claude-mock: Cannot run scenario: 'exchanges\[0\]\.steps\[0\]\.outputTokens' \(produced by a step function\) must be an integer >= 0, got -5$/,
  );
  assert.ok(error);
  assert.equal((await mock.exited).code, 1);
});

// ---- 3. input that must not kill the session -----------------------------------------------

Deno.test("a waitForWrite predicate that throws is reported by name; input and the log go on", async () => {
  const session = new Session(
    new ScenarioBuilder().on("first").waitForWrite(
      predicate(() => {
        throw new Error("predicate bug");
      }, "an approval frame"),
    ).respond("never")
      .on("second").respond("Second answered.").build(),
  );
  const writer = session.writable.getWriter();
  await writer.write(user("first"));
  await writer.write('{"type":"keep_alive"}\n');
  await writer.write(user("second"));
  await writer.close();
  const frames = await readFrames(session.readable);
  const results = frames.filter((f) => f.type === "result") as Array<
    { is_error: boolean; errors?: string[]; result?: string }
  >;
  assert.equal(results.length, 2);
  assert.match(
    results[0].errors![0],
    /exchange 1 \(contains "first"\) step 1: the waitForWrite matcher \(an approval frame\) threw on written line #\d: predicate bug/,
  );
  assert.equal(results[1].result, "Second answered.");
  assert.equal(session.writes.size, 3);
});

Deno.test("a trigger that throws fails that turn naming the exchange; the next message is served", async () => {
  const session = new Session(
    new ScenarioBuilder({ name: "triggers" })
      .on(predicate(() => {
        throw new Error("trigger bug");
      }, "a buggy predicate")).respond("never")
      .on("ok").respond("OK.").build(),
  );
  const writer = session.writable.getWriter();
  await writer.write(user("hello"));
  await writer.close();
  const frames = await readFrames(session.readable);
  const result = frames.find((f) => f.type === "result") as { errors: string[] };
  assert.match(
    result.errors[0],
    /the trigger of exchange 1 \(a buggy predicate\) threw while matching user message "hello": trigger bug/,
  );
  assert.equal((await session.exited).code, 1);
});

Deno.test("onConnect errors are surfaced: an error result naming the step, then exit 1", async () => {
  const scenario: Scenario = {
    name: "connect",
    exchanges: [],
    onConnect: [{
      kind: "emit",
      frame: () => {
        throw new Error("cannot build the banner");
      },
    }],
  };
  const session = new Session(scenario);
  const frames = await readFrames(session.readable);
  const result = frames.find((f) => f.type === "result") as { errors: string[] };
  assert.match(
    result.errors[0],
    /onConnect step 1 of scenario 'connect' failed: cannot build the banner/,
  );
  assert.equal((await session.exited).code, 1);
});

Deno.test("MockTransport: close() before connect() makes a later connect() refuse", async () => {
  const mock = new MockTransport(new ScenarioBuilder({ name: "early" }).build());
  assert.deepEqual(await mock.close(), { code: null, signal: "SIGTERM" });
  assert.throws(() => mock.connect(), /MockTransport 'early' was closed before it connected/);
  const { error } = await runQuery(mock, "hi");
  assert.match(String(error), /closed before it connected/);
});

Deno.test("a user frame with no prompt text is not matched against its raw JSON", async () => {
  const session = new Session(
    new ScenarioBuilder().on(contains("user")).respond("matched the JSON").build(),
  );
  const writer = session.writable.getWriter();
  await writer.write(
    user([{ type: "image", source: { type: "base64", media_type: "image/png", data: "AA==" } }]),
  );
  await writer.close();
  const frames = await readFrames(session.readable);
  const result = frames.find((f) => f.type === "result") as { is_error: boolean; errors: string[] };
  assert.equal(result.is_error, true);
  assert.match(result.errors[0], /matched user message "" \(turn 1\)/);
});

Deno.test("a client that cancels stdout ends the process as a broken pipe would", async () => {
  const session = new Session(
    new ScenarioBuilder().onLazy("go", function* () {
      for (let i = 0;; i++) yield { kind: "emit" as const, frame: { type: "keep_alive", n: i } };
    }).build(),
  );
  const writer = session.writable.getWriter();
  await writer.write(user("go"));
  const reader = session.readable.getReader();
  await reader.read();
  await reader.cancel();
  assert.deepEqual(await session.exited, { code: null, signal: "SIGPIPE" });
  await assert.rejects(writer.write(user("more")), /it has exited \(signal SIGPIPE\)/);
});

// ---- 4. glob in linear time -------------------------------------------------------------------

Deno.test("glob matches a 7 KB prompt against a many-star pattern without backtracking", () => {
  const matcher = glob("*error*in*file*.ts");
  const prompt = "error in ".repeat(800) + "fil";
  assert.equal(matcher.test(prompt, { type: "user" }), false);
  assert.equal(matcher.test(prompt + "e x.ts", { type: "user" }), true);
});

Deno.test("glob agrees with a RegExp reference on random patterns and texts", () => {
  let seed = 7;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const alphabet = "ab*?[";
  for (let round = 0; round < 3000; round++) {
    let pattern = "";
    for (let i = rand(6); i >= 0; i--) {
      const c = alphabet[rand(alphabet.length)];
      pattern += c === "[" ? (rand(2) ? "[ab]" : "[!a]") : c;
    }
    let textValue = "";
    for (let i = rand(8); i > 0; i--) textValue += "ab"[rand(2)];
    const reference = new RegExp(
      "^" +
        pattern.replace(/\[!/g, "[^").replace(/\*/g, "[\\s\\S]*").replace(/\?/g, "[\\s\\S]") +
        "$",
    );
    assert.equal(
      glob(pattern).test(textValue, { type: "user" }),
      reference.test(textValue),
      `${pattern} vs ${textValue}`,
    );
  }
});

// ---- hostile input and load -----------------------------------------------------------------

Deno.test("20,000 hostile frames leave the session answering: every request answered, no crash", async () => {
  let seed = 11;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const values: unknown[] = [
    null,
    0,
    -1,
    1e308,
    "",
    "x",
    [],
    {},
    { subtype: 5 },
    { subtype: "initialize" },
    { subtype: "set_model", model: 42 },
    { subtype: "set_permission_mode", mode: "nope" },
    { subtype: "set_max_thinking_tokens", max_thinking_tokens: -3 },
    { subtype: "interrupt" },
    { subtype: "get_context_usage" },
    { subtype: "no_such_request" },
  ];
  const lines: string[] = [];
  let requests = 0;
  for (let i = 0; i < 20_000; i++) {
    switch (rand(7)) {
      case 0:
        lines.push(
          JSON.stringify({
            type: "control_request",
            request_id: `r${i}`,
            request: values[rand(values.length)],
          }),
        );
        requests++;
        break;
      case 1:
        lines.push(
          JSON.stringify({ type: "control_response", response: values[rand(values.length)] }),
        );
        break;
      case 2:
        lines.push(
          JSON.stringify({ type: "control_request", request: values[rand(values.length)] }),
        );
        break;
      case 3:
        lines.push(JSON.stringify({ type: values[rand(values.length)], x: i }));
        break;
      case 4:
        // JSON that is no frame (a line that is not JSON, or null, ends the real CLI: exit 1)
        lines.push(JSON.stringify(["{not json", i]));
        break;
      case 5:
        lines.push(JSON.stringify(values[rand(values.length)] ?? "null"));
        break;
      default:
        lines.push(JSON.stringify({ type: "keep_alive" }));
    }
  }
  const session = new Session(new ScenarioBuilder().on("finally").respond("Still alive.").build());
  const writer = session.writable.getWriter();
  const reading = readFrames(session.readable);
  for (let i = 0; i < lines.length; i += 500) {
    await writer.write(lines.slice(i, i + 500).join("\n") + "\n");
  }
  await writer.write(user("finally"));
  await writer.close();
  const frames = await reading;
  const answered = new Set(
    frames.filter((f) => f.type === "control_response")
      .map((f) => (f.response as { request_id: string }).request_id),
  );
  assert.equal(answered.size, requests);
  const result = frames.filter((f) => f.type === "result").at(-1) as { result: string };
  assert.equal(result.result, "Still alive.");
  assert.equal(session.writes.size, lines.length + 1);
});

Deno.test("2,000 concurrent sessions: each gets exactly its own frames, all exit cleanly", async () => {
  const scenario = new ScenarioBuilder().on(any()).respond("Hello.").respond("Again.").build();
  const runs = Array.from({ length: 2_000 }, async (_, i) => {
    const session = new Session(scenario, { seed: i });
    const writer = session.writable.getWriter();
    const reading = readFrames(session.readable);
    await writer.write(user(`prompt ${i}`));
    await writer.close();
    const frames = await reading;
    const ids = new Set(
      frames.flatMap((f) => (typeof f.session_id === "string" ? [f.session_id] : [])),
    );
    assert.deepEqual([...ids], [session.ctx.sessionId]);
    assert.equal(frames.filter((f) => f.type === "assistant").length, 2);
    return (await session.exited).code;
  });
  const codes = await Promise.all(runs);
  assert.ok(codes.every((c) => c === 0));
});

Deno.test("a lazily produced apiError with endless retries is refused, not spun on", async () => {
  const session = new Session(
    new ScenarioBuilder({ name: "retry" }).onLazy("hi", function* () {
      yield { kind: "apiError" as const, status: 500, retries: Infinity };
    }).build(),
  );
  const writer = session.writable.getWriter();
  await writer.write(user("hi"));
  await writer.close();
  const frames = await readFrames(session.readable);
  assert.equal(frames.filter((f) => f.subtype === "api_retry").length, 0);
  const result = frames.find((f) => f.type === "result") as { errors: string[] };
  assert.match(result.errors[0], /'exchanges\[0\]\.steps\[0\]\.retries' .*Infinity/);
  assert.equal((await session.exited).code, 1);
});

Deno.test("bad scenarios are refused when the session starts, naming the scenario and path", () => {
  const bad: Array<[unknown, RegExp]> = [
    [
      { name: "deploy", exchanges: [{ trigger: any(), steps: [{ kind: "delay", ms: NaN }] }] },
      /^RangeError: Cannot start a session for scenario 'deploy': 'exchanges\[0\]\.steps\[0\]\.ms' must be a finite number >= 0, got NaN$/,
    ],
    [{ exchanges: [], seed: "abc" }, /'seed' must be a bigint or a safe integer/],
    [
      { exchanges: [], permissions: { allow: "Bash" } },
      /'permissions\.allow' must be an array of rule strings, got a string/,
    ],
    [{ exchanges: [], crashAfter: { frames: 2, code: 0 } }, /'crashAfter\.code'/],
  ];
  for (const [scenario, message] of bad) {
    assert.throws(() => new Session(scenario as Scenario), message);
  }
  assert.throws(() => new Session({ exchanges: [] }, { seed: 0.5 }), /Cannot start a session/);
  assert.throws(() => new Session({ exchanges: [] }, { controlTimeoutMs: NaN }), RangeError);
});

Deno.test("a reader that goes away after the last frame does not turn a clean exit into SIGPIPE", async () => {
  const session = new Session(new ScenarioBuilder().on("hi").respond("Bye.").build());
  const writer = session.writable.getWriter();
  const reader = session.readable.getReader();
  await writer.write(user("hi"));
  let body = "";
  const decoder = new TextDecoder();
  while (!body.includes('"state":"idle"')) body += decoder.decode((await reader.read()).value);
  await reader.cancel();
  await writer.close();
  assert.deepEqual(await session.exited, { code: 0, signal: null });
});

// ---- lifecycle ----------------------------------------------------------------------------------

Deno.test("kill() during a real pacing wait ends the process at once and leaves no timer", async () => {
  const session = new Session(
    new ScenarioBuilder().on("hi").respondDelayed(60_000, "Too late.").build(),
    { clock: "system" },
  );
  const writer = session.writable.getWriter();
  const reading = readFrames(session.readable);
  await writer.write(user("hi"));
  // wait until the turn has started (its init frame is out), then kill mid-delay
  while (session.writes.size < 1) await new Promise<void>((r) => queueMicrotask(r));
  await new Promise<void>((r) => setTimeout(r, 0));
  session.kill();
  assert.deepEqual(await session.exited, { code: null, signal: "SIGTERM" });
  const frames = await reading;
  assert.equal(frames.filter((f) => f.type === "assistant").length, 0);
  // Deno's sanitizers fail this test if the 60 s pacing timer were still pending.
});

Deno.test("exit() while a control request waits for the client clears its real-time limit", async () => {
  const session = new Session(
    new ScenarioBuilder().on("hi").steps({
      kind: "request",
      request: { subtype: "custom_probe" },
    }).respond("never").build(),
  );
  const writer = session.writable.getWriter();
  const reader = session.readable.getReader();
  await writer.write(user("hi"));
  let body = "";
  const decoder = new TextDecoder();
  while (!body.includes("custom_probe")) body += decoder.decode((await reader.read()).value);
  const exiting = session.exit(0);
  while (!(await reader.read()).done) { /* drain */ }
  assert.deepEqual(await exiting, { code: 0, signal: null });
  // the 60 s real-time limit of the request was cleared (the sanitizers check it)
});

Deno.test("writes, injections and a second exit after the process ended fail or no-op clearly", async () => {
  const session = new Session(new ScenarioBuilder({ name: "done" }).build());
  const writer = session.writable.getWriter();
  await writer.close();
  await new Response(session.readable).text();
  assert.deepEqual(await session.exited, { code: 0, signal: null });
  assert.throws(() => session.inject({ type: "keep_alive" }), /'done': it has exited/);
  assert.throws(() => session.injectError("x"), /it has exited/);
  assert.deepEqual(await session.exit(3), { code: 0, signal: null });
  session.kill();
  assert.deepEqual(await session.exited, { code: 0, signal: null });
});
