import assert from "node:assert/strict";
import { parseCliFlags } from "./cli_args.ts";

Deno.test("parseCliFlags: --tools as the SDK passes it (=list, = for none) and as typed", () => {
  assert.deepEqual(parseCliFlags(["--tools=Read,Glob"]).tools, ["Read", "Glob"]);
  assert.deepEqual(parseCliFlags(["--tools="]).tools, []);
  assert.deepEqual(parseCliFlags(["--tools", "Bash", "Edit", "--verbose"]).tools, ["Bash", "Edit"]);
  assert.deepEqual(parseCliFlags(["--tools", "default"]).tools, ["default"]);
  assert.equal(parseCliFlags(["--verbose"]).tools, undefined);
});

Deno.test("parseCliFlags: --mcp-config values kept as given", () => {
  const json = '{"mcpServers":{"db":{"command":"db-server"}}}';
  // as a variadic option: its values end at the next option, long or short
  const flags = parseCliFlags([
    "--mcp-config",
    json,
    "more.json",
    "-p",
    "--allowedTools",
    "Bash",
    "-c",
  ]);
  assert.deepEqual(flags.mcpConfig, [json, "more.json"]);
  assert.deepEqual(flags.allowedTools, ["Bash"]);
  assert.deepEqual(parseCliFlags([`--mcp-config=${json}`]).mcpConfig, [json]);
});

Deno.test("parseCliFlags: --max-turns takes any number as the real CLI; 0 is no limit", () => {
  assert.equal(parseCliFlags(["--max-turns", "0"]).maxTurns, undefined);
  assert.equal(parseCliFlags(["--max-turns=0"]).maxTurns, undefined);
  assert.equal(parseCliFlags(["--max-turns=-1"]).maxTurns, -1);
  assert.equal(parseCliFlags(["--max-turns", "1.5"]).maxTurns, 1.5);
  assert.throws(() => parseCliFlags(["--max-turns", "abc"]), {
    name: "RangeError",
    message: "Invalid --max-turns: expected a number, got 'abc'",
  });
});
