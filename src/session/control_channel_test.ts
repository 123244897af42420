import assert from "node:assert/strict";
import { createBuildContext } from "../builders/build_context.ts";
import { ControlChannel } from "./control_channel.ts";

Deno.test("ControlChannel.request: aborted while its request is written, then the write fails: nothing unhandled", async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (event: PromiseRejectionEvent) => {
    event.preventDefault();
    unhandled.push(event.reason);
  };
  globalThis.addEventListener("unhandledrejection", onUnhandled);
  try {
    let failWrite!: (error: Error) => void;
    const channel = new ControlChannel({
      ctx: createBuildContext({}),
      send: () => new Promise<void>((_, reject) => (failWrite = reject)),
      timeoutMs: 1_000,
      now: () => 0,
      closed: () => false,
    });
    const controller = new AbortController();
    const asked = channel.request({ subtype: "hook_callback" }, { signal: controller.signal });
    controller.abort(new Error("interrupted"));
    // a macrotask passes while the request is still being written
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    failWrite(new Error("the process ended"));
    await assert.rejects(asked, /the process ended/);
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    assert.deepEqual(unhandled.map(String), []);
  } finally {
    globalThis.removeEventListener("unhandledrejection", onUnhandled);
  }
});
