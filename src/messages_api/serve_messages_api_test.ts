import assert from "node:assert/strict";
import { createServer } from "node:net";
import { text, thinking } from "../builders/assistant.ts";
import { createBuildContext } from "../builders/build_context.ts";
import { bashTool, readTool, taskTool } from "../builders/tools.ts";
import { any } from "../scenario/matcher.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import { scenarioFromJSON } from "../scenario/scenario_from_json.ts";
import { type MessagesApi, serveMessagesApi } from "./serve_messages_api.ts";

type Json = Record<string, unknown>;
const REMINDER = { type: "text", text: "<system-reminder>\nAttribution...\n</system-reminder>\n" };

/** A request body as the real CLI sends it: the prompt after a system reminder, then the turn so far. */
function body(prompt: string, after: Json[] = [], extra: Json = {}): Json {
  return {
    model: "claude-opus-5-5",
    max_tokens: 128000,
    stream: false,
    system: [{
      type: "text",
      text: "x-anthropic-billing-header: cc_version=2.1.328; cc_entrypoint=sdk-ts;",
    }],
    messages: [{ role: "user", content: [REMINDER, { type: "text", text: prompt }] }, ...after],
    ...extra,
  };
}

async function post(api: MessagesApi, payload: unknown, path = "/v1/messages?beta=true") {
  const response = await fetch(`${api.url}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-api-key": "sk-secret",
      "x-claude-code-session-id": "s1",
    },
    body: typeof payload === "string" ? payload : JSON.stringify(payload),
  });
  const type = response.headers.get("content-type") ?? "";
  const raw = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    raw,
    json: type.includes("json") ? parseOr(raw) : undefined,
    events: type.includes("event-stream") ? parseSse(raw) : [],
  };
}

// deno-lint-ignore no-explicit-any
function parseOr(raw: string): any {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

function parseSse(raw: string): Json[] {
  return raw.split("\n\n").filter((s) => s.trim() !== "").map((chunk) => {
    const data = chunk.split("\n").find((l) => l.startsWith("data: "))!.slice(6);
    try {
      return JSON.parse(data);
    } catch {
      return { unparsed: data };
    }
  });
}

const toolResult = (id: string, content: string, isError = false): Json => ({
  role: "user",
  content: [{ type: "tool_result", tool_use_id: id, content, is_error: isError }],
});

function toolScenario(): Scenario {
  return new ScenarioBuilder({ name: "tools", cwd: "/home/user/project" })
    .on("fix")
    .respond([
      text("Reading /home/user/project/a.txt first."),
      (ctx) => readTool(ctx, "/home/user/project/a.txt", { content: "a\n" }),
    ])
    .respond([(ctx) => bashTool(ctx, "touch b.txt", { description: "Create b.txt" })], {})
    .respond("Done.")
    .build();
}

Deno.test("serveMessagesApi streams a reply as the real API does: events, ids, usage, stop reason", async () => {
  await using api = await serveMessagesApi(
    new ScenarioBuilder({ seed: 3 }).on("hello").respond("Hello! How can I help you today?", {
      thinking: "The user greets me.",
      outputTokens: 12,
    }).build(),
  );
  const { status, events, headers } = await post(api, body("hello", [], { stream: true }));
  assert.equal(status, 200);
  assert.match(headers.get("content-type")!, /^text\/event-stream/);
  assert.match(headers.get("request-id")!, /^req_/);
  assert.deepEqual(events.map((e) => e.type), [
    "message_start",
    "ping",
    "content_block_start",
    "content_block_delta",
    "content_block_delta",
    "content_block_stop",
    "content_block_start",
    "content_block_delta",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
  ]);
  const start = events[0].message as Json;
  assert.equal(start.model, "claude-opus-5-5");
  assert.match(String(start.id), /^msg_/);
  assert.deepEqual(start.usage, {
    input_tokens: 120,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: 1,
    service_tier: "standard",
  });
  assert.deepEqual((events[4] as { delta: Json }).delta.type, "signature_delta");
  assert.deepEqual(events[10], {
    type: "message_delta",
    delta: { stop_reason: "end_turn", stop_sequence: null },
    usage: { output_tokens: 12 },
  });
  const said = events.filter((e) => (e.delta as Json | undefined)?.type === "text_delta")
    .map((e) => (e.delta as Json).text).join("");
  assert.equal(said, "Hello! How can I help you today?");
});

Deno.test("serveMessagesApi answers a non-streaming call with the whole message", async () => {
  await using api = await serveMessagesApi(
    new ScenarioBuilder({ model: "claude-sonnet-5-5" }).on(any()).respond([
      thinking("Short.", { signature: "sig_1" }),
      text("Hi."),
    ]).build(),
  );
  const { json } = await post(api, body("hi"));
  assert.equal(json.type, "message");
  assert.equal(json.model, "claude-sonnet-5-5", "the scenario's model, as the mock reports it");
  assert.deepEqual(json.content, [
    { type: "thinking", thinking: "Short.", signature: "sig_1" },
    { type: "text", text: "Hi." },
  ]);
  assert.equal(json.stop_reason, "end_turn");
  assert.equal(json.usage.output_tokens, 3, "9 characters, one token per 4 as the mock counts");
});

Deno.test("serveMessagesApi follows a turn: the continuation after tool results gets the next reply", async () => {
  await using api = await serveMessagesApi(toolScenario(), { cwd: "/tmp/real-project" });
  const first = (await post(api, body("fix it"))).json;
  assert.equal(first.stop_reason, "tool_use");
  assert.equal(
    first.content[0].text,
    "Reading /tmp/real-project/a.txt first.",
    "the scenario's cwd replaced",
  );
  const read = first.content[1];
  assert.deepEqual(read.input, { file_path: "/tmp/real-project/a.txt" });
  const turn = [{ role: "assistant", content: first.content }, toolResult(read.id, "1\ta")];
  const second = (await post(api, body("fix it", turn))).json;
  assert.equal(second.content[0].name, "Bash");
  const third = (await post(
    api,
    body("fix it", [
      ...turn,
      { role: "assistant", content: second.content },
      toolResult(second.content[0].id, "(Bash completed with no output)"),
    ]),
  )).json;
  assert.deepEqual(third.content, [{ type: "text", text: "Done." }]);
  // a retry of the first call (same body) gets the same reply
  const again = (await post(api, body("fix it"))).json;
  assert.deepEqual(again.content, first.content);
  assert.deepEqual(api.journal.map((e) => [e.kind, e.place?.call, e.place?.attempt]), [
    ["conversation", 0, 0],
    ["conversation", 1, 0],
    ["conversation", 2, 0],
    ["conversation", 0, 1],
  ]);
  const entry = api.journal[0];
  assert.equal(entry.method, "POST");
  assert.equal(entry.path, "/v1/messages?beta=true");
  assert.equal(entry.headers["x-api-key"], "<redacted>");
  assert.equal((entry.body as Json).model, "claude-opus-5-5");
  assert.deepEqual(entry.answer, {
    status: 200,
    kind: "reply",
    stream: false,
    blocks: ["text", "tool_use:Read"],
    stopReason: "tool_use",
    messageId: first.id,
  });
  assert.equal(entry.place?.description, 'exchange 1 (contains "fix")');
});

Deno.test("serveMessagesApi takes the ifDenied branch when the CLI sends back an unscripted error", async () => {
  const scenario = scenarioFromJSON({
    exchanges: [{
      on: "touch",
      steps: [
        { bash: { command: "touch out.txt" }, ifDenied: "Understood, I won't." },
        { say: "Done." },
      ],
    }],
  });
  await using api = await serveMessagesApi(scenario);
  const first = (await post(api, body("touch it"))).json;
  const id = first.content[0].id;
  const denied = await post(
    api,
    body("touch it", [
      { role: "assistant", content: first.content },
      toolResult(id, "The user doesn't want to proceed with this tool use.", true),
    ]),
  );
  assert.deepEqual(denied.json.content, [{ type: "text", text: "Understood, I won't." }]);
  assert.match(api.journal[1].place!.step!, /ifDenied of Bash/);
});

Deno.test("serveMessagesApi answers what the scenario does not expect with an API error naming what it expected", async () => {
  await using api = await serveMessagesApi(
    new ScenarioBuilder({ name: "chat" }).on("hello").respond("Hi.").on("weather").respond("Sunny.")
      .build(),
  );
  const unmatched = await post(api, body("bye"));
  assert.equal(unmatched.status, 400);
  assert.deepEqual(Object.keys(unmatched.json), ["type", "error", "request_id"]);
  assert.equal(unmatched.json.type, "error");
  assert.equal(unmatched.json.error.type, "invalid_request_error");
  assert.equal(
    unmatched.json.error.message,
    `claude-mock: no exchange of scenario 'chat' matches the prompt "bye" (turn 1); expected a prompt for exchange 1 (contains "hello"), exchange 2 (contains "weather")`,
  );
  const first = (await post(api, body("hello"))).json;
  const after = await post(
    api,
    body("hello", [
      { role: "assistant", content: first.content },
      {
        role: "user",
        content: [{ type: "text", text: "<system-reminder>go on</system-reminder>" }],
      },
    ]),
  );
  assert.equal(after.status, 400);
  assert.match(
    after.json.error.message,
    /exchange 1 \(contains "hello"\) of scenario 'chat' has no reply for API call 2 of this turn: its steps give 1/,
  );
  const noPrompt = await post(api, { model: "m", messages: [] });
  assert.match(noPrompt.json.error.message, /carries no user prompt/);
  const notJson = await post(api, "{oops");
  assert.match(notJson.json.error.message, /not a JSON object/);
  const unknown = await fetch(`${api.url}/v1/files`);
  assert.equal(unknown.status, 404);
  assert.equal((await unknown.json()).error.type, "not_found_error");
  assert.deepEqual(api.journal.map((e) => e.kind), [
    "conversation",
    "conversation",
    "conversation",
    "conversation",
    "conversation",
    "unknown",
  ]);
});

Deno.test("serveMessagesApi answers the CLI's other endpoints: count_tokens, models, the /api/hello probe", async () => {
  await using api = await serveMessagesApi(new ScenarioBuilder().on(any()).respond("x").build());
  assert.deepEqual((await post(api, body("hi"), "/v1/messages/count_tokens?beta=true")).json, {
    input_tokens: 80,
  });
  const models = await (await fetch(`${api.url}/v1/models`)).json();
  assert.equal(models.data[0].id, "claude-opus-5-5");
  const probe = await fetch(`${api.url}/api/hello`, { method: "HEAD" });
  await probe.body?.cancel();
  assert.equal(probe.status, 200);
  assert.deepEqual(api.journal.map((e) => e.kind), ["count_tokens", "models", "probe"]);
});

Deno.test("serveMessagesApi answers a subagent's calls from the Agent tool use's scripted frames", async () => {
  const scenario = new ScenarioBuilder({ cwd: "/home/user/project" }).on(any())
    .respond([
      text("Delegating."),
      (ctx) =>
        taskTool(ctx, "Summarize notes", {
          prompt: "Summarize notes.txt.",
          result: "The notes say hi.",
          tools: [readTool(ctx, "/home/user/project/notes.txt", { content: "hi\n" })],
        }),
    ])
    .respond("Done.")
    .build();
  await using api = await serveMessagesApi(scenario);
  await post(api, body("go"));
  const subagent = (prompt: string, after: Json[] = []) =>
    body(prompt, after, {
      system: [{ type: "text", text: "x-anthropic-billing-header: cc_is_subagent=true;" }],
    });
  const first = (await post(api, subagent("Summarize notes.txt."))).json;
  assert.equal(first.content[0].name, "Read");
  assert.deepEqual(first.content[0].input, { file_path: "/home/user/project/notes.txt" });
  const report = (await post(
    api,
    subagent("Summarize notes.txt.", [
      { role: "assistant", content: first.content },
      toolResult(first.content[0].id, "1\thi"),
    ]),
  )).json;
  assert.deepEqual(report.content, [{ type: "text", text: "The notes say hi." }]);
  const stranger = await post(api, subagent("Something else."));
  assert.equal(stranger.status, 400);
  assert.match(
    stranger.json.error.message,
    /matches no Agent tool use the scenario served \(expected one of "Summarize notes.txt."\)/,
  );
  assert.deepEqual(api.journal.map((e) => e.kind), [
    "conversation",
    "subagent",
    "subagent",
    "subagent",
  ]);
});

Deno.test("serveMessagesApi answers the CLI's /compact summarisation call from the scenario's compact", async () => {
  await using api = await serveMessagesApi(
    new ScenarioBuilder({ compact: { reply: "no tags", retryReply: "<summary>S</summary>" } })
      .on(any()).respond("x").build(),
  );
  const ask = (extra: string) => ({
    model: "m",
    messages: [
      { role: "user", content: "hello" },
      { role: "assistant", content: [{ type: "text", text: "x" }] },
      {
        role: "user",
        content:
          `CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.\n<summary>...</summary>${extra}`,
      },
    ],
  });
  assert.equal((await post(api, ask(""))).json.content[0].text, "no tags");
  assert.equal((await post(api, ask(" again"))).json.content[0].text, "<summary>S</summary>");
  assert.deepEqual(api.journal.map((e) => e.kind), ["compaction", "compaction"]);
});

Deno.test("serveMessagesApi fails calls at the HTTP level as the named failures say", async (t) => {
  const scenario = scenarioFromJSON({
    exchanges: [
      { on: "limit", steps: [{ failure: "rate_limit", message: "slow down" }] },
      { on: "credit", steps: [{ failure: "out_of_credits" }] },
      { on: "cut", steps: [{ failure: "stream_cut_recovered" }, { say: "Back." }] },
      { on: "broken", steps: [{ failure: "stream_cut" }, { say: "Never." }] },
      { on: "bad line", steps: [{ failure: "malformed_stream" }, { say: "Never." }] },
      { on: "reset", steps: [{ failure: "connection_reset" }] },
      {
        on: "flaky",
        steps: [{ apiError: { status: 529, retries: 1, recovers: true } }, { say: "Up." }],
      },
    ],
  });
  await using api = await serveMessagesApi(scenario, { retryAfterSeconds: 0 });
  await t.step("429 with retry-after and the API's envelope", async () => {
    const r = await post(api, body("limit"));
    assert.equal(r.status, 429);
    assert.equal(r.headers.get("retry-after"), "0");
    assert.deepEqual(r.json.error, { type: "rate_limit_error", message: "slow down" });
    assert.equal(api.journal.at(-1)!.answer!.failure, "rate_limit");
  });
  await t.step("a credit balance 400", async () => {
    const r = await post(api, body("credit"));
    assert.equal(r.status, 400);
    assert.match(r.json.error.message, /credit balance is too low/);
  });
  await t.step(
    "a recovered cut: the stream ends before message_stop, the fallback answers",
    async () => {
      const cut = await post(api, body("cut", [], { stream: true }));
      assert.deepEqual(cut.events.map((e) => e.type), [
        "message_start",
        "ping",
        "content_block_start",
        "content_block_delta",
      ]);
      const fallback = await post(api, body("cut", [], { stream: false, max_tokens: 64000 }));
      assert.deepEqual(fallback.json.content, [{ type: "text", text: "Back." }]);
      assert.deepEqual(api.journal.slice(-2).map((e) => e.answer!.kind), ["cut", "reply"]);
    },
  );
  await t.step("an unrecovered cut: the fallback's body is half a message", async () => {
    await post(api, body("broken", [], { stream: true }));
    const r = await post(api, body("broken"));
    assert.equal(r.status, 200);
    assert.equal(r.json, undefined);
    assert.match(r.raw, /"text":"Hel$/);
  });
  await t.step("a malformed stream: a data line that is not JSON", async () => {
    const r = await post(api, body("bad line", [], { stream: true }));
    assert.deepEqual(r.events[3], { unparsed: "{this is not json" });
    assert.equal(r.events.at(-1)!.type, "message_stop");
    assert.equal((await post(api, body("bad line"))).raw, "this is not json");
  });
  await t.step("a reset connection", async () => {
    await assert.rejects(() => post(api, body("reset")));
    assert.equal(api.journal.at(-1)!.answer!.kind, "reset");
  });
  await t.step("an apiError that recovers after its retries", async () => {
    assert.equal((await post(api, body("flaky"))).status, 529);
    assert.deepEqual((await post(api, body("flaky"))).json.content, [{
      type: "text",
      text: "Up.",
    }]);
  });
});

Deno.test("serveMessagesApi: a hang ends when the server closes, and connection_refused closes the port", async () => {
  const scenario = scenarioFromJSON({
    exchanges: [
      { on: "hang", steps: [{ failure: "request_timeout" }] },
      { on: "down", steps: [{ failure: "connection_refused" }] },
    ],
  });
  const decided = Promise.withResolvers<string | undefined>();
  const api = await serveMessagesApi(scenario, {
    onRequest: (e) => decided.resolve(e.answer?.kind),
  });
  const hanging = post(api, body("hang"));
  hanging.catch(() => {});
  assert.equal(await decided.promise, "hang");
  const down = await serveMessagesApi(scenario);
  await assert.rejects(() => post(down, body("down")));
  await assert.rejects(() => post(down, body("down")), /refused|connect|error/i);
  assert.deepEqual(down.journal.map((e) => e.answer?.kind), ["refused"]);
  await down.close();
  await api.close();
  await assert.rejects(hanging);
});

Deno.test("serveMessagesApi refuses a scenario it cannot serve, and a port in use, with clear errors", async () => {
  const crash = new ScenarioBuilder({ name: "crashy" }).on("x").respond("a").crash().build();
  await assert.rejects(
    () => serveMessagesApi(crash),
    (e: Error) =>
      e instanceof TypeError &&
      e.message ===
        `Cannot serve scenario 'crashy': exchange 1 (contains "x") steps[1] is a crash step (the process dying is the CLI's side: only the mock can script it)`,
  );
  await assert.rejects(() => serveMessagesApi({ exchanges: [], verbatim: true }), /it is verbatim/);
  await assert.rejects(() => serveMessagesApi(null as unknown as Scenario), TypeError);
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  const port = (blocker.address() as { port: number }).port;
  try {
    await assert.rejects(
      () => serveMessagesApi(new ScenarioBuilder().build(), { port }),
      new Error(
        `Cannot serve the Messages API: 127.0.0.1:${port} is in use (EADDRINUSE); pass port 0 for a free one`,
      ),
    );
  } finally {
    await new Promise((resolve) => blocker.close(resolve));
  }
});

Deno.test("serveMessagesApi: a lazy step function is read once per turn and its ids stay stable", async () => {
  let calls = 0;
  const scenario: Scenario = {
    exchanges: [{
      trigger: any(),
      steps: function* (turn) {
        calls++;
        yield { kind: "message", parts: [bashTool(turn.ctx, `echo ${turn.text}`)] };
        yield { kind: "message", parts: [text(`ran for turn ${turn.turn}`)] };
      },
    }],
  };
  await using api = await serveMessagesApi(scenario);
  const first = (await post(api, body("hi"))).json;
  const retry = (await post(api, body("hi"))).json;
  assert.equal(retry.content[0].id, first.content[0].id);
  const next = (await post(
    api,
    body("hi", [
      { role: "assistant", content: first.content },
      toolResult(first.content[0].id, "hi"),
    ]),
  )).json;
  assert.equal(next.content[0].text, "ran for turn 0");
  assert.equal(calls, 1);
  assert.equal(createBuildContext().model, "claude-opus-5-5");
});

Deno.test("serveMessagesApi answers the CLI's session title call without taking an exchange", async () => {
  await using api = await serveMessagesApi(
    new ScenarioBuilder().on("parser").respond("Done.").build(),
  );
  const title = await post(api, {
    model: "claude-opus-5-5",
    max_tokens: 128000,
    tools: [],
    output_config: {
      format: {
        type: "json_schema",
        schema: { type: "object", properties: { title: { type: "string" } }, required: ["title"] },
      },
    },
    messages: [{
      role: "user",
      content: [{
        type: "text",
        text:
          "<session>\nFix the parser module tests, please.\n</session>\n\nWrite the title in the predominant language of the session.",
      }],
    }],
  });
  assert.deepEqual(JSON.parse(title.json.content[0].text), {
    title: "Fix the parser module tests",
  });
  assert.deepEqual((await post(api, body("the parser"))).json.content, [{
    type: "text",
    text: "Done.",
  }]);
  assert.deepEqual(api.journal.map((e) => e.kind), ["title", "conversation"]);
});

Deno.test("serveMessagesApi: the CLI's own continuations (structured-output enforcement, Stop hook feedback) stay in the turn", async () => {
  await using api = await serveMessagesApi(
    new ScenarioBuilder().on("who").respond("No tool yet.").respond("Then this.").respond("Last.")
      .build(),
  );
  const first = (await post(api, body("who?"))).json;
  const turn: Json[] = [{ role: "assistant", content: first.content }];
  const user = (text: string): Json => ({ role: "user", content: [{ type: "text", text }] });
  const enforce = user(
    "[structured-output-enforce] You MUST call the StructuredOutput tool to complete this request. Call this tool now.",
  );
  const second = (await post(api, body("who?", [...turn, enforce]))).json;
  assert.equal(second.content[0].text, "Then this.");
  const feedback = user("Stop hook feedback:\nKeep going please.");
  const third = (await post(
    api,
    body("who?", [...turn, enforce, { role: "assistant", content: second.content }, feedback]),
  )).json;
  assert.equal(third.content[0].text, "Last.");
  assert.deepEqual(api.journal.map((e) => [e.place?.turn, e.place?.call]), [[0, 0], [0, 1], [
    0,
    2,
  ]]);
});

Deno.test("serveMessagesApi counts output tokens on the scenario's content, wherever the CLI runs", async () => {
  const scenario = () =>
    scenarioFromJSON({
      cwd: "/home/user/project",
      exchanges: [{
        on: "go",
        steps: [{ read: { path: "/home/user/project/a.txt", content: "a" } }],
      }],
    });
  const tokens = async (cwd?: string) => {
    await using api = await serveMessagesApi(scenario(), cwd ? { cwd } : {});
    return (await post(api, body("go"))).json.usage.output_tokens;
  };
  const here = await tokens();
  assert.equal(await tokens("/tmp/a/much/longer/working/directory/than/the/scenario/says"), here);
});
