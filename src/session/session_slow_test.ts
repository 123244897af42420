// The session end to end at scale: slow, so in the slow tier (deno task test:slow).
import assert from "node:assert/strict";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import type { Step } from "../scenario/step.ts";
import { any } from "../scenario/matcher.ts";
import { Session } from "./session.ts";
import { userPrompt } from "../builders/user.ts";

Deno.test("Session: a million-frame scenario streams to its end, made as it is read", async () => {
  const total = 1_000_000;
  let produced = 0;
  let lines = 0;
  let lead = 0;
  const session = new Session(
    new ScenarioBuilder().onLazy(any(), function* () {
      for (let i = 0; i < total; i++) {
        produced++;
        lead = Math.max(lead, produced - lines);
        yield { kind: "emit", frame: { type: "stream_event", i } } as Step;
      }
    }).build(),
  );
  const writer = session.writable.getWriter();
  await writer.write(
    `${JSON.stringify(userPrompt("go"))}\n`,
  );
  await writer.close();
  const decoder = new TextDecoder();
  for await (const chunk of session.readable) lines += decoder.decode(chunk).split("\n").length - 1;
  assert.equal(produced, total);
  assert.ok(lines >= total);
  assert.ok(lead <= 64, `the producer ran ahead by ${lead} frames`);
  assert.deepEqual(await session.exited, { code: 0, signal: null });
});
