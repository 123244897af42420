import assert from "node:assert/strict";
import { buildBin, deferChunks } from "./build_bin.ts";
import { runBin } from "./_run_bin.ts";

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

Deno.test("dist/bin.js runs as the fake claude", async () => {
  const dir = await Deno.makeTempDir({ prefix: "claude-mock-bin-" });
  try {
    const out = await runBin(`${DIST}bin.js`, ["-p", "hello", "--output-format", "json"], dir);
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
