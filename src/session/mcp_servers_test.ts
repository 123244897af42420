import assert from "node:assert/strict";
import { mcpConfigHas } from "./mcp_servers.ts";

Deno.test("mcpConfigHas: JSON configs name their servers; a path could hold any; bad JSON none", () => {
  const json = '{"mcpServers":{"db":{"command":"db-server"}}}';
  assert.equal(mcpConfigHas([json], "db"), true);
  assert.equal(mcpConfigHas([json], "other"), false);
  assert.equal(mcpConfigHas(["./mcp.json"], "other"), true);
  assert.equal(mcpConfigHas(["{not json"], "db"), false);
  assert.equal(mcpConfigHas(undefined, "db"), false);
  assert.equal(mcpConfigHas(['{"mcpServers":{"toString":{}}}'], "constructor"), false);
});
