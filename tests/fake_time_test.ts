// Fake time with the real SDK: settleWithFakeTime under @sinonjs/fake-timers (everything faked,
// and the README's recipe) and under @std/testing's FakeTime (vendored in tests/vendor/std/: its
// timers floor delays and its ids are numbers); what the SDK's own timers need.
// tests/std_fake_time_test.ts has the app timeouts under FakeTime.
import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { query, type SDKMessage, type SDKResultMessage } from "@anthropic-ai/claude-agent-sdk";
import { MockTransport, ScenarioBuilder, settleWithFakeTime } from "../mod.ts";
import { FakeTime } from "./vendor/std/testing/time.ts";

async function collect(mock: MockTransport, prompt: string): Promise<SDKMessage[]> {
  const messages: SDKMessage[] = [];
  for await (
    const m of query({ prompt, options: { spawnClaudeCodeProcess: mock.spawn } })
  ) messages.push(m);
  return messages;
}

const paced = () =>
  new ScenarioBuilder({ timing: "realistic", seed: 7 })
    .on("hi").respond("Hello there.").usesRead("/tmp/x.txt", { content: "x" }).respond("Done.")
    .build();

Deno.test("sinon with every timer faked: a query settles through settleWithFakeTime", async () => {
  const fake = FakeTimers.install(); // setTimeout, setInterval, setImmediate, nextTick, Date, ...
  try {
    const mock = new MockTransport(new ScenarioBuilder().on("hi").respond("Hello").build());
    const messages = await settleWithFakeTime(collect(mock, "hi"), fake);
    assert.deepEqual(messages.map((m) => m.type), ["system", "assistant", "result"]);
  } finally {
    fake.uninstall();
  }
});

Deno.test("sinon: realistic pacing on the system clock is driven by fake time, same every run", async () => {
  const durations: number[] = [];
  for (let run = 0; run < 2; run++) {
    const fake = FakeTimers.install({
      now: Date.UTC(2026, 0, 1),
      toFake: ["setTimeout", "clearTimeout", "Date"],
    });
    try {
      const mock = new MockTransport(paced(), { clock: "system" });
      const started = Date.now();
      const messages = await settleWithFakeTime(collect(mock, "hi"), fake);
      const result = messages.at(-1) as SDKResultMessage;
      assert.equal(result.subtype, "success");
      assert.ok(Date.now() - started > 100, "fake time passed");
      durations.push(result.duration_ms);
    } finally {
      fake.uninstall();
    }
  }
  assert.equal(durations[0], durations[1]);
  assert.ok(durations[0] > 100);
});

Deno.test("std FakeTime (delays floored): realistic pacing settles", async () => {
  const time = new FakeTime(Date.UTC(2026, 0, 1));
  try {
    const mock = new MockTransport(paced(), { clock: "system" });
    const messages = await settleWithFakeTime(collect(mock, "hi"), time);
    assert.equal(messages.at(-1)?.type, "result");
    assert.ok(time.now > Date.UTC(2026, 0, 1) + 100);
  } finally {
    time.restore();
  }
});

Deno.test("the SDK's own timers: a virtual-clock session needs no fake time, unless nextTick is faked", async () => {
  const timersOnly = FakeTimers.install({
    toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "setImmediate", "Date"],
  });
  try {
    const mock = new MockTransport(new ScenarioBuilder().on("hi").respond("Hello").build());
    // awaited as is: no fake time advanced, the query still ends
    const messages = await collect(mock, "hi");
    assert.equal(messages.at(-1)?.type, "result");
  } finally {
    timersOnly.uninstall();
  }
  const ticks = FakeTimers.install({ toFake: ["nextTick"] });
  try {
    const mock = new MockTransport(new ScenarioBuilder().on("hi").respond("Hello").build());
    let ran = 0;
    const messages = await settleWithFakeTime(collect(mock, "hi"), {
      nextAsync: () => (ran++, ticks.nextAsync()),
    });
    assert.equal(messages.at(-1)?.type, "result");
    assert.ok(ran > 0, "faked nextTick (Node streams inside the SDK) needs the fake clock to run");
  } finally {
    ticks.uninstall();
  }
});

Deno.test("std FakeTime: an app's own timeout that aborts a query mid-reply settles (the SDK's timers get ids it can unref)", async () => {
  const errors: string[] = [];
  const onError = (event: ErrorEvent) => {
    event.preventDefault();
    errors.push(String(event.error?.message ?? event.message));
  };
  globalThis.addEventListener("error", onError);
  const time = new FakeTime(Date.UTC(2026, 0, 1));
  try {
    const scenario = new ScenarioBuilder({ timing: "slow", seed: 3 })
      .on("hi").respond("A long answer. ".repeat(50)).build();
    const mock = new MockTransport(scenario, { clock: "system" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 500); // the app's timeout, on the fake clock
    const run = (async () => {
      const types: string[] = [];
      try {
        for await (
          const m of query({
            prompt: "hi",
            options: {
              spawnClaudeCodeProcess: mock.spawn,
              abortController: controller,
              includePartialMessages: true,
            },
          })
        ) types.push(m.type);
      } catch (error) {
        return { types, error: (error as Error).message };
      }
      return { types, error: undefined };
    })();
    const { types, error } = await settleWithFakeTime(run, time);
    assert.match(String(error), /aborted by user/);
    assert.ok(types.includes("stream_event"), "the reply had started when the app gave up");
    assert.ok(!types.includes("result"));
    // the SDK's grace period ran on fake time, then it ended the process
    assert.deepEqual(await mock.exited, { code: null, signal: "SIGTERM" });
    assert.deepEqual(errors, [], "no uncaught error (setTimeout(...).unref is not a function)");
    assert.equal(typeof setTimeout(() => {}, 0), "number", "the fake's own ids are back");
  } finally {
    time.restore();
    globalThis.removeEventListener("error", onError);
  }
});
