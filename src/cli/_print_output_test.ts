import assert from "node:assert/strict";
import { PrintOutput, type PrintOutputOptions } from "./_print_output.ts";

const encoder = new TextEncoder();
const line = (frame: Record<string, unknown>) => JSON.stringify(frame);
const init = line({ type: "system", subtype: "init" });
const state = line({ type: "system", subtype: "session_state_changed", state: "idle" });
const assistant = line({ type: "assistant", message: { content: [] } });
const result = (extra: Record<string, unknown> = {}) =>
  line({
    type: "result",
    subtype: "success",
    result: "Hi!",
    model_usage_since_last_result: {},
    ...extra,
  });

function output(options: Partial<PrintOutputOptions> = {}) {
  let out = "";
  let crashes = 0;
  const printed = new PrintOutput({
    format: "stream-json",
    keepState: false,
    crashAfter: Infinity,
    write: (chunk) => Promise.resolve(void (out += new TextDecoder().decode(chunk))),
    onCrash: () => crashes++,
    ...options,
  });
  return { printed, out: () => out, crashes: () => crashes };
}

Deno.test("PrintOutput stream-json: each line as it comes, across chunk boundaries; session_state_changed only when asked", async () => {
  const bytes = encoder.encode([init, state, assistant, result()].join("\n") + "\n");
  for (const keepState of [false, true]) {
    const { printed, out } = output({ keepState });
    for (let at = 0; at < bytes.length; at += 7) await printed.push(bytes.subarray(at, at + 7));
    await printed.finish();
    const expected = keepState ? [init, state, assistant, result()] : [init, assistant, result()];
    assert.equal(out(), expected.join("\n") + "\n");
    assert.deepEqual(printed.written, expected);
  }
});

Deno.test("PrintOutput json and text: the result alone at the end, in the real CLI's shapes", async () => {
  const json = output({ format: "json" });
  json.printed.push(encoder.encode(`${init}\n${assistant}\n${result()}`));
  assert.equal(json.out(), "", "nothing before the end");
  await json.printed.finish();
  assert.deepEqual(JSON.parse(json.out()), { type: "result", subtype: "success", result: "Hi!" });

  const text = output({ format: "text" });
  text.printed.push(encoder.encode(`${init}\n{not json, "type":"result"\n${result()}\n`));
  await text.printed.finish();
  assert.equal(text.out(), "Hi!\n");

  const maxTurns = output({ format: "text" });
  maxTurns.printed.push(encoder.encode(
    result({ subtype: "error_max_turns", errors: ["Reached maximum number of turns (2)"] }) + "\n",
  ));
  await maxTurns.printed.finish();
  // no newline after an error's line (conform limit_max_turns, print:text, CLI 2.1.328)
  assert.equal(maxTurns.out(), "Error: Reached max turns (2)");

  const none = output({ format: "json" });
  none.printed.push(encoder.encode(`${init}\n`));
  await none.printed.finish();
  assert.equal(none.out(), "", "no result, nothing printed");
});

Deno.test("PrintOutput crashAfter: the crash point is called once, and nothing more is written", async () => {
  const { printed, out, crashes } = output({ crashAfter: 2 });
  printed.push(encoder.encode(`${init}\n${state}\n${assistant}\n${result()}\n`));
  await printed.finish();
  assert.equal(crashes(), 1);
  assert.equal(printed.crashed, true);
  assert.equal(out(), `${init}\n${assistant}\n`);

  const json = output({ format: "json", crashAfter: 3 });
  json.printed.push(encoder.encode(`${init}\n${assistant}\n${result()}\n`));
  await json.printed.finish();
  assert.equal(json.crashes(), 1);
  assert.equal(json.out(), "", "a run that crashed prints no result");
});

Deno.test("PrintOutput: finish waits for the lines still being written, the crash point's too", async () => {
  // a slow stdout: each write is handed on only when the test says so
  const pending: Array<() => void> = [];
  let out = "";
  const printed = new PrintOutput({
    format: "stream-json",
    keepState: false,
    crashAfter: 2,
    write: (chunk) =>
      new Promise<void>((resolve) =>
        pending.push(() => resolve(void (out += new TextDecoder().decode(chunk))))
      ),
    onCrash: () => {},
  });
  printed.push(encoder.encode(`${init}\n${assistant}\n${result()}\n`)); // the session moves on
  let finished = false;
  const finishing = printed.finish().then(() => (finished = true));
  await Promise.resolve();
  assert.equal(pending.length, 2);
  pending.shift()!();
  await Promise.resolve();
  assert.equal(finished, false, "the crash point's line is not written yet");
  pending.shift()!();
  await finishing;
  assert.equal(out, `${init}\n${assistant}\n`, "the process dies once it has written its lines");
});

Deno.test("PrintOutput with a background task (a text prompt): the turn's result is held for the next, with the session's figures then (2.1.332)", async () => {
  const tasks = (n: number) =>
    line({ type: "system", subtype: "background_tasks_changed", tasks: Array(n).fill({}) });
  const usage = (tokens: number) => ({
    m: { inputTokens: tokens, costUSD: tokens / 1000, contextWindow: 9 },
  });
  const first = result({
    result: "Launched.",
    total_cost_usd: 0.24,
    modelUsage: usage(240),
    subagent_stats: { completed: 0 },
    model_usage_since_last_result: usage(240),
  });
  const last = result({
    result: "Done.",
    total_cost_usd: 0.72,
    modelUsage: usage(720),
    subagent_stats: { completed: 1 },
    model_usage_since_last_result: usage(480),
  });
  const lines = [init, tasks(1), assistant, first, assistant, tasks(0), init, last];
  const stream = output({ holdForBackground: true });
  await stream.printed.push(encoder.encode(lines.join("\n") + "\n"));
  await stream.printed.finish();
  const written = stream.out().trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(written.map((f) => f.result ?? f.subtype ?? f.type), [
    "init",
    "background_tasks_changed",
    "assistant",
    "assistant",
    "background_tasks_changed",
    "init",
    "Launched.",
    "Done.",
  ]);
  const [held, after] = written.slice(-2);
  assert.equal(held.total_cost_usd, 0.72);
  assert.deepEqual(held.modelUsage, usage(720));
  assert.deepEqual(held.subagent_stats, { completed: 1 });
  assert.deepEqual(held.model_usage_since_last_result, usage(720));
  assert.deepEqual(after.model_usage_since_last_result, {});
  // text: both results' texts; not held without the option (stream-json input)
  const text = output({ format: "text", holdForBackground: true });
  await text.printed.push(encoder.encode(lines.join("\n") + "\n"));
  await text.printed.finish();
  assert.equal(text.out(), "Launched.\n\nDone.\n");
  const duplex = output();
  await duplex.printed.push(encoder.encode(lines.join("\n") + "\n"));
  await duplex.printed.finish();
  assert.deepEqual(duplex.out().trim().split("\n"), lines);
});

Deno.test("PrintOutput: a result held for a background task that no later result follows is written at the end", async () => {
  const running = line({ type: "system", subtype: "background_tasks_changed", tasks: [{}] });
  const stream = output({ holdForBackground: true });
  await stream.printed.push(encoder.encode([init, running, result()].join("\n") + "\n"));
  await stream.printed.finish();
  assert.equal(stream.out(), [init, running, result()].join("\n") + "\n");
  const text = output({ format: "text", holdForBackground: true });
  await text.printed.push(encoder.encode([init, running, result()].join("\n") + "\n"));
  await text.printed.finish();
  assert.equal(text.out(), "Hi!\n");
});
