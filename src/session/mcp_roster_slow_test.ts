// Scale of the MCP roster (slow tier: a few seconds of one worker): 130,000 servers, more than
// V8 takes as the arguments of one call (a spread into push or splice overflowed), looked up by
// name in maps (the lookups were quadratic: 16,000 servers in one mcp_set_servers took 8 s).
import assert from "node:assert/strict";
import { McpRoster } from "./mcp_roster.ts";

Deno.test("McpRoster: 130,000 servers of --mcp-config and of one mcp_set_servers, hostile names kept as given (no argument-list overflow, by name in maps)", () => {
  const many: Record<string, unknown> = {};
  for (let i = 0; i < 130_000; i++) many[`s${i}`] = { command: "x", args: [] };
  const roster = new McpRoster([JSON.stringify({ mcpServers: many })]);
  assert.equal(roster.entries.length, 130_000);
  assert.equal(roster.entries[129_999].name, "s129999");
  const hostile: Record<string, unknown> = {};
  for (const name of ["", "constructor", "toString", "ü名", "n".repeat(10_000), "a b\nc"]) {
    hostile[name] = { type: "stdio", command: "x", args: [] };
  }
  for (let i = 0; i < 130_000; i++) hostile[`t${i}`] = { type: "stdio", command: "x", args: [] };
  const answer = roster.set(hostile);
  assert.equal(answer.added.length, 130_006);
  assert.deepEqual(answer.removed, []);
  assert.deepEqual(Object.keys(answer.errors), []);
  assert.equal(roster.entries.length, 260_006);
  assert.equal(roster.find("constructor")?.source, "dynamic");
  // the same call again changes nothing; an empty one removes what the calls added
  assert.deepEqual(roster.set(hostile), { added: [], removed: [], errors: {} });
  assert.equal(roster.set({}).removed.length, 130_006);
  assert.equal(roster.entries.length, 130_000);
});
