// Scenario files: the example files run through the real SDK, and the JSON Schema agrees with
// the loader (every example validates; every bad file fails both, the loader naming the path).
import assert from "node:assert/strict";
import { query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import Ajv2020 from "ajv/dist/2020.js";
import { loadScenario, MockTransport, PermissionRecorder, scenarioFromJSON } from "../mod.ts";
import { scenarioToJSON } from "../scenario_file.ts";
import { kinds, promptStream, runQuery } from "./_sdk.ts";

type Loose = Record<string, unknown>;
const EXAMPLES = new URL("../examples/scenarios/", import.meta.url);
const SCHEMA = new URL("../src/scenario/scenario.schema.json", import.meta.url);
const example = (name: string) => loadScenario(new URL(name, EXAMPLES));
const last = (messages: SDKMessage[]) => messages.at(-1) as unknown as Loose;
const texts = (messages: SDKMessage[]) =>
  messages.flatMap((m) =>
    m.type === "assistant"
      ? (m.message.content as Array<{ type: string; text?: string }>)
        .filter((b) => b.type === "text").map((b) => b.text)
      : []
  );

/** Runs prompts through the SDK, each after the previous turn's result. */
async function converse(mock: MockTransport, prompts: string[]): Promise<SDKMessage[]> {
  let seen = 0;
  const waiters: Array<() => void> = [];
  const resultSeen = () =>
    new Promise<void>((resolve) => {
      if (seen > 0) {
        seen--;
        resolve();
      } else waiters.push(resolve);
    });
  const messages: SDKMessage[] = [];
  const prompt = promptStream(prompts, resultSeen);
  for await (const m of query({ prompt, options: { spawnClaudeCodeProcess: mock.spawn } })) {
    messages.push(m);
    if (m.type === "result") {
      const w = waiters.shift();
      if (w) w();
      else seen++;
    }
  }
  return messages;
}

Deno.test("chat.json: regex, contains and exact triggers, the unmatched reply", async () => {
  const scenario = await example("chat.json");
  const messages = await converse(new MockTransport(scenario), [
    "Hello there",
    "what's the weather?",
    "something else",
    "hi again",
    "bye",
  ]);
  const results = messages.filter((m) => m.type === "result") as unknown as Loose[];
  assert.deepEqual(results.map((r) => r.result), [
    "Hello! How can I help you today?",
    "I cannot look outside, but I can read your forecast file.",
    "Sorry, I did not understand that.",
    "Hello! How can I help you today?",
    "Goodbye!",
  ]);
  const init = messages.find((m) =>
    m.type === "system" && m.subtype === "init"
  ) as unknown as Loose;
  assert.equal(init.model, "claude-sonnet-4-5");
});

Deno.test("tools_permissions.json: rules, asked tools and both kinds of ifDenied", async (t) => {
  await t.step("everything allowed: read, edit, bash, then the summary", async () => {
    const permissions = PermissionRecorder.allowAll();
    const mock = new MockTransport(await example("tools_permissions.json"));
    const { messages, error } = await runQuery(mock, "fix the add test", {
      canUseTool: permissions.canUseTool,
    });
    assert.equal(error, undefined);
    permissions.assertAsked("Edit", 1);
    permissions.assertAsked("Bash", 1);
    permissions.assertNotAsked("Read");
    const tools = messages.flatMap((m) =>
      m.type === "assistant"
        ? (m.message.content as Array<{ type: string; name?: string }>)
          .filter((b) => b.type === "tool_use").map((b) => b.name)
        : []
    );
    assert.deepEqual(tools, ["Read", "Edit", "Bash"]);
    assert.equal(last(messages).result, "Fixed: add() now adds, and all 4 tests pass.");
  });
  await t.step("Bash denied: the ifDenied reply ends the turn", async () => {
    const permissions = PermissionRecorder.allowAll().deny("Bash", "not now");
    const mock = new MockTransport(await example("tools_permissions.json"));
    const { messages } = await runQuery(mock, "fix the add test", {
      canUseTool: permissions.canUseTool,
    });
    assert.deepEqual(texts(messages).slice(-1), ["I will not run the tests then."]);
    assert.equal(last(messages).subtype, "success");
    assert.equal(last(messages).result, "I will not run the tests then.");
    assert.equal((last(messages).permission_denials as unknown[]).length, 1);
  });
  await t.step("a deny rule inside together: that tool's own ifDenied reply", async () => {
    const mock = new MockTransport(await example("tools_permissions.json"));
    const { messages } = await runQuery(mock, "clean up", {
      canUseTool: PermissionRecorder.allowAll().canUseTool,
    });
    assert.equal(last(messages).result, "Deleting build/ was refused, so I stopped.");
    assert.equal((last(messages).permission_denials as unknown[]).length, 1);
  });
});

Deno.test("partial_streaming.json: thinking and text stream in the file's chunks, tool input too", async () => {
  const mock = new MockTransport(await example("partial_streaming.json"));
  const { messages, error } = await runQuery(mock, "anything at all", {
    canUseTool: PermissionRecorder.allowAll().canUseTool,
  });
  assert.equal(error, undefined);
  const deltas = messages.flatMap((m) =>
    m.type === "stream_event" && m.event.type === "content_block_delta" ? [m.event.delta] : []
  ) as Array<{ type: string; text?: string; thinking?: string; partial_json?: string }>;
  const text = deltas.filter((d) => d.type === "text_delta").map((d) => d.text);
  // the tool's message: its text in 4-character pieces, its input in the file's pieces
  assert.deepEqual(text.slice(0, 5), ["Writ", "ing ", "hell", "o.tx", "t."]);
  assert.deepEqual(
    deltas.filter((d) => d.type === "input_json_delta").map((d) => d.partial_json),
    ['{"file_path":"/home/user/project/hello.txt"', ',"content":"hi"}'],
  );
  // the reply after the tool ran: thinking and text in the file's chunks
  assert.deepEqual(
    deltas.filter((d) => d.type === "thinking_delta").map((d) => d.thinking),
    ["The file ", "is written."],
  );
  assert.deepEqual(text.slice(5), ["Wro", "te hello", ".txt."]);
  assert.equal(last(messages).result, "Wrote hello.txt.");
});

Deno.test("api_error.json: retries that recover, and a failure the SDK throws", async (t) => {
  await t.step("recovers after two api_retry messages", async () => {
    const { messages, error } = await runQuery(
      new MockTransport(await example("api_error.json")),
      "flaky",
    );
    assert.equal(error, undefined);
    assert.equal(kinds(messages).filter((k) => k === "system/api_retry").length, 2);
    assert.equal(last(messages).result, "Got through after two retries.");
  });
  await t.step("fails: retried as the client says, then the status's error", async () => {
    const { messages, error } = await runQuery(
      new MockTransport(await example("api_error.json")),
      "down",
      { env: { CLAUDE_CODE_MAX_RETRIES: "1" } },
    );
    assert.equal(kinds(messages).filter((k) => k === "system/api_retry").length, 1);
    assert.equal(last(messages).is_error, true);
    assert.match(String(last(messages).result), /^API Error: 500 Internal server error/);
    assert.match(String(error), /API Error: 500/);
  });
});

Deno.test("failures.json: named failures as the real CLI goes through them, and /compact", async (t) => {
  const env = { CLAUDE_CODE_MAX_RETRIES: "2" };
  await t.step(
    "rate_limit: two api_retry messages, then the SDK throws the CLI's text",
    async () => {
      const { messages, error } = await runQuery(
        new MockTransport(await example("failures.json")),
        "limit",
        { env },
      );
      assert.equal(kinds(messages).filter((k) => k === "system/api_retry").length, 2);
      assert.equal(last(messages).api_error_status, 429);
      assert.equal(
        String(error?.message),
        "Claude Code returned an error result: API Error: Request rejected (429) · Number of request tokens has exceeded your per-minute rate limit",
      );
    },
  );
  await t.step("connection_refused: no status, api_error connection_failed", async () => {
    const { messages } = await runQuery(
      new MockTransport(await example("failures.json")),
      "offline",
      { env: { CLAUDE_CODE_MAX_RETRIES: "0" } },
    );
    assert.deepEqual(kinds(messages).slice(1), ["assistant", "result/success"]);
    assert.equal(last(messages).api_error_status, null);
    assert.equal(last(messages).api_error, "connection_failed");
  });
  await t.step("stream_cut_recovered: one retry, then the fallback's reply", async () => {
    const { messages, error } = await runQuery(
      new MockTransport(await example("failures.json")),
      "flaky",
      { env },
    );
    assert.equal(error, undefined);
    assert.equal(last(messages).result, "Got through on the fallback.");
  });
  await t.step("max_budget: the reply, then error_max_budget_usd", async () => {
    const { messages, error } = await runQuery(
      new MockTransport(await example("failures.json")),
      "expensive",
      { maxBudgetUsd: 0.5 },
    );
    assert.equal(last(messages).subtype, "error_max_budget_usd");
    assert.deepEqual(last(messages).errors, ["Reached maximum budget ($0.5)"]);
    assert.match(String(error), /Reached maximum budget/);
  });
  await t.step("/compact: the scripted summary in the compaction message", async () => {
    const messages = await converse(new MockTransport(await example("failures.json")), [
      "flaky",
      "/compact",
    ]);
    const summary = messages.find((m) =>
      m.type === "user" && (m as unknown as { isSynthetic?: boolean }).isSynthetic
    ) as unknown as { message: { content: string } };
    assert.match(
      summary.message.content,
      /\nSummary:\nThe user asked about rate limits; nothing else happened\.\n/,
    );
    assert.equal(last(messages).local_command, "compact");
  });
});

Deno.test("subagent_questions.json: a question the app answers, then a subagent", async () => {
  const permissions = new PermissionRecorder().respond("AskUserQuestion", (input) => ({
    behavior: "allow",
    updatedInput: { ...input, answers: { "Which version bump?": "minor" } },
  }));
  const mock = new MockTransport(await example("subagent_questions.json"));
  const { messages, error } = await runQuery(mock, "plan the release", {
    canUseTool: permissions.canUseTool,
  });
  assert.equal(error, undefined);
  permissions.assertAsked("AskUserQuestion", 1);
  const answer = messages.find((m) => m.type === "user" && "tool_use_result" in m) as unknown as {
    message: { content: Array<{ content: string }> };
  };
  assert.match(answer.message.content[0].content, /"Which version bump\?"="minor"/);
  assert.equal(last(messages).result, "The changelog is drafted: 3 fixes and 1 feature.");
});

// ---- the schema --------------------------------------------------------------------------

const schema = JSON.parse(await Deno.readTextFile(SCHEMA));
// ajv is CommonJS: its class is the default export's `default`.
const ajv = new Ajv2020.default({ allErrors: true, strict: true });
const validate = ajv.compile(schema);

Deno.test("the schema compiles (draft 2020-12) and describes every key", () => {
  assert.equal(schema.$schema, "https://json-schema.org/draft/2020-12/schema");
  const missing: string[] = [];
  const walk = (node: unknown, path: string) => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${path}[${i}]`));
    if (typeof node !== "object" || node === null) return;
    const o = node as Loose;
    if (o.properties && typeof o.properties === "object") {
      for (const [key, value] of Object.entries(o.properties as Loose)) {
        if (value !== false && !(value as Loose).description) missing.push(`${path}.${key}`);
      }
    }
    for (const [key, value] of Object.entries(o)) walk(value, `${path}.${key}`);
  };
  walk(schema, "");
  assert.deepEqual(missing, []);
});

Deno.test("every example file validates against the schema and loads", async () => {
  const names: string[] = [];
  for await (const entry of Deno.readDir(EXAMPLES)) {
    if (entry.name.endsWith(".json")) names.push(entry.name);
  }
  assert.ok(names.length >= 4);
  for (const name of names.sort()) {
    const data = JSON.parse(await Deno.readTextFile(new URL(name, EXAMPLES)));
    assert.equal(data.$schema, "../../src/scenario/scenario.schema.json", name);
    assert.ok(validate(data), `${name}: ${ajv.errorsText(validate.errors)}`);
    const scenario = await example(name);
    // What the loader made saves back as a file the schema accepts.
    const saved = scenarioToJSON(scenario);
    assert.ok(validate(saved), `${name} saved: ${ajv.errorsText(validate.errors)}`);
    assert.deepEqual(scenarioToJSON(scenarioFromJSON(saved)), saved);
  }
});

/** Bad files: each fails the schema, and the loader with an error naming the path. */
const BAD: Array<[string, unknown, RegExp]> = [
  [
    "a misspelt failure name",
    { exchanges: [{ on: "x", steps: [{ failure: "rate_limt" }] }] },
    /'exchanges\[0\]\.steps\[0\]\.failure' is not a failure name: "rate_limt" \(did you mean 'rate_limit'\?\)/,
  ],
  [
    "a failure name that is not a string",
    { exchanges: [{ on: "x", steps: [{ failure: 529 }] }] },
    /'exchanges\[0\]\.steps\[0\]\.failure' must be a failure name, got a number/,
  ],
  [
    "a compact option of the wrong type",
    { compact: { preTokens: -1 }, exchanges: [] },
    /'compact\.preTokens' must be an integer >= 0, got -1/,
  ],
  [
    "a misspelt compact option",
    { compact: { sumary: "x" }, exchanges: [] },
    /'compact\.sumary' is not a compact field \(did you mean 'summary'\?\)/,
  ],
  [
    "a step field of the wrong type",
    { name: "deploy", exchanges: [{ on: "x", steps: [{ read: { path: 42, content: "" } }] }] },
    /^Cannot load scenario 'deploy': 'exchanges\[0\]\.steps\[0\]\.read\.path' must be a non-empty string, got a number \(in bad\.json\)$/,
  ],
  [
    "a misspelt top-level key",
    { name: "x", speedfactor: 2, exchanges: [] },
    /'speedfactor' is not a scenario file field \(did you mean 'speedFactor'\?\)/,
  ],
  [
    "a misspelt step option",
    { exchanges: [{ on: "x", steps: [{ bash: { command: "ls" }, permision: "ask" }] }] },
    /'exchanges\[0\]\.steps\[0\]\.permision' is not a field of 'bash' steps \(did you mean 'permission'\?\)/,
  ],
  [
    "two actions in one step",
    {
      exchanges: [{
        on: "x",
        steps: [{ read: { path: "/a", content: "" }, bash: { command: "ls" } }],
      }],
    },
    /'exchanges\[0\]\.steps\[0\]' has both 'read' and 'bash'/,
  ],
  [
    "a step without an action",
    { exchanges: [{ on: "x", steps: [{ thinking: "hm" }] }] },
    /'exchanges\[0\]\.steps\[0\]' is not a field of 'say' steps|must have one of the step keys/,
  ],
  [
    "a negative delay",
    { exchanges: [{ on: "x", steps: [{ delay: -1 }] }] },
    /'exchanges\[0\]\.steps\[0\]\.delay' must be a finite number >= 0, got -1/,
  ],
  [
    "a permission out of its set",
    {
      exchanges: [{
        on: "x",
        steps: [{ write: { path: "/a", content: "" }, permission: "maybe" }],
      }],
    },
    /'exchanges\[0\]\.steps\[0\]\.permission' must be one of 'allow', 'ask', 'deny', got "maybe"/,
  ],
  [
    "a trigger with two matchers",
    { exchanges: [{ on: { exact: "a", glob: "b" }, steps: [] }] },
    /'exchanges\[0\]\.on' must have exactly one of contains, exact, regex, glob, any, got exact and glob/,
  ],
  [
    "an exchange without a trigger",
    { exchanges: [{ steps: [] }] },
    /'exchanges\[0\]\.on' must be a trigger, got undefined/,
  ],
  [
    "an API error status out of range",
    { exchanges: [{ on: "x", steps: [{ apiError: { status: 200 } }] }] },
    /'exchanges\[0\]\.steps\[0\]\.apiError\.status' must be an integer from 400 to 599, got 200/,
  ],
  [
    "a result subtype out of its set",
    { exchanges: [{ on: "x", steps: [{ result: { subtype: "failed" } }] }] },
    /'exchanges\[0\]\.steps\[0\]\.result\.subtype' must be one of 'success'/,
  ],
  [
    "a say step in onConnect",
    { onConnect: [{ say: "hi" }], exchanges: [] },
    /'onConnect\[0\]' is a 'say' step; onConnect runs only emit, raw and delay steps/,
  ],
  [
    "a raw line with a newline",
    { exchanges: [{ on: "x", steps: [{ raw: "a\nb" }] }] },
    /'exchanges\[0\]\.steps\[0\]\.raw' must be a single line/,
  ],
  [
    "an ifDenied step of the wrong shape",
    {
      exchanges: [{
        on: "x",
        steps: [{ bash: { command: "ls" }, ifDenied: [{ exit: 300 }] }],
      }],
    },
    /'exchanges\[0\]\.steps\[0\]\.ifDenied\[0\]\.exit' must be an integer from 0 to 255, got 300/,
  ],
  [
    "a non-tool step in together",
    { exchanges: [{ on: "x", steps: [{ together: [{ say: "hi" }] }] }] },
    /'exchanges\[0\]\.steps\[0\]\.together\[0\]' must be a tool step with one of read/,
  ],
  [
    "a timing with a bad jitter",
    { timing: { baseMs: 10, jitterMs: -5 }, exchanges: [] },
    /'timing\.jitterMs' must be a finite number >= 0, got -5/,
  ],
  [
    'an unmatched string that is not "error" or "warn"',
    { unmatched: "Sorry?", exchanges: [] },
    /'unmatched' must be "error", "warn", a \{reply\} object or an array of steps, got the string "Sorry\?" \(to answer with a text, write \{"reply": "Sorry\?"\}\)/,
  ],
  [
    "a crashAfter without a placement",
    { crashAfter: { code: 2 }, exchanges: [] },
    /'crashAfter' must have one of frames, assistantMessages, beforeToolResult, midStream, got none/,
  ],
  [
    "a crashAfter with two placements",
    { crashAfter: { frames: 3, midStream: 2 }, exchanges: [] },
    /'crashAfter' has both 'frames' and 'midStream': a crash has one place/,
  ],
  [
    "a crashAfter beforeToolResult of 0",
    { crashAfter: { beforeToolResult: 0 }, exchanges: [] },
    /'crashAfter\.beforeToolResult' must be true or an integer >= 1, got 0/,
  ],
  [
    "a crash step with two places",
    {
      exchanges: [{
        on: "x",
        steps: [{ crash: { midStream: 2, beforeToolResult: true } }, { say: "a" }],
      }],
    },
    /'exchanges\[0\]\.steps\[0\]' has both 'midStream' and 'beforeToolResult'/,
  ],
  [
    "a misspelt crash field",
    { exchanges: [{ on: "x", steps: [{ crash: { midstream: 2 } }] }] },
    /'exchanges\[0\]\.steps\[0\]\.crash\.midstream' is not a crash field \(did you mean 'midStream'\?\)/,
  ],
  [
    "a question without choices",
    {
      exchanges: [{
        on: "x",
        steps: [{ askUserQuestion: { questions: [{ question: "Q?", header: "Q", options: [] }] } }],
      }],
    },
    /'exchanges\[0\]\.steps\[0\]\.askUserQuestion\.questions\[0\]\.options' must have at least one choice/,
  ],
  [
    "permission on askUserQuestion",
    {
      exchanges: [{
        on: "x",
        steps: [{
          askUserQuestion: { questions: [{ question: "Q?", header: "Q", options: ["a"] }] },
          permission: "ask",
        }],
      }],
    },
    /'exchanges\[0\]\.steps\[0\]\.permission' is not a field of 'askUserQuestion' steps/,
  ],
];

for (const [what, data, message] of BAD) {
  Deno.test(`a bad file fails the schema and the loader: ${what}`, () => {
    assert.equal(validate(data), false, `the schema accepted ${JSON.stringify(data)}`);
    assert.throws(() => scenarioFromJSON(data, { source: "bad.json" }), (error: Error) => {
      assert.ok(error instanceof TypeError || error instanceof RangeError, String(error));
      assert.match(error.message, message);
      assert.match(error.message, /\(in bad\.json\)$/);
      return true;
    });
  });
}
