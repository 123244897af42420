import assert from "node:assert/strict";
import { serveCommand } from "./serve_command.ts";
import type { CliIO } from "./cli_io.ts";

function io(signal?: AbortSignal, onOut?: (text: string) => void) {
  const out: string[] = [];
  const err: string[] = [];
  const decoder = new TextDecoder();
  const value: CliIO = {
    argv: [],
    env: {},
    cwd: Deno.cwd(),
    stdin: new Blob([]).stream(),
    stdinIsTerminal: false,
    stdoutIsTerminal: false,
    stdout: new WritableStream({
      write: (c) => {
        const text = decoder.decode(c);
        out.push(text);
        onOut?.(text);
      },
    }),
    stderr: new WritableStream({ write: (c) => void err.push(decoder.decode(c)) }),
    ...(signal ? { signal } : {}),
  };
  return { value, out, err };
}

Deno.test("serveCommand prints the base URL, serves the scenario, journals each request and stops on the signal", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/chat.json`,
      JSON.stringify({ name: "chat", exchanges: [{ on: "hello", steps: [{ say: "Hi there." }] }] }),
    );
    const stop = new AbortController();
    const url = Promise.withResolvers<string>();
    const { value, err } = io(stop.signal, (text) => url.resolve(text.trim()));
    const running = serveCommand(["chat.json", "--journal", "journal.jsonl"], {
      ...value,
      cwd: dir,
    });
    const base = await url.promise;
    assert.match(base, /^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${base}/v1/messages?beta=true`, {
      method: "POST",
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hello" }] }),
    });
    assert.equal((await response.json()).content[0].text, "Hi there.");
    stop.abort();
    assert.equal(await running, 0);
    assert.equal(
      err.join(""),
      'POST /v1/messages?beta=true 200 reply text (exchange 1 (contains "hello"), turn 1, call 1)\n',
    );
    const journal = (await Deno.readTextFile(`${dir}/journal.jsonl`)).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    assert.equal(journal.length, 1);
    assert.equal(journal[0].answer.kind, "reply");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("serveCommand: usage errors exit 2, a scenario it cannot load or serve exits 1", async () => {
  for (
    const [argv, code, message] of [
      [[], 2, "a scenario is required"],
      [["a.json", "b.json"], 2, "one scenario only"],
      [["a.json", "--port", "x"], 2, "--port must be a whole number from 0 to 65535"],
      [["a.json", "--nope"], 2, "unknown flag --nope"],
      [["/nonexistent/a.json"], 1, "Cannot load scenario"],
      [["builtin:nope"], 1, "unknown builtin scenario .nope."],
    ] as const
  ) {
    const { value, err } = io();
    assert.equal(await serveCommand(argv, value), code, argv.join(" "));
    assert.match(err.join(""), new RegExp(message), argv.join(" "));
  }
});

Deno.test("serveCommand: a port in use exits 1 naming the address", async () => {
  const blocker = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const port = (blocker.addr as Deno.NetAddr).port;
    const { value, err } = io();
    assert.equal(
      await serveCommand(["builtin:simple_conversation", "--port", String(port)], value),
      1,
    );
    assert.equal(
      err.join(""),
      `claude-mock serve: Cannot serve the Messages API: 127.0.0.1:${port} is in use (EADDRINUSE); pass port 0 for a free one\n`,
    );
  } finally {
    blocker.close();
  }
});
