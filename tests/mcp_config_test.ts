// --mcp-config the real CLI refuses is refused the same way (tests/fixtures/real/print_faults/
// mcp_config.json): the fake binary took any value, and ran.
import assert from "node:assert/strict";
import { runFake } from "./_fake_cli.ts";

const RECORDED = JSON.parse(
  await Deno.readTextFile(
    new URL("./fixtures/real/print_faults/mcp_config.json", import.meta.url),
  ),
);

const fake = (argv: string[], dir: string) => runFake(argv, dir);

Deno.test("--mcp-config: what the real CLI refuses is refused with its words, exit 1", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const [name, text] of Object.entries(RECORDED.files as Record<string, string>)) {
      await Deno.writeTextFile(`${dir}/${name}`, text);
    }
    for (const run of RECORDED.runs) {
      const r = await fake(run.argv, dir);
      assert.deepEqual(
        [r.code, r.stdout, r.stderr],
        [run.exit_code, run.stdout, run.stderr.replace("/home/user/project", dir)],
        run.argv.join(" "),
      );
    }
    // what it takes: JSON with an mcpServers record, or a file holding it
    await Deno.writeTextFile(`${dir}/ok.json`, '{"mcpServers":{}}');
    for (const value of ['{"mcpServers":{}}', "ok.json"]) {
      const r = await fake(["-p", "hi", "--mcp-config", value], dir);
      assert.equal(r.code, 0, r.stderr);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
