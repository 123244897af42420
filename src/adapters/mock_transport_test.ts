import assert from "node:assert/strict";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import { Session } from "../session/session.ts";
import { MOCK_EXECUTABLE_PATH, MockTransport, sessionOf } from "./mock_transport.ts";

Deno.test("mock.session shows the running engine; sessionOf(mock) hands the engine over", async () => {
  const mock = new MockTransport(new ScenarioBuilder().on("hi").respond("Hello!").build());
  assert.throws(() => mock.session, /has no session yet/);
  assert.throws(() => sessionOf(mock), /has no session yet/);
  mock.connect();
  assert.ok(sessionOf(mock) instanceof Session);
  assert.equal(sessionOf(mock), mock.session);
  assert.throws(
    () => sessionOf({ session: { ...mock.session } }),
    new TypeError(
      "Cannot get the session: sessionOf(mock) takes a MockTransport (its 'session' is no Session)",
    ),
  );
  await mock.close();
});

Deno.test("mock.options(): the bound spawn and the placeholder path, nothing else", async () => {
  const mock = new MockTransport(new ScenarioBuilder().on("hi").respond("Hello!").build());
  const options = mock.options();
  assert.deepEqual(Object.keys(options), ["spawnClaudeCodeProcess", "pathToClaudeCodeExecutable"]);
  assert.equal(options.spawnClaudeCodeProcess, mock.spawn);
  assert.equal(options.pathToClaudeCodeExecutable, MOCK_EXECUTABLE_PATH);
  assert.equal(MOCK_EXECUTABLE_PATH, "claude");
  // the spawn function works detached from the transport, as the SDK calls it
  const { spawnClaudeCodeProcess } = options;
  const child = spawnClaudeCodeProcess({
    command: MOCK_EXECUTABLE_PATH,
    args: ["--output-format", "stream-json", "--verbose", "--input-format", "stream-json"],
    env: {},
    signal: new AbortController().signal,
  });
  const out: string[] = [];
  child.stdout.on("data", (chunk: Uint8Array) => out.push(new TextDecoder().decode(chunk)));
  child.stdin.end(
    '{"type":"user","session_id":"","message":{"role":"user","content":"hi"},"parent_tool_use_id":null}\n',
  );
  assert.deepEqual(await mock.exited, { code: 0, signal: null });
  const result = out.join("").trim().split("\n").map((l) => JSON.parse(l))
    .find((f) => f.type === "result");
  assert.equal(result?.result, "Hello!");
});
