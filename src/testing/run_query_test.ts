import assert from "node:assert/strict";
import { MockTransport } from "../adapters/mock_transport.ts";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import { queryFunction } from "./_load_query.ts";
import { runQuery } from "./run_query.ts";
import type { QueryFunction, QueryMessage } from "./query_types.ts";

const scenario = new ScenarioBuilder().on("hi").respond("Hello!").build();

/** A stand-in for the SDK's query: answers each prompt text with `reply(text)`. */
function fakeQuery(reply: (text: string) => QueryMessage[]): QueryFunction {
  return ({ prompt }) => {
    const messages = (async function* () {
      if (typeof prompt === "string") return yield* reply(prompt);
      for await (const m of prompt) {
        yield* reply(String((m.message as { content: string }).content));
      }
    })();
    return Object.assign(messages, { interrupt: () => Promise.resolve(undefined) });
  };
}

const echo = fakeQuery((text) => [
  { type: "system", subtype: "init" },
  { type: "result", subtype: "success", is_error: false, result: `echo ${text}` },
]);

Deno.test("runQuery: bad arguments reject at once, naming what is wrong", async () => {
  const mock = new MockTransport(scenario);
  await assert.rejects(
    runQuery({} as never, "hi", { query: echo }),
    new TypeError(
      "runQuery(mock, prompt, options): the first argument must be a MockTransport, got {}",
    ),
  );
  await assert.rejects(
    runQuery(mock, "hi", "fast" as never),
    /options must be an object, got "fast"/,
  );
  await assert.rejects(
    runQuery(mock, "hi", { query: echo, spawnClaudeCodeProcess: () => {} }),
    /options\.spawnClaudeCodeProcess is the mock's own \(mock\.spawn\); remove it/,
  );
  await assert.rejects(
    runQuery(mock, "hi", { query: "sdk" as never }),
    /options\.query must be the Agent SDK's query function, got "sdk"/,
  );
  await assert.rejects(runQuery(mock, 42 as never, { query: echo }), (error) => {
    assert.ok(error instanceof TypeError);
    assert.match(error.message, /prompt must be a text, an array .* got 42/);
    return true;
  });
  await assert.rejects(runQuery(mock, [], { query: echo }), RangeError);
  await assert.rejects(
    runQuery(mock, ["hi", { type: "assistant" } as never], { query: echo }),
    /prompt\[1\] must be a text or an SDK user message/,
  );
});

Deno.test("runQuery: the messages, results and error of a query; no exit when nothing spawned", async () => {
  const mock = new MockTransport(scenario);
  const run = await runQuery(mock, "hi", { query: echo });
  assert.deepEqual(run.messages.map((m) => m.type), ["system", "result"]);
  assert.equal(run.result?.result, "echo hi");
  assert.deepEqual(run.results, [run.result]);
  assert.equal(run.error, undefined);
  assert.equal(run.exit, undefined);
  assert.deepEqual(run.writes, []);

  const multi = await runQuery(new MockTransport(scenario), ["a", "b"], { query: echo });
  assert.deepEqual(multi.results.map((r) => r.result), ["echo a", "echo b"]);
});

Deno.test("runQuery: whatever the SDK throws becomes the run's error", async () => {
  const throwsLater: QueryFunction = () =>
    Object.assign(
      (async function* () {
        yield { type: "system" };
        throw "a string, not an Error";
      })(),
      { interrupt: () => Promise.resolve() },
    );
  const later = await runQuery(new MockTransport(scenario), "hi", { query: throwsLater });
  assert.equal(later.messages.length, 1);
  assert.ok(later.error instanceof Error);
  assert.equal(later.error.message, 'The SDK threw a non-Error: "a string, not an Error"');
  assert.equal(later.error.cause, "a string, not an Error");

  const failure = new TypeError("bad options");
  const throwsAtOnce: QueryFunction = () => {
    throw failure;
  };
  const atOnce = await runQuery(new MockTransport(scenario), "hi", { query: throwsAtOnce });
  assert.equal(atOnce.error, failure);
  assert.deepEqual(atOnce.messages, []);
});

Deno.test("runQuery: a process the SDK left running is closed through the SDK's close()", async () => {
  const mock = new MockTransport(scenario);
  const leaves: QueryFunction = ({ options }) => {
    const spawn = options!.spawnClaudeCodeProcess as MockTransport["spawn"];
    const child = spawn({
      command: "claude",
      args: [],
      env: {},
      signal: new AbortController().signal,
    });
    child.stdout.resume();
    return Object.assign(
      (async function* () {
        yield { type: "system" };
      })(),
      { interrupt: () => Promise.resolve(), close: () => void child.kill() },
    );
  };
  const run = await runQuery(mock, "hi", { query: leaves });
  assert.deepEqual(run.exit, { code: null, signal: "SIGTERM" });
});

Deno.test("the default query: a clear error when the SDK cannot be loaded", async () => {
  await assert.rejects(
    queryFunction(undefined, "runQuery(mock, prompt, options)", [
      "./no_such_sdk_here.ts",
      "./nor_here.ts",
    ]),
    (error) => {
      assert.ok(error instanceof Error);
      assert.match(
        error.message,
        new RegExp(
          String.raw`^runQuery\(mock, prompt, options\): cannot load the Agent SDK \(` +
            String.raw`@anthropic-ai\/claude-agent-sdk\), the app's own dependency that the ` +
            String.raw`runner drives\. Install it \(deno add ` +
            String.raw`npm:@anthropic-ai\/claude-agent-sdk, or npm install ` +
            String.raw`@anthropic-ai\/claude-agent-sdk\) or pass the SDK's query ` +
            String.raw`in the options \(\{ query \}\)\. Tried \.\/no_such_sdk_here\.ts: .*; ` +
            String.raw`\.\/nor_here\.ts: `,
        ),
      );
      assert.ok(error.cause !== undefined);
      return true;
    },
  );
  await assert.rejects(
    queryFunction(undefined, "x", ["data:text/javascript,export const notQuery = 1"]),
    /Tried data:text\/javascript,export const notQuery = 1: it has no query function/,
  );
  // the app's own SDK (this repository maps it in deno.json) loads once
  const first = await queryFunction(undefined, "x");
  assert.equal(typeof first, "function");
  assert.equal(await queryFunction(undefined, "x"), first);
});
