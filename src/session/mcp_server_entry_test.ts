import assert from "node:assert/strict";
import { checkMcpEntry, mcpEntryWarnings, mcpUrlError } from "./mcp_server_entry.ts";

// The real CLI 2.1.332's debug log (--debug-to-stderr) for these entries of one --mcp-config
// value, run on 2026-11-26 against the mock's Messages API (FINDINGS_mcp.md, "Server entries").
const ENTRIES: Record<string, unknown> = {
  a: {},
  b: { type: "bogus", command: "x" },
  c: { command: "x", args: "y" },
  d: { command: 5 },
  e: { type: "sse" },
  f: { command: "x", env: { A: 5 } },
  g: 5,
  h: null,
  i: [],
  j: { type: "http", url: "not a url" },
  k: { type: "http" },
  l: { command: "" },
  m: { command: "x", args: [1] },
  n: { type: "stdio" },
  o: { url: "http://x" },
  p: { type: "ws", url: "ws://x" },
  q: { type: "sse", url: 5 },
  r: { type: "http", url: "http://x", headers: { a: 1 } },
  s: { type: 5 },
  t: { command: "x", extra: 1 },
};
const REAL = [
  '--mcp-config: 17 entry warning(s): mcpServers.a: Skipped — invalid MCP server config for "a": command: expected string, received undefined',
  'mcpServers.b: Skipped — unknown MCP server type "bogus" for server "b"',
  'mcpServers.c: Skipped — invalid MCP server config for "c": args: expected array, received string',
  'mcpServers.d: Skipped — invalid MCP server config for "d": command: expected string, received number',
  'mcpServers.e: Skipped — invalid MCP server config for "e": url: expected string, received undefined',
  'mcpServers.f: Skipped — invalid MCP server config for "f": env.A: expected string, received number',
  'mcpServers.g: Skipped — invalid MCP server config for "g": (root): expected object, received number',
  'mcpServers.h: Skipped — invalid MCP server config for "h": (root): expected object, received null',
  'mcpServers.i: Skipped — invalid MCP server config for "i": (root): expected object, received array',
  'mcpServers.k: Skipped — invalid MCP server config for "k": url: expected string, received undefined',
  'mcpServers.l: Skipped — invalid MCP server config for "l": command: Command cannot be empty',
  'mcpServers.m: Skipped — invalid MCP server config for "m": args.0: expected string, received number',
  'mcpServers.n: Skipped — invalid MCP server config for "n": command: expected string, received undefined',
  'mcpServers.o: Skipped — MCP server "o" has a "url" but no "type"; add "type": "http" (or "sse" / "ws") to this entry',
  'mcpServers.q: Skipped — invalid MCP server config for "q": url: expected string, received number',
  'mcpServers.r: Skipped — invalid MCP server config for "r": headers.a: expected string, received number',
  'mcpServers.s: Skipped — invalid MCP server config for "s": type: expected "stdio"; command: expected string, received undefined',
].join("; ");

const MORE: Record<string, unknown> = {
  a: { url: "http://x", command: "y" },
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
  q: { command: "x", args: ["a"], env: {} },
};
const REAL_MORE = [
  '--mcp-config: 11 entry warning(s): mcpServers.b: Skipped — invalid MCP server config for "b": type: expected "stdio"',
  'mcpServers.c: Skipped — invalid MCP server config for "c": args.0: expected string, received number; args.1: expected string, received number; env.A: expected string, received number',
  "mcpServers.d: Leading or trailing whitespace in: command",
  'mcpServers.e: Skipped — invalid MCP server config for "e": headers: expected record, received number',
  'mcpServers.f: Skipped — invalid MCP server config for "f": env: expected record, received number',
  'mcpServers.g: Skipped — invalid MCP server config for "g": args: expected array, received null',
  'mcpServers.h: Skipped — unknown MCP server type "sse-ide" for server "h"',
  'mcpServers.i: Skipped — unknown MCP server type "ws-ide" for server "i"',
  'mcpServers.j: Skipped — invalid MCP server config for "j": id: expected string, received undefined',
  'mcpServers.k: Skipped — unknown MCP server type "ftp" for server "k"',
  'mcpServers.p: Skipped — invalid MCP server config for "p": type: expected "stdio"',
].join("; ");

Deno.test("mcpEntryWarnings: the real CLI's words for every entry it skips, in its order", () => {
  assert.equal(mcpEntryWarnings(ENTRIES), REAL);
  assert.equal(mcpEntryWarnings(MORE), REAL_MORE);
  assert.equal(mcpEntryWarnings({ ok: { command: "x", args: ["a"] } }), undefined);
});

Deno.test("checkMcpEntry: what the real CLI keeps (and lists) and what it skips", () => {
  // the real CLI listed a, d, l, m, n, o, q of MORE (and j, p, t of ENTRIES) in system/init
  const kept = (entries: Record<string, unknown>) =>
    Object.entries(entries).filter(([n, c]) => checkMcpEntry(n, c).skip === undefined).map(([n]) =>
      n
    );
  assert.deepEqual(kept(MORE), ["a", "d", "l", "m", "n", "o", "q"]);
  assert.deepEqual(kept(ENTRIES), ["j", "p", "t"]);
  // names the CLI takes as they are
  for (const name of ["", "__proto__", "é".repeat(10_000), "a b"]) {
    assert.deepEqual(checkMcpEntry(name, { command: "x" }), {});
  }
});

Deno.test("mcpUrlError: a url the real CLI refuses before it connects, as mcp_status says it", () => {
  assert.equal(
    mcpUrlError({ type: "http", url: "not a url" }),
    "'url' is not a valid URL. Update the server's config and reconnect.",
  );
  assert.equal(
    mcpUrlError({ type: "ws", url: "nope" }),
    "'url' is not a valid URL. Update the server's config and reconnect.",
  );
  assert.equal(mcpUrlError({ type: "http", url: "" }), "No URL configured for this server");
  assert.match(mcpUrlError({ type: "http", url: "ftp://x" })!, /^Stopped an MCP request because/);
  assert.equal(mcpUrlError({ type: "http", url: "https://x/mcp" }), undefined);
  assert.equal(mcpUrlError({ command: "x" }), undefined);
});
