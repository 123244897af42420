// Node: the library, bundled for Node, drives the real SDK under Node itself (a
// subprocess), the way an npm user runs it.
import assert from "node:assert/strict";
import { fromFileUrl, toFileUrl } from "./_paths.ts";

const SDK_VERSION = "0.3.328";

async function run(
  cmd: string,
  args: string[],
  cwd?: string,
): Promise<{ code: number; out: string; err: string }> {
  const output = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: output.code, out: decode(output.stdout), err: decode(output.stderr) };
}

async function sdkEntry(): Promise<string> {
  // Deno's npm cache holds the SDK the tests already use; its entry imports only node: built-ins.
  const info = JSON.parse((await run(Deno.execPath(), ["info", "--json"])).out);
  const entry =
    `${info.npmCache}/registry.npmjs.org/@anthropic-ai/claude-agent-sdk/${SDK_VERSION}/sdk.mjs`;
  await Deno.stat(entry);
  return entry;
}

const node = await run("node", ["--version"]).catch(() => undefined);

Deno.test({
  name: "MockTransport under Node: the real SDK's query() runs through mock.spawn",
  ignore: node === undefined || node.code !== 0,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "claude-mock-node-" });
    try {
      const mod = fromFileUrl(new URL("../mod.ts", import.meta.url));
      const bundled = await run(Deno.execPath(), [
        "bundle",
        "--platform=node",
        "-o",
        `${dir}/claude-mock.mjs`,
        mod,
      ]);
      assert.equal(bundled.code, 0, bundled.err);
      const script = `
import { query } from ${JSON.stringify(toFileUrl(await sdkEntry()))};
import { MockTransport, PermissionRecorder, ScenarioBuilder } from "./claude-mock.mjs";
const mock = new MockTransport(new ScenarioBuilder().on("hello").usesBash("make").respond("Hi from Node!").build());
const permissions = PermissionRecorder.allowAll();
const kinds = [];
let result;
for await (const m of query({ prompt: "hello", options: { spawnClaudeCodeProcess: mock.spawn, canUseTool: permissions.canUseTool, pathToClaudeCodeExecutable: "claude" } })) {
  kinds.push(m.type);
  if (m.type === "result") result = m.result;
}
console.log(JSON.stringify({ kinds, result, exit: await mock.exited, asked: permissions.asked(), node: process.version }));
`;
      await Deno.writeTextFile(`${dir}/run.mjs`, script);
      const ran = await run("node", ["run.mjs"], dir);
      assert.equal(ran.code, 0, ran.err);
      const report = JSON.parse(ran.out.trim().split("\n").at(-1)!);
      assert.deepEqual(report.kinds, ["system", "assistant", "user", "assistant", "result"]);
      assert.equal(report.result, "Hi from Node!");
      assert.deepEqual(report.exit, { code: 0, signal: null });
      assert.equal(report.asked, 1);
      assert.match(report.node, /^v\d+/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
