import assert from "node:assert/strict";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import { assertProgress } from "./scenario_progress.ts";
import { Session } from "./session.ts";

// Once its process has exited, a session keeps what its readers read and lets the engine go
// (a long-lived mock holds one session per query): what it answers must not change.

const scenario = new ScenarioBuilder({ name: "done" }).on("hi").respond("Hello!")
  .on("never").respond("No.").build();

async function exitedSession(): Promise<{ session: Session; lines: string[] }> {
  const session = new Session(scenario, { recordSent: true });
  const reading = new Response(session.readable).text();
  session.write(
    '{"type":"control_request","request_id":"i1","request":{"subtype":"initialize"}}\n',
  );
  session.write('{"type":"user","message":{"role":"user","content":"hi"}}\n');
  session.endInput();
  const lines = (await reading).split("\n").filter((l) => l !== "");
  await session.exited;
  await Promise.resolve(); // the session takes what stays once its exit has resolved
  return { session, lines };
}

Deno.test("Session after exit: what it wrote and was asked stays readable", async () => {
  const { session, lines } = await exitedSession();
  assert.equal(session.closed, true);
  assert.deepEqual(session.exchangesMatched(), [0]);
  assert.equal(session.sent().length, lines.length);
  assert.deepEqual(session.initializeRequest, { subtype: "initialize" });
  assert.deepEqual(session.clientRequests().map((r) => [r.requestId, r.subtype]), [
    ["i1", "initialize"],
  ]);
  assert.equal(session.clientRequests()[0].answer?.success, true);
  assert.equal(session.sentRequests().size, 0);
  assert.deepEqual(session.hookContext(), []);
  assert.equal(session.writes.size, 2);
  assert.equal(session.readable.locked, true); // the same stream, which the reader took
  assert.throws(
    () => assertProgress(session, scenario, { finished: false, who: "S" }),
    /exchanges\[1\] on contains "never"/,
  );
});

Deno.test("Session after exit: writes, injections and requests fail saying it exited", async () => {
  const { session } = await exitedSession();
  assert.throws(() => session.write("{}\n"), /it has exited \(code 0\)/);
  assert.throws(() => session.inject({ type: "keep_alive" }), /'keep_alive' frame .*it has exited/);
  assert.throws(() => session.injectError("late"), /it has exited/);
  await assert.rejects(
    session.request({ subtype: "mcp_message", server_name: "x", message: {} }),
    (error: Error) =>
      error instanceof TypeError &&
      /Cannot send control request 'mcp_message'.*it has exited \(code 0\)/.test(error.message),
  );
  assert.equal(await session.interrupt(), false);
  session.kill(); // nothing left to end
  session.endInput();
  assert.deepEqual(await session.exit(3), { code: 0, signal: null });
});

Deno.test("Session after exit: a session whose lines went to a function has no readable", async () => {
  const session = new Session(scenario, { output: () => {} });
  session.write('{"type":"user","message":{"role":"user","content":"hi"}}\n');
  session.endInput();
  await session.exited;
  await Promise.resolve();
  assert.throws(() => session.readable, /its lines go to the 'output' function/);
  assert.throws(() => session.readable, TypeError);
});
