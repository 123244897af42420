import assert from "node:assert/strict";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import { Session } from "../session/session.ts";
import { MockTransport } from "./mock_transport.ts";

const ARGS = ["--permission-prompt-tool", "stdio"];

function user(text: string): string {
  return JSON.stringify({
    type: "user",
    session_id: "",
    message: { role: "user", content: text },
    parent_tool_use_id: null,
  }) + "\n";
}

/**
 * A raw client: registers a Bash PreToolUse hook, sends `text`, answers each request of
 * the mock with `answer(request)` (a line, or lines), and closes stdin after the result.
 */
async function rawClient(
  mock: MockTransport,
  text: string,
  answer: (frame: { request_id: string; request: Record<string, unknown> }) => string[],
): Promise<string> {
  const { readable, writable } = mock.connect({ args: ARGS });
  const writer = writable.getWriter();
  await writer.write(
    JSON.stringify({
      request_id: "init_1",
      type: "control_request",
      request: {
        subtype: "initialize",
        hooks: { PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["hook_0"] }] },
      },
    }) + "\n",
  );
  await writer.write(user(text));
  let out = "";
  let buffer = "";
  const decoder = new TextDecoder();
  for await (const chunk of readable) {
    out += decoder.decode(chunk, { stream: true });
    buffer += decoder.decode(chunk);
    let i;
    while ((i = buffer.indexOf("\n")) >= 0) {
      const frame = JSON.parse(buffer.slice(0, i));
      buffer = buffer.slice(i + 1);
      if (frame.type === "control_request") {
        for (const line of answer(frame)) await writer.write(line + "\n");
      }
      if (frame.type === "result") await writer.close();
    }
  }
  return out;
}

function success(id: string, response: Record<string, unknown>): string {
  return JSON.stringify({
    type: "control_response",
    response: { subtype: "success", request_id: id, response },
  });
}

Deno.test("MockTransport: the client's answers, each with the request it answered", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder()
      .on("clean")
      .usesBash("npm test", { permission: "ask" })
      .usesBash("rm -rf build", { permission: "ask" })
      .respond("Done.")
      .build(),
  );
  await rawClient(mock, "clean", ({ request_id, request }) => {
    if (request.subtype === "hook_callback") {
      return [
        success(request_id, { continue: true, note: "first" }),
        success(request_id, { continue: false, note: "a second answer is not taken" }),
      ];
    }
    const command = String((request.input as { command: string }).command);
    return command.startsWith("rm ")
      ? [
        JSON.stringify({
          type: "control_response",
          response: { subtype: "error", request_id, error: "the app's callback threw" },
        }),
      ]
      : [success(request_id, { behavior: "allow", updatedInput: { command: "npm test -s" } })];
  });
  assert.equal((await mock.exited).code, 1); // the error answer failed the turn

  const decisions = mock.permissionDecisions();
  assert.equal(decisions.length, 2);
  const [allowed, failed] = decisions;
  assert.equal(failed.toolName, "Bash");
  assert.deepEqual(failed.input, { command: "rm -rf build" });
  assert.equal(failed.behavior, undefined);
  assert.equal(failed.error, "the app's callback threw");
  assert.equal(failed.response, undefined);
  assert.equal(allowed.behavior, "allow");
  assert.deepEqual(allowed.updatedInput, { command: "npm test -s" });
  assert.equal(allowed.request.subtype, "can_use_tool");
  assert.equal(allowed.toolUseId, allowed.request.tool_use_id);
  assert.ok(failed.at >= allowed.at);

  const hooks = mock.hookOutputs();
  assert.deepEqual(hooks.map((h) => [h.event, h.callbackId, h.toolName, h.output?.note]), [
    ["PreToolUse", "hook_0", "Bash", "first"],
    ["PreToolUse", "hook_0", "Bash", "first"],
  ]);
  assert.deepEqual(hooks[1].input.tool_input, { command: "rm -rf build" });
  assert.equal(hooks[1].toolUseId, failed.toolUseId);
  assert.deepEqual(mock.mcpResults(), []);
  // in answer order, and the SDK's own requests (initialize) are not among them
  assert.deepEqual(mock.clientAnswers().map((a) => a.subtype), [
    "hook_callback",
    "can_use_tool",
    "hook_callback",
    "can_use_tool",
  ]);
});

Deno.test("MockTransport: stdout passes through unchanged; answers to unknown ids are ignored", async () => {
  const scenario = new ScenarioBuilder({ seed: 7 })
    .on("hi")
    .sendRaw('{"type":"control_request", not json')
    .respond("Hello!")
    .build();
  const mock = new MockTransport(scenario);
  const { readable, writable } = mock.connect();
  const writer = writable.getWriter();
  await writer.write(success("nobody-asked", { behavior: "allow" }) + "\n" + user("hi"));
  await writer.close();
  const tapped = await new Response(readable).text();

  const session = new Session(scenario);
  const plain = session.writable.getWriter();
  await plain.write(success("nobody-asked", { behavior: "allow" }) + "\n" + user("hi"));
  await plain.close();
  assert.equal(tapped, await new Response(session.readable).text());
  assert.deepEqual(mock.clientAnswers(), []);
  assert.deepEqual(new MockTransport(scenario).permissionDecisions(), []); // before connecting
});
