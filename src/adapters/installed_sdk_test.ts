import assert from "node:assert/strict";
import { findInstalledSdk } from "./installed_sdk.ts";

Deno.test("findInstalledSdk: the nearest node_modules SDK up from the folder, its manifest's CLI", () => {
  const files: Record<string, string> = {
    "/app/node_modules/@anthropic-ai/claude-agent-sdk/package.json":
      '{"version":"0.3.332","claudeCodeVersion":"2.1.332"}',
    "/app/node_modules/@anthropic-ai/claude-agent-sdk/manifest.json": '{"version":"2.1.332"}',
    "/other/node_modules/@anthropic-ai/claude-agent-sdk/package.json":
      '{"version":"0.3.328","claudeCodeVersion":"2.1.328"}',
  };
  const read = (path: string) => files[path];
  assert.deepEqual(findInstalledSdk("/app/src/deep", read), {
    version: "0.3.332",
    cliVersion: "2.1.332",
    dir: "/app/node_modules/@anthropic-ai/claude-agent-sdk",
  });
  // no manifest: the package's claudeCodeVersion
  assert.equal(findInstalledSdk("/other", read)?.cliVersion, "2.1.328");
  assert.equal(findInstalledSdk("/nowhere/at/all", read), undefined);
});

Deno.test("findInstalledSdk: reads the real disk (none in a fresh temp folder)", () => {
  const dir = Deno.makeTempDirSync();
  try {
    assert.equal(findInstalledSdk(dir), undefined);
    const sdk = `${dir}/node_modules/@anthropic-ai/claude-agent-sdk`;
    Deno.mkdirSync(sdk, { recursive: true });
    Deno.writeTextFileSync(`${sdk}/package.json`, '{"version":"0.3.331"}');
    Deno.writeTextFileSync(`${sdk}/manifest.json`, '{"version":"2.1.331"}');
    Deno.mkdirSync(`${dir}/app`);
    assert.equal(findInstalledSdk(`${dir}/app`)?.cliVersion, "2.1.331");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
