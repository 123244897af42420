// Deno's door for the interception, as a user's project has it: examples/intercept/ (an app that
// imports query() itself, its tests, the wrapper module and deno.test.json) copied into a fresh
// folder, its `jsr:@x/claude-mock` entries pointed at this checkout, and run with
// `deno test -A --config deno.test.json` (types are checked by the main suite`s deno check): a scenario, a named failure, a cassette and two tests
// at once, against the unchanged app. Without the map, mockClaude() names what to add.
import assert from "node:assert/strict";
import { fromFileUrl, toFileUrl } from "./_paths.ts";

const root = fromFileUrl(new URL("..", import.meta.url)).replace(/\/$/, "");
const example = `${root}/examples/intercept`;

async function copyExample(dir: string): Promise<void> {
  await Deno.mkdir(`${dir}/__cassettes__`, { recursive: true });
  for (const name of ["assistant.ts", "assistant_test.ts", "claude_sdk.ts"]) {
    await Deno.copyFile(`${example}/${name}`, `${dir}/${name}`);
  }
  await Deno.copyFile(`${example}/__cassettes__/hello.jsonl`, `${dir}/__cassettes__/hello.jsonl`);
  const config = JSON.parse(await Deno.readTextFile(`${example}/deno.test.json`));
  // the published package, here: this checkout's entry points
  config.imports["@x/claude-mock"] = toFileUrl(`${root}/mod.ts`);
  config.imports["@x/claude-mock/cassette"] = toFileUrl(`${root}/cassette.ts`);
  await Deno.writeTextFile(`${dir}/deno.test.json`, JSON.stringify(config, null, 2));
}

async function denoTest(dir: string, args: string[]): Promise<{ code: number; out: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["test", "-A", "--no-lock", "--no-check", ...args],
    cwd: dir,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { code: out.code, out: `${text.decode(out.stdout)}${text.decode(out.stderr)}` };
}

Deno.test("interception on Deno: deno.test.json maps the SDK to the wrapper; the app runs unchanged", async () => {
  const dir = await Deno.makeTempDir({ prefix: "claude-mock-import-map-" });
  try {
    await copyExample(dir);
    const { code, out } = await denoTest(dir, ["--config", "deno.test.json"]);
    assert.equal(code, 0, out);
    assert.match(out, /ok \| 4 passed \| 0 failed/);
    for (const name of ["scenario", "named failure", "real CLI", "two tests at once"]) {
      assert.match(out, new RegExp(`ask: [^\\n]*${name}[^\\n]* \\.\\.\\. ok`));
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("interception on Deno: without the map, mockClaude() names the import map entry", async () => {
  const dir = await Deno.makeTempDir({ prefix: "claude-mock-import-map-" });
  try {
    await copyExample(dir);
    const config = JSON.parse(await Deno.readTextFile(`${dir}/deno.test.json`));
    config.imports["@anthropic-ai/claude-agent-sdk"] =
      config.scopes["./claude_sdk.ts"]["@anthropic-ai/claude-agent-sdk"];
    delete config.scopes;
    await Deno.writeTextFile(`${dir}/deno.test.json`, JSON.stringify(config));
    const { code, out } = await denoTest(dir, [
      "--config",
      "deno.test.json",
      "--filter",
      "a scenario",
    ]);
    assert.equal(code, 1, out);
    assert.match(
      out,
      new RegExp(
        "Cannot activate mockClaude\\(\\): the app's import of @anthropic-ai/claude-agent-sdk " +
          'is not routed to claude-mock[^\\n]*map "@anthropic-ai/claude-agent-sdk" to a module ' +
          "that exports wrapClaudeSdk\\(sdk\\)",
      ),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
