// Errors that say what failed, why and where, and waits that end (issue 21, items 8 and 9):
// a bad --settings, a tool input nested beyond the product's limit, an `initialize` that is not JSON data, and a
// scenario URL whose server never answers.
import assert from "node:assert/strict";
import { loadScenario, MockTransport, type Scenario, ScenarioBuilder } from "../mod.ts";
import { Session } from "../session.ts";
import { runFake } from "./_fake_cli.ts";
import { runQuery } from "./_sdk.ts";
import { fromFileUrl } from "./_paths.ts";

const ROOT = fromFileUrl(new URL("..", import.meta.url));

const fake = (argv: string[], dir: string) => runFake(argv, dir);

// ---- --settings ---------------------------------------------------------------------------

Deno.test("--settings that is not JSON is a settings file that is not there, as for the real CLI", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const rec = JSON.parse(
      await Deno.readTextFile(`${ROOT}tests/fixtures/real/print_faults/settings_not_json.json`),
    );
    const r = await fake(["-p", "hi", "--settings", "{not json"], dir);
    assert.deepEqual([r.code, r.stdout], [rec.exit_code, rec.stdout]);
    assert.equal(
      r.stderr,
      rec.stderr.replace("/home/user/project", dir),
      "the real CLI's text, with this run's cwd",
    );
    // a settings file is read, and its rules apply
    await Deno.writeTextFile(`${dir}/s.json`, '{"permissions":{"deny":["Bash"]}}');
    const ok = await fake(["-p", "hi", "--settings", "s.json", "--output-format", "json"], dir);
    assert.equal(ok.code, 0, ok.stderr);
    await Deno.writeTextFile(`${dir}/bad.json`, "{oops");
    const bad = await fake(["-p", "hi", "--settings", "bad.json"], dir);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /^Error: Settings file .*bad\.json is not valid JSON: /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a session given --settings it cannot read fails at its start, naming --settings", () => {
  const scenario = new ScenarioBuilder().on("hi").respond("Hi.").build();
  assert.throws(
    () => new Session(scenario, { args: ["--settings", "{not json"] }),
    (error: Error) =>
      error instanceof SyntaxError &&
      /^Cannot start a session: Cannot read --settings: not valid JSON \(/.test(error.message),
  );
  // fields of the wrong type do not fail the start: as the real CLI, the settings do not load
  // (src/session/flag_settings_check_test.ts)
});

// ---- a deeply nested tool input --------------------------------------------------------------

function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}

/** A scenario file whose tool input adds `depth` levels to the file's own 6 around it. */
function deepFile(depth: number): string {
  const input = '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
  return `{"exchanges":[{"on":"go","steps":[{"tool":{"name":"Frob","input":${input},"result":"ok"}},{"say":"Done."}]}]}`;
}

Deno.test("a tool input nested 200,000 deep is refused where it comes in, naming where and the limit", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/deep.json`, deepFile(200_000));
    const r = await fake(["-p", "go", "--scenario", "deep.json"], dir);
    assert.equal(r.code, 1, r.stdout);
    assert.match(
      r.stderr,
      /Cannot load scenario: 'exchanges\[0\]\.steps\[0\]\.tool\.input\.a\.a…' nests deeper than 1,000 levels \(the most claude-mock takes: .*\) \(in .*deep\.json\)/,
    );
    // 1,000 levels in all (the file's own 6, then the input's 994) run; one more is refused
    await Deno.writeTextFile(`${dir}/limit.json`, deepFile(994));
    const ok = await fake(["-p", "go", "--scenario", "limit.json", "--output-format", "json"], dir);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(JSON.parse(ok.stdout).result, "Done.");
    await Deno.writeTextFile(`${dir}/over.json`, deepFile(995));
    assert.match(
      (await fake(["-p", "go", "--scenario", "over.json"], dir)).stderr,
      /nests deeper than 1,000 levels/,
    );
    await assert.rejects(() => loadScenario(`${dir}/deep.json`), RangeError);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a built scenario nested too deep is refused by the builder; within the limit it runs through the SDK", async () => {
  assert.throws(
    () => new ScenarioBuilder().on("go").usesTool("Frob", nested(200_000)),
    (error: Error) =>
      error instanceof RangeError &&
      error.message.startsWith(
        "Cannot build scenario: 'exchanges[0].steps[0]' usesTool needs an input nested at most 1,000 levels deep, got one nested deeper at 'a.a.a.a.a.a.a.a…'",
      ),
  );
  assert.throws(
    () => new ScenarioBuilder().on("go").emit({ type: "x", deep: nested(200_000) }).build(),
    /Cannot build scenario: 'exchanges\[0\]\.steps\[0\]\.frame\.deep\.a\.a.*' nests deeper than 1,000 levels/,
  );
  const mock = new MockTransport(
    new ScenarioBuilder().on("go").usesTool("Frob", nested(1000), { result: "ok" })
      .respond("Done.").build(),
  );
  const { messages, error } = await runQuery(mock, "go", {
    canUseTool: (_tool, input) => Promise.resolve({ behavior: "allow", updatedInput: input }),
  });
  assert.equal(error, undefined);
  assert.equal((messages.at(-1) as { result?: string }).result, "Done.");
});

Deno.test("a __mock__ command nested too deep ends the turn with an error naming where", async () => {
  const input = '{"a":'.repeat(200_000) + "1" + "}".repeat(200_000);
  const prompt =
    `{"__mock__":{"command":"tool_use","params":{"tool_name":"Frob","tool_input":${input}}}}`;
  const { messages } = await runQuery(new MockTransport(), prompt);
  const result = messages.at(-1) as { subtype?: string };
  assert.equal(result.subtype, "error_during_execution");
  assert.match(
    JSON.stringify(result),
    /__mock__: '__mock__\.params\.tool_input\.a\.a\.a\.a\.a…' nests deeper than 1,000 levels/,
  );
});

// ---- initialize that is not JSON data -------------------------------------------------------

Deno.test("a scenario's initialize with a cycle is refused when the session starts, naming it", () => {
  const initialize: Record<string, unknown> = { extra: {} };
  (initialize.extra as Record<string, unknown>).self = initialize;
  const scenario: Scenario = { ...new ScenarioBuilder().build(), initialize };
  assert.throws(
    () => new Session(scenario),
    (error: Error) =>
      error instanceof TypeError &&
      /'initialize' must be JSON data: Converting circular structure to JSON: extra\.self/.test(
        error.message,
      ),
  );
});

Deno.test("an initialize answer that cannot be written is an error answer, never silence", async () => {
  // a handler whose answer is not JSON data
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const session = new Session(new ScenarioBuilder().build());
  session.handle("initialize", () => cyclic);
  const reading = new Response(session.readable).text();
  session.write(
    '{"type":"control_request","request_id":"init","request":{"subtype":"initialize"}}\n',
  );
  session.endInput();
  const [answer] = (await reading).trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(answer.response.subtype, "error");
  assert.equal(answer.response.request_id, "init");
  assert.match(
    answer.response.error,
    /^claude-mock: cannot write the answer to control request 'initialize': Cannot encode frame of type "control_response": /,
  );
  assert.equal(session.clientRequests()[0].answer?.success, false);
});

// ---- item 9: a scenario URL that never answers ------------------------------------------------

Deno.test("loadScenario: a server that accepts and never answers fails within the bound, naming the URL", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of listener) held.push(conn); // accepted, never answered
  })();
  const url = `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}/chat.json`;
  try {
    await assert.rejects(
      loadScenario(url, { timeoutMs: 50 }),
      (error: Error) =>
        error.message ===
          `Cannot load scenario: cannot read ${url} (no complete answer within 50 ms of real time)`,
    );
    await assert.rejects(loadScenario(url, { timeoutMs: 0 }), /'timeoutMs' must be a number/);
  } finally {
    listener.close();
    for (const conn of held) conn.close();
    await accepting.catch(() => {});
  }
});
