import assert from "node:assert/strict";
import type { SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import * as sdk from "@anthropic-ai/claude-agent-sdk";
import { MockTransport } from "../adapters/mock_transport.ts";
import { cassette } from "../cassette/use_cassette.ts";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import { AssertionError } from "../session/assertion_error.ts";
import { eachTest } from "./_interception_state.ts";
import { configureInterception } from "./configure_interception.ts";
import { mockClaude } from "./claude_mock.ts";
import { isFakeExecutable, wrapClaudeSdk } from "./wrap_claude_sdk.ts";
import { installFakeClaude } from "../fake_claude/install_fake_claude.ts";

// the door: the wrapped SDK, as the tests' import map gives it to an app
const { query } = wrapClaudeSdk(sdk);

/** The sample app: it imports query itself and takes no options. */
async function ask(prompt: string): Promise<string> {
  for await (const m of query({ prompt })) {
    if (m.type === "result") return m.subtype === "success" ? m.result : `error: ${m.subtype}`;
  }
  return "no result";
}

async function collect(prompt: string, options = {}): Promise<SDKMessage[]> {
  const messages: SDKMessage[] = [];
  for await (const m of query({ prompt, options })) messages.push(m);
  return messages;
}

const greeter = new ScenarioBuilder({ name: "greeter" })
  .on("hello").repeat().respond("Hello from the mock!")
  .build();

Deno.test("mockClaude: the app's own query() runs against the scenario, with the recorders", async () => {
  await using claude = mockClaude(greeter);
  assert.equal(await ask("hello there"), "Hello from the mock!");
  claude.assertWrote(/hello there/);
  assert.ok(claude.writtenMessages().some((f) => f.type === "control_request"));
  assert.equal(claude.transports.length, 1);
  assert.ok(claude.spawns[0].args.includes("stream-json"));
  assert.deepEqual(await claude.last.exited, { code: 0, signal: null });
  claude.assertAllExchangesUsed();
  claude.assertScenarioFinished();
});

Deno.test("mockClaude: each query is a new session, the n-th invocation n with other ids", async () => {
  const scenario = new ScenarioBuilder({ name: "runs" })
    .on("go", { invocation: 1 }).respond("first run")
    .on("go", { invocation: 2 }).respond("second run")
    .build();
  await using claude = mockClaude(scenario);
  const first = await collect("go");
  const second = await collect("go");
  assert.equal(first.at(-1)?.type === "result" && first.at(-1)!.session_id !== undefined, true);
  assert.deepEqual(
    [first, second].map((ms) => ms.at(-1)).map((m) =>
      m?.type === "result" && m.subtype === "success" ? m.result : m
    ),
    ["first run", "second run"],
  );
  assert.notEqual(first[0].session_id, second[0].session_id);
  assert.equal(claude.transports.length, 2);
  claude.assertAllExchangesUsed();
});

Deno.test("mockClaude: clear() forgets the queries that ended; the next counts on as without it", async () => {
  const scenario = new ScenarioBuilder({ name: "cleared" })
    .on("go", { invocation: 1 }).respond("first run")
    .on("go", { invocation: 2 }).respond("second run")
    .on("go", { invocation: 3 }).respond("third run")
    .build();
  const lastResult = (ms: SDKMessage[]) => {
    const m = ms.at(-1);
    return m?.type === "result" ? { ...m, duration_ms: 0, duration_api_ms: 0 } : m;
  };
  // without clear(): the third query's result
  const kept = mockClaude(scenario);
  await collect("go");
  await collect("go");
  const third = lastResult(await collect("go"));
  await kept.close();
  await using claude = mockClaude(scenario);
  await collect("go");
  await collect("go");
  assert.equal(claude.transports.length, 2);
  claude.clear();
  assert.deepEqual([claude.transports.length, claude.spawns.length, claude.writes().length], [
    0,
    0,
    0,
  ]);
  assert.throws(() => claude.last, /has no query since clear\(\)/);
  assert.throws(() => claude.assertAllExchangesUsed(), AssertionError);
  // the third query is invocation 3, with the ids and seed it has without the clear
  assert.deepEqual(lastResult(await collect("go")), third);
  assert.deepEqual([claude.transports.length, claude.spawns.length], [1, 1]);
  claude.assertWrote(/"go"/);
});

Deno.test("mockClaude: an exchange no query used is named across queries", async () => {
  const scenario = new ScenarioBuilder({ name: "two" })
    .on("build").respond("Built.")
    .on("deploy").respond("Deployed.")
    .build();
  await using claude = mockClaude(scenario);
  assert.throws(() => claude.assertAllExchangesUsed(), /mockClaude 'two': no query ran/);
  await collect("build it");
  await collect("build it again");
  assert.throws(() => claude.assertAllExchangesUsed(), (error) => {
    assert.ok(error instanceof AssertionError);
    assert.match(error.message, /1 of 2 exchanges were never used in 2 queries/);
    assert.match(error.message, /exchanges\[1\] on contains "deploy"/);
    return true;
  });
});

Deno.test("mockClaude: use() overrides the next queries, as msw's server.use", async () => {
  await using claude = mockClaude(greeter);
  assert.equal(await ask("hello"), "Hello from the mock!");
  claude.use((s) => s.on("hello").respond("Overridden."));
  assert.equal(await ask("hello"), "Overridden.");
  assert.equal(claude.scenario?.exchanges.length, 2);
});

Deno.test("mockClaude: a named failure reaches the app as the SDK's error", async () => {
  await using _claude = mockClaude(
    new ScenarioBuilder().on("status").failure("overloaded").build(),
  );
  const error = await collect("status?", { env: { CLAUDE_CODE_MAX_RETRIES: "0" } }).then(
    () => undefined,
    (e) => e,
  );
  assert.ok(error instanceof Error);
  assert.match(error.message, /529|Overloaded/);
});

Deno.test("mockClaude: concurrent tests never see each other's mock", async () => {
  // two "tests" interleaved: each activates its mock, then both query while the other's
  // mock is active too; a barrier makes sure both are active before either queries
  let arrive!: () => void;
  const both = new Promise<void>((resolve) => {
    let n = 0;
    arrive = () => void (++n === 2 && resolve());
  });
  const run = async (name: string) => {
    await using claude = mockClaude(
      new ScenarioBuilder({ name }).on("who").repeat().respond(`I am ${name}.`).build(),
    );
    arrive();
    await both;
    const answers = await Promise.all([ask("who are you?"), ask("who?")]);
    return { answers, queries: claude.transports.length };
  };
  const [a, b] = await Promise.all([run("a"), run("b")]);
  assert.deepEqual(a, { answers: ["I am a.", "I am a."], queries: 2 });
  assert.deepEqual(b, { answers: ["I am b.", "I am b."], queries: 2 });
});

Deno.test("mockClaude: with no active mock, query() throws naming the prompt and the way out", async () => {
  await (async () => {
    // a closed mock answers no more
    const claude = mockClaude(greeter);
    await claude.close();
    assert.equal(claude.active, false);
  })();
  assert.throws(() => query({ prompt: "hello" }), (error) => {
    assert.ok(error instanceof Error);
    assert.match(error.message, /^Cannot run query\(\) \(prompt "hello"\) of @anthropic-ai/);
    assert.match(error.message, /Call mockClaude\(scenario\)/);
    assert.match(error.message, /onUnhandledQuery: "bypass"/);
    return true;
  });
});

Deno.test("mockClaude: onUnhandledQuery decides; a query with its own spawn is never unhandled", async () => {
  const seen: string[] = [];
  const previous = configureInterception({
    onUnhandledQuery: (q) => void seen.push(`${q.call} ${q.prompt}`),
  });
  try {
    // the function let it through: the query runs as the app asked, with its own spawn
    const mock = new MockTransport(greeter);
    const messages = await collect("hello", mock.options());
    assert.equal(seen.length, 0, "a query with its own spawnClaudeCodeProcess is handled");
    assert.equal(messages.at(-1)?.type, "result");
    configureInterception({ onUnhandledQuery: "error" });
    const again = new MockTransport(greeter);
    assert.equal((await collect("hello", again.options())).at(-1)?.type, "result");
    configureInterception({
      onUnhandledQuery: (q) => {
        seen.push(`${q.call} ${q.prompt}`);
        throw new Error("refused by the test");
      },
    });
    assert.throws(() => query({ prompt: "hi" }), /refused by the test/);
    assert.deepEqual(seen, ["query hi"]);
    assert.throws(
      () => configureInterception({ onUnhandledQuery: "ignore" as never }),
      /onUnhandledQuery must be "error", "warn", "bypass" or a function, got "ignore"/,
    );
  } finally {
    configureInterception(previous);
  }
});

Deno.test("mockClaude: a second mock replaces the first; a closed one leaves none; global mocks answer elsewhere", async () => {
  await using outer = mockClaude(greeter);
  const inner = mockClaude(
    new ScenarioBuilder({ name: "inner" }).on("hello").respond("inner").build(),
  );
  assert.equal(await ask("hello"), "inner");
  await inner.close();
  assert.throws(
    () => query({ prompt: "hello" }),
    /no Claude mock is active here \(mockClaude 'inner' was closed\)/,
  );
  assert.equal(outer.transports.length, 0);
  await outer.close();
  const global = mockClaude(new ScenarioBuilder().on("hello").respond("global").build(), {
    global: true,
  });
  try {
    assert.equal(await ask("hello"), "global");
  } finally {
    await global.close();
  }
  assert.throws(() => query({ prompt: "hello" }), /no Claude mock is active/);
});

Deno.test("mockClaude: close() ends a query still running", async () => {
  const claude = mockClaude(
    new ScenarioBuilder().on("wait").waitForWrite(/never/).respond("late").build(),
  );
  const messages = collect("wait").catch((e) => e);
  while (claude.transports.length === 0) await new Promise((r) => setTimeout(r, 0));
  await claude.close();
  assert.equal((await claude.last.exited).signal, "SIGTERM");
  await messages;
});

Deno.test("mockClaude: close() is a cleanup a runner's hook takes as it is", async () => {
  // vitest's onTestFinished and onTestFailed take `(context) => Awaitable<void>`: a function
  // returning a promise of anything but void does not type check there (tsc --strict)
  const hooks: (() => void | PromiseLike<void>)[] = [];
  const onTestFinished = (fn: () => void | PromiseLike<void>) => void hooks.push(fn);
  const claude = mockClaude(greeter);
  onTestFinished(() => claude.close());
  for (const hook of hooks) await hook();
  assert.equal(claude.active, false);
});

Deno.test("mockClaude: a cassette is the active mock", async () => {
  const dir = new URL("../../snapshots", import.meta.url).pathname;
  await using tape = await cassette({ name: "hello" }, "hello", { dir, env: {} });
  await using claude = mockClaude(tape);
  assert.equal(await ask("hello"), "Hello! How can I help you today?");
  assert.match(claude.label, /^cassette .*hello\.jsonl$/);
  assert.equal(claude.spawns.length, 1);
  assert.throws(() => claude.writes(), /replays a spawn source/);
});

Deno.test("mockClaude: bad sources and options are named", () => {
  assert.throws(() => mockClaude(42 as never), /the source must be a scenario/);
  assert.throws(() => mockClaude(greeter, "fast" as never), /options must be an object/);
});

Deno.test("mockClaude: the SDK's startup() is routed too (a warm query against the mock)", async () => {
  const { startup } = wrapClaudeSdk(sdk);
  await using claude = mockClaude(greeter);
  const warm = await startup({});
  let result: unknown;
  for await (const m of warm.query("hello")) {
    if (m.type === "result" && m.subtype === "success") result = m.result;
  }
  assert.equal(result, "Hello from the mock!");
  assert.equal(claude.transports.length, 1);
});

Deno.test("mockClaude: onUnhandledQuery bypass and warn pass the query on as the app made it", () => {
  // a stand-in SDK whose query() gives back what it was called with
  const standIn = wrapClaudeSdk({ query: (params: unknown) => params });
  const params = { prompt: "hi", options: { pathToClaudeCodeExecutable: "/usr/bin/claude" } };
  const warnings: unknown[] = [];
  const warn = console.warn;
  const previous = configureInterception({ onUnhandledQuery: "bypass" });
  try {
    assert.deepEqual(standIn.query(params), params);
    configureInterception({ onUnhandledQuery: "warn" });
    console.warn = (...args: unknown[]) => void warnings.push(args.join(" "));
    assert.deepEqual(standIn.query(params), params);
    configureInterception({ onUnhandledQuery: "error" });
    assert.throws(() => standIn.query(params), /no Claude mock is active here/);
  } finally {
    console.warn = warn;
    configureInterception(previous);
  }
  assert.deepEqual(warnings, [
    'claude-mock: query() (prompt "hi") ran with no mock active: it reaches the real Claude Code CLI',
  ]);
});

Deno.test("mockClaude: a mock made in another async context (a hook) is not this test's; the error says what to do", async () => {
  // a hook runs in a context of its own (node:test, jest): here, a timer's callback
  const hooked = await new Promise<ReturnType<typeof mockClaude>>((resolve) =>
    setTimeout(() => resolve(mockClaude(new ScenarioBuilder({ name: "hooked" }).build())), 0)
  );
  try {
    assert.throws(() => query({ prompt: "hello" }), (error) => {
      assert.match(
        (error as Error).message,
        new RegExp(
          "no Claude mock is active here \\(mockClaude 'hooked' is active in another async " +
            "context: a hook such as beforeEach, or another test; call mockClaude\\(\\) in the " +
            "test itself, or pass \\{ global: true \\}",
        ),
      );
      return true;
    });
  } finally {
    await hooked.close();
  }
  // set up with { global: true }, a hook's mock answers the tests that follow
  const global = await new Promise<ReturnType<typeof mockClaude>>((resolve) =>
    setTimeout(() => resolve(mockClaude(greeter, { global: true })), 0)
  );
  try {
    assert.equal(await ask("hello"), "Hello from the mock!");
  } finally {
    await global.close();
  }
});

Deno.test("mockClaude: a recording cassette runs the CLI the SDK resolves, a replaying one a placeholder", async () => {
  // a stand-in SDK whose query() gives back what it was called with
  const standIn = wrapClaudeSdk({ query: (params: unknown) => params });
  const optionsOf = (params: unknown) => (params as { options: Record<string, unknown> }).options;
  const dir = await Deno.makeTempDir();
  try {
    const recording = await cassette({ name: "r" }, "r", { dir, env: {}, mode: "record" });
    const claude = mockClaude(recording);
    // the SDK finds its native binary, or takes the app's own path: never a bare "claude"
    assert.equal(optionsOf(standIn.query({ prompt: "hi" })).pathToClaudeCodeExecutable, undefined);
    assert.equal(
      optionsOf(standIn.query({ prompt: "hi", options: { pathToClaudeCodeExecutable: "/opt/c" } }))
        .pathToClaudeCodeExecutable,
      "/opt/c",
    );
    await claude.close();
    for (const source of [greeter, { mode: "replay", path: "x.jsonl", spawn: () => {} }]) {
      await using _claude = mockClaude(source);
      assert.equal(optionsOf(standIn.query({ prompt: "hi" })).pathToClaudeCodeExecutable, "claude");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("eachTest: a mock its test activated after an await is closed when the test ends", async () => {
  // as vitest runs a test (its setup file's hooks): the hooks in the runner's async context, the
  // test's body called from it; a mockClaude() after the body's first await is activated in a
  // continuation the runner's context never sees
  eachTest.start();
  const test = async () => {
    await Promise.resolve();
    const late = mockClaude(new ScenarioBuilder({ name: "late" }).on("hi").respond("Hi").build());
    assert.equal(await ask("hi"), "Hi");
    return late;
  };
  const late = await test();
  await eachTest.end();
  assert.equal(late.active, false);
  // and the next test neither meets it nor hears of it
  eachTest.start();
  const error = await ask("hi").catch((e: Error) => e);
  assert.match(String(error), /no Claude mock is active here/);
  assert.doesNotMatch(String(error), /late/);
  await eachTest.end();
});

Deno.test("eachTest: a test's mocks are closed, each test's own (concurrent tests)", async () => {
  const run = async (name: string, gate: Promise<void>) => {
    eachTest.start();
    const body = async () => {
      await Promise.resolve();
      const mock = mockClaude(new ScenarioBuilder({ name }).on("who").respond(name).build());
      await gate;
      assert.equal(await ask("who"), name);
      return mock;
    };
    const mock = await body();
    await eachTest.end();
    return mock;
  };
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const a = run("a", gate);
  const b = run("b", new Promise<void>((r) => setTimeout(r, 0)));
  const mockB = await b; // b ends while a still runs: a's mock stays active
  open();
  const mockA = await a;
  assert.equal(mockB.active, false);
  assert.equal(mockA.active, false);
});

Deno.test("a query pointed at a fake binary of installFakeClaude() is never unhandled", async () => {
  await using claude = await installFakeClaude({
    scenario: new ScenarioBuilder().on("hi").respond("From the fake binary.").build(),
  });
  const options = {
    pathToClaudeCodeExecutable: claude.path,
    env: { ...Deno.env.toObject(), ...claude.env },
  };
  const messages = await collect("hi", options);
  const result = messages.at(-1);
  assert.equal(
    result?.type === "result" && result.subtype === "success" && result.result,
    "From the fake binary.",
  );
  // another executable is still an unhandled query, and so is the fake once disposed of
  await assert.rejects(
    collect("hi", { pathToClaudeCodeExecutable: "/usr/bin/claude" }),
    /no Claude mock is active here/,
  );
  await claude.dispose();
  await assert.rejects(collect("hi", options), /no Claude mock is active here/);
});

Deno.test("isFakeExecutable: the package's own bin through a link is a fake, another file is not", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const bin = new URL("../../dist/bin.js", import.meta.url).pathname;
    await Deno.symlink(bin, `${dir}/claude-mock`);
    await Deno.writeTextFile(`${dir}/claude`, "#!/bin/sh\n");
    assert.equal(isFakeExecutable(`${dir}/claude-mock`), true);
    assert.equal(isFakeExecutable(`${dir}/claude`), false);
    assert.equal(isFakeExecutable(`${dir}/missing`), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
