// The recorders used directly as the real SDK's options, against the mock.
import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import {
  query,
  type SDKMessage,
  type SDKResultMessage,
  type SDKUserMessage,
} from "@anthropic-ai/claude-agent-sdk";
import {
  AssertionError,
  HookRecorder,
  MockTransport,
  PermissionRecorder,
  ScenarioBuilder,
  SystemClock,
} from "../mod.ts";
import { driveFakeTime, runQuery } from "./_sdk.ts";

function resultOf(messages: readonly SDKMessage[]): SDKResultMessage {
  return messages.findLast((m) => m.type === "result") as SDKResultMessage;
}

Deno.test("PermissionRecorder + SDK: per-tool answers, decisions and assertions", async () => {
  const permissions = PermissionRecorder.allowTools(["Write"])
    .deny("Bash", "No shell in tests.")
    .allow("Edit", {
      updatedInput: { file_path: "/home/user/project/b.ts", old_string: "a", new_string: "b" },
    });
  const mock = new MockTransport(
    new ScenarioBuilder()
      .on("go")
      .usesWrite("/home/user/project/a.ts", { content: "a" })
      .usesBash("make deploy")
      .usesEdit("/home/user/project/a.ts", { oldString: "a", newString: "b" })
      .respond("Done.")
      .build(),
  );
  const { messages, error } = await runQuery(mock, "go", { canUseTool: permissions.canUseTool });
  assert.equal(error, undefined);
  permissions.assertAsked("Write", 1);
  permissions.assertAsked("Bash", 1);
  permissions.assertNotAsked("Read");
  assert.deepEqual(permissions.decisions().map((d) => [d.tool, d.result?.behavior]), [
    ["Write", "allow"],
    ["Bash", "deny"],
    ["Edit", "allow"],
  ]);
  assert.equal(permissions.decisions()[1].context.toolUseID.startsWith("toolu_01"), true);
  const result = resultOf(messages);
  assert.deepEqual(result.permission_denials.map((d) => d.tool_name), ["Bash"]);
  // the Edit ran with the updated input
  const edit = messages.filter((m): m is SDKUserMessage => m.type === "user").at(-1) as
    & SDKUserMessage
    & {
      tool_use_result: { filePath: string };
    };
  assert.equal(edit.tool_use_result.filePath, "/home/user/project/b.ts");
  assert.throws(() => permissions.assertNotAsked("Bash"), AssertionError);
  assert.throws(() => permissions.assertAsked("Grep"), /Grep/);
});

Deno.test("PermissionRecorder + SDK: denyAll blocks every tool that asks", async () => {
  const permissions = PermissionRecorder.denyAll("Nope.");
  const mock = new MockTransport(
    new ScenarioBuilder().on("go").usesBash("make", { ifDenied: "I was not allowed." }).respond(
      "ran",
    ).build(),
  );
  const { messages } = await runQuery(mock, "go", { canUseTool: permissions.canUseTool });
  assert.equal((resultOf(messages) as { result: string }).result, "I was not allowed.");
  assert.equal(permissions.asked(), 1);
});

Deno.test("HookRecorder + SDK: matchers, scripted outputs, invocations and assertions", async () => {
  const hooks = new HookRecorder()
    .on("PreToolUse", { matcher: "Bash", output: HookRecorder.deny("No shell in tests.") })
    .on("PreToolUse", { matcher: "Write" })
    .on("PostToolUse", {
      matcher: "Read",
      output: HookRecorder.addContext("PostToolUse", "read ok"),
    })
    .on("UserPromptSubmit")
    .on("Stop");
  const mock = new MockTransport(
    new ScenarioBuilder()
      .on("go")
      .usesRead("/home/user/project/a.ts", { content: "a" })
      .usesBash("make")
      .respond("Done.")
      .build(),
  );
  const { messages, error } = await runQuery(mock, "go", {
    hooks: hooks.hooks,
    canUseTool: PermissionRecorder.allowAll().canUseTool,
  });
  assert.equal(error, undefined);
  hooks.assertCalled("UserPromptSubmit", 1);
  hooks.assertCalled("PreToolUse", 1, { matcher: "Bash" });
  hooks.assertNotCalled("PreToolUse", { matcher: "Write" });
  hooks.assertCalled("PostToolUse", 1);
  hooks.assertCalled("Stop", 1);
  hooks.assertToolUsed("Read");
  hooks.assertToolUsed("Bash");
  assert.deepEqual(hooks.invocations().map((i) => i.event), [
    "UserPromptSubmit",
    "PostToolUse",
    "PreToolUse",
    "Stop",
  ]);
  assert.deepEqual(mock.session.hookContext(), ["read ok"]);
  const blocked = messages.filter((m): m is SDKUserMessage => m.type === "user").at(-1)!;
  assert.deepEqual(
    (blocked.message.content as Array<{ content: string }>)[0].content,
    "PreToolUse:Bash hook error: No shell in tests.",
  );
  assert.throws(() => hooks.assertCalled("SessionEnd"), /SessionEnd/);
  hooks.clear();
  assert.equal(hooks.invocations().length, 0);
});

Deno.test("PermissionRecorder + SDK: AskUserQuestion answers reach the tool result", async () => {
  const permissions = new PermissionRecorder().respond("AskUserQuestion", (input) => ({
    behavior: "allow",
    updatedInput: { ...input, answers: { "Which date library should we use?": "date-fns" } },
  }));
  const mock = new MockTransport(
    new ScenarioBuilder({ name: "ask" })
      .on("date")
      .usesAskUserQuestion([{
        question: "Which date library should we use?",
        header: "Library",
        options: ["date-fns", "dayjs"],
      }])
      .respond("We will use date-fns.")
      .build(),
    { recordSent: true },
  );
  const { messages, error } = await runQuery(mock, "pick a date library", {
    canUseTool: permissions.canUseTool,
  });
  assert.equal(error, undefined);
  permissions.assertAsked("AskUserQuestion", 1);
  const request = mock.session.sent().find((f) => f.type === "control_request")!.request as Record<
    string,
    unknown
  >;
  assert.equal(request.requires_user_interaction, true);
  const answer = messages.find((m) => m.type === "user") as SDKUserMessage;
  assert.equal(
    (answer.message.content as Array<{ content: string }>)[0].content,
    'Your questions have been answered: "Which date library should we use?"="date-fns". You can now continue with these answers in mind.',
  );
});

Deno.test("interrupt while a permission is pending: control_cancel_request, rejected tool, aborted_tools", async () => {
  const fake = FakeTimers.install({
    now: Date.UTC(2026, 5, 1),
    toFake: ["setTimeout", "clearTimeout", "Date"],
  });
  try {
    const mock = new MockTransport(
      new ScenarioBuilder({ timing: "fast" }).on("go").usesBash("make deploy").respond("never")
        .build(),
      { clock: new SystemClock(), recordSent: true },
    );
    const ref = {} as { q: ReturnType<typeof query> };
    const permissions = new PermissionRecorder().respond("Bash", (_input, { signal }) => {
      queueMicrotask(() => ref.q.interrupt());
      return new Promise((_, reject) =>
        signal.addEventListener("abort", () => reject(new Error("canUseTool aborted")))
      );
    });
    const q = query({
      prompt: "go",
      options: { spawnClaudeCodeProcess: mock.spawn, canUseTool: permissions.canUseTool },
    });
    ref.q = q;
    const messages: SDKMessage[] = [];
    let thrown: Error | undefined;
    const consume = (async () => {
      try {
        for await (const m of q) messages.push(m);
      } catch (error) {
        thrown = error as Error;
      }
    })();
    await driveFakeTime(fake, consume);
    assert.ok(mock.session.sent().some((f) => f.type === "control_cancel_request"));
    const users = messages.filter((m): m is SDKUserMessage => m.type === "user");
    assert.match(
      String((users[0].message.content as Array<{ content: string }>)[0].content),
      /^The user doesn't want to proceed with this tool use/,
    );
    assert.deepEqual(users[1].message.content, [{
      type: "text",
      text: "[Request interrupted by user for tool use]",
    }]);
    const result = resultOf(messages);
    assert.equal((result as { terminal_reason?: string }).terminal_reason, "aborted_tools");
    assert.deepEqual(result.permission_denials.map((d) => d.tool_name), ["Bash"]);
    assert.ok(thrown);
    assert.equal((await mock.exited).code, 1);
  } finally {
    fake.uninstall();
  }
});
