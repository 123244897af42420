import assert from "node:assert/strict";
import { any } from "../scenario/matcher.ts";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import { runCli, runCliProcess } from "./run_cli.ts";
import { DEFAULT_REPLY, defaultScenario } from "./_run_scenario.ts";
import { AbortLatch } from "../timing/_abort_latch.ts";

Deno.test("defaultScenario is what the builder makes of 'any prompt: the default reply'", () => {
  const built = new ScenarioBuilder({ name: "default" }).on(any()).repeat().respond(DEFAULT_REPLY)
    .build();
  const literal = defaultScenario();
  assert.equal(JSON.stringify(literal), JSON.stringify(built));
  assert.equal(literal.exchanges[0].trigger.test("anything at all", { type: "user" }), true);
});

Deno.test("runCli (Web Streams) and runCliProcess (functions) print the same, exit the same", async () => {
  const dir = await Deno.makeTempDir();
  const decoder = new TextDecoder();
  try {
    const lines = [
      ["-p", "hi", "--output-format", "json"],
      ["-p", "--output-format", "stream-json", "--verbose", "--include-partial-messages"],
      ["-p", "hi", "--output-format", "stream-json"],
      ["--version"],
    ];
    for (const [i, argv] of lines.entries()) {
      const base = {
        argv,
        cwd: dir,
        stdinIsTerminal: false,
        stdinMayStall: false,
        stdoutIsTerminal: false,
      };
      const env = (side: string) => ({
        CLAUDE_CONFIG_DIR: `${dir}/${side}${i}/config`,
        CLAUDE_MOCK_STATE_DIR: `${dir}/${side}${i}/state`,
      });
      const streams = { out: "", err: "" };
      const sink = (key: "out" | "err") =>
        new WritableStream<Uint8Array>({ write: (c) => void (streams[key] += decoder.decode(c)) });
      const streamCode = await runCli({
        ...base,
        env: env("a"),
        stdin: new Blob(["piped prompt\n"]).stream(),
        stdout: sink("out"),
        stderr: sink("err"),
      });
      const plain = { out: "", err: "" };
      const chunks = [new TextEncoder().encode("piped prompt\n")];
      const plainCode = await runCliProcess({
        ...base,
        env: env("b"),
        stdio: {
          read: () => Promise.resolve(chunks.shift() ?? null),
          cancelRead: () => {},
          write: (c) => Promise.resolve(void (plain.out += decoder.decode(c))),
          writeErr: (c) => Promise.resolve(void (plain.err += decoder.decode(c))),
        },
      });
      assert.deepEqual([plainCode, plain], [streamCode, streams], argv.join(" "));
      assert.ok(streams.out !== "" || streams.err !== "", argv.join(" "));
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runCliProcess: CLAUDE_MOCK_CRASH_AFTER=n has written exactly n lines when the run ends, even through a slow pipe", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const n of [1, 2, 3]) {
      let done = "";
      let handed = 0;
      const code = await runCliProcess({
        argv: ["-p", "hi", "--output-format", "stream-json", "--verbose"],
        env: {
          CLAUDE_MOCK_CRASH_AFTER: String(n),
          CLAUDE_CONFIG_DIR: `${dir}/c${n}`,
          CLAUDE_MOCK_STATE_DIR: `${dir}/s${n}`,
        },
        cwd: dir,
        stdinIsTerminal: true,
        stdoutIsTerminal: false,
        stdio: {
          read: () => Promise.resolve(null),
          cancelRead: () => {},
          // a loaded machine's pipe: each write completes on a later turn of the event loop
          write: (chunk) => {
            handed++;
            return new Promise<void>((resolve) =>
              setTimeout(() => resolve(void (done += new TextDecoder().decode(chunk))), 0)
            );
          },
          writeErr: () => Promise.resolve(),
        },
      });
      assert.equal(code, 1, `n = ${n}: exit code`);
      assert.equal(done.split("\n").filter((l) => l !== "").length, n, `n = ${n} (${handed})`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A duplex stdio: lines pushed to stdin when the test says, stdout collected, waits on it. */
function duplexStdio() {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const chunks: Array<Uint8Array | null> = [];
  let reading: ((chunk: Uint8Array | null) => void) | undefined;
  let out = "";
  const watchers: Array<() => void> = [];
  const give = (chunk: Uint8Array | null) => {
    if (reading) {
      const r = reading;
      reading = undefined;
      r(chunk);
    } else chunks.push(chunk);
  };
  return {
    stdio: {
      read: () =>
        chunks.length > 0
          ? Promise.resolve(chunks.shift()!)
          : new Promise<Uint8Array | null>((r) => (reading = r)),
      cancelRead: () => reading?.(null),
      write: (c: Uint8Array) => {
        out += decoder.decode(c);
        for (const w of watchers.splice(0)) w();
        return Promise.resolve();
      },
      writeErr: () => Promise.resolve(),
    },
    prompt: (text: string) =>
      give(encoder.encode(`${
        JSON.stringify({
          type: "user",
          message: { role: "user", content: text },
          parent_tool_use_id: null,
        })
      }\n`)),
    end: () => give(null),
    get results(): number {
      return out.split("\n").filter((l) => l.includes('"type":"result"')).length;
    },
    /** Resolves once stdout holds `n` results (on each write, not after a time). */
    async waitForResults(n: number): Promise<void> {
      while (this.results < n) await new Promise<void>((r) => watchers.push(r));
    },
  };
}

Deno.test("runCliProcess: SIGTERM ends a duplex run with 143; CLAUDE_MOCK_IGNORE_SIGTERM=1 ignores it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const ignore of [false, true]) {
      const io = duplexStdio();
      const terminated = new AbortLatch();
      const exit = runCliProcess({
        argv: [
          "-p",
          "--input-format",
          "stream-json",
          "--output-format",
          "stream-json",
          "--verbose",
        ],
        env: {
          CLAUDE_CONFIG_DIR: `${dir}/${ignore}/config`,
          CLAUDE_MOCK_STATE_DIR: `${dir}/${ignore}/state`,
          ...(ignore ? { CLAUDE_MOCK_IGNORE_SIGTERM: "1" } : {}),
        },
        cwd: dir,
        stdinIsTerminal: false,
        stdinMayStall: false,
        stdoutIsTerminal: false,
        stdio: io.stdio,
        terminated,
      });
      io.prompt("one");
      await io.waitForResults(1);
      terminated.abort(); // what the binary's SIGTERM listener does: at once, no time involved
      if (!ignore) {
        assert.equal(await exit, 143);
        assert.equal(io.results, 1);
        continue;
      }
      // ignored: the session goes on answering, and ends with its input
      io.prompt("two");
      await io.waitForResults(2);
      io.end();
      assert.equal(await exit, 0);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
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

Deno.test("runs with their own seeds in one config folder never share a session id (seed 2 first, then seed 1 as the second run)", async () => {
  const dir = await Deno.makeTempDir();
  const decoder = new TextDecoder();
  try {
    const ids: string[] = [];
    for (const seed of ["2", "1", "3"]) {
      let out = "";
      const code = await runCli({
        argv: ["-p", "hi", "--output-format", "json"],
        cwd: dir,
        env: { CLAUDE_CONFIG_DIR: `${dir}/config`, CLAUDE_MOCK_SEED: seed },
        stdin: new Blob([]).stream(),
        stdinIsTerminal: false,
        stdinMayStall: false,
        stdoutIsTerminal: false,
        stdout: new WritableStream({ write: (c) => void (out += decoder.decode(c)) }),
        stderr: new WritableStream(),
      });
      assert.equal(code, 0);
      ids.push(JSON.parse(out).session_id);
    }
    assert.equal(new Set(ids).size, 3, ids.join(" "));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
