import assert from "node:assert/strict";
import { hostEnv, hostExecPath, onDeno, runShell } from "./_process.ts";

Deno.test("runShell: output, exit code and cwd of sh -c, with stdin closed", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const out = await runShell("pwd; echo err >&2; cat; exit 3", dir);
    assert.deepEqual(out, { code: 3, stdout: `${await Deno.realPath(dir)}\n`, stderr: "err\n" });
    assert.deepEqual(await runShell("true", dir), { code: 0, stdout: "", stderr: "" });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hostEnv, hostExecPath, onDeno: the running Deno's", () => {
  assert.equal(onDeno, true);
  assert.equal(hostExecPath(), Deno.execPath());
  const env = hostEnv();
  assert.equal(env.PATH, Deno.env.get("PATH"));
  env.PATH = "changed";
  assert.notEqual(hostEnv().PATH, "changed"); // a copy
});
