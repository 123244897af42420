// The SDK's native claude binary is an optional dependency. Without it (npm install
// --omit=optional) the SDK refuses to start even with spawnClaudeCodeProcess; mock.options()
// sets what avoids that check. With it, mock.spawn alone works too.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";
import { MOCK_EXECUTABLE_PATH, MockTransport, ScenarioBuilder } from "@x/claude-mock";
import { collect, required } from "./_helpers.mjs";

const native = required("NATIVE_BINARY"); // "absent" | "present"
const hello = () => new MockTransport(new ScenarioBuilder().on("hi").respond("Hello!").build());

/** Whether the SDK can find its native binary (what it resolves, as it does). */
function nativeBinaryInstalled() {
  const sdk = createRequire(import.meta.resolve("@anthropic-ai/claude-agent-sdk"));
  const arch = `${process.platform}-${process.arch}`;
  return [`${arch}`, `${arch}-musl`].some((suffix) => {
    try {
      sdk.resolve(`@anthropic-ai/claude-agent-sdk-${suffix}/claude`);
      return true;
    } catch {
      return false;
    }
  });
}

test(`the native binary is ${native}, as the harness installed it`, () => {
  assert.ok(native === "absent" || native === "present", `NATIVE_BINARY=${native}`);
  assert.equal(nativeBinaryInstalled(), native === "present");
});

test("mock.options() runs query() whether or not the native binary is there", async () => {
  const mock = hello();
  const options = mock.options();
  assert.equal(options.spawnClaudeCodeProcess, mock.spawn);
  assert.equal(options.pathToClaudeCodeExecutable, MOCK_EXECUTABLE_PATH);
  const { messages, error } = await collect("hi", options);
  assert.equal(error, undefined);
  assert.equal(messages.at(-1).result, "Hello!");
});

test(
  native === "absent"
    ? "without the native binary, spawnClaudeCodeProcess alone is refused before it is called"
    : "with the native binary, spawnClaudeCodeProcess alone works",
  async () => {
    const mock = hello();
    let spawned = false;
    const { messages, error } = await collect("hi", {
      spawnClaudeCodeProcess: (options) => {
        spawned = true;
        return mock.spawn(options);
      },
    });
    if (native === "absent") {
      assert.ok(error instanceof Error);
      assert.match(error.message, /Native CLI binary for .* not found/);
      assert.match(error.message, /pathToClaudeCodeExecutable/);
      assert.equal(spawned, false);
      assert.equal(messages.length, 0);
    } else {
      assert.equal(error, undefined);
      assert.equal(spawned, true);
      assert.equal(messages.at(-1).result, "Hello!");
    }
  },
);
