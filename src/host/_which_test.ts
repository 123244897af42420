import assert from "node:assert/strict";
import { commandState, type PathKind, pathKind } from "./_which.ts";

Deno.test("commandState: a bare name on PATH; a path, relative to the cwd, must be an executable file", () => {
  const files: Record<string, PathKind> = {
    "/usr/bin/node": "executable",
    "/bin/sh": "executable",
    "/p/run": "executable",
    "/p/data": "other",
    "/tmp": "other",
  };
  const kind = (p: string): PathKind => files[p] ?? "missing";
  const at = (path: string | undefined) => ({ path, cwd: "/p", kind });
  assert.equal(commandState("node", at("/bin:/usr/bin/")), "found");
  assert.equal(commandState("sh", at("/bin")), "found");
  assert.equal(commandState("nope", at("/bin:/usr/bin")), "missing");
  assert.equal(commandState("node", at(undefined)), "missing");
  assert.equal(commandState("data", at("/p")), "missing");
  assert.equal(commandState("", at("/bin")), "missing");
  assert.equal(commandState("./run", at("")), "found");
  assert.equal(commandState("/p/run", at("")), "found");
  assert.equal(commandState("./data", at("")), "denied");
  assert.equal(commandState("/tmp", at("")), "denied");
  assert.equal(commandState("/nonexistent/bin", at("")), "missing");
  assert.equal(commandState("../p//run", at("")), "found");
});

Deno.test("pathKind: a real program, a folder, a plain file, nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/run`, "#!/bin/sh\n");
    await Deno.writeTextFile(`${dir}/data`, "x");
    await Deno.chmod(`${dir}/run`, 0o755);
    await Deno.chmod(`${dir}/data`, 0o644);
    assert.equal(pathKind(`${dir}/run`), "executable");
    assert.equal(pathKind(`${dir}/data`), "other");
    assert.equal(pathKind(dir), "other");
    assert.equal(pathKind(`${dir}/missing`), "missing");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
