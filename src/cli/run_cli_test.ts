import assert from "node:assert/strict";
import { any } from "../scenario/matcher.ts";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import { DEFAULT_REPLY, defaultScenario, runCli, runCliProcess } from "./run_cli.ts";

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
