// MCP server entries the real CLI cannot use are skipped, whichever door they come through
// (--mcp-config, the SDK's mcpServers option, the project's .mcp.json), and a url it refuses
// fails with its error; the mock listed every entry as connected (or failed by its command).
// The lists below are the real CLI 2.1.332's system/init for the same entries (run on
// 2026-11-26 against the mock's Messages API; FINDINGS_mcp.md, "Server entries").
import assert from "node:assert/strict";
import { query } from "@anthropic-ai/claude-agent-sdk";
import { MockTransport, ScenarioBuilder } from "../mod.ts";
import { runFake } from "./_fake_cli.ts";

const CONFIG = {
  mcpServers: {
    a: { url: "http://x", command: "claude-mock-no-such-command" },
    b: { type: 5, command: "x" },
    c: { command: "x", args: [1, 2], env: { A: 1 } },
    d: { command: "  " },
    e: { type: "http", url: "http://x", headers: 5 },
    f: { command: "x", env: 5 },
    g: { type: "stdio", command: "x", args: null },
    h: { type: "sse-ide", url: "http://x" },
    i: { type: "ws-ide", url: "ws://x" },
    j: { type: "claudeai-proxy", url: "http://x" },
    k: { type: "ftp" },
    l: { type: "http", url: "ftp://x" },
    m: { type: "http", url: "" },
    n: { type: "sse", url: "not a url" },
    o: { type: "ws", url: "nope" },
    p: { type: null, command: "x" },
    q: { command: "claude-mock-no-such-command", args: ["a"], env: {} },
    // (a computed key: an own property, as JSON.parse makes it)
    ["__proto__"]: { command: "x" },
  },
};
// the real CLI's system/init mcp_servers for CONFIG ("__proto__" dropped unsaid)
const REAL = ["a", "d", "l", "m", "n", "o", "q"].map((name) => ({
  name,
  status: "failed",
  source: "dynamic",
}));

function initOf(stdout: string): { mcp_servers: unknown; mcp_server_errors?: unknown } {
  return stdout.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l))
    .find((f) => f.type === "system" && f.subtype === "init");
}

Deno.test("--mcp-config: entries the real CLI skips are not listed; bad urls fail (binary)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const run = await runFake(
      [
        "-p",
        "hi",
        "--output-format",
        "stream-json",
        "--verbose",
        "--mcp-config",
        JSON.stringify(CONFIG),
      ],
      dir,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(initOf(run.stdout).mcp_servers, REAL);
    // system/init names the skipped ones (the real CLI's list for CONFIG)
    assert.deepEqual(
      (initOf(run.stdout).mcp_server_errors as Array<{ name: string; type: string }>).map((e) =>
        `${e.name}:${e.type}`
      ),
      [
        "b:invalid_config",
        "c:invalid_config",
        "e:invalid_config",
        "f:invalid_config",
        "g:invalid_config",
        "h:unknown_type",
        "i:unknown_type",
        "j:invalid_config",
        "k:unknown_type",
        "p:invalid_config",
      ],
    );
    // --debug-to-stderr shows the real CLI's debug-log line for them
    const debug = await runFake(
      ["-p", "hi", "-d2e", "--mcp-config", JSON.stringify(CONFIG)],
      dir,
    );
    assert.match(
      debug.stderr,
      / \[WARN\] --mcp-config: 11 entry warning\(s\): mcpServers\.b: Skipped — /,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the project's .mcp.json: entries the real CLI skips are not listed", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/.mcp.json`, JSON.stringify(CONFIG));
    const run = await runFake(["-p", "hi", "--output-format", "stream-json", "--verbose"], dir);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(
      initOf(run.stdout).mcp_servers,
      REAL.map((s) => ({ ...s, source: "project" })),
    );
    // (the real CLI's mcp_server_errors names those of --mcp-config only)
    assert.equal(initOf(run.stdout).mcp_server_errors, undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the SDK's mcpServers option: skipped entries are not listed, mcp_status says why a url failed", async () => {
  const mock = new MockTransport(new ScenarioBuilder().on("hi").respond("Hello!").build());
  const q = query({
    prompt: "hi",
    options: { ...mock.options(), mcpServers: CONFIG.mcpServers as never },
  });
  let servers: unknown;
  let status: Array<{ name: string; status: string; error?: string }> = [];
  for await (const m of q) {
    if (m.type === "system" && m.subtype === "init") {
      servers = m.mcp_servers;
      status = await q.mcpServerStatus() as typeof status;
    }
  }
  assert.deepEqual(servers, REAL);
  assert.deepEqual(
    status.map(({ name, status, error }) => ({ name, status, error })),
    [
      { name: "a", status: "failed", error: 'Executable not found in $PATH: "stdio"' },
      { name: "d", status: "failed", error: 'Executable not found in $PATH: "stdio"' },
      {
        name: "l",
        status: "failed",
        error: "Stopped an MCP request because its address is not http or https. Check the " +
          "server's address in your settings, or ask the server's owner to fix the addresses it gives.",
      },
      { name: "m", status: "failed", error: "No URL configured for this server" },
      {
        name: "n",
        status: "failed",
        error: "'url' is not a valid URL. Update the server's config and reconnect.",
      },
      {
        name: "o",
        status: "failed",
        error: "'url' is not a valid URL. Update the server's config and reconnect.",
      },
      { name: "q", status: "failed", error: 'Executable not found in $PATH: "stdio"' },
    ],
  );
});

// 2.1.332 (case mcp_control_set_servers_bad): mcp_set_servers checks no entry; one that is not
// an object refuses the whole call; the others are added and fail in the CLI's own code
Deno.test("setMcpServers: an entry that is no object refuses the call; bad entries fail with the real CLI's words", async () => {
  const mock = new MockTransport(
    new ScenarioBuilder().on("hello").respond("Hi").on("again").respond("Hi again").build(),
  );
  const prompts = (async function* () {
    yield {
      type: "user" as const,
      message: { role: "user" as const, content: "hello" },
      parent_tool_use_id: null,
      session_id: "",
    };
    await new Promise<void>((resolve) => (release = resolve));
    yield {
      type: "user" as const,
      message: { role: "user" as const, content: "again" },
      parent_tool_use_id: null,
      session_id: "",
    };
  })();
  let release = () => {};
  const q = query({ prompt: prompts, options: mock.options() });
  let answer: unknown;
  let status: Array<Record<string, unknown>> = [];
  let refused: unknown;
  for await (const m of q) {
    if (m.type !== "result" || answer !== undefined) continue;
    refused = await q.setMcpServers({ num: 5, ok: { command: "x", args: [] } } as never).catch((
      e,
    ) => e);
    answer = await q.setMcpServers({
      nocmd: { type: "stdio", args: [] },
      badtype: { type: "bogus", command: "claude-mock-no-such-command" },
      strargs: { command: "claude-mock-no-such-command", args: "y" },
      urlonly: { url: "http://127.0.0.1:9/mcp" },
    } as never);
    status = await q.mcpServerStatus() as never;
    release();
  }
  assert.match(String(refused), /mcp_set_servers: servers must be an object of config objects/);
  assert.deepEqual(answer, {
    added: ["nocmd", "badtype", "strargs", "urlonly"],
    removed: [],
    errors: {
      nocmd: 'The "file" argument must be of type string. Received undefined',
      badtype: "e.includes is not a function. (In 'e.includes(n)', 'e.includes' is undefined)",
      strargs:
        "t.args?.some is not a function. (In 't.args?.some((a)=>a.includes(e))', 't.args?.some' is undefined)",
      urlonly: "Spread syntax requires ...iterable not be null or undefined",
    },
  });
  assert.deepEqual(status.map((s) => [s.name, s.config]), [
    ["nocmd", { type: "stdio", args: [] }],
    ["badtype", undefined],
    ["strargs", { type: "stdio", command: "claude-mock-no-such-command", args: "y" }],
    ["urlonly", { type: "stdio" }],
  ]);
});
