// The sample app's own test suite, written with @x/claude-mock: each test is a few lines.
// Run: deno test -A examples/app/
import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import {
  builtinScenario,
  MockTransport,
  PermissionRecorder,
  ScenarioBuilder,
  settleWithFakeTime,
  withOverrides,
} from "../../mod.ts";
import { mockCommand } from "../../mock_command.ts";
import { ask, canUseTool } from "./app.ts";

const base = new ScenarioBuilder({ name: "app" })
  .on("hello").respond("Hello! How can I help you today?")
  .on("clean").usesBash("rm -rf build", { ifDenied: "I won't delete the build folder." })
  .on("list").usesBash("ls", { stdout: "a.txt\n" }).respond("There is one file: a.txt.")
  .on("add").usesTool("mcp__calc__add", { a: 2, b: 3 }).respond("2 + 3 = 5.")
  .build();

Deno.test("a predefined scenario answers in one call", async () => {
  const mock = new MockTransport(builtinScenario("simple_conversation"));
  const answer = await ask("hello", { sdkOptions: mock.options() });
  assert.equal(answer.text, "Hello! How can I help you today?");
  assert.equal(answer.failed, false);
});

Deno.test("the streamed text adds up to the answer", async () => {
  const mock = new MockTransport(base);
  let streamed = "";
  const answer = await ask("hello", { onText: (t) => (streamed += t), sdkOptions: mock.options() });
  assert.equal(streamed, answer.text);
});

Deno.test("canUseTool refuses rm, and the refusal reaches Claude", async () => {
  const mock = new MockTransport(base);
  const answer = await ask("clean up", { sdkOptions: mock.options() });
  assert.equal(answer.text, "I won't delete the build folder.");
  const [decision] = mock.permissionDecisions();
  assert.equal(decision.behavior, "deny");
  assert.equal(decision.message, "rm is not allowed here");
});

Deno.test("a spy records the app's own permission answers", async () => {
  const mock = new MockTransport(base);
  const spy = PermissionRecorder.spy(canUseTool);
  await ask("clean up", { sdkOptions: { ...mock.options(), canUseTool: spy.canUseTool } });
  spy.assertAsked("Bash", 1); // ls would not be asked: read-only commands run without asking
  assert.equal(spy.decisions()[0].result?.behavior, "deny");
});

Deno.test("the PreToolUse hook logs each tool use", async () => {
  const mock = new MockTransport(base);
  const answer = await ask("list the files", { sdkOptions: mock.options() });
  assert.deepEqual(answer.toolLog, ["Bash: ls"]);
  assert.equal(mock.hookOutputs()[0].event, "PreToolUse");
});

Deno.test("the in-process MCP tool adds", async () => {
  const mock = new MockTransport(base);
  const answer = await ask("add 2 and 3", { sdkOptions: mock.options() });
  assert.equal(answer.text, "2 + 3 = 5.");
  assert.deepEqual(mock.mcpResults()[0].result?.content, [{ type: "text", text: "5" }]);
});

Deno.test("an API failure is an error answer", async () => {
  const mock = new MockTransport(
    withOverrides(base, (b) => b.on("hello").failure("overloaded")),
  );
  const answer = await ask("hello", {
    sdkOptions: { ...mock.options(), env: { CLAUDE_CODE_MAX_RETRIES: "0" } },
  });
  assert.equal(answer.failed, true);
  assert.match(answer.text, /overloaded|529/i);
});

Deno.test("a crash after the first assistant message fails the run", async () => {
  const crashing = withOverrides(
    base,
    new ScenarioBuilder().crashAfter({ assistantMessages: 1 }).build(),
  );
  const mock = new MockTransport(crashing);
  const answer = await ask("list the files", { sdkOptions: mock.options() });
  assert.equal(answer.failed, true);
  assert.match(answer.text, /exited with code 1/);
  assert.equal((await mock.exited).code, 1);
});

Deno.test("a __mock__ command drives the mock through the app's own input", async () => {
  const mock = new MockTransport(); // no scenario at all
  const answer = await ask(mockCommand.textResponse("Straight from the test."), {
    sdkOptions: mock.options(),
  });
  assert.equal(answer.text, "Straight from the test.");
});

Deno.test("an unmatched prompt fails and names the closest exchange", async () => {
  const mock = new MockTransport(base);
  const answer = await ask("helo", { sdkOptions: mock.options() });
  assert.equal(answer.failed, true);
  assert.match(answer.text, /Closest: exchanges\[0\] on contains "hello"/);
});

Deno.test("per-test overrides keep the shared scenario, and every exchange is checked used", async () => {
  const mock = new MockTransport(withOverrides(base, (b) => b.on("hello").respond("Hi!")));
  assert.equal((await ask("hello", { sdkOptions: mock.options() })).text, "Hi!");
  assert.throws(() => mock.assertAllExchangesUsed(), /never used/);
});

Deno.test("realistic pacing runs in fake time", async () => {
  const fake = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  try {
    const mock = new MockTransport(withOverrides(base, (b) => b.timing("realistic")), {
      clock: "system",
    });
    const answer = await settleWithFakeTime(ask("hello", { sdkOptions: mock.options() }), fake);
    assert.equal(answer.text, "Hello! How can I help you today?");
  } finally {
    fake.uninstall();
  }
});
