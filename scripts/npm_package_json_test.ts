// The npm package.json from deno.json: entry points with types first, bin, engines, peer range.
import assert from "node:assert/strict";
import {
  cjsEntry,
  compiled,
  inPeerRange,
  packageJsonFor,
  pinnedSdkVersion,
  type RepoConfig,
  sdkPeerRange,
} from "./npm_package_json.ts";

const config: RepoConfig = {
  name: "@x/claude-mock",
  version: "0.1.0",
  license: "MIT",
  exports: { ".": "./mod.ts", "./cli": "./cli.ts", "./testing": "./src/testing/mod.ts" },
  imports: { "@anthropic-ai/claude-agent-sdk": "npm:@anthropic-ai/claude-agent-sdk@0.3.328" },
};

Deno.test("packageJsonFor: every deno.json export, types first, plus schemas and package.json", () => {
  const pkg = packageJsonFor(config, {
    bin: "dist/bin.js",
    files: ["mod.js", "src/scenario/scenario.schema.json", "dist/bin.js"],
  });
  assert.deepEqual(pkg.exports, {
    ".": { types: "./mod.d.ts", require: "./mod.cjs", default: "./mod.js" },
    "./cli": { types: "./cli.d.ts", require: "./cli.cjs", default: "./cli.js" },
    "./testing": {
      types: "./src/testing/mod.d.ts",
      require: "./src/testing/mod.cjs",
      default: "./src/testing/mod.js",
    },
    "./scenario.schema.json": "./src/scenario/scenario.schema.json",
    "./package.json": "./package.json",
  });
  for (const value of Object.values(pkg.exports as Record<string, unknown>)) {
    if (typeof value === "object") assert.equal(Object.keys(value!)[0], "types");
  }
  assert.equal(pkg.type, "module");
  assert.equal(pkg.main, "./mod.js");
  assert.equal(pkg.types, "./mod.d.ts");
  assert.deepEqual(pkg.bin, { "claude-mock": "dist/bin.js" });
  assert.deepEqual(pkg.engines, { node: ">=20" });
  assert.deepEqual(pkg.files, [
    "mod.js",
    "mod.d.ts",
    "mod.cjs",
    "cli.js",
    "cli.d.ts",
    "cli.cjs",
    "src/",
    "dist/",
  ]);
  assert.deepEqual(pkg.peerDependencies, { "@anthropic-ai/claude-agent-sdk": "^0.3.328" });
  assert.deepEqual(pkg.peerDependenciesMeta, {
    "@anthropic-ai/claude-agent-sdk": { optional: true },
  });
  assert.equal(pkg.license, "MIT");
  assert.equal(pkg.homepage, "https://jsr.io/@x/claude-mock");
  assert.deepEqual(pkg.repository, {
    type: "git",
    url: "git+https://github.com/x/claude-mock.git",
  });
  assert.deepEqual(pkg.bugs, { url: "https://github.com/x/claude-mock/issues" });
  assert.ok((pkg.keywords as string[]).includes("claude-agent-sdk"));
});

Deno.test("packageJsonFor: jest's setup file has no require condition (jest resolves setup files with it)", () => {
  const pkg = packageJsonFor({ ...config, exports: { ".": "./mod.ts", "./jest": "./jest.ts" } }, {
    bin: "dist/bin.js",
    files: [],
  });
  assert.deepEqual((pkg.exports as Record<string, unknown>)["./jest"], {
    types: "./jest.d.ts",
    default: "./jest.js",
  });
  assert.ok(!(pkg.files as string[]).includes("jest.cjs"));
});

Deno.test("cjsEntry: requires the ES module, or names the fix; a setup file says how it is used", () => {
  const shim = cjsEntry("@x/claude-mock", "./cli", "./cli.ts");
  assert.match(shim, /module\.exports = require\("\.\/cli\.js"\);/);
  assert.match(shim, /error\.code === "ERR_REQUIRE_ESM"/);
  assert.match(shim, /@x\/claude-mock\/cli is an ES module, and this Node \(/);
  assert.match(
    shim,
    /await import\(\\"@x\/claude-mock\/cli\\"\) in CommonJS, or Node 20\.19\+ or 22\.12\+/,
  );
  const nested = cjsEntry("@x/claude-mock", "./testing", "./src/testing/mod.ts");
  assert.match(nested, /require\("\.\/mod\.js"\)/);
  assert.match(cjsEntry("@x/claude-mock", ".", "./mod.ts"), /"@x\/claude-mock is an ES module/);
  const setup = cjsEntry("@x/claude-mock", "./vitest", "./vitest.ts");
  assert.match(setup, /^"use strict";\n\/\/ require\("@x\/claude-mock\/vitest"\)/);
  assert.match(
    setup,
    /throw new Error\("@x\/claude-mock\/vitest is a vitest setup file: list it in test\.setupFiles/,
  );
  // the shims run: a CommonJS module's body, with a require that fails as old Node's does
  const run = (text: string, require: (s: string) => unknown) => {
    const module = { exports: {} as unknown };
    new Function("module", "require", "process", text)(module, require, { version: "v20.10.0" });
    return module.exports;
  };
  assert.deepEqual(run(shim, () => ({ runCli: 1 })), { runCli: 1 });
  assert.throws(
    () =>
      run(shim, () => {
        throw Object.assign(new Error("require() of ES Module"), { code: "ERR_REQUIRE_ESM" });
      }),
    /this Node \(v20\.10\.0\) cannot require\(\) ES modules/,
  );
  assert.throws(() => run(setup, () => ({})), /vitest setup file/);
});

Deno.test("packageJsonFor: a string export is '.', a non-.ts export is refused", () => {
  const pkg = packageJsonFor({ ...config, exports: "./mod.ts" }, { bin: "b.js", files: [] });
  assert.deepEqual(Object.keys(pkg.exports as object), [".", "./package.json"]);
  assert.throws(
    () => packageJsonFor({ ...config, exports: { "./x": "./x.js" } }, { bin: "b.js", files: [] }),
    { name: "TypeError", message: /export "\.\/x" is not a \.ts file \(\.\/x\.js\)/ },
  );
});

Deno.test("pinnedSdkVersion: read from the import map; anything but an exact npm pin refused", () => {
  assert.equal(pinnedSdkVersion(config), "0.3.328");
  for (const spec of [undefined, "npm:@anthropic-ai/claude-agent-sdk@^0.3.0", "jsr:@a/b@1.0.0"]) {
    const imports: Record<string, string> = spec === undefined
      ? {}
      : { "@anthropic-ai/claude-agent-sdk": spec };
    assert.throws(() => pinnedSdkVersion({ ...config, imports }), {
      name: "TypeError",
      message: /Cannot read the pinned Agent SDK: deno.json's imports must map/,
    });
  }
});

Deno.test("sdkPeerRange and inPeerRange: from the pin up to the next minor (0.x caret)", () => {
  assert.equal(sdkPeerRange("0.3.328"), "^0.3.328");
  assert.equal(inPeerRange("0.3.328", "0.3.328"), true);
  assert.equal(inPeerRange("0.3.330", "0.3.328"), true);
  assert.equal(inPeerRange("0.3.327", "0.3.328"), false);
  assert.equal(inPeerRange("0.4.0", "0.3.328"), false);
  assert.equal(inPeerRange("1.3.330", "0.3.328"), false);
  assert.equal(inPeerRange("0.3.331-beta.1", "0.3.328"), false);
  assert.equal(inPeerRange("1.9.0", "1.2.3"), true);
  assert.equal(inPeerRange("2.0.0", "1.2.3"), false);
  assert.equal(inPeerRange("0.0.4", "0.0.3"), false);
});

Deno.test("compiled: a source path to its package file", () => {
  assert.equal(compiled("./mod.ts", ".js"), "./mod.js");
  assert.equal(compiled("src/cli/bin.ts", ".d.ts"), "./src/cli/bin.d.ts");
});
