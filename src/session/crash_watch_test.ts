import assert from "node:assert/strict";
import { text } from "../builders/assistant.ts";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import type { Scenario } from "../scenario/scenario.ts";
import type { Step } from "../scenario/step.ts";
import type { Frame } from "../wire/frame.ts";
import { type ExitStatus, Session } from "./session.ts";
import { assertProgress } from "./scenario_progress.ts";

const prompt = (content: string) =>
  JSON.stringify({
    type: "user",
    session_id: "",
    message: { role: "user", content },
    parent_tool_use_id: null,
  }) + "\n";

/** Runs `prompts` through a session of `scenario`: what it wrote, and how it ended. */
async function run(
  scenario: Scenario,
  prompts: string[] = ["go"],
): Promise<{ frames: Frame[]; kinds: string[]; exit: ExitStatus; session: Session }> {
  const session = new Session(scenario);
  const writer = session.writable.getWriter();
  for (const p of prompts) await writer.write(prompt(p)).catch(() => {});
  await writer.close().catch(() => {});
  const body = await new Response(session.readable).text();
  const frames: Frame[] = body.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
  const kinds = frames.map((f) =>
    f.type === "stream_event"
      ? `event/${(f.event as { type: string }).type}`
      : typeof f.subtype === "string"
      ? `${f.type}/${f.subtype}`
      : f.type
  );
  return { frames, kinds, exit: await session.exited, session };
}

const START = ["system/session_state_changed", "system/init"];
const STREAM = [
  "system/status",
  "event/message_start",
  "event/content_block_start",
  "event/content_block_delta",
  "assistant",
  "event/content_block_stop",
  "event/message_delta",
  "event/message_stop",
];
const texts = (frames: Frame[]) =>
  frames.flatMap((f) =>
    f.type === "assistant"
      ? (f.message as { content: Array<{ type: string; text?: string }> }).content
        .flatMap((b) => (b.type === "text" ? [b.text] : []))
      : []
  );

Deno.test("crashAfter({ assistantMessages }): right after the nth message, blocks and stream events included", async () => {
  const plain = await run(
    new ScenarioBuilder().on("go").respond([text("A."), text("B.")]).respond("Two.").respond(
      "Three.",
    )
      .crashAfter({ assistantMessages: 2, code: 2 }).build(),
  );
  assert.deepEqual(plain.kinds, [...START, "assistant", "assistant", "assistant"]);
  assert.deepEqual(texts(plain.frames), ["A.", "B.", "Two."]);
  assert.deepEqual(plain.exit, { code: 2, signal: null });

  const streamed = await run(
    new ScenarioBuilder({ partialMessages: true }).on("go").respond("One.").respond("Two.")
      .crashAfter({ assistantMessages: 1 }).build(),
  );
  assert.deepEqual(streamed.kinds, [...START, ...STREAM], "up to the message_stop, no more");
  assert.deepEqual(streamed.exit, { code: 1, signal: null });
});

Deno.test("crashAfter({ beforeToolResult }): the tool use is written, its result never is", async () => {
  const first = await run(
    new ScenarioBuilder().on("go").usesBash("ls", { stdout: "a" }).respond("Done.")
      .crashAfter({ beforeToolResult: true }, 4).build(),
  );
  assert.deepEqual(first.kinds, [...START, "assistant"]);
  assert.equal(
    (first.frames.at(-1)!.message as { content: Array<{ type: string }> }).content[0].type,
    "tool_use",
  );
  assert.deepEqual(first.exit, { code: 4, signal: null });

  const second = await run(
    new ScenarioBuilder().on("go").usesBash("ls", { stdout: "a" }).usesBash("pwd", { stdout: "/" })
      .respond("Done.").crashAfter({ beforeToolResult: 2 }).build(),
  );
  assert.deepEqual(second.kinds, [...START, "assistant", "user", "assistant"]);
  assert.equal(second.exit.code, 1);
});

Deno.test("crashAfter({ midStream }): k stream events into a message, nothing more of it", async () => {
  const cut = await run(
    new ScenarioBuilder({ partialMessages: true }).on("go").respond("One.").respond("Two.")
      .crashAfter({ midStream: 3 }).build(),
  );
  assert.deepEqual(cut.kinds, [...START, ...STREAM.slice(0, 4)]);
  assert.equal(cut.exit.code, 1);

  const second = await run(
    new ScenarioBuilder({ partialMessages: true }).on("go").respond("One.").respond("Two.")
      .crashAfter({ assistantMessages: 1, midStream: 2 }).build(),
  );
  assert.deepEqual(second.kinds, [...START, ...STREAM, ...STREAM.slice(0, 3)]);

  // a message that does not stream is cut before its first frame
  const unstreamed = await run(
    new ScenarioBuilder().on("go").respond("One.").crashAfter({ midStream: 3 }).build(),
  );
  assert.deepEqual(unstreamed.kinds, START);
  assert.equal(unstreamed.exit.code, 1);

  // more events than the message has: it crashes at the message's end
  const late = await run(
    new ScenarioBuilder({ partialMessages: true }).on("go").respond("One.").respond("Two.")
      .crashAfter({ midStream: 40 }).build(),
  );
  assert.deepEqual(late.kinds, [...START, ...STREAM]);
});

Deno.test("crashAfter(n): the frame count still works as before", async () => {
  const { kinds, exit } = await run(
    new ScenarioBuilder().on("go").respond("One.").respond("Two.").crashAfter(3, 9).build(),
  );
  assert.deepEqual(kinds, [...START, "assistant"]);
  assert.deepEqual(exit, { code: 9, signal: null });
});

Deno.test("crash step: here, mid-stream of the next message, before the next tool result", async () => {
  const here = await run(
    new ScenarioBuilder().on("go").respond("A.").crash({ code: 3 }).respond("B.").build(),
  );
  assert.deepEqual(texts(here.frames), ["A."]);
  assert.deepEqual(here.exit, { code: 3, signal: null });

  const midStream = await run(
    new ScenarioBuilder({ partialMessages: true }).on("go").respond("A.").crash({ midStream: 2 })
      .respond("Cut.").build(),
  );
  assert.deepEqual(midStream.kinds, [...START, ...STREAM, ...STREAM.slice(0, 3)]);

  const beforeResult = await run(
    new ScenarioBuilder().on("go").crash({ beforeToolResult: true, code: 5 })
      .usesBash("ls", { stdout: "a" }).respond("Done.").build(),
  );
  assert.deepEqual(beforeResult.kinds, [...START, "assistant"]);
  assert.deepEqual(beforeResult.exit, { code: 5, signal: null });
});

Deno.test("crash step: a placed crash the turn does not reach comes before its result", async () => {
  const { kinds, exit } = await run(
    new ScenarioBuilder().onLazy("go", function* () {
      yield { kind: "crash", midStream: 2 } as Step;
    }).build(),
  );
  assert.deepEqual(kinds, START);
  assert.equal(exit.code, 1);
});

Deno.test("crash step: placed after the message it should cut is refused at build time", () => {
  assert.throws(
    () =>
      new ScenarioBuilder({ name: "x" }).on("go").respond("Long text.").crash({ midStream: 3 })
        .build(),
    (error: Error) => {
      assert.ok(error instanceof RangeError);
      assert.equal(
        error.message,
        "Cannot build scenario 'x': 'exchanges[0].steps[1]' crash { midStream: 3 } cuts the message that follows it, but no message step follows it (put the crash before the message it cuts)",
      );
      return true;
    },
  );
  assert.throws(
    () => new ScenarioBuilder().on("go").crash({ midStream: 2, beforeToolResult: true }),
    /'exchanges\[0\]\.steps\[0\]' has both 'midStream' and 'beforeToolResult': a crash has one place/,
  );
  assert.throws(() => new ScenarioBuilder().on("go").crash({ code: 0 }), RangeError);
});

Deno.test("crashAfter: a point never reached is named by assertProgress", async () => {
  const scenario = new ScenarioBuilder({ name: "x" }).on("go").respond("One.")
    .crashAfter({ assistantMessages: 5 }).build();
  const { session, exit } = await run(scenario);
  assert.equal(exit.code, 0);
  assert.throws(
    () => assertProgress(session, scenario, { finished: true, who: "mock" }),
    {
      name: "AssertionError",
      message:
        'mock: the scenario did not finish:\n- crashAfter {"assistantMessages":5} was never reached (1 assistant message and 0 tool results were written)',
    },
  );
});

Deno.test("crash points are deterministic: the same scenario writes the same frames", async () => {
  const scenario = new ScenarioBuilder({ partialMessages: true, seed: 3 }).on("go")
    .usesRead("/a", { content: "x" }).respond("Long enough to stream in several pieces of text.")
    .crashAfter({ assistantMessages: 1, midStream: 5 }).build();
  const a = await run(scenario);
  const b = await run(scenario);
  assert.deepEqual(a.frames, b.frames);
  const second = a.kinds.lastIndexOf("event/message_start");
  assert.ok(second > a.kinds.indexOf("user"), "the second message comes after the tool result");
  assert.equal(a.kinds.slice(second).filter((k) => k.startsWith("event/")).length, 5);
  assert.equal(a.kinds.at(-1)?.startsWith("event/"), true);
});
