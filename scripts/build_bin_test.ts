import { buildBin } from "./build_bin.ts";

const DIST = new URL("../dist/", import.meta.url).pathname;

async function files(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile) out.set(entry.name, await Deno.readTextFile(`${dir}/${entry.name}`));
  }
  return out;
}

Deno.test("dist/ is the bundle of the current sources (else: deno task build:bin)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "claude-mock-bin-" });
  try {
    await buildBin(dir);
    const [built, committed] = await Promise.all([files(dir), files(DIST)]);
    const names = (m: Map<string, string>) => [...m.keys()].sort().join(", ");
    if (names(built) !== names(committed)) {
      throw new Error(
        `dist/ is stale: it has ${names(committed)}, the sources bundle to ${
          names(built)
        }; run: deno task build:bin`,
      );
    }
    for (const [name, text] of built) {
      if (committed.get(name) !== text) {
        throw new Error(`dist/${name} is stale; run: deno task build:bin`);
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const ROOT = new URL("..", import.meta.url).pathname;

async function run(entry: string, args: string[], dir: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-config", entry, ...args],
    env: { CLAUDE_CONFIG_DIR: `${dir}/config`, CLAUDE_MOCK_STATE_DIR: `${dir}/state` },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

Deno.test("dist/bin.js and cli.ts are the same program", async (t) => {
  const cases = [
    ["-p", "hello", "--output-format", "json"],
    ["-p", "hello", "--output-format", "stream-json", "--verbose", "--include-partial-messages"],
    ["-p", "hi", "--failure", "rate_limit", "--output-format", "stream-json", "--verbose"],
    ["-p", "hi", "--output-format", "yaml"],
    ["--version"],
    ["--help"],
    ["drift"],
  ];
  for (const args of cases) {
    await t.step(args.join(" "), async () => {
      const dir = await Deno.makeTempDir({ prefix: "claude-mock-bin-" });
      try {
        const bundled = await run(`${DIST}bin.js`, args, `${dir}/a`);
        const source = await run(`${ROOT}cli.ts`, args, `${dir}/b`);
        if (JSON.stringify(bundled) !== JSON.stringify(source)) {
          throw new Error(
            `dist/bin.js and cli.ts differ:\n${JSON.stringify(bundled)}\n${JSON.stringify(source)}`,
          );
        }
        if (bundled.stdout === "" && bundled.stderr === "") throw new Error("no output at all");
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });
  }
});

Deno.test("dist/bin.js runs as the fake claude", async () => {
  const dir = await Deno.makeTempDir({ prefix: "claude-mock-bin-" });
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--no-config", `${DIST}bin.js`, "-p", "hello", "--output-format", "json"],
      env: { CLAUDE_CONFIG_DIR: `${dir}/config`, CLAUDE_MOCK_STATE_DIR: `${dir}/state` },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    if (out.code !== 0) {
      throw new Error(`exit ${out.code}: ${new TextDecoder().decode(out.stderr)}`);
    }
    const result = JSON.parse(text);
    if (result.type !== "result" || result.result !== "Hello! How can I help?") {
      throw new Error(`unexpected output: ${text}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
