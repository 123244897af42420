import assert from "node:assert/strict";
import { runFake } from "../../tests/_fake_cli.ts";
import { withMcpConfigFiles } from "./_mcp_config_flag.ts";
import { CliUsageError } from "./parse_argv.ts";

// what the real claude 2.1.332 (and 2.1.328) prints, exit 1 (tests/fixtures/real/FINDINGS_mcp.md)
const files: Record<string, string> = {
  "/p/good.json": '{"mcpServers":{"a":{"command":"x"}}}',
  "/p/bad.json": "{bad json\n",
  "/p/arr.json": "[1]\n",
};
const readText = (path: string) =>
  path in files ? Promise.resolve(files[path]) : Promise.reject(new Error("ENOENT"));
const refusal = async (value: string) => {
  try {
    await withMcpConfigFiles(["--mcp-config", value], { cwd: "/p", readText });
  } catch (error) {
    assert.ok(error instanceof CliUsageError);
    assert.equal(error.exitCode, 1);
    return error.message;
  }
  return undefined;
};

Deno.test("--mcp-config: a value that is not JSON is a path, read relative to the cwd", async () => {
  assert.deepEqual(
    await withMcpConfigFiles(["--model", "m", "--mcp-config", "good.json", "/p/good.json"], {
      cwd: "/p",
      readText,
    }),
    ["--model", "m", "--mcp-config", files["/p/good.json"], files["/p/good.json"]],
  );
  assert.deepEqual(
    await withMcpConfigFiles(['--mcp-config={"mcpServers":{}}', "--verbose"], {
      cwd: "/p",
      readText,
    }),
    ["--mcp-config", '{"mcpServers":{}}', "--verbose"],
  );
  assert.deepEqual(await withMcpConfigFiles(["-p", "hi"], { cwd: "/p", readText }), ["-p", "hi"]);
});

Deno.test("--mcp-config: the real CLI's refusals, word for word", async () => {
  const head = "Error: Invalid MCP configuration:\n";
  assert.equal(await refusal("nope.json"), `${head}MCP config file not found: /p/nope.json`);
  assert.equal(await refusal("{bad"), `${head}MCP config file not found: /p/{bad`);
  assert.equal(await refusal("null"), `${head}MCP config file not found: /p/null`);
  assert.equal(await refusal("bad.json"), `${head}MCP config is not a valid JSON`);
  assert.equal(await refusal("arr.json"), `${head}Invalid input: expected object, received array`);
  assert.equal(await refusal("5"), `${head}Invalid input: expected object, received number`);
  assert.equal(
    await refusal("{}"),
    `${head}mcpServers: Invalid input: expected record, received undefined`,
  );
  assert.equal(
    await refusal('{"mcpServers":[]}'),
    `${head}mcpServers: Invalid input: expected record, received array`,
  );
  assert.equal(
    await refusal('{"mcpServers":5}'),
    `${head}mcpServers: Invalid input: expected record, received number`,
  );
  const hint =
    'mcpServers: Missing "mcpServers" — found "servers" instead. Claude Code reads MCP servers from the "mcpServers" key.';
  assert.equal(await refusal('{"servers":{}}'), `${head}${hint}`);
  assert.equal(await refusal('{"x":1,"servers":5}'), `${head}${hint}`);
  assert.equal(
    await refusal('{"mcp_servers":{}}'),
    `${head}mcpServers: Invalid input: expected record, received undefined`,
  );
  // server entries are not checked
  assert.equal(await refusal('{"mcpServers":{"a":5}}'), undefined);
});

Deno.test("the binary: -p with a --mcp-config file that is not there fails before anything runs", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { code, stdout, stderr } = await runFake(["-p", "hi", "--mcp-config", "nope.json"], dir, {
      stdin: "",
    });
    assert.deepEqual({ code, stdout, stderr }, {
      code: 1,
      stdout: "",
      stderr: `Error: Invalid MCP configuration:\nMCP config file not found: ${dir}/nope.json\n`,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
