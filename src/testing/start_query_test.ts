import assert from "node:assert/strict";
import { MockTransport } from "../adapters/mock_transport.ts";
import { AssertionError } from "../session/assertion_error.ts";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import { startQuery } from "./start_query.ts";
import type { QueryFunction, QueryMessage } from "./query_types.ts";

const mock = () => new MockTransport(new ScenarioBuilder().build());

/**
 * A stand-in for the SDK's query: for each prompt text, after a turn of the event loop,
 * an assistant message and a result; a text "explode" makes it throw.
 */
const chatty: QueryFunction = ({ prompt }) => {
  let interrupts = 0;
  const messages = (async function* (): AsyncGenerator<QueryMessage> {
    for await (const m of prompt as AsyncIterable<{ message: { content: string } }>) {
      const text = m.message.content;
      await new Promise((resolve) => queueMicrotask(() => resolve(undefined)));
      if (text === "explode") throw new Error("the SDK blew up");
      yield { type: "assistant", text: `about ${text}` };
      yield { type: "result", subtype: "success", is_error: false, result: `done ${text}` };
    }
  })();
  return Object.assign(messages, {
    interrupt: () => Promise.resolve({ interrupts: ++interrupts }),
  });
};

Deno.test("startQuery: send, nextMessage, nextResult, interrupt, close", async () => {
  const chat = await startQuery(mock(), { query: chatty });
  chat.send("a");
  chat.send({ type: "user", message: { role: "user", content: "b" }, parent_tool_use_id: null });
  assert.equal(chat.sent, 2);
  assert.deepEqual(await chat.nextMessage((m) => m.type === "assistant"), {
    type: "assistant",
    text: "about a",
  });
  assert.equal((await chat.nextResult()).result, "done a");
  // nextResult passes over b's assistant message
  assert.equal((await chat.nextResult()).result, "done b");
  assert.deepEqual(await chat.interrupt(), { interrupts: 1 });
  await assert.rejects(
    chat.nextResult(),
    new TypeError(
      "Nothing is on its way: every message sent has its result (2 messages sent, 2 results); send() first",
    ),
  );
  chat.send("c");
  const run = await chat.close(); // waits for c's result before it ends the prompt
  assert.deepEqual(run.results.map((r) => r.result), ["done a", "done b", "done c"]);
  assert.equal(run.messages.length, 6);
  assert.deepEqual(chat.messages, run.messages);
  assert.deepEqual(chat.results, run.results);
  assert.equal(run.error, undefined);
  assert.equal(run.exit, undefined); // this stand-in never spawned the mock
  assert.equal(await chat.close(), run);
  assert.throws(() => chat.send("d"), /Cannot send: the query is closing/);
  assert.equal((await chat.nextResult()).result, "done c"); // still there to take
  await assert.rejects(chat.nextResult(), (error) => {
    assert.ok(error instanceof AssertionError);
    assert.equal(
      error.message,
      "Expected another message, but the query ended after 6 messages",
    );
    return true;
  });
});

Deno.test("startQuery: when the SDK throws, waiting fails with its error and the run keeps it", async () => {
  await using chat = await startQuery(mock(), { query: chatty });
  chat.send("a");
  chat.send("explode");
  assert.equal((await chat.nextResult()).result, "done a");
  await assert.rejects(
    chat.nextResult(),
    /Expected another message, but the query ended after 2 messages: the SDK threw the SDK blew up/,
  );
  assert.throws(
    () => chat.send("more"),
    /Cannot send: the query has ended \(the SDK threw: the SDK blew up\)/,
  );
  const run = await chat.close();
  assert.equal(run.error?.message, "the SDK blew up");
  assert.equal(run.result?.result, "done a");
});

Deno.test("startQuery: bad arguments are refused", async () => {
  await assert.rejects(startQuery(null as never), /the first argument must be a MockTransport/);
  await using chat = await startQuery(mock(), { query: chatty });
  assert.throws(
    () => chat.send(7 as never),
    /RunningQuery\.send\(message\): message must be a text/,
  );
  await assert.rejects(chat.nextMessage("result" as never), /predicate must be a function/);
  assert.equal(chat.sent, 0);
});
