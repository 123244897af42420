import assert from "node:assert/strict";
import { folderOf, signalTimer } from "./_main.ts";

// On Deno the first Web Stream loads the streams implementation (about 5 ms of the binary's
// start-up), the first setTimeout the timers (about 6 ms) and the first setImmediate the Node
// compatibility layer (about 10 ms): the binary's print mode reaches stdio through the handles,
// files through sync operations, and gives the event loop its turns by waiting on its own
// writes. Smaller, at a process's first use: AbortController, addEventListener and abort()
// (about 1.5 ms together; the engine's cancellations are AbortLatches), a stat (0.4 ms: its
// Date objects), Date's toISOString (0.4 ms; frames are stamped by isoTime) and crypto (0.2
// ms). This run records every way in that a change could bring them back.
Deno.test("on Deno, the binary's print mode makes no Web Stream and arms no timer (stdio through handles, files without writeTextFile, SIGTERM handled once it waits)", async () => {
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
    for (const name of ["ReadableStream", "WritableStream", "TransformStream", "setImmediate", "setTimeout", "AbortController"]) {
      watch(globalThis, name, name);
    }
    const wrap = (target, key, label) => {
      const original = target[key];
      target[key] = function (...args) { touched.add(label); return original.apply(this, args); };
    };
    wrap(EventTarget.prototype, "addEventListener", "addEventListener");
    wrap(Date.prototype, "toISOString", "Date.toISOString");
    wrap(Crypto.prototype, "getRandomValues", "crypto.getRandomValues");
    watch(Deno.stdin, "readable", "Deno.stdin.readable");
    watch(Deno.stdout, "writable", "Deno.stdout.writable");
    watch(Deno.stderr, "writable", "Deno.stderr.writable");
    for (const name of ["writeTextFile", "writeFile", "addSignalListener", "statSync"]) {
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
  // a reply long enough that the engine works for more than its 4 ms between event loop turns
  const long = { exchanges: [{ on: { any: true }, steps: [{ say: "word ".repeat(3000) }] }] };
  await Deno.writeTextFile(`${dir}/long.json`, JSON.stringify(long));
  const runs = [
    ["--output-format", "json"],
    ["--output-format", "stream-json", "--verbose"],
    [
      "--output-format",
      "stream-json",
      "--verbose",
      "--include-partial-messages",
      "--scenario",
      `${dir}/long.json`,
    ],
  ];
  const run = async (args: string[], piped?: string, touched: string[] = []) => {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["eval", "--no-config", script, "--", "-p", ...args],
      env: { CLAUDE_CONFIG_DIR: `${dir}/config`, CLAUDE_MOCK_STATE_DIR: `${dir}/state` },
      stdin: piped === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    if (piped !== undefined) {
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(piped));
      await writer.close();
    }
    const out = await child.output();
    const decoder = new TextDecoder();
    const report = JSON.parse(decoder.decode(out.stderr).trim().split("\n").at(-1)!);
    assert.deepEqual(report, { code: 0, touched }, decoder.decode(out.stderr));
    return decoder.decode(out.stdout).trim().split("\n").map((l) => JSON.parse(l));
  };
  try {
    for (const args of runs) {
      const lines = await run(["hello", ...args]);
      assert.equal(lines.at(-1).type, "result");
      if (args.includes("--include-partial-messages")) {
        assert.ok(lines.length > 500, `${lines.length} lines`);
      }
    }
    // a prompt piped in: the pipe's 3 s silence timer is armed and cancelled, not a setTimeout
    // (an AbortSignal.timeout's listener); a process that waits on a pipe installs its SIGTERM
    // handler (a run that never waits does not: above, no addSignalListener); the pipe is
    // known from fd 0's /proc link, without a stat
    const [result] = await run(["--output-format", "json"], "a piped prompt\n", [
      "Deno.addSignalListener",
      "addEventListener",
    ]);
    assert.equal(result.result, "Hello! How can I help?");
    const projects = [...Deno.readDirSync(`${dir}/config/projects`)];
    const transcripts = [...Deno.readDirSync(`${dir}/config/projects/${projects[0].name}`)];
    assert.equal(transcripts.length, 4, "the runs kept their transcripts");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("signalTimer: fires once its time is up, not when cancelled, in the order armed", async () => {
  const fired: string[] = [];
  const cancel = signalTimer(() => fired.push("cancelled"), 0);
  signalTimer(() => fired.push("first"), 0);
  cancel();
  await new Promise<void>((resolve) => signalTimer(resolve, 0));
  assert.deepEqual(fired, ["first"]);
  // a bad time is no time at all, as for setTimeout
  await new Promise<void>((resolve) => signalTimer(resolve, NaN));
  await new Promise<void>((resolve) => signalTimer(resolve, -5));
});

Deno.test("folderOf: the folder of the binary's script, from a file URL or a path", () => {
  assert.equal(
    folderOf("file:///p/node_modules/@x/claude-mock/dist/bin.js", "/w"),
    "/p/node_modules/@x/claude-mock/dist",
  );
  assert.equal(folderOf("file:///a%20b/bin.js", "/w"), "/a b");
  assert.equal(folderOf("node_modules/.bin/claude-mock", "/w/"), "/w/node_modules/.bin");
  assert.equal(folderOf("/bin.js", "/w"), "/");
  assert.equal(folderOf(undefined, "/w"), undefined);
  assert.equal(folderOf("https://example.com/bin.js", "/w"), undefined, "not a local file");
});
