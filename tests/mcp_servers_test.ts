// The session's MCP servers through the real Agent SDK, as the real CLI 2.1.332 answers (the
// answers below were taken from it: tests/fixtures/real/FINDINGS_mcp.md): mcp_status,
// toggleMcpServer, reconnectMcpServer, setMcpServers, and a stdio server whose command is not
// there.
import assert from "node:assert/strict";
import { createSdkMcpServer, query, tool } from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
import { MockTransport, ScenarioBuilder } from "../mod.ts";
import { gatedPrompt } from "./_sdk.ts";

const server = (name: string, version: string, toolName: string) =>
  createSdkMcpServer({
    name,
    version,
    tools: [
      tool(toolName, toolName, { a: z.number() }, () => Promise.resolve({ content: [] })),
    ],
  });

type Status = Array<Record<string, unknown>>;

/** Runs one turn, then `steps` with the query (their answers or errors, in order). */
async function afterOneTurn(
  options: Record<string, unknown>,
  steps: Array<(q: ReturnType<typeof query>) => Promise<unknown>>,
  scenario = new ScenarioBuilder().on("hi").respond("Hi.").build(),
) {
  const mock = new MockTransport(scenario);
  const { prompt, next: release } = gatedPrompt(["hi"], { holdOpen: true });
  const q = query({
    prompt,
    options: { spawnClaudeCodeProcess: mock.spawn, mcpServersDelivery: "argv", ...options },
  });
  const answers: unknown[] = [];
  const inits: Array<Record<string, unknown>> = [];
  const users: Array<Record<string, unknown>> = [];
  for await (const m of q) {
    if (m.type === "system" && m.subtype === "init") inits.push(m as never);
    if (m.type === "user") users.push(m as never);
    if (m.type === "result") {
      for (const step of steps) {
        answers.push(
          await step(q).then((a) => a ?? "ok", (e) => `error: ${(e as Error).message}`),
        );
      }
      release();
    }
  }
  return { answers, inits, users, mock };
}

const NODE = { command: "node", args: ["server.mjs"], env: { TOKEN: "secret" } };
const GONE = { command: "claude-mock-no-such-command", args: [] };

Deno.test("init and mcp_status: the servers the CLI runs first, then the SDK's; a command not on PATH failed", async () => {
  const calc = server("calc", "2.0.0", "add");
  const { answers, inits } = await afterOneTurn(
    { mcpServers: { calc, ext: NODE, gone: { command: "claude-mock-no-such-command" } } },
    [(q) => q.mcpServerStatus()],
  );
  assert.deepEqual(inits[0].mcp_servers, [
    { name: "ext", status: "connected", source: "dynamic" },
    { name: "gone", status: "failed", source: "dynamic" },
    { name: "calc", status: "connected", source: "sdk" },
  ]);
  assert.deepEqual(answers[0], [
    {
      name: "ext",
      status: "connected",
      config: { type: "stdio", command: "node", args: ["server.mjs"] },
      transport: "stdio",
      scope: "dynamic",
      source: "dynamic",
    },
    {
      name: "gone",
      status: "failed",
      error: 'Executable not found in $PATH: "stdio"',
      config: { type: "stdio", command: "claude-mock-no-such-command", args: [] },
      transport: "stdio",
      scope: "dynamic",
      source: "dynamic",
    },
    {
      name: "calc",
      status: "connected",
      serverInfo: { name: "calc", version: "2.0.0" },
      transport: "sdk",
      scope: "dynamic",
      source: "sdk",
      tools: [{ name: "add", annotations: {} }],
    },
  ]);
});

Deno.test("toggleMcpServer and reconnectMcpServer: disabled servers, unknown names, SDK servers", async () => {
  const calc = server("calc", "2.0.0", "add");
  const status = (q: ReturnType<typeof query>) =>
    q.mcpServerStatus().then((s) => (s as unknown as Status).map((e) => [e.name, e.status]));
  const { answers } = await afterOneTurn({ mcpServers: { calc, ext: NODE, gone: GONE } }, [
    (q) => q.reconnectMcpServer("nope"),
    (q) => q.toggleMcpServer("nope", false),
    (q) => q.toggleMcpServer("calc", false),
    (q) => q.mcpServerStatus().then((s) => (s as unknown as Status)[2]),
    (q) => q.toggleMcpServer("ext", false),
    status,
    (q) => q.toggleMcpServer("ext", true),
    (q) => q.toggleMcpServer("calc", true),
    (q) => q.reconnectMcpServer("calc"),
    (q) => q.reconnectMcpServer("gone"),
    (q) => q.reconnectMcpServer("ext"),
    status,
  ]);
  assert.deepEqual(answers, [
    "error: Server not found: nope",
    "error: Server not found: nope",
    "ok",
    { name: "calc", status: "disabled", transport: "sdk", scope: "dynamic", source: "sdk" },
    "ok",
    [["ext", "disabled"], ["gone", "failed"], ["calc", "disabled"]],
    "ok",
    "ok",
    "error: SDK servers should be handled in print.ts",
    'error: Executable not found in $PATH: "stdio"',
    "ok",
    [["ext", "connected"], ["gone", "failed"], ["calc", "connected"]],
  ]);
});

Deno.test("a disabled server is listed disabled in the next turn's init, without its tools", async () => {
  const calc = server("calc", "2.0.0", "add");
  const mock = new MockTransport(new ScenarioBuilder().on("hi").repeat().respond("Hi.").build());
  const { prompt, next: release } = gatedPrompt(["hi", "hi"], { holdOpen: true });
  const q = query({
    prompt,
    options: { spawnClaudeCodeProcess: mock.spawn, mcpServers: { calc } },
  });
  const inits: Array<{ mcp_servers: unknown; tools: string[] }> = [];
  let results = 0;
  for await (const m of q) {
    if (m.type === "system" && m.subtype === "init") inits.push(m as never);
    if (m.type === "result") {
      if (results++ === 0) await q.toggleMcpServer("calc", false);
      release();
    }
  }
  assert.deepEqual(inits.map((i) => [i.mcp_servers, i.tools.includes("mcp__calc__add")]), [
    [[{ name: "calc", status: "connected", source: "sdk" }], true],
    [[{ name: "calc", status: "disabled", source: "sdk" }], false],
  ]);
});

Deno.test("setMcpServers: replaces the SDK's servers and those it set, keeps the command line's", async () => {
  const calc = server("calc", "2.0.0", "add");
  const calc2 = server("calc2", "3.0.0", "mul");
  const names = (q: ReturnType<typeof query>) =>
    q.mcpServerStatus().then((s) => (s as unknown as Status).map((e) => [e.name, e.status]));
  const { answers } = await afterOneTurn({ mcpServers: { calc, ext: NODE } }, [
    (q) =>
      q.setMcpServers({
        ext2: { command: "node", args: ["server.mjs"] },
        bad: { command: "claude-mock-no-such-command", args: [] },
        noargs: { command: "node" },
        calc2,
      }),
    names,
    (q) => q.toggleMcpServer("ext", false),
    (q) => q.setMcpServers({ ext: { command: "node", args: ["server.mjs"] } }),
    names,
  ]);
  assert.deepEqual(answers, [
    {
      added: ["calc2", "ext2", "bad", "noargs"],
      removed: ["calc"],
      errors: {
        bad: 'Executable not found in $PATH: "stdio"',
        noargs: "Spread syntax requires ...iterable not be null or undefined",
      },
    },
    [["ext", "connected"], ["ext2", "connected"], ["bad", "failed"], [
      "noargs",
      "failed",
    ], ["calc2", "pending"]],
    "ok",
    {
      added: ["ext"],
      removed: ["calc2", "ext2", "bad", "noargs"],
      errors: { ext: "Server status: disabled" },
    },
    [["ext", "disabled"]],
  ]);
});

Deno.test("a tool of a server that failed is not there: 'No such tool available'", async () => {
  const { users } = await afterOneTurn(
    {
      mcpServers: { gone: GONE },
      permissionMode: "bypassPermissions",
      env: { IS_SANDBOX: "1", PATH: Deno.env.get("PATH") ?? "" },
    },
    [],
    new ScenarioBuilder().on("hi").usesTool("mcp__gone__x", {}, { result: "never" }).respond(
      "Done.",
    ).build(),
  );
  const block = (users[0].message as { content: Array<Record<string, unknown>> }).content[0];
  assert.equal(
    block.content,
    "<tool_use_error>Error: No such tool available: mcp__gone__x</tool_use_error>",
  );
  assert.equal(block.is_error, true);
});

Deno.test("system/init lists the SDK servers' tools sorted by name, as the real CLI", async () => {
  const zcalc = createSdkMcpServer({
    name: "zcalc",
    version: "1.0.0",
    tools: ["zeta", "alpha"].map((n) =>
      tool(n, n, { a: z.number() }, () => Promise.resolve({ content: [] }))
    ),
  });
  const acalc = server("acalc", "1.0.0", "mul");
  const { inits } = await afterOneTurn({ mcpServers: { zcalc, acalc } }, []);
  assert.deepEqual(
    (inits[0].tools as string[]).filter((t) => t.startsWith("mcp__")),
    ["mcp__acalc__mul", "mcp__zcalc__alpha", "mcp__zcalc__zeta"],
  );
});
