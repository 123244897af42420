// Every entry point under require(), as a CommonJS project loads it: the same exports (and the
// same instances) as import; a runner's setup file says how it is used. scripts/npm_check.ts
// runs this file under Node 20 and under Node 22.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";
import { required } from "./_helpers.mjs";

const require = createRequire(import.meta.url);
const pkg = require("@x/claude-mock/package.json");
const entries = Object.entries(pkg.exports).filter(([, v]) => typeof v === "object");
const setupFiles = { "./vitest": /is a vitest setup file/ };
// jest resolves setupFilesAfterEnv with the require condition: its entry has none, and require()
// gets Node's own error for an ES module with a top-level await
const withoutRequire = ["./jest"];

test("the Node major the harness asked for", () => {
  const major = process.env.EXPECTED_CJS_NODE_MAJOR ?? required("EXPECTED_NODE_MAJOR");
  assert.match(process.version, new RegExp(`^v${major}\\.`));
});

test("every entry point but jest's setup file has a require condition", () => {
  assert.ok(entries.length >= 8, `entries: ${entries.map(([k]) => k)}`);
  for (const [subpath, conditions] of entries) {
    const expected = withoutRequire.includes(subpath) ? "undefined" : "string";
    assert.equal(typeof conditions.require, expected, `${subpath}: require condition`);
  }
});

for (const [subpath] of entries) {
  const specifier = subpath === "." ? "@x/claude-mock" : `@x/claude-mock${subpath.slice(1)}`;
  test(`require("${specifier}")`, async () => {
    if (withoutRequire.includes(subpath)) {
      assert.throws(() => require(specifier), { code: "ERR_REQUIRE_ASYNC_MODULE" });
      return;
    }
    if (setupFiles[subpath]) {
      assert.throws(() => require(specifier), (error) => {
        assert.match(error.message, setupFiles[subpath]);
        assert.match(error.message, /top-level await, which require\(\) cannot load/);
        return true;
      });
      return;
    }
    const required = require(specifier);
    const imported = await import(specifier);
    assert.deepEqual(Object.keys(required).sort(), Object.keys(imported).sort());
    for (const name of Object.keys(imported)) {
      assert.equal(required[name], imported[name], `${specifier}: ${name} is another instance`);
    }
  });
}
