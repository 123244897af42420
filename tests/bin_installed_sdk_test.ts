// The fake binary installed in a project claims the CLI of the Agent SDK installed beside it,
// even when it runs from another folder (a test's temp cwd): the project's node_modules is
// found from the binary's own place when the working directory has no SDK.
import assert from "node:assert/strict";
import { NEWEST_CLI_VERSION } from "../builders.ts";

const ROOT = new URL("..", import.meta.url).pathname;

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isDirectory) await copyTree(`${from}/${entry.name}`, `${to}/${entry.name}`);
    else await Deno.copyFile(`${from}/${entry.name}`, `${to}/${entry.name}`);
  }
}

async function version(bin: string, cwd: string): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-config", bin, "--version"],
    cwd,
    // no SDK spawns it (an SDK's query() elsewhere in this process may have left its version)
    env: { CLAUDE_AGENT_SDK_VERSION: "" },
    stdin: "null",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

Deno.test("the binary in a project's node_modules claims the CLI of the SDK beside it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const project = `${dir}/project`;
    await copyTree(`${ROOT}dist`, `${project}/node_modules/@x/claude-mock/dist`);
    const sdk = `${project}/node_modules/@anthropic-ai/claude-agent-sdk`;
    await Deno.mkdir(sdk, { recursive: true });
    await Deno.writeTextFile(`${sdk}/package.json`, JSON.stringify({ version: "0.3.331" }));
    await Deno.writeTextFile(`${sdk}/manifest.json`, JSON.stringify({ version: "2.1.331" }));
    const elsewhere = `${dir}/elsewhere`;
    await Deno.mkdir(elsewhere);
    const bin = `${project}/node_modules/@x/claude-mock/dist/bin.js`;
    assert.equal(await version(bin, elsewhere), "2.1.331 (Claude Code)\n");
    // an SDK installed for the working directory comes first
    const other = `${elsewhere}/node_modules/@anthropic-ai/claude-agent-sdk`;
    await Deno.mkdir(other, { recursive: true });
    await Deno.writeTextFile(`${other}/package.json`, JSON.stringify({ version: "0.3.328" }));
    await Deno.writeTextFile(`${other}/manifest.json`, JSON.stringify({ version: "2.1.328" }));
    assert.equal(await version(bin, elsewhere), "2.1.328 (Claude Code)\n");
    // with neither, the newest the mock knows
    await Deno.remove(`${project}/node_modules/@anthropic-ai`, { recursive: true });
    assert.equal(await version(bin, dir), `${NEWEST_CLI_VERSION} (Claude Code)\n`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("installFakeClaude's environment drops the SDK version a query() left in this process", async () => {
  const { installFakeClaude } = await import("../cli.ts");
  await using fake = await installFakeClaude();
  assert.equal(fake.env.CLAUDE_AGENT_SDK_VERSION, "");
  // a program run from a process where an SDK ran passes that SDK's version on: the fake's
  // environment puts it aside (no SDK is installed for the fake's folder: the newest CLI)
  const out = await new Deno.Command("claude", {
    args: ["--version"],
    cwd: fake.dir,
    env: { CLAUDE_AGENT_SDK_VERSION: "0.3.331", ...fake.env },
    stdin: "null",
  }).output();
  assert.equal(new TextDecoder().decode(out.stdout), `${NEWEST_CLI_VERSION} (Claude Code)\n`);
});
