// MockTransport reads the project's `.mcp.json` in the process's folder (the SDK's `cwd`), and a
// folder without one costs no failed read: the servers it names reach `system/init`, and none
// appear without it.
import assert from "node:assert/strict";
import { MockTransport, ScenarioBuilder } from "../mod.ts";

const ARGS = ["--output-format", "stream-json", "--verbose", "--input-format", "stream-json"];

/** The `mcp_servers` names of the first turn's `system/init`, the process run in `cwd`. */
async function initServers(cwd: string): Promise<string[]> {
  const scenario = new ScenarioBuilder().on("hi").respond("Hello!").build();
  const child = new MockTransport(scenario).spawn({
    command: "claude",
    args: ARGS,
    cwd,
    env: { CLAUDE_AGENT_SDK_VERSION: "0.3.328", CLAUDE_CODE_ENTRYPOINT: "sdk-ts" },
    signal: new AbortController().signal,
  });
  let out = "";
  child.stdout.on("data", (c: Uint8Array) => void (out += new TextDecoder().decode(c)));
  const ended = new Promise<void>((r) => child.stdout.once("end", () => r()));
  child.stdin.write(
    '{"type":"control_request","request_id":"r1","request":{"subtype":"initialize"}}\n',
  );
  child.stdin.write('{"type":"user","message":{"role":"user","content":"hi"}}\n');
  child.stdin.end();
  await ended;
  const init = out.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l))
    .find((f) => f.type === "system" && f.subtype === "init");
  return (init.mcp_servers as Array<{ name: string }>).map((s) => s.name);
}

Deno.test("MockTransport: the project's .mcp.json servers are listed, and none without the file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "claude-mock-mcp-" });
  try {
    assert.deepEqual(await initServers(dir), []);
    await Deno.writeTextFile(
      `${dir}/.mcp.json`,
      JSON.stringify({ mcpServers: { docs: { command: "no-such-server-binary" } } }),
    );
    assert.deepEqual(await initServers(dir), ["docs"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
