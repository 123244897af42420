import assert from "node:assert/strict";

// On Deno the first Web Stream loads the streams implementation (about 5 ms of the binary's
// start-up): the binary's print mode reaches stdio through the handles and files through
// sync operations. This run records every way in that a change could bring streams back.
Deno.test("on Deno, the binary's print mode makes no Web Stream (stdio through handles, files without writeTextFile)", async () => {
  const main = new URL("./_main.ts", import.meta.url).href;
  const script = `
    const touched = new Set();
    const watch = (target, key, label) => {
      let owner = target;
      while (owner && !Object.getOwnPropertyDescriptor(owner, key)) owner = Object.getPrototypeOf(owner);
      const own = Object.getOwnPropertyDescriptor(owner, key);
      Object.defineProperty(target, key, {
        configurable: true,
        get() { touched.add(label); return own.get ? own.get.call(this) : own.value; },
      });
    };
    for (const name of ["ReadableStream", "WritableStream", "TransformStream"]) watch(globalThis, name, name);
    watch(Deno.stdin, "readable", "Deno.stdin.readable");
    watch(Deno.stdout, "writable", "Deno.stdout.writable");
    watch(Deno.stderr, "writable", "Deno.stderr.writable");
    for (const name of ["writeTextFile", "writeFile"]) {
      const original = Deno[name];
      Deno[name] = (...args) => { touched.add("Deno." + name); return original(...args); };
    }
    const exit = Deno.exit;
    Deno.exit = (code) => {
      Deno.stderr.writeSync(new TextEncoder().encode("\\n" + JSON.stringify({ code, touched: [...touched] })));
      exit(code);
    };
    const { runMain } = await import(${JSON.stringify(main)});
    await runMain();
  `;
  const dir = await Deno.makeTempDir();
  try {
    for (const format of ["json", "stream-json"]) {
      const out = await new Deno.Command(Deno.execPath(), {
        args: [
          "eval",
          "--no-config",
          script,
          "--",
          "-p",
          "hello",
          "--output-format",
          format,
          "--verbose",
        ],
        env: { CLAUDE_CONFIG_DIR: `${dir}/config`, CLAUDE_MOCK_STATE_DIR: `${dir}/state` },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const decoder = new TextDecoder();
      const report = JSON.parse(decoder.decode(out.stderr).trim().split("\n").at(-1)!);
      assert.deepEqual(report, { code: 0, touched: [] }, decoder.decode(out.stderr));
      const lines = decoder.decode(out.stdout).trim().split("\n").map((l) => JSON.parse(l));
      assert.equal(lines.at(-1).result, "Hello! How can I help?");
    }
    const transcripts = [...Deno.readDirSync(`${dir}/config/projects`)];
    assert.equal(transcripts.length, 1, "the runs kept their transcripts");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
