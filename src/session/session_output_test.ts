import assert from "node:assert/strict";
import { userPrompt } from "../builders/user.ts";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import { any } from "../scenario/matcher.ts";
import type { Frame } from "../wire/frame.ts";
import { Session } from "./session.ts";

const prompt = (text: string) => `${JSON.stringify(userPrompt(text))}\n`;
const decoder = new TextDecoder();
const scenario = () => new ScenarioBuilder({ seed: 7 }).on(any()).respond("Hello!").build();
/** A scenario whose one turn writes 40 frames and a result. */
const chatty = () => {
  const frames: Frame[] = Array.from({ length: 40 }, (_, i) => ({ type: "keep_alive", n: i }));
  return new ScenarioBuilder({ seed: 7 }).on(any()).emit(...frames).respond("done").build();
};

Deno.test("Session output: the lines readable would give, handed to a function, one per call", async () => {
  const viaStream = new Session(scenario());
  const writer = viaStream.writable.getWriter();
  await writer.write(prompt("hi"));
  await writer.close();
  const expected = await new Response(viaStream.readable).text();

  const chunks: string[] = [];
  const session = new Session(scenario(), {
    output: (line) => void chunks.push(decoder.decode(line)),
  });
  session.write(prompt("hi"));
  session.endInput();
  assert.deepEqual(await session.exited, { code: 0, signal: null });
  assert.equal(chunks.join(""), expected);
  assert.ok(
    chunks.length > 3 && chunks.every((c) => c.endsWith("\n") && c.indexOf("\n") === c.length - 1),
  );
  assert.throws(
    () => session.readable,
    (error: Error) =>
      error instanceof TypeError && /its lines go to the 'output' function/.test(error.message),
  );
});

Deno.test("Session.write and endInput: stdin without a stream, a line split across writes; writes after exit fail", async () => {
  const lines: string[] = [];
  const session = new Session(scenario(), {
    output: (line) => void lines.push(decoder.decode(line)),
  });
  const line = prompt("hi");
  session.write(line.slice(0, 10));
  session.write(new TextEncoder().encode(line.slice(10)));
  session.endInput();
  assert.deepEqual(await session.exited, { code: 0, signal: null });
  assert.equal(lines.map((l) => JSON.parse(l)).find((f) => f.type === "result")?.result, "Hello!");
  assert.deepEqual(session.writes.frames().map((f) => f.type), ["user"]);
  assert.throws(
    () => session.write(prompt("again")),
    (error: Error) => error instanceof TypeError && /it has exited \(code 0\)/.test(error.message),
  );
});

Deno.test("Session output: a pending promise holds output back (16 lines in flight); exit waits for them", async () => {
  const pending: Array<() => void> = [];
  let handed = 0;
  const session = new Session(chatty(), {
    output: () => {
      handed++;
      return new Promise<void>((resolve) => pending.push(resolve));
    },
  });
  session.write(prompt("go"));
  session.endInput();
  let exited = false;
  session.exited.then(() => (exited = true));
  const settle = async () => {
    for (let i = 0; i < 200; i++) await Promise.resolve();
  };
  await settle();
  assert.equal(handed, 16, "no more than 16 lines before the first settles");
  assert.equal(exited, false);
  while (!exited) {
    pending.splice(0).forEach((resolve) => resolve());
    await settle();
  }
  assert.ok(handed > 40, `all lines were handed on (${handed})`);
  assert.deepEqual(await session.exited, { code: 0, signal: null });
});

Deno.test("Session output: how much is held back does not depend on how fast the machine is", async () => {
  // each line takes the output function 1 ms of CPU: a slow or loaded machine
  const pending: Array<() => void> = [];
  let handed = 0;
  const session = new Session(chatty(), {
    output: () => {
      handed++;
      const until = performance.now() + 1;
      while (performance.now() < until) { /* busy */ }
      return new Promise<void>((resolve) => pending.push(resolve));
    },
  });
  session.write(prompt("go"));
  session.endInput();
  for (let i = 0; i < 200; i++) await Promise.resolve();
  assert.equal(handed, 16, "16 lines in flight, however long each took");
  while (pending.length > 0) {
    pending.splice(0).forEach((resolve) => resolve());
    for (let i = 0; i < 200; i++) await Promise.resolve();
  }
  assert.deepEqual(await session.exited, { code: 0, signal: null });
});

Deno.test("Session output: a rejected or throwing output is a broken pipe (SIGPIPE)", async () => {
  for (
    const output of [
      () => Promise.reject(new Error("EPIPE")),
      () => {
        throw new Error("EPIPE");
      },
    ]
  ) {
    const session = new Session(chatty(), { output });
    session.write(prompt("go"));
    assert.deepEqual(await session.exited, { code: null, signal: "SIGPIPE" });
  }
});
