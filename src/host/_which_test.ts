import assert from "node:assert/strict";
import { commandOnPath, isExecutableFile } from "./_which.ts";

Deno.test("commandOnPath: a bare name is looked up on PATH; a path with a slash is taken as there", () => {
  const files = new Set(["/usr/bin/node", "/bin/sh"]);
  const isExecutable = (p: string) => files.has(p);
  assert.equal(commandOnPath("node", { path: "/bin:/usr/bin/", isExecutable }), true);
  assert.equal(commandOnPath("sh", { path: "/bin", isExecutable }), true);
  assert.equal(commandOnPath("nope", { path: "/bin:/usr/bin", isExecutable }), false);
  assert.equal(commandOnPath("node", { path: undefined, isExecutable }), false);
  assert.equal(commandOnPath("./anything", { path: "", isExecutable }), true);
  assert.equal(commandOnPath("", { path: "/bin", isExecutable }), false);
});

Deno.test("isExecutableFile: a real program is, a folder or a missing file is not", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/run`, "#!/bin/sh\n");
    await Deno.writeTextFile(`${dir}/data`, "x");
    await Deno.chmod(`${dir}/run`, 0o755);
    await Deno.chmod(`${dir}/data`, 0o644);
    assert.equal(isExecutableFile(`${dir}/run`), true);
    assert.equal(isExecutableFile(`${dir}/data`), false);
    assert.equal(isExecutableFile(dir), false);
    assert.equal(isExecutableFile(`${dir}/missing`), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
