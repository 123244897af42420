import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { AssertionError } from "../session/assertion_error.ts";
import { HookRecorder } from "./hook_recorder.ts";
import {
  HOOK_EVENT_NAMES,
  type HookCallbackFunction,
  type HookCallbackInput,
  type HookEventName,
  type HookOutput,
} from "./hook_types.ts";

const signal = new AbortController().signal;

function callbackOf(rec: HookRecorder, event: HookEventName, index = 0): HookCallbackFunction {
  const entry = rec.hooks[event]?.[index];
  assert.ok(entry, `no ${event} entry #${index}`);
  return entry.hooks[0];
}

function preToolUse(tool: string, input: Record<string, unknown> = {}): HookCallbackInput {
  return {
    hook_event_name: "PreToolUse",
    session_id: "s",
    transcript_path: "/t.jsonl",
    cwd: "/c",
    permission_mode: "default",
    tool_name: tool,
    tool_input: input,
    tool_use_id: `toolu_${tool}`,
  };
}

Deno.test("HookRecorder.on builds the SDK's hooks option", () => {
  const rec = new HookRecorder()
    .on("PreToolUse", { matcher: "Bash", timeout: 10 })
    .on("PreToolUse")
    .on("Stop");
  const hooks = rec.hooks;
  assert.deepEqual(Object.keys(hooks), ["PreToolUse", "Stop"]);
  assert.equal(hooks.PreToolUse?.length, 2);
  assert.deepEqual(Object.keys(hooks.PreToolUse![0]), ["matcher", "hooks", "timeout"]);
  assert.equal(hooks.PreToolUse![0].matcher, "Bash");
  assert.equal(hooks.PreToolUse![0].timeout, 10);
  assert.deepEqual(Object.keys(hooks.PreToolUse![1]), ["hooks"]);
  assert.equal(hooks.PreToolUse![1].hooks.length, 1);
  assert.equal(typeof hooks.Stop![0].hooks[0], "function");
  // A fresh object each read, with the same callbacks.
  const again = rec.hooks;
  assert.notEqual(again, hooks);
  assert.notEqual(again.PreToolUse, hooks.PreToolUse);
  assert.equal(again.PreToolUse![0].hooks[0], hooks.PreToolUse![0].hooks[0]);
  assert.notEqual(hooks.PreToolUse![0].hooks[0], hooks.PreToolUse![1].hooks[0]);
  assert.deepEqual(new HookRecorder().hooks, {});
});

Deno.test("HookRecorder.on accepts every SDK hook event", () => {
  const rec = new HookRecorder();
  for (const event of HOOK_EVENT_NAMES) rec.on(event);
  assert.deepEqual(Object.keys(rec.hooks), [...HOOK_EVENT_NAMES]);
});

Deno.test("HookRecorder.on rejects bad events and options", () => {
  const rec = new HookRecorder();
  assert.throws(
    () => rec.on("pretooluse" as never),
    (e) =>
      e instanceof RangeError &&
      /on\("pretooluse"\): unknown hook event "pretooluse" \(did you mean "PreToolUse"\?\); expected one of PreToolUse, PostToolUse/
        .test(e.message),
  );
  assert.throws(() => rec.on(undefined as never), RangeError);
  assert.throws(
    () => rec.on("Stop", null as never),
    (e) => e instanceof TypeError && /on\("Stop"\): options must be an object/.test(e.message),
  );
  assert.throws(
    () => rec.on("PreToolUse", { matcher: 1 as never }),
    (e) => e instanceof TypeError && /options\.matcher must be a string, got 1/.test(e.message),
  );
  assert.throws(
    () => rec.on("PreToolUse", { output: "allow" as never }),
    (e) =>
      e instanceof TypeError &&
      /options\.output must be a hook output object or a function/.test(e.message),
  );
  for (const timeout of [0, -1, Number.NaN, Infinity, "5"]) {
    assert.throws(
      () => rec.on("PreToolUse", { timeout: timeout as never }),
      (e) =>
        e instanceof RangeError &&
        /options\.timeout must be a positive number of seconds/.test(e.message),
    );
  }
  assert.deepEqual(rec.hooks, {});
});

Deno.test("HookRecorder callbacks answer { continue: true } by default and record the call", async () => {
  const rec = new HookRecorder({ clock: { now: () => 42 } }).on("PreToolUse", { matcher: "Read" });
  const input = preToolUse("Read", { file_path: "/a" });
  const output = await callbackOf(rec, "PreToolUse")(input, "toolu_Read", { signal });
  assert.deepEqual(output, { continue: true });
  assert.deepEqual(rec.invocations(), [{
    event: "PreToolUse",
    matcher: "Read",
    toolName: "Read",
    toolUseId: "toolu_Read",
    input,
    output: { continue: true },
    at: 42,
  }]);
});

Deno.test("HookRecorder callbacks answer a fixed output with a copy", async () => {
  const fixed: HookOutput = HookRecorder.deny("no");
  const rec = new HookRecorder().on("PreToolUse", { output: fixed });
  const a = await callbackOf(rec, "PreToolUse")(preToolUse("Bash"), "t1", { signal });
  const b = await callbackOf(rec, "PreToolUse")(preToolUse("Bash"), "t2", { signal });
  assert.deepEqual(a, fixed);
  assert.notEqual(a, fixed);
  assert.notEqual(a, b);
});

Deno.test("HookRecorder callbacks compute outputs with the SDK's arguments", async () => {
  const seen: unknown[] = [];
  const rec = new HookRecorder()
    .on("UserPromptSubmit", {
      output: (input, toolUseID, context) => {
        seen.push([input.prompt, toolUseID, context.signal]);
        return HookRecorder.addContext("UserPromptSubmit", `about ${input.prompt}`);
      },
    })
    .on("PostToolUse", {
      output: async (input) => {
        await Promise.resolve();
        return { continue: true, systemMessage: `ran ${input.tool_name}` };
      },
    });
  const submitted = await callbackOf(rec, "UserPromptSubmit")(
    { hook_event_name: "UserPromptSubmit", prompt: "cats" },
    undefined,
    { signal },
  );
  assert.deepEqual(submitted, {
    hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "about cats" },
  });
  assert.deepEqual(seen, [["cats", undefined, signal]]);
  const posted = await callbackOf(rec, "PostToolUse")(
    {
      hook_event_name: "PostToolUse",
      tool_name: "Read",
      tool_use_id: "toolu_7",
      tool_response: "x",
    },
    undefined,
    { signal },
  );
  assert.deepEqual(posted, { continue: true, systemMessage: "ran Read" });
  const [, post] = rec.invocations();
  assert.equal(post.toolUseId, "toolu_7"); // from the input when the argument is missing
  assert.equal(post.toolName, "Read");
  assert.equal("toolName" in rec.invocations()[0], false);
});

Deno.test("HookRecorder callbacks record failures and reject", async () => {
  const boom = new Error("boom");
  const rec = new HookRecorder()
    .on("Stop", {
      output: () => {
        throw boom;
      },
    })
    .on("SessionStart", { output: () => "yes" as never })
    .on("SessionEnd", { output: () => Promise.reject(boom) });
  await assert.rejects(
    callbackOf(rec, "Stop")({ hook_event_name: "Stop" }, undefined, { signal }),
    (e) => e === boom,
  );
  await assert.rejects(
    callbackOf(rec, "SessionStart")({ hook_event_name: "SessionStart" }, undefined, { signal }),
    (e) =>
      e instanceof TypeError &&
      /on\("SessionStart"\): the output function returned "yes"; expected a hook output object/
        .test(e.message),
  );
  await assert.rejects(
    callbackOf(rec, "SessionEnd")({ hook_event_name: "SessionEnd" }, undefined, { signal }),
    (e) => e === boom,
  );
  await assert.rejects(
    callbackOf(rec, "Stop")(null as never, undefined, { signal }),
    (e) =>
      e instanceof TypeError && /on\("Stop"\) callback: input must be an object/.test(e.message),
  );
  const [stop, start] = rec.invocations();
  assert.equal(stop.error, boom);
  assert.equal(stop.output, undefined);
  assert.ok(start.error instanceof TypeError);
  assert.throws(() => rec.assertNotCalled("Stop"), /1\. Stop → error: Error: boom/);
});

Deno.test("HookRecorder callbacks reject when the signal aborts a pending output", async () => {
  const never = Promise.withResolvers<HookOutput>();
  const rec = new HookRecorder().on("Stop", { output: () => never.promise });
  const controller = new AbortController();
  const pending = callbackOf(rec, "Stop")({ hook_event_name: "Stop" }, undefined, {
    signal: controller.signal,
  });
  assert.equal(rec.invocations()[0].output, undefined);
  controller.abort(new Error("cancelled"));
  await assert.rejects(pending, /cancelled/);
  never.resolve({});
  assert.match(String(rec.invocations()[0].error), /cancelled/);
});

Deno.test("HookRecorder.invocations filters by event, snapshots, and stamps with Date.now at call time", async () => {
  const clock = FakeTimers.install({ now: 1_000, toFake: ["Date"] });
  try {
    const rec = new HookRecorder().on("PreToolUse").on("Stop");
    await callbackOf(rec, "PreToolUse")(preToolUse("Read"), "t1", { signal });
    clock.tick(5);
    await callbackOf(rec, "Stop")({ hook_event_name: "Stop" }, undefined, { signal });
    assert.deepEqual(rec.invocations().map((i) => [i.event, i.at]), [["PreToolUse", 1_000], [
      "Stop",
      1_005,
    ]]);
    assert.deepEqual(rec.invocations("Stop").map((i) => i.event), ["Stop"]);
    assert.deepEqual(rec.invocations("PostToolUse"), []);
    const snapshot = rec.invocations();
    snapshot[0].output = undefined;
    assert.deepEqual(rec.invocations()[0].output, { continue: true });
    assert.throws(() => rec.invocations("stop" as never), RangeError);
  } finally {
    clock.uninstall();
  }
});

Deno.test("HookRecorder.called counts all, by event and by matcher", async () => {
  const rec = new HookRecorder().on("PreToolUse", { matcher: "Bash" }).on("PreToolUse", {
    matcher: "Read",
  });
  await callbackOf(rec, "PreToolUse", 0)(preToolUse("Bash"), "t1", { signal });
  await callbackOf(rec, "PreToolUse", 1)(preToolUse("Read"), "t2", { signal });
  await callbackOf(rec, "PreToolUse", 1)(preToolUse("Read"), "t3", { signal });
  assert.equal(rec.called(), 3);
  assert.equal(rec.called("PreToolUse"), 3);
  assert.equal(rec.called("PreToolUse", { matcher: "Read" }), 2);
  assert.equal(rec.called("PreToolUse", { matcher: "Edit" }), 0);
  assert.equal(rec.called("Stop"), 0);
});

Deno.test("HookRecorder.assertCalled passes on counts and lists invocations on failure", async () => {
  const rec = new HookRecorder()
    .on("PreToolUse", { matcher: "Bash", output: HookRecorder.deny("no shell") })
    .on("UserPromptSubmit")
    .on("Stop");
  assert.throws(
    () => rec.assertCalled("Stop"),
    (e) =>
      e instanceof AssertionError &&
      /^Expected the Stop hook to be called at least once, but it was called 0 times\.\nInvocations \(0\): no hook was called \(registered: PreToolUse, UserPromptSubmit, Stop\)\.$/
        .test(e.message),
  );
  await callbackOf(rec, "UserPromptSubmit")(
    { hook_event_name: "UserPromptSubmit", session_id: "s", cwd: "/c", prompt: "hi" },
    undefined,
    { signal },
  );
  await callbackOf(rec, "PreToolUse")(preToolUse("Bash", { command: "ls" }), "toolu_1", { signal });
  rec.assertCalled("PreToolUse");
  rec.assertCalled("PreToolUse", 1);
  rec.assertCalled("PreToolUse", 1, { matcher: "Bash" });
  rec.assertCalled("Stop", 0);
  assert.throws(
    () => rec.assertCalled("PreToolUse", 2),
    (e) =>
      e instanceof AssertionError &&
      new RegExp(
        "^Expected the PreToolUse hook to be called 2 times, but it was called 1 time\\.\\n" +
          "Invocations \\(2\\):\\n" +
          '  1\\. UserPromptSubmit \\{"prompt":"hi"\\} → \\{"continue":true\\}\\n' +
          '  2\\. PreToolUse \\[matcher "Bash"\\] Bash \\(toolu_1\\) \\{"tool_input":\\{"command":"ls"\\}\\} → ' +
          '\\{"hookSpecificOutput":\\{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no shell"\\}\\}$',
      ).test(e.message),
  );
  assert.throws(
    () => rec.assertCalled("PreToolUse", undefined, { matcher: "Read" }),
    /Expected the PreToolUse hook with matcher "Read" to be called at least once, but it was called 0 times\./,
  );
  assert.throws(
    () => rec.assertCalled("Stop", -1),
    (e) => e instanceof RangeError && /times must be a non-negative integer/.test(e.message),
  );
  assert.throws(() => rec.assertCalled("Nope" as never), RangeError);
});

Deno.test("HookRecorder.assertNotCalled passes when uncalled and lists invocations otherwise", async () => {
  const rec = new HookRecorder().on("PreToolUse", { matcher: "Bash" });
  assert.throws(
    () => new HookRecorder().assertCalled("Stop"),
    /Invocations \(0\): no hook was called \(none registered\)\./,
  );
  rec.assertNotCalled("PreToolUse");
  await callbackOf(rec, "PreToolUse")(preToolUse("Bash"), "t1", { signal });
  rec.assertNotCalled("Stop");
  rec.assertNotCalled("PreToolUse", { matcher: "Read" });
  assert.throws(
    () => rec.assertNotCalled("PreToolUse", { matcher: "Bash" }),
    (e) =>
      e instanceof AssertionError &&
      new RegExp(
        String.raw`^Expected the PreToolUse hook with matcher "Bash" not to be called, but ` +
          String.raw`it was called 1 time\.\nInvocations \(1\):\n {2}1\. PreToolUse \[matcher ` +
          String.raw`"Bash"\] Bash \(t1\) \{"tool_input":\{\}\} → \{"continue":true\}$`,
      )
        .test(e.message),
  );
});

Deno.test("HookRecorder.assertToolUsed looks at tool events only", async () => {
  const rec = new HookRecorder().on("PreToolUse").on("PostToolUse").on("PermissionRequest");
  assert.throws(
    () => rec.assertToolUsed("Read"),
    (e) =>
      e instanceof AssertionError &&
      /^Expected a PreToolUse, PostToolUse or PostToolUseFailure hook call for tool 'Read', but there was none\.\nInvocations \(0\)/
        .test(e.message),
  );
  await callbackOf(rec, "PermissionRequest")(
    { hook_event_name: "PermissionRequest", tool_name: "Write", tool_input: {} },
    undefined,
    { signal },
  );
  await callbackOf(rec, "PostToolUse")(
    { hook_event_name: "PostToolUse", tool_name: "mcp__notes__list", tool_input: {} },
    "t2",
    { signal },
  );
  await callbackOf(rec, "PreToolUse")(preToolUse("Read"), "t1", { signal });
  rec.assertToolUsed("Read");
  rec.assertToolUsed("mcp__notes__list");
  rec.assertToolUsed("mcp__notes__*");
  assert.throws(() => rec.assertToolUsed("Write"), /1\. PermissionRequest Write/);
  assert.throws(() => rec.assertToolUsed("Rea"), AssertionError);
  assert.throws(
    () => rec.assertToolUsed(""),
    (e) => e instanceof TypeError && /the tool name must be a non-empty string/.test(e.message),
  );
  assert.throws(
    () => rec.assertToolUsed("mcp__*__x"),
    (e) => e instanceof TypeError && /'\*' may only end a tool pattern/.test(e.message),
  );
});

Deno.test("HookRecorder.clear forgets calls but keeps hooks", async () => {
  const rec = new HookRecorder().on("Stop", { output: HookRecorder.stop("done") });
  await callbackOf(rec, "Stop")({ hook_event_name: "Stop" }, undefined, { signal });
  rec.clear();
  assert.deepEqual(rec.invocations(), []);
  assert.deepEqual(
    await callbackOf(rec, "Stop")({ hook_event_name: "Stop" }, undefined, { signal }),
    { continue: false, stopReason: "done" },
  );
  rec.assertCalled("Stop", 1);
});

Deno.test("HookRecorder constructor rejects bad options", () => {
  assert.throws(
    () => new HookRecorder(null as never),
    (e) =>
      e instanceof TypeError &&
      /new HookRecorder\(options\): options must be an object/.test(e.message),
  );
  assert.throws(
    () => new HookRecorder({ clock: { now: 1 } as never }),
    (e) => e instanceof TypeError && /options\.clock must have a now\(\) method/.test(e.message),
  );
});

Deno.test("HookRecorder.deny builds a PreToolUse deny", () => {
  assert.deepEqual(HookRecorder.deny("no shell"), {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: "no shell",
    },
  });
  assert.throws(
    () => HookRecorder.deny(undefined as never),
    /deny\(reason\): reason must be a string/,
  );
});

Deno.test("HookRecorder.allow builds a PreToolUse allow with an optional reason", () => {
  assert.deepEqual(HookRecorder.allow(), {
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" },
  });
  assert.deepEqual(HookRecorder.allow("safe"), {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "allow",
      permissionDecisionReason: "safe",
    },
  });
  assert.throws(() => HookRecorder.allow(1 as never), TypeError);
});

Deno.test("HookRecorder.stop builds a continue: false output", () => {
  assert.deepEqual(HookRecorder.stop("enough"), { continue: false, stopReason: "enough" });
  assert.throws(() => HookRecorder.stop(null as never), /stop\(reason\): reason must be a string/);
});

Deno.test("HookRecorder.addContext builds additionalContext for events that take it", () => {
  assert.deepEqual(HookRecorder.addContext("SessionStart", "hello"), {
    hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "hello" },
  });
  assert.throws(
    () => HookRecorder.addContext("PermissionDenied" as never, "x"),
    (e) =>
      e instanceof RangeError &&
      /addContext\("PermissionDenied"\): the event's output cannot carry additionalContext; expected one of PreToolUse,/
        .test(e.message),
  );
  assert.throws(
    () => HookRecorder.addContext("Stop", 5 as never),
    (e) => e instanceof TypeError && /text must be a string, got 5/.test(e.message),
  );
});

Deno.test("HookRecorder callbacks keep call order under 50 concurrent calls", async () => {
  const gates = Array.from({ length: 50 }, () => Promise.withResolvers<void>());
  const rec = new HookRecorder().on("PreToolUse", {
    output: async (input) => {
      const i = (input.tool_input as { i: number }).i;
      await gates[i].promise;
      return { systemMessage: `done ${i}` };
    },
  });
  const callback = callbackOf(rec, "PreToolUse");
  const calls = gates.map((_, i) => callback(preToolUse(`T${i}`, { i }), `toolu_${i}`, { signal }));
  for (let i = 49; i >= 0; i--) gates[i].resolve();
  const outputs = await Promise.all(calls);
  rec.invocations().forEach((invocation, i) => {
    assert.equal(invocation.toolName, `T${i}`);
    assert.equal(invocation.toolUseId, `toolu_${i}`);
    assert.deepEqual(invocation.output, { systemMessage: `done ${i}` });
    assert.deepEqual(outputs[i], invocation.output);
  });
  rec.assertCalled("PreToolUse", 50);
});

Deno.test("HookRecorder.spy: the same shape out, the app's outputs through, each call recorded", async () => {
  const log: string[] = [];
  const allow = { continue: true };
  const logHook = (input: HookCallbackInput) => {
    log.push(`log ${input.tool_name}`);
    return Promise.resolve(allow);
  };
  const auditHook = (input: HookCallbackInput, toolUseID: string | undefined) => {
    log.push(`audit ${toolUseID}`);
    return Promise.resolve({ systemMessage: `audited ${input.tool_name}` });
  };
  const stopHook = () => Promise.reject(new Error("the app's Stop hook failed"));
  const app = {
    PreToolUse: [{ matcher: "Bash", hooks: [logHook, auditHook], timeout: 5, extra: "kept" }],
    Stop: [{ hooks: [stopHook] }],
  };
  const spy = HookRecorder.spy(app, { clock: { now: () => 9 } }).on("PostToolUse");
  const hooks = spy.hooks;
  assert.deepEqual(Object.keys(hooks), ["PreToolUse", "Stop", "PostToolUse"]);
  const [entry] = hooks.PreToolUse!;
  assert.equal(entry.matcher, "Bash");
  assert.equal(entry.timeout, 5);
  assert.equal((entry as unknown as { extra: string }).extra, "kept");
  assert.equal(entry.hooks.length, 2);
  assert.notEqual(entry.hooks[0], logHook); // wrapped
  const input = { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } };
  const options = { signal: new AbortController().signal };
  assert.equal(await entry.hooks[0](input, "toolu_1", options), allow); // the app's own object
  assert.deepEqual(await entry.hooks[1](input, "toolu_1", options), {
    systemMessage: "audited Bash",
  });
  await assert.rejects(
    hooks.Stop![0].hooks[0]({ hook_event_name: "Stop" }, undefined, options),
    /the app's Stop hook failed/,
  );
  assert.deepEqual(log, ["log Bash", "audit toolu_1"]);
  const calls = spy.invocations();
  assert.deepEqual(calls.map((c) => [c.event, c.matcher, c.toolName, c.toolUseId, c.at]), [
    ["PreToolUse", "Bash", "Bash", "toolu_1", 9],
    ["PreToolUse", "Bash", "Bash", "toolu_1", 9],
    ["Stop", undefined, undefined, undefined, 9],
  ]);
  assert.equal(calls[0].output, allow);
  assert.match(String(calls[2].error), /the app's Stop hook failed/);
  spy.assertCalled("PreToolUse", 2, { matcher: "Bash" });
  spy.assertToolUsed("Bash");
  spy.assertNotCalled("PostToolUse");
  assert.deepEqual(HookRecorder.spy({}).hooks, {});
});

Deno.test("HookRecorder.spy: a malformed hooks option is refused, naming the path", () => {
  const fn = () => Promise.resolve({});
  assert.throws(
    () => HookRecorder.spy(null as never),
    /HookRecorder\.spy\(hooks\): hooks must be the app's hooks option/,
  );
  assert.throws(
    () => HookRecorder.spy({ PreToolUse: {} as never }),
    /hooks\.PreToolUse must be an array of matcher entries, got \{\}/,
  );
  assert.throws(
    () => HookRecorder.spy({ Stop: [{ hooks: [fn] }, { matcher: "x" } as never] }),
    /hooks\.Stop\[1\] must be \{ matcher\?, hooks: \[callbacks\] \}/,
  );
  assert.throws(
    () => HookRecorder.spy({ Stop: [{ hooks: [fn, "nope" as never] }] }),
    /hooks\.Stop\[0\]\.hooks\[1\] must be a function, got "nope"/,
  );
  assert.throws(
    () => HookRecorder.spy({ Stop: [{ matcher: 3 as never, hooks: [fn] }] }),
    /hooks\.Stop\[0\]\.matcher must be a string, got 3/,
  );
});
