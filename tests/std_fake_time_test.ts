// The real @std/testing FakeTime (vendored in tests/vendor/std/, JSR being out of reach) against
// the real SDK: an app's own timeout that aborts a query under fake time (issue 21 item 10).
// Without help the SDK's abort handler calls `setTimeout(...).unref()` on FakeTime's number id;
// settleWithFakeTime hands out ids that have `unref()`, also after FakeTime re-installs its
// globals (every nextAsync does, through FakeTime.restoreFor).
import assert from "node:assert/strict";
import { query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { MockTransport, ScenarioBuilder, settleWithFakeTime } from "../mod.ts";
import { FakeTime } from "./vendor/std/testing/time.ts";

const START = Date.UTC(2026, 0, 1);

/** Uncaught errors (an abort listener's throw is reported, not thrown), kept from failing the run. */
function catchUncaught(): { errors: string[]; [Symbol.dispose](): void } {
  const errors: string[] = [];
  const onError = (event: ErrorEvent) => {
    event.preventDefault();
    errors.push(String(event.error?.message ?? event.message));
  };
  globalThis.addEventListener("error", onError);
  return { errors, [Symbol.dispose]: () => globalThis.removeEventListener("error", onError) };
}

interface Outcome {
  types: string[];
  error?: string;
}

/** The app under test: one query, aborted by `controller`. */
async function ask(mock: MockTransport, controller: AbortController): Promise<Outcome> {
  const types: string[] = [];
  try {
    for await (
      const m of query({
        prompt: "hi",
        options: { ...mock.options(), abortController: controller },
      })
    ) types.push((m as SDKMessage).type);
  } catch (error) {
    return { types, error: (error as Error).message };
  }
  return { types };
}

/** The app's own timeout: aborts the query after `ms` on whatever clock `setTimeout` is. */
function appTimeout(controller: AbortController, ms: number): Promise<"timed out"> {
  return new Promise((resolve) =>
    setTimeout(() => {
      controller.abort();
      resolve("timed out");
    }, ms)
  );
}

/** A reply that comes after 60 s on the system clock: the app's 30 s timeout wins. */
const slowReply = () =>
  new MockTransport(new ScenarioBuilder().on("hi").delay(60_000).respond("Too late.").build(), {
    clock: "system",
  });

Deno.test("std FakeTime without the helper: the SDK's abort handler throws on a number timer id", async () => {
  using uncaught = catchUncaught();
  using time = new FakeTime(START);
  const mock = slowReply();
  const controller = new AbortController();
  const answered = ask(mock, controller);
  const timedOut = appTimeout(controller, 30_000);
  // FakeTime driven by hand, as its docs show, until the app's timeout has fired
  let fired = false;
  timedOut.then(() => (fired = true));
  for (let i = 0; i < 1_000 && !fired; i++) await time.nextAsync();
  assert.equal(fired, true);
  assert.equal(time.now, START + 30_000);
  assert.equal(uncaught.errors.length, 1, `uncaught: ${uncaught.errors.join("; ")}`);
  assert.match(uncaught.errors[0], /unref is not a function/);
  // the abort got lost: the SDK never ended the CLI process, the query never ends
  const state = await Promise.race([answered.then(() => "ended"), Promise.resolve("pending")]);
  assert.equal(state, "pending");
});

Deno.test("std FakeTime with settleWithFakeTime: the app's 30 s timeout fires before a 60 s reply and aborts cleanly", async () => {
  using uncaught = catchUncaught();
  using time = new FakeTime(START);
  const mock = slowReply();
  const controller = new AbortController();
  const answered = ask(mock, controller);
  const first = await settleWithFakeTime(
    Promise.race([answered, appTimeout(controller, 30_000)]),
    time,
  );
  assert.equal(first, "timed out");
  assert.equal(time.now, START + 30_000, "the app's timeout fired at 30 s of fake time");
  // the query ends as the SDK ends an aborted one: an error, the process terminated
  const outcome = await settleWithFakeTime(answered, time);
  assert.match(String(outcome.error), /aborted by user/);
  assert.deepEqual(outcome.types, ["system"], "no reply: it was still 30 s away");
  assert.deepEqual(await settleWithFakeTime(mock.exited, time), { code: null, signal: "SIGTERM" });
  assert.ok(time.now < START + 60_000, "the reply's delay never ran out");
  assert.deepEqual(uncaught.errors, [], "no uncaught error (setTimeout(...).unref)");
  assert.equal(typeof setTimeout(() => {}, 0), "number", "FakeTime's own ids are back");
});

Deno.test("std FakeTime with settleWithFakeTime: a reply that beats the app's timeout, and the timeout cleared", async () => {
  using uncaught = catchUncaught();
  using time = new FakeTime(START);
  const mock = new MockTransport(
    new ScenarioBuilder({ timing: "realistic", seed: 7 }).on("hi").respond("In time.").build(),
    { clock: "system" },
  );
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<"timed out">((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve("timed out");
    }, 30_000);
  });
  const outcome = await settleWithFakeTime(
    Promise.race([ask(mock, controller), timedOut]),
    time,
  );
  clearTimeout(timer);
  assert.notEqual(outcome, "timed out");
  assert.deepEqual((outcome as Outcome).types, ["system", "assistant", "result"]);
  assert.ok(time.now > START && time.now < START + 30_000, "paced on fake time");
  assert.equal(time.next(), false, "the app's timeout was cleared: no timer left");
  assert.deepEqual(uncaught.errors, []);
});
