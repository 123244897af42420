import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { AssertionError } from "../session/assertion_error.ts";
import { PermissionRecorder } from "./permission_recorder.ts";
import type { ToolPermissionContext, ToolPermissionResult } from "./permission_types.ts";

const signal = new AbortController().signal;
const ctx = (toolUseID = "toolu_1"): ToolPermissionContext => ({ signal, toolUseID });

Deno.test("PermissionRecorder allows by default with the original input and the toolUseID", async () => {
  const rec = new PermissionRecorder();
  const input = { file_path: "/a" };
  const result = await rec.canUseTool("Read", input, ctx("toolu_9"));
  assert.deepEqual(result, { behavior: "allow", updatedInput: input, toolUseID: "toolu_9" });
  assert.equal((result as { updatedInput: unknown }).updatedInput, input);
});

Deno.test("PermissionRecorder with default deny uses the default or given message", async () => {
  const plain = new PermissionRecorder({ default: "deny" });
  assert.deepEqual(await plain.canUseTool("Bash", {}, ctx()), {
    behavior: "deny",
    message: "Tool 'Bash' is not allowed by the PermissionRecorder",
    toolUseID: "toolu_1",
  });
  const fixed = new PermissionRecorder({ default: "deny", denyMessage: "nope" });
  assert.deepEqual(await fixed.canUseTool("Bash", {}, ctx()), {
    behavior: "deny",
    message: "nope",
    toolUseID: "toolu_1",
  });
  const computed = new PermissionRecorder({ default: "deny", denyMessage: (t) => `no ${t}` });
  const result = await computed.canUseTool("Write", {}, ctx());
  assert.equal(result.behavior === "deny" && result.message, "no Write");
});

Deno.test("PermissionRecorder constructor rejects bad options", () => {
  assert.throws(
    () => new PermissionRecorder(null as never),
    (e) => e instanceof TypeError && /options must be an object/.test(e.message),
  );
  assert.throws(
    () => new PermissionRecorder({ default: "ask" as never }),
    (e) =>
      e instanceof TypeError &&
      /options\.default must be "allow" or "deny", got "ask"/.test(e.message),
  );
  assert.throws(
    () => new PermissionRecorder({ denyMessage: 3 as never }),
    (e) => e instanceof TypeError && /options\.denyMessage/.test(e.message),
  );
  assert.throws(
    () => new PermissionRecorder({ clock: {} as never }),
    (e) => e instanceof TypeError && /options\.clock must have a now\(\) method/.test(e.message),
  );
});

Deno.test("PermissionRecorder.allowAll allows every tool and keeps the clock option", async () => {
  const rec = PermissionRecorder.allowAll({ clock: { now: () => 7 } });
  assert.equal((await rec.canUseTool("Bash", {}, ctx())).behavior, "allow");
  assert.equal((await rec.canUseTool("mcp__x__y", {}, ctx())).behavior, "allow");
  assert.deepEqual(rec.decisions().map((d) => d.at), [7, 7]);
});

Deno.test("PermissionRecorder.denyAll denies with the default or given message", async () => {
  const plain = PermissionRecorder.denyAll();
  const a = await plain.canUseTool("Read", {}, ctx());
  assert.equal(
    a.behavior === "deny" && a.message,
    "Tool 'Read' is not allowed by the PermissionRecorder",
  );
  const custom = PermissionRecorder.denyAll("read-only").allow("Read");
  assert.equal((await custom.canUseTool("Read", {}, ctx())).behavior, "allow");
  const b = await custom.canUseTool("Write", {}, ctx());
  assert.equal(b.behavior === "deny" && b.message, "read-only");
  assert.throws(
    () => PermissionRecorder.denyAll(5 as never),
    (e) => e instanceof TypeError && /denyAll\(message\): message must be a string/.test(e.message),
  );
});

Deno.test("PermissionRecorder.allowTools allows exact names and prefix patterns only", async () => {
  const rec = PermissionRecorder.allowTools(["Read", "mcp__notes__*"]);
  const behaviors = [];
  for (
    const tool of ["Read", "mcp__notes__add", "mcp__notes__", "Bash", "mcp__other__x", "Reader"]
  ) {
    behaviors.push((await rec.canUseTool(tool, {}, ctx())).behavior);
  }
  assert.deepEqual(behaviors, ["allow", "allow", "allow", "deny", "deny", "deny"]);
  const bash = rec.decisions()[3].result;
  assert.equal(
    bash?.behavior === "deny" && bash.message,
    "Tool 'Bash' is not allowed by the PermissionRecorder",
  );
  assert.throws(
    () => PermissionRecorder.allowTools("Read" as never),
    (e) => e instanceof TypeError && /tools must be an array/.test(e.message),
  );
  assert.throws(
    () => PermissionRecorder.allowTools(["Read", ""]),
    (e) =>
      e instanceof TypeError &&
      /tools\[1\]: the tool name must be a non-empty string/.test(e.message),
  );
  assert.throws(
    () => PermissionRecorder.allowTools(["mcp__*__x"]),
    (e) => e instanceof TypeError && /'\*' may only end a tool pattern/.test(e.message),
  );
});

Deno.test("PermissionRecorder.respond answers with fixed results and functions", async () => {
  const seen: Array<[Record<string, unknown>, string, string]> = [];
  const rec = new PermissionRecorder()
    .respond("Write", { behavior: "deny", message: "read-only", interrupt: true })
    .respond("Edit", {
      behavior: "allow",
      updatedPermissions: [{
        type: "addRules",
        rules: [{ toolName: "Edit" }],
        behavior: "allow",
        destination: "session",
      }],
    })
    .respond("Bash", (input, context) => {
      seen.push([input, context.toolName, context.toolUseID]);
      return { behavior: "allow", updatedInput: { command: `safe ${input.command}` } };
    })
    .respond("mcp__github__*", async (_input, context) => {
      await Promise.resolve();
      return { behavior: "deny", message: `no ${context.toolName}` };
    });
  assert.deepEqual(await rec.canUseTool("Write", { file_path: "/a" }, ctx("t1")), {
    behavior: "deny",
    message: "read-only",
    interrupt: true,
    toolUseID: "t1",
  });
  const edit = await rec.canUseTool("Edit", { a: 1 }, ctx("t2"));
  assert.equal(edit.behavior === "allow" && edit.updatedPermissions?.length, 1);
  assert.deepEqual(edit.behavior === "allow" && edit.updatedInput, { a: 1 });
  assert.deepEqual(await rec.canUseTool("Bash", { command: "ls" }, ctx("t3")), {
    behavior: "allow",
    updatedInput: { command: "safe ls" },
    toolUseID: "t3",
  });
  assert.deepEqual(seen, [[{ command: "ls" }, "Bash", "t3"]]);
  assert.deepEqual(await rec.canUseTool("mcp__github__create_issue", {}, ctx("t4")), {
    behavior: "deny",
    message: "no mcp__github__create_issue",
    toolUseID: "t4",
  });
});

Deno.test("PermissionRecorder.respond prefers exact names, then longer patterns, and replaces", async () => {
  const rec = PermissionRecorder.allowAll()
    .respond("*", { behavior: "deny", message: "any" })
    .respond("mcp__*", { behavior: "deny", message: "mcp" })
    .respond("mcp__github__*", { behavior: "deny", message: "github" })
    .respond("mcp__github__list", { behavior: "allow" })
    .deny("Bash", "first")
    .deny("Bash", "second");
  const answer = async (tool: string): Promise<string> => {
    const r = await rec.canUseTool(tool, {}, ctx());
    return r.behavior === "deny" ? r.message : "allow";
  };
  assert.equal(await answer("Read"), "any");
  assert.equal(await answer("mcp__notes__x"), "mcp");
  assert.equal(await answer("mcp__github__create"), "github");
  assert.equal(await answer("mcp__github__list"), "allow");
  assert.equal(await answer("Bash"), "second");
});

Deno.test("PermissionRecorder.respond rejects bad patterns and responses", () => {
  const rec = new PermissionRecorder();
  assert.throws(
    () => rec.respond("", { behavior: "allow" }),
    (e) =>
      e instanceof TypeError &&
      /respond\(""\): the tool name must be a non-empty string/.test(e.message),
  );
  assert.throws(
    () => rec.respond("a*b", { behavior: "allow" }),
    (e) => e instanceof TypeError && /'\*' may only end a tool pattern/.test(e.message),
  );
  assert.throws(
    () => rec.respond("Bash", { behavior: "maybe" } as never),
    (e) =>
      e instanceof TypeError &&
      /respond\("Bash"\): response.behavior must be "allow" or "deny", got "maybe"/.test(e.message),
  );
  assert.throws(
    () => rec.respond("Bash", { behavior: "deny" } as never),
    (e) => e instanceof TypeError && /a deny response needs a message string/.test(e.message),
  );
  assert.throws(
    () => rec.respond("Bash", { behavior: "allow", updatedInput: "x" } as never),
    (e) => e instanceof TypeError && /updatedInput must be an object/.test(e.message),
  );
  assert.throws(
    () => rec.respond("Bash", null as never),
    (e) => e instanceof TypeError && /the response must be/.test(e.message),
  );
});

Deno.test("PermissionRecorder.allow sets updatedInput and validates", async () => {
  const rec = PermissionRecorder.denyAll().allow("Read").allow("Write", {
    updatedInput: { file_path: "/sandbox/a" },
  });
  const input = { file_path: "/a" };
  const read = await rec.canUseTool("Read", input, ctx());
  assert.equal(read.behavior === "allow" && read.updatedInput, input);
  assert.deepEqual(await rec.canUseTool("Write", input, ctx()), {
    behavior: "allow",
    updatedInput: { file_path: "/sandbox/a" },
    toolUseID: "toolu_1",
  });
  assert.throws(
    () => rec.allow("Read", null as never),
    (e) => e instanceof TypeError && /allow\("Read"\): options must be an object/.test(e.message),
  );
});

Deno.test("PermissionRecorder.deny sets the message and interrupt and validates", async () => {
  const rec = new PermissionRecorder().deny("Write", "no").deny("Bash", "stop", {
    interrupt: true,
  });
  assert.deepEqual(await rec.canUseTool("Write", {}, ctx()), {
    behavior: "deny",
    message: "no",
    toolUseID: "toolu_1",
  });
  assert.deepEqual(await rec.canUseTool("Bash", {}, ctx()), {
    behavior: "deny",
    message: "stop",
    interrupt: true,
    toolUseID: "toolu_1",
  });
  assert.throws(
    () => rec.deny("Bash", undefined as never),
    (e) => e instanceof TypeError && /deny\("Bash"\): message must be a string/.test(e.message),
  );
  assert.throws(
    () => rec.deny("Bash", "x", 1 as never),
    (e) => e instanceof TypeError && /options must be an object/.test(e.message),
  );
});

Deno.test("PermissionRecorder.canUseTool is bound and rejects bad arguments", async () => {
  const { canUseTool } = new PermissionRecorder();
  assert.equal((await canUseTool("Read", {}, ctx())).behavior, "allow");
  await assert.rejects(
    canUseTool(1 as never, {}, ctx()),
    (e) => e instanceof TypeError && /toolName must be a string, got 1/.test(e.message),
  );
  await assert.rejects(
    canUseTool("Read", null as never, ctx()),
    (e) =>
      e instanceof TypeError && /canUseTool\("Read"\): input must be an object/.test(e.message),
  );
  await assert.rejects(
    canUseTool("Read", {}, undefined as never),
    (e) => e instanceof TypeError && /options must be the SDK's options object/.test(e.message),
  );
});

Deno.test("PermissionRecorder.canUseTool records responder failures and rejects", async () => {
  const boom = new Error("boom");
  const rec = new PermissionRecorder()
    .respond("Bash", () => {
      throw boom;
    })
    .respond("Read", () => Promise.reject(boom))
    .respond("Write", () => ({ behavior: "perhaps" }) as never)
    .respond("Edit", () => undefined as never);
  await assert.rejects(rec.canUseTool("Bash", {}, ctx()), (e) => e === boom);
  await assert.rejects(rec.canUseTool("Read", {}, ctx()), (e) => e === boom);
  await assert.rejects(
    rec.canUseTool("Write", {}, ctx()),
    (e) =>
      e instanceof TypeError &&
      /the responder for 'Write' returned \{"behavior":"perhaps"\}/.test(e.message),
  );
  await assert.rejects(
    rec.canUseTool("Edit", {}, ctx()),
    (e) => e instanceof TypeError && /the responder for 'Edit' returned undefined/.test(e.message),
  );
  const decisions = rec.decisions();
  assert.equal(decisions.length, 4);
  assert.equal(decisions[0].error, boom);
  assert.equal(decisions[0].result, undefined);
  assert.throws(() => rec.assertNotAsked("Bash"), /Bash \{\} → error: Error: boom/);
});

Deno.test("PermissionRecorder.canUseTool rejects when the signal aborts a pending responder", async () => {
  const never = Promise.withResolvers<ToolPermissionResult>();
  const rec = new PermissionRecorder().respond("Bash", () => never.promise);
  const controller = new AbortController();
  const pending = rec.canUseTool("Bash", {}, { signal: controller.signal, toolUseID: "t1" });
  assert.equal(rec.decisions()[0].result, undefined);
  controller.abort(new Error("cancelled"));
  await assert.rejects(pending, /cancelled/);
  never.reject(new Error("late")); // swallowed, no unhandled rejection
  assert.match(String(rec.decisions()[0].error), /cancelled/);
  await assert.rejects(
    rec.canUseTool("Bash", {}, { signal: controller.signal, toolUseID: "t2" }),
    /cancelled/,
  );
  // A fixed answer does not wait, so it is given even on an aborted signal.
  assert.equal(
    (await rec.canUseTool("Read", {}, { signal: controller.signal, toolUseID: "t3" })).behavior,
    "allow",
  );
});

Deno.test("PermissionRecorder.decisions lists calls in order with a snapshot of each", async () => {
  const gate = Promise.withResolvers<ToolPermissionResult>();
  let now = 100;
  const rec = new PermissionRecorder({ clock: { now: () => now++ } }).respond(
    "Bash",
    () => gate.promise,
  );
  const context = ctx("t1");
  const pending = rec.canUseTool("Bash", { command: "ls" }, context);
  await rec.canUseTool("Read", { file_path: "/a" }, ctx("t2"));
  const before = rec.decisions();
  assert.equal(before[0].result, undefined);
  assert.equal(before[0].context, context);
  assert.deepEqual(before.map((d) => [d.tool, d.at]), [["Bash", 100], ["Read", 101]]);
  gate.resolve({ behavior: "deny", message: "no" });
  await pending;
  assert.equal(before[0].result, undefined); // the snapshot did not change
  assert.deepEqual(rec.decisions()[0], {
    tool: "Bash",
    input: { command: "ls" },
    context,
    result: { behavior: "deny", message: "no", toolUseID: "t1" },
    at: 100,
  });
});

Deno.test("PermissionRecorder.decisions stamps with Date.now looked up at call time", async () => {
  const clock = FakeTimers.install({ now: 5_000, toFake: ["Date"] });
  try {
    const rec = new PermissionRecorder();
    await rec.canUseTool("Read", {}, ctx());
    clock.tick(250);
    await rec.canUseTool("Read", {}, ctx());
    assert.deepEqual(rec.decisions().map((d) => d.at), [5_000, 5_250]);
  } finally {
    clock.uninstall();
  }
});

Deno.test("PermissionRecorder.asked counts all calls, one tool, or a pattern", async () => {
  const rec = new PermissionRecorder();
  for (const tool of ["Read", "Read", "mcp__a__x", "mcp__a__y", "Bash"]) {
    await rec.canUseTool(tool, {}, ctx());
  }
  assert.equal(rec.asked(), 5);
  assert.equal(rec.asked("Read"), 2);
  assert.equal(rec.asked("mcp__a__*"), 2);
  assert.equal(rec.asked("Write"), 0);
  assert.throws(() => rec.asked("a*b"), TypeError);
});

Deno.test("PermissionRecorder.assertAsked passes on counts and lists decisions on failure", async () => {
  const rec = new PermissionRecorder().deny("Bash", "no shell", { interrupt: true }).allow(
    "Write",
    {
      updatedInput: { file_path: "/b" },
    },
  );
  assert.throws(
    () => rec.assertAsked("Read"),
    (e) =>
      e instanceof AssertionError &&
      /^Expected canUseTool to be asked about 'Read' at least once, but it was asked 0 times\.\nDecisions \(0\): canUseTool was never called\.$/
        .test(e.message),
  );
  await rec.canUseTool("Read", { file_path: "/a" }, ctx());
  await rec.canUseTool("Bash", { command: "ls" }, ctx());
  await rec.canUseTool("Write", { file_path: "/a" }, ctx());
  rec.assertAsked("Read");
  rec.assertAsked("Read", 1);
  rec.assertAsked("Edit", 0);
  rec.assertAsked("*", 3);
  assert.throws(
    () => rec.assertAsked("Read", 2),
    (e) =>
      e instanceof AssertionError &&
      new RegExp(
        String.raw`^Expected canUseTool to be asked about 'Read' 2 times, but it was asked ` +
          String.raw`1 time\.\nDecisions \(3\):\n {2}1\. Read \{"file_path":"\/a"\} → allow\n ` +
          String.raw`{2}2\. Bash \{"command":"ls"\} → deny \(interrupt\): no shell\n {2}3\. ` +
          String.raw`Write \{"file_path":"\/a"\} → allow with \{"file_path":"\/b"\}$`,
      )
        .test(e.message),
  );
  assert.throws(
    () => rec.assertAsked("Read", -1),
    (e) =>
      e instanceof RangeError && /times must be a non-negative integer, got -1/.test(e.message),
  );
  assert.throws(() => rec.assertAsked("Read", 1.5), RangeError);
});

Deno.test("PermissionRecorder.assertAsked shows pending calls", async () => {
  const gate = Promise.withResolvers<ToolPermissionResult>();
  const rec = new PermissionRecorder().respond("Bash", () => gate.promise);
  const pending = rec.canUseTool("Bash", {}, ctx());
  assert.throws(() => rec.assertAsked("Bash", 2), /1\. Bash \{\} → pending/);
  gate.resolve({ behavior: "allow" });
  await pending;
});

Deno.test("PermissionRecorder.assertNotAsked passes when unasked and lists decisions otherwise", async () => {
  const rec = new PermissionRecorder();
  rec.assertNotAsked("Bash");
  await rec.canUseTool("mcp__s__t", { q: 1 }, ctx());
  rec.assertNotAsked("Bash");
  assert.throws(
    () => rec.assertNotAsked("mcp__s__*"),
    (e) =>
      e instanceof AssertionError &&
      /^Expected canUseTool not to be asked about 'mcp__s__\*', but it was asked 1 time\.\nDecisions \(1\):\n {2}1\. mcp__s__t \{"q":1\} → allow$/
        .test(e.message),
  );
  assert.throws(() => rec.assertNotAsked(""), TypeError);
});

Deno.test("PermissionRecorder.clear forgets calls but keeps responses", async () => {
  const rec = new PermissionRecorder().deny("Bash", "no");
  await rec.canUseTool("Bash", {}, ctx());
  rec.clear();
  assert.equal(rec.asked(), 0);
  assert.deepEqual(rec.decisions(), []);
  assert.equal((await rec.canUseTool("Bash", {}, ctx())).behavior, "deny");
  assert.equal(rec.asked("Bash"), 1);
});

Deno.test("PermissionRecorder.canUseTool keeps call order under 50 concurrent calls", async () => {
  const gates = Array.from({ length: 50 }, () => Promise.withResolvers<void>());
  const settledOrder: number[] = [];
  const rec = new PermissionRecorder().respond("Tool*", async (input) => {
    const i = input.i as number;
    await gates[i].promise;
    return i % 2 === 0
      ? { behavior: "allow", updatedInput: { i, even: true } }
      : { behavior: "deny", message: `odd ${i}` };
  });
  const calls = gates.map((_, i) =>
    rec.canUseTool(`Tool${i}`, { i }, ctx(`toolu_${i}`)).then((result) => {
      settledOrder.push(i);
      return result;
    })
  );
  assert.equal(rec.asked(), 50);
  for (let i = 49; i >= 0; i--) {
    gates[i].resolve();
    await Promise.resolve();
  }
  const results = await Promise.all(calls);
  assert.deepEqual(settledOrder, Array.from({ length: 50 }, (_, i) => 49 - i));
  const decisions = rec.decisions();
  assert.deepEqual(decisions.map((d) => d.tool), gates.map((_, i) => `Tool${i}`));
  decisions.forEach((decision, i) => {
    assert.equal(decision.input.i, i);
    assert.equal(decision.context.toolUseID, `toolu_${i}`);
    assert.deepEqual(decision.result, results[i]);
    assert.deepEqual(
      decision.result,
      i % 2 === 0
        ? { behavior: "allow", updatedInput: { i, even: true }, toolUseID: `toolu_${i}` }
        : { behavior: "deny", message: `odd ${i}`, toolUseID: `toolu_${i}` },
    );
  });
});

Deno.test("PermissionRecorder.spy: the app's answer reaches the SDK unchanged and is recorded", async () => {
  const calls: string[] = [];
  const answers = new Map<string, ToolPermissionResult>([
    ["Bash", { behavior: "deny", message: "No rm." }],
    ["Read", { behavior: "allow" }], // no updatedInput: the spy does not add one
  ]);
  const app = (tool: string, input: Record<string, unknown>, options: ToolPermissionContext) => {
    calls.push(`${tool} ${JSON.stringify(input)} ${options.toolUseID}`);
    return Promise.resolve(answers.get(tool)!);
  };
  const spy = PermissionRecorder.spy(app, { clock: { now: () => 5 } });
  const bash = await spy.canUseTool("Bash", { command: "rm -rf /" }, ctx("t1"));
  const read = await spy.canUseTool("Read", { file_path: "/a" }, ctx("t2"));
  assert.equal(bash, answers.get("Bash")); // the very object the app returned
  assert.equal(read, answers.get("Read"));
  assert.deepEqual(calls, ['Bash {"command":"rm -rf /"} t1', 'Read {"file_path":"/a"} t2']);
  assert.deepEqual(
    spy.decisions().map((d) => [d.tool, d.result, d.at]),
    [["Bash", answers.get("Bash"), 5], ["Read", answers.get("Read"), 5]],
  );
  spy.assertAsked("Bash", 1);
  assert.throws(() => spy.assertNotAsked("Read"), AssertionError);
});

Deno.test("PermissionRecorder.spy: the app's errors go through; scripted tools win", async () => {
  const failure = new Error("the app's policy service is down");
  const spy = PermissionRecorder.spy((tool: string) =>
    tool === "Write" ? Promise.reject(failure) : Promise.resolve({ behavior: "allow" })
  ).deny("Bash", "Not in this test");
  await assert.rejects(spy.canUseTool("Write", {}, ctx()), failure);
  const bash = await spy.canUseTool("Bash", { command: "ls" }, ctx("t9"));
  assert.deepEqual(bash, { behavior: "deny", message: "Not in this test", toolUseID: "t9" });
  const [write] = spy.decisions();
  assert.equal(write.error, failure);
  assert.equal(write.result, undefined);
  assert.throws(
    () => PermissionRecorder.spy("allow" as never),
    /PermissionRecorder\.spy\(canUseTool\): canUseTool must be the app's canUseTool function, got "allow"/,
  );
});
