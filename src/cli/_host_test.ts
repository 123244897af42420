import assert from "node:assert/strict";
import { hostEnv, hostExecPath, onDeno, runShell } from "./_host.ts";

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

Deno.test("on Deno, the binary's print mode never reads globalThis.process (it loads the Node layer)", async () => {
  const runCli = new URL("./run_cli.ts", import.meta.url).href;
  const script = `
    const own = Object.getOwnPropertyDescriptor(globalThis, "process");
    let reads = 0;
    Object.defineProperty(globalThis, "process", {
      configurable: true,
      get() { reads++; return own.get ? own.get.call(globalThis) : own.value; },
    });
    const { runCli } = await import(${JSON.stringify(runCli)});
    let out = "";
    const code = await runCli({
      argv: ["-p", "hello", "--output-format", "json"],
      env: { CLAUDE_CONFIG_DIR: Deno.args[0] + "/config", CLAUDE_MOCK_STATE_DIR: Deno.args[0] + "/state" },
      cwd: Deno.args[0],
      stdin: new Blob([]).stream(),
      stdinIsTerminal: true,
      stdoutIsTerminal: false,
      stdout: new WritableStream({ write: (c) => void (out += new TextDecoder().decode(c)) }),
      stderr: new WritableStream(),
    });
    console.log(JSON.stringify({ code, reads, result: JSON.parse(out).result }));
  `;
  const dir = await Deno.makeTempDir();
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--no-config", script, dir],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decoder = new TextDecoder();
    assert.equal(out.code, 0, decoder.decode(out.stderr));
    assert.deepEqual(JSON.parse(decoder.decode(out.stdout)), {
      code: 0,
      reads: 0,
      result: "Hello! How can I help?",
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
