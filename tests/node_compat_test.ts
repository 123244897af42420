// Node: the library, bundled for Node, drives the real SDK under Node itself (a
// subprocess). The SDK is the one deno.json's import map pins, found through the import map
// (no version or cache path written here), and the test fails if Node loaded another one. The
// npm package itself is checked as users install it, with the pinned and the latest SDK, by
// `deno task npm:check` (scripts/npm_check.ts).
import assert from "node:assert/strict";
import { pinnedSdkVersion } from "../scripts/npm_package_json.ts";
import { fromFileUrl, toFileUrl } from "./_paths.ts";

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

/** The SDK entry the import map resolves to (its entry imports only node: built-ins). */
function sdkEntry(): string {
  const entry = new URL(import.meta.resolve("@anthropic-ai/claude-agent-sdk"));
  assert.equal(entry.protocol, "file:", `the SDK resolved to ${entry.href}, not a file`);
  return fromFileUrl(entry);
}

const node = await run("node", ["--version"]).catch(() => undefined);

Deno.test({
  name: "MockTransport under Node: the real SDK (deno.json's pin) runs through mock.options()",
  ignore: node === undefined || node.code !== 0,
  async fn() {
    const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
    const pinned = pinnedSdkVersion(config);
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
      const entry = toFileUrl(sdkEntry());
      const script = `
import { readFileSync } from "node:fs";
import { query } from ${JSON.stringify(entry)};
import { MockTransport, PermissionRecorder, ScenarioBuilder } from "./claude-mock.mjs";
const sdk = JSON.parse(readFileSync(new URL("./package.json", ${JSON.stringify(entry)}), "utf8"));
const mock = new MockTransport(new ScenarioBuilder().on("hello").usesBash("make").respond("Hi from Node!").build());
const permissions = PermissionRecorder.allowAll();
const kinds = [];
let result;
for await (const m of query({ prompt: "hello", options: { ...mock.options(), canUseTool: permissions.canUseTool } })) {
  kinds.push(m.type);
  if (m.type === "result") result = m.result;
}
console.log(JSON.stringify({ kinds, result, exit: await mock.exited, asked: permissions.asked(), node: process.version, sdk: sdk.version }));
`;
      await Deno.writeTextFile(`${dir}/run.mjs`, script);
      const ran = await run("node", ["run.mjs"], dir);
      assert.equal(ran.code, 0, ran.err);
      const report = JSON.parse(ran.out.trim().split("\n").at(-1)!);
      assert.equal(report.sdk, pinned, "Node loaded another SDK than deno.json pins");
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
