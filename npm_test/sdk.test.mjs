// The in-process mock drives the real Agent SDK under Node: mock.options(), tool uses,
// streaming, an unmatched prompt, the writes log and the exit status.
import assert from "node:assert/strict";
import { test } from "node:test";
import { MockTransport, ScenarioBuilder } from "@x/claude-mock";
import { collect, installedSdk, kinds, required } from "./_helpers.mjs";

test("the SDK under test is the version the harness installed", () => {
  assert.equal(installedSdk().version, required("EXPECTED_SDK_VERSION"));
  assert.match(process.version, new RegExp(`^v${required("EXPECTED_NODE_MAJOR")}\\.`));
});

test("query() through mock.options(): a Read, the answer, what the SDK wrote", async () => {
  const scenario = new ScenarioBuilder({ name: "notes" })
    .on("notes")
    .usesRead("/home/user/project/notes.txt", { say: "Reading it.", content: "a\nb\n" })
    .respond("The notes have two lines.")
    .build();
  const mock = new MockTransport(scenario);
  const { messages, error } = await collect("Summarize notes.txt", mock.options());
  assert.equal(error, undefined);
  assert.deepEqual(kinds(messages), [
    "system/init",
    "assistant",
    "assistant",
    "user",
    "assistant",
    "result/success",
  ]);
  assert.equal(messages.at(-1).result, "The notes have two lines.");
  const toolResult = messages[3].message.content[0];
  assert.equal(toolResult.type, "tool_result");
  assert.match(JSON.stringify(toolResult.content), /1\\ta\\n2\\tb/); // as Read numbers lines
  mock.assertWrote(/Summarize notes/);
  assert.ok(mock.writtenMessages().some((f) => f.type === "control_request"));
  assert.deepEqual(await mock.exited, { code: 0, signal: null });
});

test("includePartialMessages: stream_event frames, deterministic for a seed", async () => {
  const run = async () => {
    const mock = new MockTransport(
      new ScenarioBuilder({ seed: 7 }).on("story").respond("Once upon a time, a mock.").build(),
    );
    const { messages } = await collect("a story", {
      ...mock.options(),
      includePartialMessages: true,
    });
    return messages;
  };
  const first = await run();
  const deltas = first.filter((m) => m.type === "stream_event")
    .map((m) => m.event.delta?.text).filter(Boolean);
  assert.equal(deltas.join(""), "Once upon a time, a mock.");
  const ids = (ms) => ms.filter((m) => m.type === "assistant").map((m) => m.message.id);
  assert.deepEqual(ids(await run()), ids(first));
});

test("an unmatched prompt ends in an error result that names it", async () => {
  const mock = new MockTransport(new ScenarioBuilder().on("hello").respond("Hi").build());
  const { messages, error } = await collect("goodbye", mock.options());
  assert.ok(error instanceof Error);
  assert.match(error.message, /goodbye/);
  assert.equal(messages.at(-1).type, "result");
  assert.equal(messages.at(-1).is_error, true);
});

test("maxTurns and model reach the mock through the SDK's flags", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder().on("run").usesBash("ls", { stdout: "a" }).respond("Done").build(),
    // as a user who is not root (as root the CLI refuses to skip permissions)
    { root: false },
  );
  const { messages } = await collect("run it", {
    ...mock.options(),
    maxTurns: 1,
    model: "claude-sonnet-4-5",
    permissionMode: "bypassPermissions",
  });
  assert.equal(messages[0].model, "claude-sonnet-4-5");
  assert.equal(messages.at(-1).subtype, "error_max_turns");
});
