// The loader: files, URLs, JSON syntax errors with line and column, and path-naming errors.
import assert from "node:assert/strict";
import { pathToFileURL as toFileUrl } from "node:url";
import { loadScenario } from "./load_scenario.ts";
import { scenarioFromJSON } from "./scenario_from_json.ts";
import { scenarioToJSON } from "./scenario_to_json.ts";

const CHAT = { name: "chat", exchanges: [{ on: "hi", steps: [{ say: "Hello!" }] }] };

async function withFile(text: string, run: (path: string) => Promise<void>): Promise<void> {
  const path = await Deno.makeTempFile({ suffix: ".json" });
  try {
    await Deno.writeTextFile(path, text);
    await run(path);
  } finally {
    await Deno.remove(path);
  }
}

Deno.test("loadScenario reads a path, a file: URL string and a URL object", async () => {
  await withFile(JSON.stringify(CHAT), async (path) => {
    for (const where of [path, toFileUrl(path).href, toFileUrl(path)]) {
      const scenario = await loadScenario(where);
      assert.equal(scenario.name, "chat");
      assert.deepEqual(scenarioToJSON(scenario).exchanges, CHAT.exchanges);
    }
  });
});

Deno.test("loadScenario fetches http: URLs, and names a failed answer", async () => {
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    (req) =>
      new URL(req.url).pathname === "/chat.json"
        ? Response.json(CHAT)
        : new Response("no", { status: 404, statusText: "Not Found" }),
  );
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    assert.equal((await loadScenario(`${base}/chat.json`)).name, "chat");
    await assert.rejects(
      () => loadScenario(new URL(`${base}/missing.json`)),
      /^Error: Cannot load scenario: cannot read http:\/\/127\.0\.0\.1:\d+\/missing\.json \(GET answered 404 Not Found\)$/,
    );
  } finally {
    await server.shutdown();
  }
});

Deno.test("loadScenario: text that is not JSON is a SyntaxError with the line and column", async () => {
  await withFile('{\n  "name": "x",\n  "exchanges": [,]\n}', async (path) => {
    await assert.rejects(() => loadScenario(path), (error: Error) => {
      assert.ok(error instanceof SyntaxError);
      assert.match(
        error.message,
        /^Cannot load scenario: invalid JSON at line 3, column 17: Unexpected token ',' \(in .+\.json\)$/,
      );
      return true;
    });
  });
  await withFile("", async (path) => {
    await assert.rejects(
      () => loadScenario(path),
      /SyntaxError: Cannot load scenario: invalid JSON at line 1, column 1: Unexpected end of JSON input/,
    );
  });
  // a byte order mark is not an error
  await withFile("\uFEFF" + JSON.stringify(CHAT), async (path) => {
    assert.equal((await loadScenario(path)).name, "chat");
  });
});

Deno.test("loadScenario: a member name an object repeats is a SyntaxError naming it, not the last one kept", async () => {
  // JSON.parse keeps the second `say` and drops the first without a word
  const text =
    '{\n  "exchanges": [\n    { "on": "hi", "steps": [{ "say": "a", "say": "b" }] }\n  ]\n}';
  await withFile(text, async (path) => {
    await assert.rejects(() => loadScenario(path), (error: Error) => {
      assert.ok(error instanceof SyntaxError);
      assert.equal(
        error.message,
        `Cannot load scenario: 'exchanges[0].steps[0]' has the member "say" twice (the second at line 3, column 43): JSON keeps only the last (in ${path})`,
      );
      return true;
    });
  });
  await withFile('{"name":"a","name":"b","exchanges":[]}', async (path) => {
    await assert.rejects(
      () => loadScenario(path),
      /^SyntaxError: Cannot load scenario: the top object has the member "name" twice \(the second at line 1, column 13\)/,
    );
  });
});

Deno.test("loadScenario: a file that does not fit names the file and the JSON path", async () => {
  const bad = { name: "deploy", exchanges: [{ on: "a" }, { on: "b" }, { on: "c", steps: [] }] };
  bad.exchanges[2].steps = [{ read: { path: 42, content: "" } }] as never;
  (bad.exchanges[0] as Record<string, unknown>).steps = [];
  (bad.exchanges[1] as Record<string, unknown>).steps = [];
  await withFile(JSON.stringify(bad), async (path) => {
    await assert.rejects(() => loadScenario(path), (error: Error) => {
      assert.ok(error instanceof TypeError);
      assert.equal(
        error.message,
        `Cannot load scenario 'deploy': 'exchanges[2].steps[0].read.path' must be a non-empty string, got a number (in ${path})`,
      );
      return true;
    });
  });
});

Deno.test("loadScenario: a missing file is an Error naming it, with the reader's error as cause", async () => {
  const path = `${await Deno.makeTempDir()}/nope.json`;
  await assert.rejects(() => loadScenario(path), (error: Error) => {
    assert.match(error.message, /^Cannot load scenario: cannot read .+nope\.json \(/);
    assert.ok(error.cause instanceof Deno.errors.NotFound);
    return true;
  });
  await Deno.remove(path.replace("/nope.json", ""));
  await assert.rejects(() => loadScenario(42 as never), TypeError);
});

Deno.test("scenarioFromJSON: messages for the common mistakes", () => {
  const fails = (data: unknown, message: RegExp, kind: ErrorConstructor = TypeError) =>
    assert.throws(() => scenarioFromJSON(data, { source: "s.json" }), (error: Error) => {
      assert.ok(error instanceof kind, `${error.name}: ${error.message}`);
      assert.match(error.message, message);
      return true;
    });
  fails(
    [],
    /^Cannot load scenario: a scenario file holds a JSON object, got an array \(in s\.json\)$/,
  );
  fails(
    { exchanges: [{ on: "x", steps: [{ read: { path: "/a", contnt: "" } }] }] },
    /'exchanges\[0\]\.steps\[0\]\.read\.contnt' is not a field of the read tool \(did you mean 'content'\?\)/,
  );
  fails(
    { exchanges: [{ on: "x", steps: [{ read: { path: "/a" } }] }] },
    /'exchanges\[0\]\.steps\[0\]\.read\.content' must be a string, or null for a missing file, got undefined/,
  );
  fails(
    { exchanges: [{ on: { regex: "(" }, steps: [] }] },
    /'exchanges\[0\]\.on\.regex' must be a valid regular expression: /,
    SyntaxError,
  );
  fails(
    { exchanges: [{ on: { glob: "*", flags: "i" }, steps: [] }] },
    /'exchanges\[0\]\.on\.flags' only applies to a regex trigger/,
  );
  fails(
    { exchanges: [{ on: "x", steps: [{ result: { errors: ["e"] } }] }] },
    /'exchanges\[0\]\.steps\[0\]\.result\.errors' only applies to error subtypes/,
  );
  fails(
    { exchanges: [{ on: "x", steps: [{ say: "a", chunks: [["a", 1]] }] }] },
    /'exchanges\[0\]\.steps\[0\]\.chunks\[0\]\[1\]' must be a non-empty string, got a number/,
  );
  fails({ seed: 1.5, exchanges: [] }, /'seed' must be a safe integer, got 1\.5/, RangeError);
  fails(
    { exchanges: [{ on: "x", maxMatches: 0, steps: [] }] },
    /maxMatches' must be an integer >= 1, got 0/,
    RangeError,
  );
  fails(
    { exchanges: [{ on: "x", steps: [], timing: "warp" }] },
    /'exchanges\[0\]\.timing' must be a timing profile name/,
    RangeError,
  );
  fails({ $schema: 1, exchanges: [] }, /'\$schema' must be a string, got a number/);
});

Deno.test("scenarioFromJSON: a file without exchanges answers with its unmatched reply", () => {
  const scenario = scenarioFromJSON({ unmatched: { reply: "Always this." } });
  assert.deepEqual(scenario.exchanges, []);
  assert.deepEqual(scenarioToJSON(scenario).unmatched, { reply: "Always this." });
});

Deno.test("loadScenario: bytes that are not UTF-8 are an error naming the byte and its line, not a U+FFFD", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const enc = new TextEncoder();
    const file = (name: string, ...parts: Uint8Array[]) => {
      const path = `${dir}/${name}`;
      Deno.writeFileSync(path, new Uint8Array(parts.flatMap((p) => [...p])));
      return path;
    };
    const head = enc.encode('{"exchanges":[{"on":"hi",\n"steps":[{"say":"a');
    const tail = enc.encode('b"}]}]}');
    await assert.rejects(
      () => loadScenario(file("bad.json", head, new Uint8Array([0xff]), tail)),
      (e: Error) =>
        e.message ===
          `Cannot load scenario: cannot read ${dir}/bad.json (not UTF-8 text: byte 0xff at offset 44 (line 2) is not part of a UTF-8 character)`,
    );
    // far into a big file, in a character cut short, and at the very end
    const long = enc.encode("é".repeat(200_000));
    await assert.rejects(
      () => loadScenario(file("far.json", head, long, new Uint8Array([0xc3]), tail)),
      /byte 0x62 at offset 400045 \(line 2\)/,
    );
    await assert.rejects(
      () => loadScenario(file("cut.json", enc.encode("{}"), new Uint8Array([0xe2, 0x82]))),
      /not UTF-8 text: byte 0xe2 at offset 2 \(line 1\) starts a UTF-8 character the end of the file cuts short/,
    );
    // a BOM and CRLF line ends are fine
    const ok = file(
      "ok.json",
      new Uint8Array([0xef, 0xbb, 0xbf]),
      enc.encode('{\r\n"name":"é"\r\n}'),
    );
    assert.equal((await loadScenario(ok)).name, "é");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
