// The publint-style rules: each one fails on a package that breaks it, and a good package passes.
import assert from "node:assert/strict";
import { denoUses, importSpecifiers, lintPackage } from "./npm_package_lint.ts";

const good: Record<string, string> = {
  "package.json": JSON.stringify({
    name: "p",
    type: "module",
    license: "MIT",
    engines: { node: ">=20" },
    main: "./mod.js",
    types: "./mod.d.ts",
    exports: {
      ".": { types: "./mod.d.ts", require: "./mod.cjs", default: "./mod.js" },
      "./s.json": "./src/s.json",
    },
    bin: { p: "src/bin.js" },
    files: ["mod.js", "mod.d.ts", "mod.cjs", "src/"],
    peerDependencies: { "@a/sdk": "^1.0.0" },
  }),
  "mod.js": 'export * from "./src/a.js";\nconst g = globalThis.Deno;\n',
  "mod.d.ts": 'export * from "./src/a.js";\nexport type T = import("@a/sdk").X;\n',
  "mod.cjs": '"use strict";\nmodule.exports = require("./mod.js");\n',
  "src/a.js":
    'import { spawn } from "node:child_process";\nexport const a = () => import("./b.js");\n',
  "src/a.d.ts": "export declare const a: () => Promise<unknown>;\n",
  "src/b.js": "export const b = 1;\n",
  "src/b.d.ts": "export declare const b = 1;\n",
  "src/bin.js": '#!/usr/bin/env node\nimport "./a.js";\n',
  "src/s.json": "{}",
};

function lint(files: Record<string, string | undefined>) {
  const all = Object.fromEntries(
    Object.entries({ ...good, ...files }).filter(([, v]) => v !== undefined),
  ) as Record<string, string>;
  return lintPackage(Object.keys(all).sort(), (f) => Promise.resolve(all[f]));
}

function withPkg(change: (pkg: Record<string, unknown>) => void): string {
  const pkg = JSON.parse(good["package.json"]);
  change(pkg);
  return JSON.stringify(pkg);
}

Deno.test("lintPackage: a good package passes", async () => {
  assert.deepEqual(await lint({}), []);
});

Deno.test("lintPackage: each rule names the file and what is wrong", async () => {
  const cases: [Record<string, string | undefined>, string, RegExp][] = [
    [{ "src/b.js": undefined }, "src/a.js", /imports "\.\/b\.js": src\/b\.js is not shipped/],
    [{ "src/a.d.ts": undefined }, "mod.d.ts", /src\/a\.d\.ts is not shipped/],
    [{ "src/a.js": 'import "./b.ts";' }, "src/a.js", /a \.ts specifier/],
    [{ "src/a.js": 'import "./b";' }, "src/a.js", /without a \.js extension/],
    [{ "src/a.js": 'import x from "left-pad";' }, "src/a.js", /neither a node: built-in/],
    [{ "src/a.js": 'import x from "@a/sdk";' }, "src/a.js", /a peer: only types may use it/],
    [{ "src/b.js": "Deno.exit(1);" }, "src/b.js", /uses Deno's API .*line 1/],
    [
      { "src/bin.js": 'import "./a.js";' },
      "src/bin.js",
      /does not start with "#!\/usr\/bin\/env node"/,
    ],
    [
      { "mod.cjs": 'require("./nope.js");' },
      "mod.cjs",
      /requires "\.\/nope\.js": nope\.js is not shipped/,
    ],
    [
      { "package.json": withPkg((p) => (p.bin = { p: "./src/bin.js" })) },
      "package.json",
      /bin\["p"\]: "\.\/src\/bin\.js" must not start with \.\/ \(npm drops it\)/,
    ],
    [{ "src/x_test.js": "" }, "src/x_test.js", /test file shipped/],
    [{ "src/testdata/x.jsonl": "" }, "src/testdata/x.jsonl", /test file shipped/],
    [{ "src/x.ts": "" }, "src/x.ts", /TypeScript source shipped/],
    [
      { "mod.d.ts": undefined },
      "package.json",
      /exports\["\."\]\.types: "\.\/mod\.d\.ts" is not in/,
    ],
    [
      {
        "package.json": withPkg((
          p,
        ) => (p.exports = { ".": { default: "./mod.js", types: "./mod.d.ts" } })),
      },
      "package.json",
      /"types" must be the first condition/,
    ],
    [
      { "package.json": withPkg((p) => (p.exports = { ".": "./mod.js" })) },
      "package.json",
      /exports\["\."\] has no "types" condition/,
    ],
    [
      { "package.json": withPkg((p) => (p.files = ["mod.js", "lib/"])) },
      "package.json",
      /files: "lib\/" matches nothing/,
    ],
    [{ "package.json": withPkg((p) => delete p.engines) }, "package.json", /"engines.node"/],
    [{ "package.json": withPkg((p) => (p.type = "commonjs")) }, "package.json", /"type"/],
    [
      { "package.json": withPkg((p) => (p.main = "mod.js")) },
      "package.json",
      /must start with \.\//,
    ],
  ];
  for (const [files, file, message] of cases) {
    const problems = await lint(files);
    assert.ok(
      problems.some((p) => p.file === file && message.test(p.message)),
      `${JSON.stringify(files).slice(0, 80)}: expected ${file} ${message}, got ${
        JSON.stringify(problems)
      }`,
    );
  }
});

Deno.test("importSpecifiers: imports, re-exports, dynamic imports; not strings, comments, regexes", () => {
  const text = [
    "#!/usr/bin/env node",
    'import a from "./a.js";',
    "import { b,",
    '  c } from "./b.js";',
    'export * from "./c.js";',
    'export { d } from "./d.js";',
    'import "./e.js";',
    'const f = await import("./f.js");',
    'type G = import("./g.js").G;',
    '// import x from "./comment.js";',
    '/* export * from "./block.js"; */',
    'const s = "import y from \\"./string.js\\"";',
    'const t = `from "./template.js" ${"x"}`;',
    'const r = /from "\\.\\/regex.js"/.test(s) ? 1 : 2;',
    'const glob = "**/*"; const after = await import("./after-glob.js");',
    "const o = { from: 1 }; const n = o.from;",
  ].join("\n");
  assert.deepEqual(importSpecifiers(text), [
    "./a.js",
    "./b.js",
    "./c.js",
    "./d.js",
    "./e.js",
    "./f.js",
    "./g.js",
    "./after-glob.js",
  ]);
});

Deno.test("denoUses: the Deno global, not globalThis.Deno, comments or strings", () => {
  const text = [
    "const deno = globalThis.Deno;",
    "// Deno.exit(1)",
    '/** Deno.args */ const s = "Deno.env";',
    "if (deno) deno.exit(0);",
    "const a = Deno.args;",
    "const t = typeof Deno;",
  ].join("\n");
  assert.deepEqual(denoUses(text), ["line 5", "line 6"]);
});
