import assert from "node:assert/strict";
import { buildBin, deferChunks } from "./build_bin.ts";

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
    // the script with a shebang runs as it is: built with its run bit, and committed with it
    for (const bin of [`${dir}/bin.js`, `${DIST}bin.js`]) {
      const mode = (await Deno.stat(bin)).mode ?? 0;
      assert.equal(mode & 0o111, 0o111, `${bin} is not executable (mode ${mode.toString(8)})`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const ROOT = new URL("..", import.meta.url).pathname;

// the bundle runs with its shebang's V8 flags (a run with others would remake its code cache)
async function run(entry: string, args: string[], dir: string) {
  const shebang = entry.endsWith(".js") ? (await Deno.readTextFile(entry)).split("\n", 1)[0] : "";
  const v8 = shebang.split(" ").filter((a) => a.startsWith("--v8-flags="));
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-config", ...v8, entry, ...args],
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
    ["view"],
    ["record"],
  ];
  for (const args of cases) {
    await t.step(args.join(" "), async () => {
      const dir = await Deno.makeTempDir({ prefix: "claude-mock-bin-" });
      try {
        const bundled = await run(`${DIST}bin.js`, args, `${dir}/a`);
        const source = await run(`${ROOT}cli.ts`, args, `${dir}/b`);
        assert.deepEqual(bundled, source, "dist/bin.js and cli.ts differ");
        assert.notEqual(bundled.stdout + bundled.stderr, "", "no output at all");
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });
  }
});

Deno.test("dist/bin.js runs as the fake claude", async () => {
  const dir = await Deno.makeTempDir({ prefix: "claude-mock-bin-" });
  try {
    const out = await run(`${DIST}bin.js`, ["-p", "hello", "--output-format", "json"], dir);
    assert.equal(out.code, 0, out.stderr);
    const result = JSON.parse(out.stdout);
    assert.equal(result.type, "result");
    assert.equal(result.result, "Hello! How can I help?");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deferChunks: the chunks of --help and the subcommands are not named literally", async () => {
  assert.equal(
    deferChunks(`a=()=>import("./view_command-X1.js");b=import("node:fs");c='import("./x.js")'`),
    `a=()=>import(String("./view_command-X1.js"));b=import("node:fs");c='import(String("./x.js"))'`,
  );
  // in dist/: every chunk loaded on demand is named through String(), and only so
  const all = [...(await files(DIST)).values()].join("\n");
  assert.deepEqual(all.match(/\bimport\("\.\//g), null);
  const deferred = [...all.matchAll(/import\(String\("\.\/([\w.-]+)"\)\)/g)].map((m) => m[1]);
  const onDemand = [...(await files(DIST)).keys()].filter((n) => !/^(bin|chunk-)/.test(n));
  assert.deepEqual(deferred.toSorted(), onDemand.toSorted());
});
