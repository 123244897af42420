// Round trips: builder → scenarioToJSON → JSON text → scenarioFromJSON → scenarioToJSON gives
// the same file, and both scenarios write the same bytes for the same input. Code that a file
// cannot hold is named by its path.
import assert from "node:assert/strict";
import { text, thinking } from "../builders/assistant.ts";
import { Session } from "../session/session.ts";
import type { Frame } from "../wire/frame.ts";
import { any, contains, exact, glob, predicate } from "./matcher.ts";
import type { Scenario } from "./scenario.ts";
import { ScenarioBuilder } from "./scenario_builder.ts";
import { scenarioFromJSON } from "./scenario_from_json.ts";
import { scenarioToJSON } from "./scenario_to_json.ts";
import type { Step } from "./step.ts";

/** The file of `scenario`, checked to survive JSON text and a reload unchanged. */
function roundTrip(scenario: Scenario): Scenario {
  const file = scenarioToJSON(scenario);
  const textForm = JSON.stringify(file);
  const loaded = scenarioFromJSON(JSON.parse(textForm), { source: "round-trip.json" });
  assert.equal(JSON.stringify(scenarioToJSON(loaded)), textForm);
  return loaded;
}

/** What a session writes for `prompts`, each sent after the previous turn's result. */
async function output(scenario: Scenario, prompts: string[], args: string[] = []): Promise<string> {
  const session = new Session(scenario, { args, controlTimeoutMs: 20 });
  const writer = session.writable.getWriter();
  const reader = session.readable.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  const send = (prompt: string) =>
    writer.write(
      JSON.stringify({
        type: "user",
        session_id: "",
        message: { role: "user", content: prompt },
        parent_tool_use_id: null,
      }) + "\n",
    );
  for (const prompt of prompts) {
    await send(prompt);
    const results = resultCount(out);
    while (resultCount(out) === results) {
      const { value, done } = await reader.read();
      if (done) return out;
      out += value;
    }
  }
  await writer.close();
  for (let r = await reader.read(); !r.done; r = await reader.read()) out += r.value;
  await session.exited;
  return out;
}

/** The result frames among the complete lines of `out`. */
function resultCount(out: string): number {
  return out.split("\n").slice(0, -1).filter((line) => {
    try {
      return JSON.parse(line).type === "result";
    } catch {
      return false;
    }
  }).length;
}

async function sameOutput(a: Scenario, b: Scenario, prompts: string[], args?: string[]) {
  const [left, right] = [await output(a, prompts, args), await output(b, prompts, args)];
  assert.equal(right, left);
  return left;
}

const ARGS = ["--output-format", "stream-json", "--verbose", "--input-format", "stream-json"];

/** Every builder method and option that is data. */
function everything(): Scenario {
  return new ScenarioBuilder({
    name: "everything",
    seed: 1234,
    timing: "fast",
    speedFactor: 2,
    model: "claude-sonnet-4-5",
    models: ["claude-test-1"],
    sessionId: "0b9f3a52-6a7e-4a53-9a57-0c1f1a3c9d10",
    cwd: "/home/user/project",
    tools: ["Read", "Write", "Edit", "Bash", "Task", "AskUserQuestion", "mcp__db__query"],
    permissions: { allow: ["Read"], ask: ["Bash(npm test)"], deny: ["Bash(rm:*)"] },
    initialize: { output_style: "default" },
    compact: {
      summary: "S.",
      reply: "<summary>R</summary>",
      retryReply: "again",
      preTokens: 1,
      postTokens: 2,
      durationMs: 3,
      outputTokens: 4,
    },
    exitCode: 0,
  })
    .timing({
      baseMs: 3,
      jitterMs: 2,
      firstFrameMs: 10,
      byType: { stream_event: { baseMs: 1, jitterMs: 1 } },
    })
    .partialMessages(true)
    .onConnect({ type: "system", subtype: "notice", text: "connected" })
    .on("chat", { repeat: true })
    .respond("Hello there.", {
      thinking: "Greet.",
      delay: 5,
      outputTokens: 9,
      chunkSize: 3,
      chunks: [["Gr", "eet."], []],
    })
    .respondDelayed(20, [text("Two "), text("blocks"), thinking("hmm", { signature: "sig_x" })])
    .respond({ type: "redacted_thinking", data: "abc" })
    .respond(text("A block."), { delay: { baseMs: 4, jitterMs: 2 } as unknown as number })
    .on(/^files?\b/i)
    .usesRead("/home/user/project/a.txt", {
      content: "a\n",
      say: "Reading.",
      outputTokens: 4,
      chunkSize: 2,
      delay: 1,
      inputChunks: ['{"file_path":', '"/home/user/project/a.txt"}'],
    })
    .usesRead("/home/user/project/missing.txt", { content: null })
    .usesWrite("/home/user/project/b.txt", { content: "b", permission: "allow" })
    .usesEdit("/home/user/project/a.txt", {
      oldString: "a",
      newString: "A",
      replaceAll: true,
      originalFile: "a\na\n",
      permission: "allow",
    })
    .usesBash("npm test", {
      stdout: "ok",
      stderr: "warn",
      exitCode: 1,
      description: "Run tests",
      permission: "allow",
    })
    .usesBash("rm -rf build", {
      ifDenied: [
        { kind: "message", parts: [text("Not deleting.")] },
        { kind: "delay", ms: 3 },
      ],
    })
    .thenResult({ result: "Files done." })
    .on(exact("task"))
    .usesTask("Summarise", { prompt: "p", result: "r", subagentType: "general-purpose" })
    .usesTool("mcp__db__query", { sql: "select 1" }, {
      result: "1",
      isError: false,
      permission: "allow",
    })
    .usesTogether(
      (tools) =>
        tools.usesRead("/home/user/project/c.txt", { content: "c", permission: "allow" })
          .usesBash("ls", { ifDenied: "No listing.", say: "ls too" })
          .usesWrite("/home/user/project/d.txt", {
            content: "d",
            inputChunks: ['{"file_path":"/home/user/project/d.txt"', ',"content":"d"}'],
          }),
      { say: "Both at once.", outputTokens: 3, delay: 2, chunkSize: 5 },
    )
    .emit({ type: "system", subtype: "custom", n: 1 }, { type: "system", subtype: "custom2" })
    .delay(5)
    .sendRaw("not json {")
    .apiError(529, { message: "Overloaded", retries: 2, retryDelayMs: 10, recovers: true })
    .steps(
      {
        kind: "emit",
        frame: { type: "system", subtype: "delayed" },
        delay: { baseMs: 2, jitterMs: 1 },
      },
      { kind: "emit", frame: { type: "system", subtype: "ms" }, delay: 7 },
      { kind: "message", parts: [text("From steps().")], outputTokens: 2 },
      {
        kind: "message",
        parts: [thinking("t"), text("two parts")],
        chunks: [["t"], ["two ", "parts"]],
      },
      {
        kind: "result",
        options: { subtype: "error_max_turns", errors: ["e1"], terminalReason: "max_turns" },
      },
    )
    .on(glob("ask *"))
    .times(2)
    .usesAskUserQuestion([
      {
        question: "Q?",
        header: "H",
        options: ["a", { label: "b", description: "B" }],
        multiSelect: true,
      },
    ], { say: "Asking.", ifDenied: "Fine." })
    .thenResult({
      subtype: "success",
      result: "R",
      terminalReason: "completed",
      stopReason: "end_turn",
      totalCostUsd: 0.5,
      extra: { custom: 1 },
    })
    .on(contains("fail"))
    .timing("instant")
    .respond("Working.")
    .failure("stream_cut_recovered")
    .respond("Recovered.")
    .failure("max_budget")
    .failure("rate_limit", { message: "slow down" })
    .apiError(500, { message: "boom" })
    .on(any())
    .repeat()
    .thenResult({
      subtype: "error_during_execution",
      errors: ["nothing matched"],
      stopReason: null,
    })
    .onUnmatched([{ kind: "message", parts: [text("unreachable")] }])
    .build();
}

Deno.test("round trip: every builder method and option, same file and same bytes", async () => {
  const original = everything();
  const loaded = roundTrip(original);
  const out = await sameOutput(original, loaded, [
    "chat",
    "files please",
    "task",
    "ask me",
    "please fail",
    "/compact",
    "other",
  ], ARGS);
  for (
    const expected of [
      "Hello there.",
      "Not deleting.",
      "Both at once.",
      "not json {",
      "Recovered.",
      "slow down",
      "Summary:\\nR",
    ]
  ) {
    assert.ok(out.includes(expected), `the output has ${expected}`);
  }
  // the same prompts with the SDK's permission prompt tool: the asked tools go to the client
  await sameOutput(original, loaded, ["files", "task", "ask it"], [
    ...ARGS,
    "--permission-prompt-tool",
    "stdio",
  ]);
});

Deno.test("round trip: the rest (reply, crash, exit, waits, requests, raw blocks, triggers)", async () => {
  const tail = new ScenarioBuilder({ name: "rest", seed: 5 })
    .onConnect({ type: "system", subtype: "a" }, { type: "system", subtype: "b" })
    .on("wait", { repeat: false })
    .waitForWrite("go on", { timeoutMs: 50 })
    .waitForWrite(/ok/)
    .steps({ kind: "request", request: { subtype: "elicitation", message: "hi" }, timeoutMs: 40 })
    .respond([
      { type: "tool_use", id: "toolu_fixed", name: "Read", input: { file_path: "/x" } },
      text("after"),
    ])
    .on("stop")
    .respond("Stopping.")
    .exit(3)
    .onUnmatched({ reply: "Sorry?" })
    .withExitCode(2)
    .crashAfter(40, 9)
    .build();
  const loaded = roundTrip(tail);
  assert.deepEqual(scenarioToJSON(loaded).unmatched, { reply: "Sorry?" });
  await sameOutput(tail, loaded, ["hello", "stop"]);
  const crash = new ScenarioBuilder({ seed: 1 }).on("x").respond("One.").respond("Two.")
    .crashAfter(3).build();
  await sameOutput(crash, roundTrip(crash), ["x"]);
});

Deno.test("round trip: a bigint seed is saved as a number and runs the same", async () => {
  const original = new ScenarioBuilder({ seed: 99n }).on("hi").usesBash("ls").respond("Hi.")
    .build();
  const file = scenarioToJSON(original);
  assert.equal(file.seed, 99);
  await sameOutput(original, roundTrip(original), ["hi"]);
  assert.throws(
    () => scenarioToJSON(new ScenarioBuilder({ seed: 2n ** 64n }).build()),
    (e: Error) =>
      e instanceof RangeError &&
      /'seed' is the bigint 18446744073709551616, beyond the safe integers/.test(e.message),
  );
});

Deno.test("round trip: a scenario made by hand (no builder) saves from its fields", async () => {
  const scenario: Scenario = {
    name: "hand",
    exchanges: [{
      trigger: contains("hi"),
      steps: [
        { kind: "message", parts: [text("Hello by hand.")] },
        { kind: "waitForWrite", matcher: exact("x"), timeoutMs: 10 },
      ],
      maxMatches: 2,
    }],
    unmatched: [{ kind: "raw", line: "?" }],
  };
  const file = scenarioToJSON(scenario);
  assert.deepEqual(file.exchanges?.[0].steps, [
    { say: "Hello by hand." },
    { waitFor: { exact: "x" }, timeoutMs: 10 },
  ]);
  await sameOutput(scenario, roundTrip(scenario), ["hi"]);
});

Deno.test("the file is canonical: keys in a fixed order, defaults left out", () => {
  const file = scenarioToJSON(
    new ScenarioBuilder({ name: "c" }).on("x").usesBash("ls", {
      inputChunks: ["{}"],
      permission: "ask",
      say: "Listing.",
    }).build(),
  );
  assert.equal(
    JSON.stringify(file),
    '{"$schema":"https://jsr.io/@x/claude-mock/0.1.0/src/scenario/scenario.schema.json","name":"c","exchanges":' +
      '[{"on":"x","steps":[{"bash":{"command":"ls"},"say":"Listing.","permission":"ask",' +
      '"inputChunks":["{}"]}]}]}',
  );
});

/** Scenarios with code, and the path and words of the error. */
const CODE: Array<[string, () => Scenario, RegExp]> = [
  [
    "a predicate trigger",
    () => new ScenarioBuilder({ name: "x" }).on("a").respond("A").on((t) => t === "b").build(),
    /^Cannot save scenario 'x' as JSON: 'exchanges\[1\]\.trigger' is a predicate \(code\), which a file cannot hold$/,
  ],
  [
    "a named predicate",
    () => new ScenarioBuilder().on(predicate(() => true, "always")).build(),
    /'exchanges\[0\]\.trigger' is a predicate \(code\)/,
  ],
  [
    "a custom Matcher",
    () => new ScenarioBuilder().on({ kind: "mine", description: "mine", test: () => true }).build(),
    /'exchanges\[0\]\.trigger' is a custom Matcher \(kind "mine"\) \(code\)/,
  ],
  [
    "a lazy exchange",
    () => new ScenarioBuilder().onLazy("a", function* () {}).build(),
    /'exchanges\[0\]\.steps' is a step function \(code\)/,
  ],
  [
    "an ifDenied function",
    () => new ScenarioBuilder().on("a").usesBash("ls", { ifDenied: function* () {} }).build(),
    /'exchanges\[0\]\.steps\[0\]\.ifDenied' is a step function \(code\)/,
  ],
  [
    "a function in together's ifDenied",
    () =>
      new ScenarioBuilder().on("a").usesTogether((t) =>
        t.usesBash("ls").usesBash("rm", { ifDenied: () => [] })
      ).build(),
    /'exchanges\[0\]\.steps\[0\]\.together\[1\]\.ifDenied' is a step function \(code\)/,
  ],
  [
    "an unmatched function",
    () => new ScenarioBuilder().onUnmatched(() => []).build(),
    /'unmatched' is a function \(code\)/,
  ],
  [
    "an emit frame function",
    () =>
      new ScenarioBuilder().on("a").steps({
        kind: "emit",
        frame: () => ({ type: "system" }),
      }).build(),
    /'exchanges\[0\]\.steps\[0\]\.frame' is a frame function \(code\)/,
  ],
  [
    "a request callback",
    () =>
      new ScenarioBuilder().on("a").steps({
        kind: "request",
        request: { subtype: "x" },
        onResponse: () => {},
      }).build(),
    /'exchanges\[0\]\.steps\[0\]\.onResponse' is a callback \(code\)/,
  ],
  [
    "a message part function",
    () => new ScenarioBuilder().on("a").respond(() => text("lazy")).build(),
    /'exchanges\[0\]\.steps\[0\]\.say\[0\]' is a message part function \(code\)/,
  ],
  [
    "a function inside a frame",
    () => new ScenarioBuilder().on("a").emit({ type: "system", make: () => 1 } as Frame).build(),
    /'exchanges\[0\]\.steps\[0\]\.frame\.make' is a function \(code\)/,
  ],
  [
    "a class instance inside a frame",
    () => new ScenarioBuilder().on("a").emit({ type: "system", at: new Date(0) }).build(),
    /'exchanges\[0\]\.steps\[0\]\.frame\.at' is a Date object, which a file cannot hold/,
  ],
  [
    "a message id on a step object",
    () =>
      new ScenarioBuilder().on("a").steps(
        { kind: "message", parts: [text("x")], messageId: "msg_1" } as Step,
      ).build(),
    /'exchanges\[0\]\.steps\[0\]\.messageId' is set on a message step given as an object/,
  ],
];

for (const [what, make, message] of CODE) {
  Deno.test(`scenarioToJSON names code a file cannot hold: ${what}`, () => {
    assert.throws(() => scenarioToJSON(make()), (error: Error) => {
      assert.ok(error instanceof TypeError, String(error));
      assert.match(error.message, message);
      return true;
    });
  });
}

Deno.test("a task step's subagent tools: read from a file, saved back, errors named where they are", () => {
  const file = {
    name: "sub",
    exchanges: [{
      on: "go",
      steps: [{
        task: {
          description: "Look",
          prompt: "Look at a.",
          result: "Seen.",
          tools: [
            { read: { path: "/home/user/project/a.txt", content: "a" } },
            { bash: { command: "ls", stdout: "a.txt" } },
          ],
        },
      }],
    }],
  };
  const scenario = scenarioFromJSON(file);
  assert.deepEqual(scenarioToJSON(scenario).exchanges?.[0].steps, file.exchanges[0].steps);
  const bad = structuredClone(file) as unknown as {
    exchanges: Array<{ steps: Array<{ task: { tools: unknown[] } }> }>;
  };
  bad.exchanges[0].steps[0].task.tools[1] = { say: "hi" };
  assert.throws(
    () => scenarioFromJSON(bad),
    /exchanges\[0\]\.steps\[0\]\.task\.tools\[1\]' must be a tool step/,
  );
});

Deno.test("untilInterrupt: a subagent's tool step keeps it through the file, and a non-boolean is refused where it is", () => {
  const scenario = new ScenarioBuilder({ name: "wait" })
    .on("wait")
    .usesTask("Wait", {
      prompt: "Sleep.",
      result: "Slept.",
      tools: (t) => t.usesBash("sleep 5", { stdout: "", untilInterrupt: true }),
    })
    .build();
  const file = scenarioToJSON(scenario) as { exchanges: { steps: unknown[] }[] };
  const task = (file.exchanges[0].steps[0] as { task: { tools: unknown[] } }).task;
  assert.deepEqual(task.tools[0], {
    bash: { command: "sleep 5", stdout: "" },
    untilInterrupt: true,
  });
  const back = scenarioToJSON(scenarioFromJSON(file));
  assert.deepEqual(back, file);
  const bad = structuredClone(file);
  (bad.exchanges[0].steps[0] as { task: { tools: Record<string, unknown>[] } }).task.tools[0]
    .untilInterrupt = "yes";
  assert.throws(
    () => scenarioFromJSON(bad),
    (e: Error) =>
      e instanceof TypeError &&
      /exchanges\[0\]\.steps\[0\]\.task\.tools\[0\]\.untilInterrupt/.test(e.message) &&
      /boolean/.test(e.message),
  );
  assert.throws(
    () =>
      new ScenarioBuilder().on("x").usesBash("sleep 5", {
        untilInterrupt: "yes" as unknown as boolean,
      }),
    /options\.untilInterrupt to be a boolean, got a string/,
  );
});

Deno.test("runInBackground: a task step keeps it through the file; a non-boolean is refused where it is", () => {
  const scenario = new ScenarioBuilder({ name: "bg" })
    .on("check")
    .usesTask("Check", { prompt: "Check.", result: "Fine.", runInBackground: true })
    .build();
  const file = scenarioToJSON(scenario) as { exchanges: { steps: unknown[] }[] };
  const task = (file.exchanges[0].steps[0] as { task: Record<string, unknown> }).task;
  assert.equal(task.runInBackground, true);
  assert.deepEqual(scenarioToJSON(scenarioFromJSON(file)), file);
  const bad = structuredClone(file);
  (bad.exchanges[0].steps[0] as { task: Record<string, unknown> }).task.runInBackground = 1;
  assert.throws(
    () => scenarioFromJSON(bad),
    /exchanges\[0\]\.steps\[0\]\.task\.runInBackground/,
  );
  assert.throws(
    () =>
      new ScenarioBuilder().on("x").usesTask("Check", {
        prompt: "Check.",
        result: "Fine.",
        runInBackground: "yes" as unknown as boolean,
      }),
    /options\.runInBackground/,
  );
});
