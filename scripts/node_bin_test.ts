// The Node bin's bundle wrapping and loader (scripts/node_bin.ts): the loader runs a bundle
// under Node with its code cache in the user's cache folder, makes the cache once, replaces one
// V8 rejects, and runs without one where it cannot keep it.
import assert from "node:assert/strict";
import { hashOf, loaderSource, wrapBundle } from "./node_bin.ts";

Deno.test("wrapBundle: a function of the loader's require and import; only real import( calls", () => {
  const wrapped = wrapBundle('a=import("node:fs");b.import("x");c=myimport(1);import(d)');
  assert.equal(
    wrapped,
    '(function (require, module, exports, __import) {\na=__import("node:fs");b.import("x");c=myimport(1);__import(d)\n})',
  );
  assert.equal(hashOf("abc"), hashOf("abc"));
  assert.notEqual(hashOf("abc"), hashOf("abd"));
  assert.match(hashOf(""), /^[0-9a-f]{8}$/);
  assert.match(loaderSource("0badc0de"), /^#!\/usr\/bin\/env node\n"use strict";/);
  assert.match(loaderSource("0badc0de"), /"\/bin-0badc0de-" \+ process\.version/);
});

async function node(args: string[], env: Record<string, string>) {
  const out = await new Deno.Command("node", {
    args,
    env: { PATH: Deno.env.get("PATH") ?? "", ...env },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

Deno.test("the loader: runs the bundle, keeps its code cache, replaces a rejected one", async () => {
  const dir = await Deno.makeTempDir({ prefix: "claude-mock-node-bin-" });
  try {
    // a bundle that uses require and import() of a built-in, and the process's arguments
    const bundle = wrapBundle(
      'const { EOL } = require("node:os"); import("node:path").then((p) => process.stdout.write(p.default.basename(process.argv[2]) + " " + typeof p.join + EOL));',
    );
    await Deno.mkdir(`${dir}/dist`);
    await Deno.writeTextFile(`${dir}/dist/main.cjs`, bundle);
    await Deno.writeTextFile(`${dir}/dist/claude-mock.cjs`, loaderSource(hashOf(bundle)));
    const home = `${dir}/home`;
    const run = () => node([`${dir}/dist/claude-mock.cjs`, "/x/y/hello.txt"], { HOME: home });
    assert.deepEqual(await run(), { code: 0, stdout: "hello.txt function\n", stderr: "" });
    const cacheDir = `${home}/.cache/claude-mock`;
    const [name] = [...Deno.readDirSync(cacheDir)].map((e) => e.name);
    assert.match(name, new RegExp(`^bin-${hashOf(bundle)}-v\\d+\\.\\d+\\.\\d+-\\w+\\.cache$`));
    assert.equal(Deno.statSync(cacheDir).mode! & 0o777, 0o700);
    assert.equal(Deno.statSync(`${cacheDir}/${name}`).mode! & 0o777, 0o600);
    const made = Deno.readFileSync(`${cacheDir}/${name}`);
    assert.ok(made.length > 0);
    // a second run uses it and leaves it as it is
    assert.equal((await run()).stdout, "hello.txt function\n");
    assert.deepEqual(Deno.readFileSync(`${cacheDir}/${name}`), made);
    // a cache V8 rejects is made anew
    Deno.writeFileSync(`${cacheDir}/${name}`, new TextEncoder().encode("not a code cache"));
    assert.equal((await run()).stdout, "hello.txt function\n");
    const remade = Deno.readFileSync(`${cacheDir}/${name}`);
    assert.notEqual(new TextDecoder().decode(remade), "not a code cache");
    assert.ok(remade.length > 100);
    // XDG_CACHE_HOME places it; with no home at all the bundle runs without one
    const xdg = await node([`${dir}/dist/claude-mock.cjs`, "/a.txt"], {
      XDG_CACHE_HOME: `${dir}/xdg`,
    });
    assert.equal(xdg.stdout, "a.txt function\n");
    assert.equal([...Deno.readDirSync(`${dir}/xdg/claude-mock`)].length, 1);
    assert.equal(
      (await node([`${dir}/dist/claude-mock.cjs`, "/b.txt"], {})).stdout,
      "b.txt function\n",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the loader: a built-in's names read through on use; the bundles beside it through require", async () => {
  const dir = await Deno.makeTempDir({ prefix: "claude-mock-node-bin-" });
  try {
    // copying process's properties would run its getters (process.stdin makes a stream): a
    // getter on it counts its runs
    const bundle = wrapBundle(
      'let runs = 0; Object.defineProperty(process, "probe", { get() { runs++; return 7; }, enumerable: true, configurable: true }); ' +
        'import("node:process").then(async (p) => { const before = runs; const value = p.probe; const extra = await import("./extra.cjs"); ' +
        'process.stdout.write(JSON.stringify([before, value, runs, p.default === process, "default" in p, extra.answer]) + "\\n"); });',
    );
    await Deno.mkdir(`${dir}/dist`);
    await Deno.writeTextFile(`${dir}/dist/main.cjs`, bundle);
    await Deno.writeTextFile(`${dir}/dist/claude-mock.cjs`, loaderSource(hashOf(bundle)));
    // a bundle the bin loads on demand: CommonJS whose names Node's import() would not see
    await Deno.writeTextFile(
      `${dir}/dist/extra.cjs`,
      'Object.defineProperty(exports, "answer", { get: () => 42, enumerable: true });',
    );
    const out = await node([`${dir}/dist/claude-mock.cjs`], { HOME: `${dir}/home` });
    assert.equal(out.stderr, "");
    assert.deepEqual(JSON.parse(out.stdout), [0, 7, 1, true, true, 42]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
