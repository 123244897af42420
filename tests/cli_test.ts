// The fake `claude` binary as a subprocess: print formats, the real CLI's refusals, named
// failures in each output format, scenario files, PATH shimming, live tools and structured
// output (the SDK through `pathToClaudeCodeExecutable`: tests/cli_sdk_test.ts).
import assert from "node:assert/strict";
import { NEWEST_CLI_VERSION } from "../builders.ts";
import { type FakeClaude, installFakeClaude } from "../cli.ts";
import { exact, FAILURE_NAMES, ScenarioBuilder } from "../mod.ts";

const decoder = new TextDecoder();

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `claude <args>` from PATH with the fake's environment (stdin: `input` or none). */
async function claude(
  fake: FakeClaude,
  args: string[],
  input?: string,
  env: Record<string, string> = {},
): Promise<Run> {
  const command = new Deno.Command("claude", {
    args,
    env: { ...fake.env, ...env },
    cwd: fake.dir,
    stdin: input === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  });
  const child = command.spawn();
  if (input !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(input));
    await writer.close();
  }
  const out = await child.output();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

const lines = (text: string) => text.trim().split("\n").map((l) => JSON.parse(l));

Deno.test("cli: print mode in text, json and stream-json", async () => {
  await using fake = await installFakeClaude();
  const text = await claude(fake, ["-p", "hello"]);
  assert.deepEqual(text, { code: 0, stdout: "Hello! How can I help?\n", stderr: "" });
  const json = await claude(fake, ["-p", "hello", "--output-format", "json"]);
  assert.equal(json.code, 0);
  const result = JSON.parse(json.stdout);
  assert.deepEqual(Object.keys(result), [
    "duration_api_ms",
    "stop_reason",
    "session_id",
    "total_cost_usd",
    "usage",
    "modelUsage",
    "permission_denials",
    "terminal_reason",
    "fast_mode_state",
    "fast_mode_disabled_reason",
    "subagent_stats",
    "safety_stops",
    "is_error",
    "num_turns",
    "subtype",
    "api_error_status",
    "result",
    "ttft_ms",
    "type",
    "duration_ms",
    "uuid",
    "ttft_stream_ms",
    "time_to_request_ms",
    "first_content_frame_ms",
    "queued_turn_count",
    "result_index",
  ]);
  assert.equal(json.stdout.split("\n").length, 2, "one line");
  const stream = await claude(fake, ["-p", "hello", "--output-format", "stream-json", "--verbose"]);
  const kinds = lines(stream.stdout).map((f) => f.subtype ? `${f.type}/${f.subtype}` : f.type);
  assert.deepEqual(kinds, ["system/init", "assistant", "result/success"]);
  const partial = await claude(fake, [
    "-p",
    "hello",
    "--output-format=stream-json",
    "--verbose",
    "--include-partial-messages",
  ]);
  const frames = lines(partial.stdout);
  assert.equal(frames[1].subtype, "status");
  assert.ok(frames.some((f) => f.type === "stream_event"));
});

Deno.test("cli: the prompt argument and piped stdin are joined as the real CLI joins them", async () => {
  await using fake = await installFakeClaude({
    scenario: new ScenarioBuilder().on(exact("summarize\nline one\nline two")).respond(
      "joined",
    )
      .onUnmatched({ reply: "not joined" }).build(),
  });
  assert.equal(
    (await claude(fake, ["-p", "summarize"], "line one\nline two\n")).stdout,
    "joined\n",
  );
  // stdout not a terminal: a bare prompt is print mode
  assert.equal((await claude(fake, ["summarize"], "line one\nline two")).stdout, "joined\n");
  const [first] = (await fake.capture()).findByPrompt("summarize");
  assert.equal(first.stdin, "line one\nline two\n", "the capture keeps what stdin carried");
});

Deno.test("cli: the real CLI's refusals, messages and exit codes", async () => {
  await using fake = await installFakeClaude();
  const cases: Array<[string[], string]> = [
    [["-p", "hello", "--no-such-flag"], "error: unknown option '--no-such-flag'\n"],
    [["-p", "hello", "--verbos"], "error: unknown option '--verbos'\n(Did you mean --verbose?)\n"],
    [
      ["-p", "hello", "--output-format", "xml"],
      "error: option '--output-format <format>' argument 'xml' is invalid. Allowed choices are text, json, stream-json.\n",
    ],
    [["-p", "hello", "--model"], "error: option '--model <model>' argument missing\n"],
    [
      ["-p", "hello", "--output-format", "stream-json"],
      "Error: When using --print, --output-format=stream-json requires --verbose\n",
    ],
    [
      ["-p", "hello", "--input-format", "stream-json"],
      "Error: --input-format=stream-json requires output-format=stream-json.\n",
    ],
    [
      ["-p", "hello", "--output-format", "json", "--include-partial-messages"],
      "Error: --include-partial-messages requires --print and --output-format=stream-json.\n",
    ],
    [
      ["-p"],
      "Error: Input must be provided either through stdin or as a prompt argument when using --print\n",
    ],
    [
      ["-p", "hello", "--max-turns", "abc"],
      "error: option '--max-turns <turns>' argument 'abc' is invalid. must be a number\n",
    ],
    [
      ["-p", "hello", "--max-budget-usd", "-1"],
      "error: option '--max-budget-usd <amount>' argument '-1' is invalid. --max-budget-usd must be a number greater than 0\n",
    ],
    [
      ["-p", "hello", "--permission-mode", "xyz"],
      "error: option '--permission-mode <mode>' argument 'xyz' is invalid. Allowed choices are acceptEdits, auto, bypassPermissions, manual, dontAsk, plan.\n",
    ],
    [["-p", "hello", "--session-id", "abc"], "Error: Invalid session ID. Must be a valid UUID.\n"],
    [
      ["-p", "hello", "--failure", "nope"],
      "claude-mock: unknown failure 'nope' (in --failure); expected one of auth_error, " +
      "forbidden, rate_limit, overloaded, server_error, bad_request, " +
      "out_of_credits, connection_refused, connection_reset, connection_reset_recovered, " +
      "request_timeout, stream_stall, stream_cut, stream_cut_recovered, " +
      "malformed_stream, malformed_stream_recovered, max_budget\n",
    ],
    [
      ["-p", "hello", "--failure", "rate_limt"],
      "claude-mock: unknown failure 'rate_limt' (in --failure; did you mean 'rate_limit'?)\n",
    ],
  ];
  for (const [args, stderr] of cases) {
    assert.deepEqual(await claude(fake, args), { code: 1, stdout: "", stderr }, args.join(" "));
  }
  if (Deno.uid() === 0) {
    const refused = await claude(fake, ["-p", "hello", "--dangerously-skip-permissions"]);
    assert.deepEqual(refused, {
      code: 1,
      stdout: "",
      stderr:
        "--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons\n",
    });
    const sandboxed = await claude(
      fake,
      ["-p", "hi", "--dangerously-skip-permissions", "--output-format", "stream-json", "--verbose"],
      undefined,
      { IS_SANDBOX: "1" },
    );
    assert.equal(lines(sandboxed.stdout)[0].permissionMode, "bypassPermissions");
    // --allow-dangerously-skip-permissions alone is refused as well
    // (print/v328_p_bypass_root_allow_only)
    const recorded = JSON.parse(
      await Deno.readTextFile(
        new URL("./fixtures/real/print/v328_p_bypass_root_allow_only.json", import.meta.url),
      ),
    );
    assert.deepEqual(await claude(fake, recorded.argv.slice(1)), {
      code: recorded.exit_code,
      stdout: recorded.stdout,
      stderr: recorded.stderr_tail,
    });
  }
  // (an SDK's query() in this test process leaves CLAUDE_AGENT_SDK_VERSION in the environment)
  assert.deepEqual(await claude(fake, ["--version"], undefined, { CLAUDE_AGENT_SDK_VERSION: "" }), {
    code: 0,
    // run by hand, with no SDK installed here: the newest CLI the recordings cover
    stdout: `${NEWEST_CLI_VERSION} (Claude Code)\n`,
    stderr: "",
  });
  assert.equal(
    (await claude(fake, ["-v"], undefined, { CLAUDE_MOCK_VERSION: "9.9.9" })).stdout,
    "9.9.9 (Claude Code)\n",
  );
  const help = await claude(fake, ["--help"]);
  const realHelp = new URL("fixtures/wire-samples/cli-help.txt", import.meta.url);
  assert.equal(
    help.stdout,
    await Deno.readTextFile(realHelp),
    "the real CLI's --help, as recorded",
  );
});

Deno.test("cli: every named failure in each output format, as the real CLI prints it", async () => {
  await using fake = await installFakeClaude({ env: { CLAUDE_CODE_MAX_RETRIES: "1" } });
  const texts: Record<string, RegExp> = {
    auth_error: /^Invalid API key · Fix external API key\n$/,
    rate_limit: /^API Error: Request rejected \(429\) · /,
    // one retry: two 529s are not "repeated" (that takes three: print/v3xx_p_overloaded_*)
    overloaded:
      /^API Error: 529 Overloaded\. This is a server-side issue, .*\(api\.anthropic\.com\)\.\n$/,
    connection_refused:
      /^API Error: Connection refused — a firewall or proxy may be blocking it \(ECONNREFUSED\)\n$/,
    request_timeout: /^Request timed out\. .* set API_TIMEOUT_MS above 600000\.\n$/,
    stream_cut_recovered: /^Hello! How can I help\?\n$/,
    max_budget: /^Error: Exceeded USD budget/,
  };
  const retried = new Set([
    "auth_error",
    "rate_limit",
    "overloaded",
    "server_error",
    "connection_refused",
    "connection_reset",
    "connection_reset_recovered",
    "request_timeout",
    "stream_cut",
    "stream_cut_recovered",
  ]);
  for (const name of FAILURE_NAMES) {
    const recovers = name.endsWith("_recovered");
    const json = JSON.parse(
      (await claude(fake, ["-p", "hello", "--output-format", "json", "--failure", name])).stdout,
    );
    assert.equal(json.type, "result", name);
    assert.equal(json.is_error, !recovers, `${name}: is_error`);
    const plain = await claude(fake, ["-p", "hello", "--failure", name]);
    // text prints the result and a newline (the error text for an API failure), or the error
    // subtype's line with none (conformance limit_max_budget)
    if (json.subtype === "success") assert.equal(plain.stdout, `${json.result}\n`, `${name}: text`);
    else assert.doesNotMatch(plain.stdout, /\n$/, `${name}: text`);
    if (texts[name]) assert.match(plain.stdout, texts[name], name);
    assert.equal(plain.code, recovers ? 0 : 1, `${name}: exit`);
    // a malformed stream's line is on stderr, as the real CLI writes it (print/v3xx_p_malformed_*)
    assert.equal(
      plain.stderr,
      name.startsWith("malformed_stream")
        ? 'Could not parse message into JSON: {this is not json\nFrom chunk: [ "event: content_block_delta", "data: {this is not json" ]\n'
        : "",
      `${name}: stderr`,
    );
    const stream = lines(
      (await claude(fake, [
        "-p",
        "hello",
        "--output-format",
        "stream-json",
        "--verbose",
        "--failure",
        name,
      ])).stdout,
    );
    // each run is another invocation: its own session id, uuids and retry jitter
    const same = (r: Record<string, unknown>) => {
      const {
        session_id: _s,
        uuid: _u,
        duration_ms: _d,
        duration_api_ms: _a,
        model_usage_since_last_result: _m,
        ...rest
      } = r;
      return rest;
    };
    assert.deepEqual(same(stream.at(-1)), same(json), `${name}: the same result`);
    const retries = stream.filter((f) => f.subtype === "api_retry").length;
    assert.equal(retries, retried.has(name) ? 1 : 0, `${name}: api_retry frames`);
    const synthetic = stream.find((f) => f.type === "assistant" && f.is_api_error_message);
    assert.equal(synthetic !== undefined, !recovers && name !== "max_budget", `${name}: synthetic`);
  }
  const refused = JSON.parse(
    (await claude(fake, ["-p", "hello", "--output-format", "json"], undefined, {
      CLAUDE_MOCK_FAILURE: "connection_refused",
    })).stdout,
  );
  assert.equal(refused.api_error, "connection_failed");
});

Deno.test("cli: scenario files, and a bad one named with its path", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/ok.json`,
      JSON.stringify({ exchanges: [{ on: "ping", steps: [{ say: "pong" }] }] }),
    );
    await Deno.writeTextFile(
      `${dir}/bad.json`,
      JSON.stringify({ exchanges: [{ on: "x", steps: "nope" }] }),
    );
    await using fake = await installFakeClaude();
    assert.equal(
      (await claude(fake, ["-p", "ping", "--scenario", `${dir}/ok.json`])).stdout,
      "pong\n",
    );
    assert.equal(
      (await claude(fake, ["-p", "ping"], undefined, { CLAUDE_MOCK_SCENARIO: `${dir}/ok.json` }))
        .stdout,
      "pong\n",
    );
    const bad = await claude(fake, ["-p", "ping", "--scenario", `${dir}/bad.json`]);
    assert.equal(bad.code, 1);
    assert.equal(bad.stdout, "");
    assert.match(
      bad.stderr,
      /^claude-mock: Cannot load scenario: 'exchanges\[0\]\.steps' must be an array.*\(in .*bad\.json\)\n$/,
    );
    const missing = await claude(fake, ["-p", "ping", "--scenario", `${dir}/none.json`]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /none\.json/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli: print mode denies what would need a prompt, as the real CLI does", async () => {
  await using fake = await installFakeClaude({
    scenario: new ScenarioBuilder({ cwd: "/home/user/project" }).on("Create").usesBash(
      "touch created.txt",
      {
        description: "Create created.txt",
      },
    ).respond("Done.").build(),
  });
  const run = await claude(fake, [
    "-p",
    "Create an empty file named created.txt",
    "--output-format",
    "stream-json",
    "--verbose",
  ]);
  assert.equal(run.code, 0);
  const frames = lines(run.stdout);
  const denied = frames.find((f) => f.subtype === "permission_denied");
  assert.equal(
    denied.message,
    "touch in '/home/user/project/created.txt' needs approval. The " +
      "path is inside the working directories for this session ('/home/user/project'), " +
      "and Claude Code asks before a shell command creates, changes " +
      "or removes files there.",
  );
  const result = frames.at(-1);
  assert.deepEqual(result.permission_denials.map((d: { tool_name: string }) => d.tool_name), [
    "Bash",
  ]);
  const allowed = lines(
    (await claude(fake, [
      "-p",
      "Create it",
      "--allowedTools",
      "Bash",
      "--output-format",
      "stream-json",
      "--verbose",
    ])).stdout,
  );
  assert.equal(allowed.some((f) => f.subtype === "permission_denied"), false);
});

// ---- the real SDK through pathToClaudeCodeExecutable, compared with the in-process mock

/** What the app gets, with what differs between two processes (timings) left out. */
Deno.test("cli live mode: allowed tools really run in the cwd; denied ones do not", async () => {
  await using fake = await installFakeClaude({
    scenario: {
      ...new ScenarioBuilder()
        .on("Create an empty file").usesBash("touch created.txt", { description: "Create it" })
        .respond("Created.")
        .on("Write").usesWrite("notes.txt", { content: "one\ntwo\n" })
        .usesEdit("notes.txt", { oldString: "two", newString: "three" })
        .usesRead("notes.txt", { content: "scripted, not read" })
        .usesBash("cat notes.txt | wc -l", {})
        .respond("Done.")
        .build(),
      live: true,
    },
  });
  const created = `${fake.dir}/created.txt`;
  const denied = await claude(fake, ["-p", "Create an empty file"]);
  assert.equal(denied.code, 0);
  await assert.rejects(Deno.stat(created), Deno.errors.NotFound, "denied: nothing created");
  const allowed = await claude(fake, ["-p", "Create an empty file", "--allowedTools", "Bash"]);
  assert.equal(allowed.stdout, "Created.\n");
  assert.ok((await Deno.stat(created)).isFile, "allowed: the file exists");
  const run = await claude(fake, [
    "-p",
    "Write notes",
    "--allowedTools",
    "Write Edit Bash",
    "--output-format",
    "stream-json",
    "--verbose",
  ]);
  assert.equal(await Deno.readTextFile(`${fake.dir}/notes.txt`), "one\nthree\n");
  const results = lines(run.stdout).filter((f) => f.type === "user").map((f) =>
    f.message.content[0].content
  );
  assert.match(results[0], /^File created successfully at: .*notes\.txt/);
  assert.match(results[1], /has been updated successfully/);
  assert.equal(results[2], "1\tone\n2\tthree\n3\t", "the real file, with line numbers");
  assert.equal(results[3].trim(), "2");
});

Deno.test("cli: Glob and Grep are there when --tools names them (live, as the real CLI answers), not by default", async () => {
  await using fake = await installFakeClaude({
    scenario: {
      ...new ScenarioBuilder()
        .on("Find")
        .usesTogether((t) =>
          t.usesTool("Glob", { pattern: "*.md", path: "docs" })
            .usesTool("Grep", { pattern: "TODO", path: "docs" })
        )
        .respond("Found.")
        .build(),
      live: true,
    },
  });
  await Deno.mkdir(`${fake.dir}/docs`);
  await Deno.writeTextFile(`${fake.dir}/docs/a.md`, "TODO: docs\n");
  const results = async (args: string[]) => {
    const run = await claude(fake, [
      "-p",
      "Find",
      "--output-format",
      "stream-json",
      "--verbose",
      ...args,
    ]);
    assert.equal(run.code, 0, run.stderr);
    const frames = lines(run.stdout);
    return {
      tools: frames.find((f) => f.subtype === "init").tools as string[],
      results: frames.filter((f) => f.type === "user").map((f) => f.tool_use_result),
    };
  };
  const byDefault = await results([]);
  assert.ok(!byDefault.tools.includes("Glob") && byDefault.tools.includes("Bash"));
  assert.deepEqual(byDefault.results, [
    "Error: No such tool available: Glob. Glob is not available in this session \u2014 find files with `find` via the Bash tool instead.",
    "Error: No such tool available: Grep. Grep is not available in this session \u2014 search file contents with `grep` via the Bash tool instead.",
  ]);
  const named = await results(["--tools", "Read,Glob,Grep"]);
  assert.deepEqual(named.tools, ["Glob", "Grep", "Read"]);
  const [glob, grep] = named.results;
  assert.deepEqual(glob.filenames, ["docs/a.md"]);
  assert.deepEqual(grep, {
    mode: "files_with_matches",
    filenames: ["docs/a.md"],
    numFiles: 1,
    totalFiles: 1,
  });
});

Deno.test("cli: --json-schema: the StructuredOutput tool, checked, and structured_output in the json result", async () => {
  await using fake = await installFakeClaude({
    scenario: new ScenarioBuilder()
      .on("person")
      .usesTool("StructuredOutput", { name: "Ada" })
      .usesTool("StructuredOutput", { name: "Ada", age: 36 })
      .build(),
  });
  const schema = JSON.stringify({
    type: "object",
    properties: { name: { type: "string" }, age: { type: "number" } },
    required: ["name", "age"],
  });
  const run = await claude(fake, [
    "-p",
    "person",
    "--json-schema",
    schema,
    "--output-format",
    "json",
  ]);
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.deepEqual(result.structured_output, { name: "Ada", age: 36 });
  assert.equal(result.result, '{"name":"Ada","age":36}');
  assert.equal(result.num_turns, 3, "the prompt and two tool results");
  const bad = await claude(fake, ["-p", "person", "--json-schema", "{not json"]);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /--json-schema/);
});
