import assert from "node:assert/strict";
import { createBuildContext } from "../builders/build_context.ts";
import { liveToolRunner } from "./live_tools.ts";

Deno.test("liveToolRunner: Glob and Grep over the cwd, other tools left to the scenario", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/src/deep`, { recursive: true });
    await Deno.writeTextFile(`${dir}/src/a.ts`, "export const a = 1;\n");
    await Deno.writeTextFile(`${dir}/src/deep/b.ts`, "// TODO: b\n");
    await Deno.writeTextFile(`${dir}/readme.md`, "TODO: docs\n");
    const run = liveToolRunner(dir);
    const ctx = createBuildContext({ seed: 1, cwd: dir });
    const glob = await run({ name: "Glob", input: { pattern: "**/*.ts" }, ctx });
    assert.equal(glob?.content, `${dir}/src/a.ts\n${dir}/src/deep/b.ts`);
    const grep = await run({ name: "Grep", input: { pattern: "TODO" }, ctx });
    assert.equal(grep?.content, `Found 2 files\n${dir}/readme.md\n${dir}/src/deep/b.ts`);
    const none = await run({ name: "Glob", input: { pattern: "*.py" }, ctx });
    assert.equal(none?.content, "No files found");
    assert.equal(await liveToolRunner(dir, ["Read"])({ name: "Bash", input: {}, ctx }), undefined);
    const missing = await run({ name: "Read", input: { file_path: "nope.txt" }, ctx });
    assert.equal(missing?.isError, true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
