// The npm package.json from deno.json: entry points with types first, bin, engines, peer range.
import assert from "node:assert/strict";
import {
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
    bin: "src/cli/bin.js",
    files: ["mod.js", "src/scenario/scenario.schema.json", "src/cli/bin.js"],
  });
  assert.deepEqual(pkg.exports, {
    ".": { types: "./mod.d.ts", default: "./mod.js" },
    "./cli": { types: "./cli.d.ts", default: "./cli.js" },
    "./testing": { types: "./src/testing/mod.d.ts", default: "./src/testing/mod.js" },
    "./scenario.schema.json": "./src/scenario/scenario.schema.json",
    "./package.json": "./package.json",
  });
  for (const value of Object.values(pkg.exports as Record<string, unknown>)) {
    if (typeof value === "object") assert.equal(Object.keys(value!)[0], "types");
  }
  assert.equal(pkg.type, "module");
  assert.equal(pkg.main, "./mod.js");
  assert.equal(pkg.types, "./mod.d.ts");
  assert.deepEqual(pkg.bin, { "claude-mock": "./src/cli/bin.js" });
  assert.deepEqual(pkg.engines, { node: ">=20" });
  assert.deepEqual(pkg.files, ["mod.js", "mod.d.ts", "cli.js", "cli.d.ts", "src/"]);
  assert.deepEqual(pkg.peerDependencies, { "@anthropic-ai/claude-agent-sdk": "^0.3.328" });
  assert.deepEqual(pkg.peerDependenciesMeta, {
    "@anthropic-ai/claude-agent-sdk": { optional: true },
  });
  assert.equal(pkg.license, "MIT");
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
