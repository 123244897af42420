import assert from "node:assert/strict";
import { text } from "../builders/assistant.ts";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import type { Scenario } from "../scenario/scenario.ts";
import type { Step } from "../scenario/step.ts";
import type { Frame } from "../wire/frame.ts";
import { Session } from "./session.ts";

const prompt = (content: string) =>
  JSON.stringify({
    type: "user",
    session_id: "",
    message: { role: "user", content },
    parent_tool_use_id: null,
  }) + "\n";

/** The result of each turn: its subtype and its text (or its error). */
async function results(scenario: Scenario, prompts: string[]): Promise<string[]> {
  const session = new Session(scenario);
  const writer = session.writable.getWriter();
  for (const p of prompts) await writer.write(prompt(p));
  await writer.close();
  const body = await new Response(session.readable).text();
  return body.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Frame)
    .filter((f) => f.type === "result")
    .map((f) => `${f.subtype}: ${f.result ?? (f.errors as string[]).join(" | ")}`);
}

/** Runs `fn` with `console.warn` captured. */
async function warnings<T>(fn: () => Promise<T>): Promise<{ value: T; warned: string[] }> {
  const warned: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => void warned.push(args.join(" "));
  try {
    return { value: await fn(), warned };
  } finally {
    console.warn = original;
  }
}

Deno.test("unmatched 'error' (default): an error result naming the message and the closest exchange", async () => {
  const scenario = new ScenarioBuilder({ name: "build" }).on("delete the build dir")
    .respond("Deleted.").build();
  assert.deepEqual(await results(scenario, ["delete the build dir", "delete the buld dir"]), [
    "success: Deleted.",
    `error_during_execution: claude-mock: no exchange of scenario ` +
    `'build' matched user message "delete the buld dir" (turn 2): ` +
    `every exchange of the scenario was already used (1 exchange). ` +
    `Closest: exchanges[0] on contains "delete the build dir" (used 1 of 1 times)`,
  ]);
});

Deno.test("unmatched 'warn': a warning on stderr and the default reply", async () => {
  const scenario = new ScenarioBuilder({ name: "chat" }).on("hi").respond("Hello!")
    .onUnmatched("warn").build();
  const { value, warned } = await warnings(() => results(scenario, ["hi", "hi again"]));
  assert.deepEqual(value, ["success: Hello!", "success: Hello! How can I help?"]);
  assert.deepEqual(warned, [
    `claude-mock: warning: no exchange of scenario 'chat' matched ` +
    `user message "hi again" (turn 2): every exchange of the scenario ` +
    `was already used (1 exchange). Closest: exchanges[0] on contains ` +
    `"hi" (used 1 of 1 times): it matches, but is used up (.times(n) ` +
    `or .repeat() lets it answer more); answered with "Hello! How can I help?"`,
  ]);
});

Deno.test("unmatched function: a reply, steps, 'error', 'warn', undefined, async", async () => {
  const scenario = new ScenarioBuilder({ name: "f" }).onUnmatched(async (p, turn) => {
    await Promise.resolve();
    if (p === "reply") return { reply: `turn ${turn.turn + 1}` };
    if (p === "steps") return [{ kind: "message", parts: [text("From steps.")] }] as Step[];
    if (p === "lazy") {
      return (function* () {
        yield { kind: "message", parts: [text("Lazily.")] } as Step;
      })();
    }
    if (p === "warn") return "warn";
    if (p === "nothing") return undefined;
    return "error";
  }).build();
  const { value, warned } = await warnings(() =>
    results(scenario, ["reply", "steps", "lazy", "warn", "nothing", "other"])
  );
  assert.deepEqual(value.slice(0, 4), [
    "success: turn 1",
    "success: From steps.",
    "success: Lazily.",
    "success: Hello! How can I help?",
  ]);
  assert.match(
    value[4],
    /^error_during_execution: claude-mock: no exchange of scenario 'f' matched user message "nothing" \(turn 5\): the scenario has no exchanges$/,
  );
  assert.match(value[5], /matched user message "other" \(turn 6\)/);
  assert.equal(warned.length, 1);
});

Deno.test("unmatched function: a bare string, a bad step or a throw fails the turn saying why", async () => {
  const scenario = new ScenarioBuilder().onUnmatched((p) => {
    if (p === "string") return "Sorry?" as "warn";
    if (p === "bad step") return [{ kind: "delay", ms: -1 }] as Step[];
    if (p === "object") return { text: "x" } as never;
    throw new Error("handler bug");
  }).build();
  const out = await results(scenario, ["string", "bad step", "object", "throw"]);
  assert.deepEqual(out, [
    `error_during_execution: claude-mock: the onUnmatched function ` +
    `(user message "string", turn 1) returned the string "Sorry?": ` +
    `it must return { reply: "text" } to answer with a text, steps, ` +
    `"warn" or "error"`,
    `error_during_execution: claude-mock: Cannot run scenario: 'unmatched[0].ms' (produced by a step function) must be a finite number >= 0, got -1`,
    `error_during_execution: claude-mock: the onUnmatched function ` +
    `(user message "object", turn 3) returned an object with 'text': ` +
    `it must return { reply: "text" } to answer with a text, steps, ` +
    `"warn" or "error"`,
    `error_during_execution: claude-mock: the onUnmatched function (user message "throw", turn 4) threw: handler bug`,
  ]);
});

Deno.test("onUnmatched: a bare string is a TypeError that says how to reply with text", () => {
  assert.throws(() => new ScenarioBuilder({ name: "x" }).onUnmatched("Sorry?" as "warn"), {
    name: "TypeError",
    message:
      `Cannot build scenario 'x': 'unmatched' must be "error", "warn", {reply}, an array of steps or a function, got the string "Sorry?" (to answer with a text: onUnmatched({ reply: "Sorry?" }))`,
  });
  assert.throws(
    () => new ScenarioBuilder().onUnmatched({ reply: 42 } as never),
    /'unmatched\.reply' must be a string, got a number/,
  );
  assert.throws(
    () => new ScenarioBuilder().onUnmatched({ reply: "a", text: "b" } as never),
    /'unmatched\.text' is not an onUnmatched field \(only reply\)/,
  );
});
